// Strict JSON request bodies (docs/conventions.md): the media type is checked (415), the size was
// capped while reading (src/http/body.ts, 413), the text must be a JSON object (400), and
// fields the resource does not have or that the server manages are named (422) together
// with every other problem of the same body: the unknown fields are set aside, the rest is
// validated, and one 422 lists them all (src/http/validation.ts).
import type { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { mediaTypeOf, requestText } from "./body";
import { ApiError, type FieldError, type ProblemCode } from "./problem";

export const JSON_MEDIA_TYPE = "application/json";
/** RFC 7396: PATCH bodies may say they are merge patches. */
export const MERGE_PATCH_MEDIA_TYPE = "application/merge-patch+json";

export interface StrictJsonOptions {
  /** Media types the operation accepts (default: application/json only). */
  mediaTypes?: readonly string[];
  /** Other media types the operation takes, whose bodies the handler reads itself. */
  otherMediaTypes?: readonly string[];
  /** Fields of the resource that the client may not write here (ignored when the schema has them). */
  readOnly?: readonly string[];
  /** The body may be left out altogether (no Content-Type, no bytes): the operation then reads `{}`. */
  optional?: boolean;
}

/** Unknown and read-only fields found in the body, waiting for the validator's findings. */
export interface SetAsideFields {
  code: ProblemCode;
  errors: FieldError[];
  detail: string;
}

// The request variable this middleware sets for the validator (src/http/validation.ts),
// declared here rather than in src/env.ts, which would then import this file that imports it.
declare module "hono" {
  interface ContextVariableMap {
    /** Unknown and read-only body fields, reported together with the validator's findings. */
    setAsideFields?: SetAsideFields;
  }
}

const NAMES_IN_DETAIL = 10;

function nameList(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_IN_DETAIL).join(", ");
  return names.length > NAMES_IN_DETAIL ? `${shown} and ${names.length - NAMES_IN_DETAIL} more` : shown;
}

/** The fields the validator will not see, with what is wrong with each. */
export function setAsideFields(c: Context<AppEnv>): SetAsideFields | undefined {
  return c.get("setAsideFields");
}

const ILL_FORMED = "is not well-formed Unicode: it holds a lone surrogate (\\uD800–\\uDFFF without its pair), which no UTF-8 text can store";
/** A UTF-16 code unit of a surrogate pair standing alone (with the u flag a pair is one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const MAX_PATHS_SHOWN = 50;

/**
 * Where a parsed body holds a string, or a key, with a lone surrogate (JSON's `\ud800`
 * escape makes one; RFC 8259 §8.2 leaves such text's meaning open). Stored, it would come
 * back as U+FFFD, so the answer, the ETag and the event would not be what was stored:
 * refused, naming each field, as `address.street[0]`.
 */
export function illFormedStrings(body: unknown): string[] {
  const found: string[] = [];
  // Iterative: a 1 MiB body may nest half a million levels deep.
  const pending: [unknown, string][] = [[body, ""]];
  while (pending.length > 0 && found.length < MAX_PATHS_SHOWN) {
    const [value, path] = pending.pop()!;
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) found.push(path);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], `${path}[${i}]`]);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value).reverse()) {
        const at = path === "" ? key : `${path}.${key}`;
        if (LONE_SURROGATE.test(key)) found.push(at);
        else pending.push([item, at]);
      }
    }
  }
  return found;
}

/**
 * Route middleware that admits only a JSON object, and sets aside (to report with the
 * validator's findings) the top-level fields `schema` does not have. Nested objects are
 * strict in the schemas themselves. The parsed object is left in Hono's body cache, where
 * the zod validator that follows reads it.
 */
export function strictJsonBody(schema: z.ZodObject, options: StrictJsonOptions = {}): MiddlewareHandler<AppEnv> {
  const mediaTypes = options.mediaTypes ?? [JSON_MEDIA_TYPE];
  const known = new Set(Object.keys(schema.shape));
  const allowed = [...known].join(", ");
  const readOnly = new Set(options.readOnly ?? []);
  const otherMediaTypes = options.otherMediaTypes ?? [];
  const accepted = [...mediaTypes, ...otherMediaTypes];
  return async (c, next) => {
    const mediaType = mediaTypeOf(c.req.header("content-type"));
    if (otherMediaTypes.includes(mediaType)) return next();
    if (options.optional && mediaType === "" && (c.get("requestBody")?.byteLength ?? 0) === 0) return next();
    if (!mediaTypes.includes(mediaType)) {
      throw new ApiError(
        "unsupported_media_type",
        `${mediaType ? `Content-Type ${mediaType} is not accepted` : "The request has no Content-Type"}; send ${accepted.join(" or ")}.`,
      );
    }
    const text = requestText(c, () => new ApiError("invalid_json", "The body is not valid UTF-8 text; send JSON encoded as UTF-8."));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new ApiError("invalid_json", `The body is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ApiError("invalid_json", "The body must be a JSON object.");
    }
    const illFormed = illFormedStrings(body);
    if (illFormed.length > 0) {
      throw new ApiError("validation_failed", `${illFormed.length === 1 ? "1 field is" : `${illFormed.length} fields are`} not well-formed Unicode.`, {
        errors: illFormed.map((field) => ({ field, message: ILL_FORMED })),
      });
    }
    const fields = body as Record<string, unknown>;
    const readOnlyNames: string[] = [];
    const unknownNames: string[] = [];
    for (const field of Object.keys(fields)) {
      if (known.has(field)) continue;
      if (readOnly.has(field)) readOnlyNames.push(field);
      else unknownNames.push(field);
      delete fields[field];
    }
    if (readOnlyNames.length > 0 || unknownNames.length > 0) {
      const errors: FieldError[] = [
        ...readOnlyNames.map((field) => ({ field, message: "is read-only: the server sets it" })),
        ...unknownNames.map((field) => ({ field, message: "is not a field of this resource" })),
      ];
      const parts: string[] = [];
      if (readOnlyNames.length > 0) parts.push(`Read-only fields cannot be written: ${nameList(readOnlyNames)}.`);
      if (unknownNames.length > 0) parts.push(`Unknown fields: ${nameList(unknownNames)}; the fields of this body are: ${allowed}.`);
      c.set("setAsideFields", { code: readOnlyNames.length > 0 ? "read_only_field" : "unknown_field", errors, detail: parts.join(" ") });
    }
    // Hand the object to Hono's body cache so the validator does not read or parse again.
    (c.req.bodyCache as { json?: Promise<unknown> }).json = Promise.resolve(fields);
    await next();
  };
}
