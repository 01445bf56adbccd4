// EPP's result codes (RFC 5730 §3) as data: the RFC's text for each, and what the API
// answers when a registry answers it (contract section 21, docs/epp.md "Result codes").
// Which commands are safe to send again after an answer that never came, and what to ask
// a registry to learn whether a transform took effect.
import type { EppCommand } from "./types";

/** The problem codes a registry's answer maps to (src/http/problem.ts has their statuses). */
export type RegistryProblem =
  | "unavailable"
  | "registry_mismatch"
  | "forbidden"
  | "invalid_auth_info"
  | "status_prohibits"
  | "object_linked"
  | "policy_violation"
  | "registry_unavailable";

/** What the API answers for a result code. */
export type ResultAnswer =
  /** Done: 200 (201 for a create, 204 for a delete: the route's usual success). */
  | { outcome: "done" }
  /** 1001: 202 with the pending status; an event follows when the registry settles it. */
  | { outcome: "pending"; status: 202 }
  /** A refusal: the problem, with the registry's message (and `<extValue>` reasons) as detail. */
  | { outcome: "refused"; status: number; problem: RegistryProblem }
  /**
   * The registry or the session failed: the command is sent once more on a fresh session
   * when that is safe (commandRetry), else 503 `registry_unavailable` with `Retry-After`.
   */
  | { outcome: "retry"; status: 503; problem: "registry_unavailable" };

export interface ResultCode {
  code: number;
  /** RFC 5730 §3's text. */
  message: string;
  answer: ResultAnswer;
}

const done = { outcome: "done" } as const;
const retry = { outcome: "retry", status: 503, problem: "registry_unavailable" } as const;
const refused = (status: number, problem: RegistryProblem) => ({ outcome: "refused", status, problem }) as const;

/**
 * Every result code of RFC 5730 §3. 2302 → 409 `unavailable`, 2303 → 409
 * `registry_mismatch`, 2201 → 403 `forbidden`, 2202 → 422 `invalid_auth_info`, 2304 → 409
 * `status_prohibits`, 2305 → 409 `object_linked`, 2306 and 2308 → 422 `policy_violation`,
 * 2400 and 2500–2502 → retried once if safe, else 503, as section 21 of the contract says;
 * the codes it does not name follow the nearest of these (docs/epp.md).
 */
export const RESULT_CODES: Readonly<Record<number, ResultCode>> = Object.fromEntries(
  (
    [
      [1000, "Command completed successfully", done],
      [1001, "Command completed successfully; action pending", { outcome: "pending", status: 202 }],
      [1300, "Command completed successfully; no messages", done],
      [1301, "Command completed successfully; ack to dequeue", done],
      [1500, "Command completed successfully; ending session", done],
      // 2000–2005 and 2100–2103: a command the registry does not take as sent. Values it
      // finds out of its range or syntax, or missing, are its policy (a period longer than
      // it allows, contacts it requires); the rest is this service speaking what the
      // registry does not, which retrying does not mend.
      [2000, "Unknown command", refused(503, "registry_unavailable")],
      [2001, "Command syntax error", refused(503, "registry_unavailable")],
      [2002, "Command use error", retry],
      [2003, "Required parameter missing", refused(422, "policy_violation")],
      [2004, "Parameter value range error", refused(422, "policy_violation")],
      [2005, "Parameter value syntax error", refused(422, "policy_violation")],
      [2100, "Unimplemented protocol version", refused(503, "registry_unavailable")],
      [2101, "Unimplemented command", refused(503, "registry_unavailable")],
      [2102, "Unimplemented option", refused(503, "registry_unavailable")],
      [2103, "Unimplemented extension", refused(503, "registry_unavailable")],
      // The registrar's account at the registry (funds): the operator's to mend, not the customer's.
      [2104, "Billing failure", refused(503, "registry_unavailable")],
      [2105, "Object is not eligible for renewal", refused(409, "status_prohibits")],
      [2106, "Object is not eligible for transfer", refused(409, "status_prohibits")],
      // 2200: the session's login failed; a command never meets it on a working session.
      [2200, "Authentication error", retry],
      [2201, "Authorization error", refused(403, "forbidden")],
      [2202, "Invalid authorization information", refused(422, "invalid_auth_info")],
      [2300, "Object pending transfer", refused(409, "status_prohibits")],
      [2301, "Object not pending transfer", refused(409, "status_prohibits")],
      [2302, "Object exists", refused(409, "unavailable")],
      [2303, "Object does not exist", refused(409, "registry_mismatch")],
      [2304, "Object status prohibits operation", refused(409, "status_prohibits")],
      [2305, "Object association prohibits operation", refused(409, "object_linked")],
      [2306, "Parameter value policy error", refused(422, "policy_violation")],
      [2307, "Unimplemented object service", refused(503, "registry_unavailable")],
      [2308, "Data management policy violation", refused(422, "policy_violation")],
      [2400, "Command failed", retry],
      [2500, "Command failed; server closing connection", retry],
      [2501, "Authentication error; server closing connection", retry],
      [2502, "Session limit exceeded; server closing connection", retry],
    ] as const
  ).map(([code, message, answer]) => [code, { code, message, answer }]),
);

