// Request bodies are bounded before anything buffers them (docs/conventions.md, sizes): a body
// that declares a size over the limit is refused at once, on every path, before
// authentication; a body without a declared size is counted while it streams and the
// reading stops at the first byte over the limit. Only operations that take a body read
// one, each exactly once (`boundedBody`), and everything after — the idempotency hash,
// the JSON parser, a master-file import — uses those bytes.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./problem";

/** JSON bodies (docs/conventions.md). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Size limits by media type; `default` for every other type. */
export interface BodyLimits {
  default: number;
  [mediaType: string]: number;
}

function limitFor(limits: BodyLimits, contentType: string | undefined): number {
  return limits[mediaTypeOf(contentType)] ?? limits.default;
}

function describeLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

function tooLarge(mediaType: string, maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `${mediaType || "Request"} bodies are limited to ${describeLimit(maxBytes)} here; nothing was read past that.`);
}

/**
 * App middleware: a declared Content-Length over the largest limit of its media type is
 * 413 before authentication, on any path, whatever other headers the request carries.
 */
export function declaredBodySize(limits: BodyLimits): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header("content-length");
    if (declared !== undefined) {
      const max = limitFor(limits, c.req.header("content-type"));
      if (!/^\d+$/.test(declared.trim()) || Number(declared) > max) throw tooLarge(mediaTypeOf(c.req.header("content-type")), max);
    }
    return next();
  };
}

/** Reads a body stream, stopping (and cancelling it) at the first byte over `maxBytes`. */
export async function readBoundedBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const mediaType = mediaTypeOf(request.headers.get("content-type") ?? undefined);
  if (declared > maxBytes) throw tooLarge(mediaType, maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      // The client went away mid-body ("Network connection lost."): its fault, not ours, so
      // a 400 that nobody may read, never a 500 in the error log.
      throw new ApiError("invalid_json", "The body ended before it was complete (the connection was lost while it was read); nothing was written.");
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(mediaType, maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const EMPTY = new Uint8Array(0);

/**
 * Route middleware for operations that take a body: reads it once, within the limit of its
 * media type, and keeps the bytes for what follows (`requestBytes`).
 */
export function boundedBody(limits: BodyLimits): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bytes = await readBoundedBytes(c.req.raw, limitFor(limits, c.req.header("content-type")));
    c.set("requestBody", bytes);
    // Hono's own readers find these bytes instead of the stream, which is read: the OpenAPI
    // validator reads the body of a request without a Content-Type, to see whether it has
    // one (an empty body sent as `Content-Length: 0`, as `curl -X POST` and Node's fetch
    // send it, answered 500 "Body has already been used" before).
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve((whole ? bytes : bytes.slice()).buffer as ArrayBuffer);
    return next();
  };
}

/** The request's body as read by `boundedBody` (empty for an operation without one). */
export function requestBytes(c: Context<AppEnv>): Uint8Array {
  return c.get("requestBody") ?? EMPTY;
}

/** The request's body as UTF-8 text; `notUtf8` makes the error for bytes that are not. */
export function requestText(c: Context<AppEnv>, notUtf8: () => ApiError): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(requestBytes(c));
  } catch {
    throw notUtf8();
  }
}
