// Errors as RFC 9457 problem details. Every error the API can answer is in PROBLEMS:
// one table for the status, the title and the documentation of each `code`.
import type { Context } from "hono";

export const PROBLEMS = {
  invalid_json: { status: 400, title: "Request body is not valid JSON", about: "The body could not be parsed as JSON, or is not a JSON object." },
  invalid_query: {
    status: 400,
    title: "Invalid query parameters",
    about: "A query parameter is unknown, repeated or has a bad value; `errors` names each one.",
  },
  invalid_cursor: { status: 400, title: "Invalid cursor", about: "The `cursor` was altered, or belongs to another list, sort or filter." },
  unauthorized: { status: 401, title: "Unauthorized", about: "No bearer token, or an unknown or revoked one." },
  forbidden: { status: 403, title: "Forbidden", about: "The token lacks the scope this request needs." },
  not_found: { status: 404, title: "Not found", about: "No resource has this id or name, or no route has this path." },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    about: "The path exists but not with this method; the `Allow` header lists the methods it takes.",
  },
  already_exists: { status: 409, title: "Already exists", about: "The name is taken (domain, host, zone) or the record already exists." },
  object_linked: { status: 409, title: "Object is linked", about: "Other objects use this one (EPP 2305); `detail` names them." },
  status_prohibits: { status: 409, title: "Status prohibits the operation", about: "A status on the domain forbids this change (EPP 2304)." },
  unavailable: {
    status: 409,
    title: "Not available at the registry",
    about:
      "The connected registry holds this object already (EPP 2302): the name is registered there, whatever this service holds. `detail` has the registry's words.",
  },
  registry_mismatch: {
    status: 409,
    title: "Registry does not hold the object",
    about:
      "The connected registry has no such object (EPP 2303) though this service holds it: the two differ, and reconciliation will bring ours in line. `detail` has the registry's words.",
  },
  request_in_progress: { status: 409, title: "Request in progress", about: "A request with the same Idempotency-Key is still being processed; retry shortly." },
  rollover_running: {
    status: 409,
    title: "A key roll is running",
    about:
      "The zone's keys are in a roll (or leaving DNSSEC): one process at a time per zone; `GET /zones/{zone}/dnssec` shows it and when its next step is due.",
  },
  rrset_conflict: { status: 409, title: "DNS record set conflict", about: "The change breaks a DNS coexistence rule (RFC 1034 §3.6.2, RFC 2181 §10.1)." },
  write_conflict: {
    status: 409,
    title: "Write conflict",
    about:
      "Other writes to the same resources kept committing first while this write retried on what was current; nothing was written. `Retry-After` says when to try again.",
  },
  gone: {
    status: 410,
    title: "Gone",
    about:
      "What the request stands on has moved out of the database: a `cursor` of `GET /v1/events` that stands before events since archived (read them from `GET /v1/events/archive`, then list again without a cursor).",
  },
  precondition_failed: { status: 412, title: "Precondition failed", about: "`If-Match` does not match the resource's current `ETag`." },
  payload_too_large: { status: 413, title: "Payload too large", about: "JSON bodies are limited to 1 MiB, master files to 2 MiB and 25 000 records." },
  unsupported_media_type: { status: 415, title: "Unsupported media type", about: "The body's `Content-Type` is not one this operation takes." },
  validation_failed: { status: 422, title: "Validation failed", about: "One or more fields are invalid; `errors` lists every one." },
  unknown_field: { status: 422, title: "Unknown field", about: "The body has fields the resource does not have; `errors` names them." },
  read_only_field: { status: 422, title: "Read-only field", about: "The body sets fields the server manages; `errors` names them." },
  invalid_auth_info: {
    status: 422,
    title: "Invalid authorization information",
    about: "The registry refused the `auth_info` given (EPP 2202): it is not the object's transfer password.",
  },
  policy_violation: { status: 422, title: "Registry policy violation", about: "The values are well-formed but the registry's policy refuses them." },
  quota_exceeded: {
    status: 422,
    title: "Quota exceeded",
    about:
      "The write would take the account past one of its limits (GET /v1/me shows them, with its usage); `detail` names the limit, its value and the usage. Nothing was written.",
  },
  price_mismatch: {
    status: 422,
    title: "Price not confirmed",
    about:
      "The operation on a premium name needs its price confirmed in the body's `price`, or the `price` given is not what it costs (as the EPP fee extension, RFC 8748); `errors` names the price.",
  },
  rate_limited: { status: 429, title: "Too many requests", about: "Slow down; `Retry-After` says when to try again." },
  internal: { status: 500, title: "Internal error", about: "A bug on our side; report the `request_id`." },
  database_busy: {
    status: 503,
    title: "Database busy",
    about:
      "Another program held the database's write lock through every retry of this request (a local server's SQLite file opened by another process); nothing was written. `Retry-After` says when to try again.",
  },
  registry_unavailable: {
    status: 503,
    title: "Registry unavailable",
    about:
      "The repository's registry, or the gateway that holds its EPP sessions, did not answer in time or could not take the command; nothing was changed. `Retry-After` says when to try again; reads go on from what this service holds.",
  },
  not_configured: {
    status: 503,
    title: "Service not configured",
    about: "The deployed Worker lacks a secret it needs (`CURSOR_SECRET`, at least 32 characters); `detail` names the command that sets it.",
  },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

/** One bad input: `field` is a JSON-pointer-ish path (`address.country_code`, `nameservers[2]`). */
export interface FieldError {
  field: string;
  message: string;
  /** For master-file imports: the 1-based line at fault (0 = the file as a whole). */
  line?: number;
}

/** The URI that identifies a problem type; `GET` on it describes the problem. */
export function problemTypeUri(code: ProblemCode): string {
  return `/v1/problems/${code}`;
}

/** Thrown by any layer to answer with a problem; the app's error handler renders it. */
export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ProblemCode, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }
}

/** A 422 listing every bad field; `detail` counts them. */
export function validationError(errors: FieldError[], code: ProblemCode = "validation_failed"): ApiError {
  const detail = errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : `${errors.length} fields are invalid`;
  return new ApiError(code, detail, { errors });
}

/**
 * A problem lists at most this many `errors`; `errors_not_listed` counts the rest, so that
 * a hostile body (130 000 unknown fields, a file of bad lines) cannot make an answer larger
 * than the request.
 */
export const MAX_LISTED_ERRORS = 100;

export function problemBody(code: ProblemCode, detail: string, requestId: string, errors?: FieldError[]) {
  const { status, title } = PROBLEMS[code];
  const listed = errors && errors.length > MAX_LISTED_ERRORS ? errors.slice(0, MAX_LISTED_ERRORS) : errors;
  const notListed = errors ? errors.length - (listed?.length ?? 0) : 0;
  return {
    type: problemTypeUri(code),
    title,
    status,
    code,
    detail: notListed > 0 ? `${detail} (the first ${MAX_LISTED_ERRORS} are listed; ${notListed} more are not)` : detail,
    ...(listed && listed.length > 0 ? { errors: listed } : {}),
    ...(notListed > 0 ? { errors_not_listed: notListed } : {}),
    request_id: requestId,
  };
}

export function problemResponse(c: Context, error: ApiError): Response {
  const body = problemBody(error.code, error.message, (c.get("requestId") as string | undefined) ?? "", error.errors);
  const headers = new Headers(error.headers);
  headers.set("Content-Type", "application/problem+json; charset=utf-8");
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
