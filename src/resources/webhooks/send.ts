// One delivery attempt: the target checked again (target.ts), then one POST that follows no
// redirect, gives up after 10 seconds, and reads at most 4 KiB of the answer. Success is
// a 2xx within that time; anything else is a failure with a reason a person can act on.
import type { Env } from "../../env";
import { checkUrl, DEFAULT_DNS_RESOLVER, resolvedProblem, resolveName, type TargetPolicy } from "./target";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 4096;
/** How much of a failing answer the delivery record keeps. */
const ANSWER_EXCERPT_CHARS = 200;
export const USER_AGENT = "domain-api-webhooks/1.0 (+https://www.standardwebhooks.com/)";

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** Reads at most `limit` bytes of a body, then lets the rest go. */
async function readSome(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, limit - size));
      size += Math.min(value.byteLength, limit - size);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Whether the URL may be sent to now, resolving its name; the problem when not. */
export async function targetRefusal(env: Env, url: string, policy: TargetPolicy): Promise<string | null> {
  const check = checkUrl(url, policy);
  if (!check.ok) return `The URL ${check.problem}.`;
  if (check.resolve === null) return null;
  const resolution = await resolveName(env.WEBHOOK_DNS_RESOLVER || DEFAULT_DNS_RESOLVER, check.resolve);
  if (resolution.kind === "nxdomain") return `${check.resolve} does not exist in the DNS (NXDOMAIN).`;
  if (resolution.kind === "unavailable") return `${check.resolve} could not be resolved to check its addresses: ${resolution.reason}.`;
  if (resolution.addresses.length === 0) return `${check.resolve} has no A or AAAA record.`;
  const problem = resolvedProblem(check.resolve, resolution, policy);
  return problem ? `The URL's host ${problem}.` : null;
}

export async function post(env: Env, url: string, policy: TargetPolicy, headers: Record<string, string>, body: string): Promise<AttemptResult> {
  const started = Date.now();
  const refusal = await targetRefusal(env, url, policy);
  if (refusal) return { ok: false, statusCode: null, durationMs: Date.now() - started, error: `Not sent: ${refusal}` };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": USER_AGENT },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const answer = await readSome(response.body, MAX_ANSWER_BYTES);
    const durationMs = Date.now() - started;
    if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status, durationMs, error: null };
    const text = new TextDecoder().decode(answer).replace(/\s+/g, " ").trim().slice(0, ANSWER_EXCERPT_CHARS);
    const location = response.headers.get("location");
    const why =
      response.status >= 300 && response.status < 400
        ? `HTTP ${response.status}: a redirect${location ? ` to ${location.slice(0, ANSWER_EXCERPT_CHARS)}` : ""}, which is not followed`
        : `HTTP ${response.status}${text ? `: ${text}` : ""}`;
    return { ok: false, statusCode: response.status, durationMs, error: why };
  } catch (error) {
    const durationMs = Date.now() - started;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      return { ok: false, statusCode: null, durationMs, error: `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.` };
    }
    // The runtime's message names the connection's trouble, never a header or the body.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, statusCode: null, durationMs, error: `Could not connect: ${message.slice(0, ANSWER_EXCERPT_CHARS)}` };
  }
}
