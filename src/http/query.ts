// Strict query strings (docs/conventions.md): unknown or repeated parameters answer 400
// `invalid_query`, naming the parameters the operation takes.
import type { MiddlewareHandler } from "hono";
import { z } from "@hono/zod-openapi";
import { ApiError, type FieldError } from "./problem";

/** 400 `invalid_query` listing every bad parameter. */
export function queryError(errors: FieldError[]): ApiError {
  return new ApiError("invalid_query", `Bad query parameters: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}.`, { errors });
}

/**
 * Whether a parameter may be repeated (`?name=a&name=b`): its schema takes an array (as a
 * union of one value and a list of them, which is how a query arrives).
 */
function repeatable(schema: unknown): boolean {
  let inner = schema as { def?: { type?: string; options?: unknown[]; in?: unknown; innerType?: unknown } } | undefined;
  // Unwrap the pipe a transform makes, and optional/default wrappers.
  for (let i = 0; i < 5 && inner?.def; i++) {
    const def = inner.def;
    if (def.type === "array") return true;
    if (def.type === "union") return (def.options ?? []).some(repeatable);
    inner = (def.in ?? def.innerType) as typeof inner;
  }
  return false;
}

export function strictQuery(schema: z.ZodObject): MiddlewareHandler {
  const allowed = Object.keys(schema.shape);
  const known = new Set(allowed);
  const repeated = new Set(allowed.filter((name) => repeatable(schema.shape[name])));
  return async (c, next) => {
    const errors: FieldError[] = [];
    for (const [name, values] of Object.entries(c.req.queries())) {
      if (!known.has(name)) errors.push({ field: name, message: "is not a parameter of this operation" });
      else if (values.length > 1 && !repeated.has(name)) errors.push({ field: name, message: "is given more than once" });
    }
    if (errors.length > 0) {
      const allowedText = allowed.length > 0 ? `allowed: ${allowed.join(", ")}` : "this operation takes no query parameters";
      throw new ApiError("invalid_query", `Bad query parameters (${allowedText}).`, { errors });
    }
    await next();
  };
}

/** A whole-number query parameter within [min, max]. */
export function integerParam(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}

/** An RFC 3339 date-time query parameter, normalised to the stored form (UTC, ms). */
export const dateTimeParam = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)), {
    error: "must be an RFC 3339 date-time such as 2026-11-22T09:30:00Z",
  })
  // Stored in UTC: 9999-12-31T23:00:00-02:00 is in the year 10000, which ISO 8601 spells
  // "+010000-…" and which would sort before every 4-digit year.
  .refine((s) => Number.isNaN(Date.parse(s)) || /^\d{4}-/.test(new Date(s).toISOString()), {
    error: "must be a time of the years 0000 to 9999 in UTC",
  })
  .transform((s) => new Date(s).toISOString());

export const booleanParam = z.enum(["true", "false"], { error: "must be true or false" }).transform((s) => s === "true");

/** The longest `q`, in characters (Unicode code points, as JSON Schema's `maxLength` counts). */
export const MAX_SEARCH_LENGTH = 255;

/**
 * `q`, a case-insensitive substring search. Matched with `instr`, not LIKE: D1 refuses
 * LIKE patterns over 50 bytes (an escaped `%` or a multi-byte character takes several),
 * while `instr` takes any text, so the limit is this schema's alone.
 */
export function searchParam(description: string) {
  return z
    .string()
    .min(1, { error: "must not be empty" })
    .refine((q) => [...q].length <= MAX_SEARCH_LENGTH, { error: `must be at most ${MAX_SEARCH_LENGTH} characters` })
    .optional()
    .openapi({
      type: "string",
      minLength: 1,
      maxLength: MAX_SEARCH_LENGTH,
      description: `${description} Matched literally (\`%\`, \`_\` are plain characters); 1 to ${MAX_SEARCH_LENGTH} characters.`,
    });
}
