// Strict JSON request bodies (contract §1): the media type is checked (415), the size is
// capped (413), the text must be a JSON object (400), and fields the resource does not
// have or that the server manages are refused by name (422) before values are validated.
import type { MiddlewareHandler } from "hono";
import type { z } from "@hono/zod-openapi";
import { ApiError, type FieldError } from "./problem";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export const JSON_MEDIA_TYPE = "application/json";
/** RFC 7396: PATCH bodies may say they are merge patches. */
export const MERGE_PATCH_MEDIA_TYPE = "application/merge-patch+json";

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Reads the body as text, refusing it when it is larger than `maxBytes` (413). */
export async function readBodyText(
  request: Request,
  maxBytes: number,
  what: string,
  notUtf8: () => ApiError = () => new ApiError("invalid_json", "The body is not valid UTF-8."),
): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(what, maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(what, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw notUtf8();
  }
}

function tooLarge(what: string, maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `${what} bodies are limited to ${maxBytes / 1024 / 1024} MiB.`);
}

export interface StrictJsonOptions {
  /** Media types the operation accepts (default: application/json only). */
  mediaTypes?: readonly string[];
  /** Other media types the operation takes, whose bodies the handler reads itself. */
  otherMediaTypes?: readonly string[];
  /** Fields of the resource that the client may not write here (ignored when the schema has them). */
  readOnly?: readonly string[];
}

/**
 * Route middleware that admits only a JSON object whose top-level fields belong to
 * `schema`. Nested objects are strict in the schemas themselves. The parsed text is left
 * in Hono's body cache, where the zod validator that follows reads it.
 */
export function strictJsonBody(schema: z.ZodObject, options: StrictJsonOptions = {}): MiddlewareHandler {
  const mediaTypes = options.mediaTypes ?? [JSON_MEDIA_TYPE];
  const known = new Set(Object.keys(schema.shape));
  const readOnly = new Set(options.readOnly ?? []);
  const otherMediaTypes = options.otherMediaTypes ?? [];
  const accepted = [...mediaTypes, ...otherMediaTypes];
  return async (c, next) => {
    const mediaType = mediaTypeOf(c.req.header("content-type"));
    if (otherMediaTypes.includes(mediaType)) return next();
    if (!mediaTypes.includes(mediaType)) {
      throw new ApiError(
        "unsupported_media_type",
        `${mediaType ? `Content-Type ${mediaType} is not accepted` : "The request has no Content-Type"}; send ${accepted.join(" or ")}.`,
      );
    }
    const text = await readBodyText(c.req.raw, MAX_JSON_BODY_BYTES, "JSON");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new ApiError("invalid_json", `The body is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ApiError("invalid_json", "The body must be a JSON object.");
    }
    const readOnlyErrors: FieldError[] = [];
    const unknownErrors: FieldError[] = [];
    for (const field of Object.keys(body)) {
      if (known.has(field)) continue;
      if (readOnly.has(field)) readOnlyErrors.push({ field, message: "is read-only" });
      else unknownErrors.push({ field, message: `is not a field of this resource; allowed: ${[...known].join(", ")}` });
    }
    if (readOnlyErrors.length > 0) {
      throw new ApiError("read_only_field", `Read-only fields cannot be written: ${readOnlyErrors.map((e) => e.field).join(", ")}`, {
        errors: [...readOnlyErrors, ...unknownErrors],
      });
    }
    if (unknownErrors.length > 0) {
      throw new ApiError("unknown_field", `Unknown fields: ${unknownErrors.map((e) => e.field).join(", ")}`, { errors: unknownErrors });
    }
    // Hand the text to Hono's body cache so the validator does not read the stream again.
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    await next();
  };
}
