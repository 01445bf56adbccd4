// Sending to a webhook's URL, which only the webhook sender does (src/sender.ts;
// docs/webhooks.md, "The sender"). One attempt: the target checked again (target.ts), the
// headers signed at that moment (signing.ts), then one POST that follows no redirect, gives
// up after 10 seconds, and reads at most 4 KiB of the answer. Success is a 2xx within that
// time; anything else is a failure with a reason a person can act on. A job is one
// webhook's events in commit order: each is attempted only once the one before succeeded.
import { signedHeaders } from "./signing";
import { type TargetPolicy, targetProblem } from "./target";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 4096;
/** How much of a failing answer the delivery record keeps. */
const ANSWER_EXCERPT_CHARS = 200;
export const USER_AGENT = "domain-api-webhooks/1.0 (+https://www.standardwebhooks.com/)";

/** One webhook's events to send, in commit order: what the API asks of the sender. */
export interface SendJob {
  url: string;
  policy: TargetPolicy;
  /** The secrets each request is signed with, newest first (signing.ts). */
  secrets: string[];
  /** The DNS-over-HTTPS resolver the URL's host name is checked with (target.ts). */
  resolver: string;
  events: { id: string; body: string }[];
  /** No attempt starts after this moment (ms since the epoch): the delivery pass's bound, well inside its lease. */
  startBy: number;
}

/** What the webhook sender does (src/sender.ts, which implements it). */
export interface WebhookSending {
  deliver(job: SendJob): Promise<AttemptResult[]>;
}

/**
 * The WEBHOOK_SENDER binding with its method: `wrangler types` reads wrangler.toml alone, so
 * it knows the binding but not the entrypoint of the other Worker it names.
 */
export function webhookSender(env: { WEBHOOK_SENDER: Service }): WebhookSending {
  return env.WEBHOOK_SENDER as unknown as WebhookSending;
}

/**
 * Events one job carries at most: as many as a pass may send one webhook (pass.ts,
 * MAX_DELIVERIES), so that a webhook's turn is one call to the sender and one record, not
 * a record between jobs (each a round trip to D1, and a call over the binding). A sender's
 * run makes a request and up to two lookups for each (600 subrequests, of the 1 000 a
 * paid Worker's run may make), and stops starting them at the job's `startBy` however
 * many are left.
 */
export const MAX_JOB_EVENTS = 200;

/**
 * Bytes of event bodies one job carries at most (the first event always goes, whatever
 * its size: an event is at most 1.9 MB, src/db/events.ts). A call over a service binding
 * refuses arguments over 32 MiB ("Serialized RPC arguments … are limited to 32MiB"), and
 * 200 events of a few hundred kB each pass that: such a job never reached the sender, and
 * the pass tried the same job again and again. A quarter of that, so that the jobs at the
 * sender at once (pass.ts, SENDS_AT_ONCE) stay far inside an isolate's 128 MB.
 */
export const MAX_JOB_BYTES = 8 * 1024 * 1024;

/** The events of `events` that one job carries: in order, up to MAX_JOB_EVENTS and MAX_JOB_BYTES, at least one. */
export function jobEvents<E extends { body: string }>(events: readonly E[]): E[] {
  const taken: E[] = [];
  let bytes = 0;
  for (const event of events.slice(0, MAX_JOB_EVENTS)) {
    // A string's length counts UTF-16 units; serialized for the call, each takes one or two bytes.
    bytes += event.body.length * 2;
    if (taken.length > 0 && bytes > MAX_JOB_BYTES) break;
    taken.push(event);
  }
  return taken;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** The result of a delivery whose webhook's signing secret could not be opened: nothing is sent. */
export const SEALED_SECRET_UNREADABLE: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: "Not sent: the signing secret cannot be opened (WEBHOOK_SECRET_KEY changed?); rotate the secret.",
};

/**
 * Hands a job to the sender and answers its results, never a throw. The call over the
 * service binding can fail where the sender's own code cannot (each of its attempts is a
 * result, whatever the receiver did): the sender's isolate cut off mid-job ("Network
 * connection lost."), out of memory or CPU, restarted by a deploy, not deployed at all.
 * Such a failure is a failed attempt at the job's first event, saying so: the delivery
 * pass records it and retries it on the schedule, as it does a receiver's failure, and a
 * ping records it and answers it (200), never a 5xx. Its events may have been sent before
 * the sender failed; they are sent again (receivers deduplicate on webhook-id). Each call
 * is a request of its own to the sender, so a failed one leaves nothing behind for the next.
 */
export async function sendThrough(sender: WebhookSending, job: SendJob): Promise<AttemptResult[]> {
  if (job.events.length === 0) return [];
  const started = Date.now();
  try {
    return await sender.deliver(job);
  } catch (error) {
    const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, ANSWER_EXCERPT_CHARS);
    return [{ ok: false, statusCode: null, durationMs: Date.now() - started, error: `Not sent, or not known to be: the webhook sender failed (${message}).` }];
  }
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

/**
 * Sends the job's events one after the other, each signed as it goes, until one fails
 * (its result is the last one) or `startBy` passes (the results end there, maybe empty).
 */
export async function sendInOrder(job: SendJob): Promise<AttemptResult[]> {
  const results: AttemptResult[] = [];
  for (const event of job.events.slice(0, MAX_JOB_EVENTS)) {
    if (Date.now() > job.startBy) break;
    const headers = await signedHeaders(job.secrets, event.id, event.body, new Date());
    const result = await post(job.resolver, job.url, job.policy, headers, event.body);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
}

async function post(resolver: string, url: string, policy: TargetPolicy, headers: Record<string, string>, body: string): Promise<AttemptResult> {
  const started = Date.now();
  // The check the URL passed when it was set, again now (target.ts): a name's addresses change.
  const refusal = await targetProblem(resolver, url, policy, "send");
  if (refusal) return { ok: false, statusCode: null, durationMs: Date.now() - started, error: `Not sent: ${refusal}.` };
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