/** The entry for a code; a code RFC 5730 does not list is read by its class (1xxx done, 2xxx a failure to retry). */
export function resultCode(code: number): ResultCode {
  const known = RESULT_CODES[code];
  if (known) return known;
  return code >= 1000 && code < 2000 ? { code, message: "Command completed successfully", answer: done } : { code, message: "Command failed", answer: retry };
}

/** 1xxx: the command succeeded (RFC 5730 §3: "x" 1 is a positive completion). */
export function isSuccess(code: number): boolean {
  return code >= 1000 && code < 2000;
}

/** 25xx: the server closes the session after this response (RFC 5730 §3). */
export function closesSession(code: number): boolean {
  return code >= 2500 && code < 2600;
}

/**
 * Whether a command may be sent again when its answer never came (timeout, reset) or was
 * a retry code: queries and session commands, yes; transforms only after asking the
 * registry whether the first one took effect (outcomeQuery), never blindly.
 */
export function commandRetry(command: EppCommand): "safe" | "ask_first" {
  switch (command.kind) {
    case "login":
    case "logout":
    case "domain:check":
    case "domain:info":
    case "host:check":
    case "host:info":
    case "contact:check":
    case "contact:info":
      return "safe";
    case "poll":
      // A request reads; an ack of a message already gone answers 2303 and changes nothing.
      return "safe";
    case "domain:transfer":
    case "contact:transfer":
      return command.op === "query" ? "safe" : "ask_first";
    default:
      return "ask_first";
  }
}

/**
 * The query that tells whether a transform took effect, for a command whose answer never
 * came: an `<info>` of its object (or a transfer `query`). The gateway sends it on a fresh
 * session and compares what it reads with what the command would have done (a created
 * domain exists with our clID, a renewed one's exDate moved, …). Null for a command that
 * needs no asking (commandRetry "safe").
 */
export function outcomeQuery(command: EppCommand): EppCommand | null {
  if (commandRetry(command) === "safe") return null;
  switch (command.kind) {
    case "domain:create":
    case "domain:renew":
    case "domain:update":
    case "domain:delete":
      return { kind: "domain:info", name: command.name, hosts: "none" };
    case "domain:transfer":
      return { kind: "domain:transfer", op: "query", name: command.name };
    case "host:create":
    case "host:update":
    case "host:delete":
      return { kind: "host:info", name: command.kind === "host:update" && command.newName !== undefined ? command.newName : command.name };
    case "contact:create":
    case "contact:update":
    case "contact:delete":
      return { kind: "contact:info", id: command.id };
    case "contact:transfer":
      return { kind: "contact:transfer", op: "query", id: command.id };
    default:
      return null;
  }
}
