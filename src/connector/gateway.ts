// The Worker's side of the registry gateway (docs/registries.md, "The gateway's HTTP
// interface"): commands POSTed to it under the bearer secret, its connector state read.
// Every request is bounded (GATEWAY_COMMAND_TIMEOUT_MS) so that the API answers within
// 10 s whatever the gateway or the registry does; a gateway that cannot be reached, that
// answers `unavailable`, or that is too slow is 503 `registry_unavailable` with
// Retry-After, never a hung request or a 500.
import type { EppCommand, EppResponse } from "../epp/types";
import { ApiError } from "../http/problem";
import type { ConnectorSettings } from "./config";

/** The longest a command may take through the gateway: the gateway's own budget is 8 s, the API answers within 10 s. */
export const GATEWAY_COMMAND_TIMEOUT_MS = 9_000;
/** The longest a connector's state may take to read (GET /v1/repositories/{id}). */
export const GATEWAY_STATUS_TIMEOUT_MS = 2_000;
/** Retry-After when the gateway itself could not be reached (it says its own otherwise). */
export const GATEWAY_RETRY_AFTER_SECONDS = 5;

/** The registry's answer to one command. */
export interface RegistryReply {
  response: EppResponse;
  /** The answer was lost and the gateway asked the registry whether the command took effect. */
  recovered: boolean;
}

/** What the gateway shows of a connector (GET /registries/{id}). */
export interface ConnectorStatus {
  state: "up" | "connecting" | "down";
  since: string | null;
  last_error: string | null;
  objects: string[];
  extensions: string[];
  sessions: { open: number; configured: number };
  /** Poll messages the gateway set aside (acked at the registry, not taken by the API yet); absent when the gateway did not say. */
  set_aside_messages?: number;
}

export function registryUnavailable(reason: string, retryAfter = GATEWAY_RETRY_AFTER_SECONDS): ApiError {
  const seconds = Math.max(1, Math.min(3600, Math.ceil(retryAfter)));
  return new ApiError("registry_unavailable", `The registry cannot be reached now (${reason}); nothing was changed. Try again in ${seconds} s.`, {
    headers: { "Retry-After": String(seconds) },
  });
}

/**
 * The clTRID of a request's commands: its request id (RFC 5730 trIDType: 3–64
 * characters), so the registry's log and ours name the same request.
 */
export function clientTransactionId(requestId: string): string {
  const id = requestId.length < 3 ? `req-${requestId}` : requestId;
  return id.slice(0, 64);
}

function gatewayUrl(settings: ConnectorSettings, path: string): string {
  const base = settings.REGISTRY_GATEWAY_URL ?? "";
  if (!base || !settings.REGISTRY_GATEWAY_SECRET)
    throw registryUnavailable("no registry gateway is configured: REGISTRY_GATEWAY_URL and REGISTRY_GATEWAY_SECRET");
  return `${base.replace(/\/+$/, "")}${path}`;
}

/** One command through the gateway; 503 registry_unavailable when it has no answer. */
export async function registryCommand(
  settings: ConnectorSettings,
  repository: string,
  command: EppCommand,
  clTRID: string,
  timeoutMs = GATEWAY_COMMAND_TIMEOUT_MS,
): Promise<RegistryReply> {
  const url = gatewayUrl(settings, `/registries/${encodeURIComponent(repository)}/commands`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${settings.REGISTRY_GATEWAY_SECRET}` },
      body: JSON.stringify({ command, cl_trid: clTRID }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw registryUnavailable(timedOut ? `no answer within ${timeoutMs / 1000} s` : "the registry gateway could not be reached");
  }
  let body: GatewayBody;
  try {
    body = (await response.json()) as GatewayBody;
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw registryUnavailable(timedOut ? `no answer within ${timeoutMs / 1000} s` : `the registry gateway answered HTTP ${response.status} without JSON`);
  }
  if (response.status === 400 && body.outcome === "invalid") {
    // The codec would not write the command: a value EPP's schemas cannot carry.
    throw new ApiError("policy_violation", `The registry's protocol cannot carry this request: ${body.reason ?? "a value EPP's schemas refuse"}.`);
  }
  if (response.ok && body.outcome === "answered" && body.response) return { response: body.response, recovered: body.recovered === true };
  if (response.ok && body.outcome === "unavailable") throw registryUnavailable(body.reason ?? "unavailable", body.retry_after);
  throw registryUnavailable(`the registry gateway answered HTTP ${response.status}`);
}

/** The connector's state as the gateway sees it; a gateway that cannot be reached is a connector `down`. */
export async function connectorStatus(settings: ConnectorSettings, repository: string, timeoutMs = GATEWAY_STATUS_TIMEOUT_MS): Promise<ConnectorStatus> {
  const down = (error: string): ConnectorStatus => ({
    state: "down",
    since: null,
    last_error: error,
    objects: [],
    extensions: [],
    sessions: { open: 0, configured: 0 },
  });
  if (!settings.REGISTRY_GATEWAY_URL || !settings.REGISTRY_GATEWAY_SECRET)
    return down("no registry gateway is configured (REGISTRY_GATEWAY_URL, REGISTRY_GATEWAY_SECRET)");
  try {
    const response = await fetch(gatewayUrl(settings, `/registries/${encodeURIComponent(repository)}`), {
      headers: { authorization: `Bearer ${settings.REGISTRY_GATEWAY_SECRET}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return down(`the registry gateway answered HTTP ${response.status}`);
    const body = (await response.json()) as Partial<ConnectorStatus> & { messages?: { set_aside?: unknown } };
    const setAside = body.messages?.set_aside;
    const state = body.state === "up" || body.state === "connecting" || body.state === "down" ? body.state : "down";
    return {
      state,
      since: typeof body.since === "string" ? body.since : null,
      last_error: typeof body.last_error === "string" ? body.last_error : null,
      objects: Array.isArray(body.objects) ? body.objects.filter((u): u is string => typeof u === "string") : [],
      extensions: Array.isArray(body.extensions) ? body.extensions.filter((u): u is string => typeof u === "string") : [],
      sessions: {
        open: Number.isInteger(body.sessions?.open) ? body.sessions!.open : 0,
        configured: Number.isInteger(body.sessions?.configured) ? body.sessions!.configured : 0,
      },
      ...(Number.isInteger(setAside) && (setAside as number) >= 0 ? { set_aside_messages: setAside as number } : {}),
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return down(timedOut ? `the registry gateway did not answer within ${timeoutMs / 1000} s` : "the registry gateway could not be reached");
  }
}

/** What the gateway answers a command (docs/registries.md, "The gateway's HTTP interface"). */
type GatewayBody = { outcome?: string; response?: EppResponse; recovered?: boolean; retry_after?: number; reason?: string };
