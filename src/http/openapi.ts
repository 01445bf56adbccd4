// Building blocks for route definitions, so every operation documents the conventions
// of docs/conventions.md the same way: problem responses, ETag headers, list envelopes, bodies.
import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE, MERGE_PATCH_MEDIA_TYPE } from "./json-body";
import { PROBLEMS, type ProblemCode } from "./problem";

export const FieldErrorSchema = z.object({
  field: z.string().openapi({ example: "address.country_code" }),
  message: z.string().openapi({ example: "is not an ISO 3166-1 alpha-2 country code" }),
});

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "/v1/problems/validation_failed", description: "URI of the problem type; GET it for a description." }),
    title: z.string().openapi({ example: "Validation failed" }),
    status: z.number().int().openapi({ example: 422 }),
    code: z.enum(Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]]).openapi({ example: "validation_failed" }),
    detail: z.string().openapi({ example: "2 fields are invalid" }),
    errors: z.array(FieldErrorSchema).optional().openapi({ description: "Every bad input, for 400 and 422 problems (at most the first 100)." }),
    errors_not_listed: z
      .number()
      .int()
      .optional()
      .openapi({ example: 12, description: "How many more bad inputs were found than `errors` lists (present only when it is cut at 100)." }),
    request_id: z.string().openapi({ example: "01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
  })
  .openapi("Problem", { description: "RFC 9457 problem details." });

const PROBLEM_MEDIA_TYPE = "application/problem+json";

const STATUS_CODES_OF: Record<number, ProblemCode[]> = {};
for (const [code, { status }] of Object.entries(PROBLEMS)) (STATUS_CODES_OF[status] ??= []).push(code as ProblemCode);

// What `errors` looks like in the examples of the problems that carry it.
const FIELD_ERRORS_EXAMPLE: Partial<Record<ProblemCode, { field: string; message: string }[]>> = {
  invalid_query: [{ field: "limit", message: "must be an integer from 1 to 200" }],
  validation_failed: [
    { field: "email", message: "is not an email address" },
    { field: "address.country_code", message: "is not an ISO 3166-1 alpha-2 country code" },
  ],
  unknown_field: [{ field: "colour", message: "is not a field of this resource" }],
  read_only_field: [{ field: "created_at", message: "is set by the server" }],
  quota_exceeded: [{ field: "webhooks", message: "limit 20 reached (usage 20)" }],
};

/** One example per problem code of a status, as the service answers it. */
export function problemExamples(status: number) {
  const examples: Record<string, { summary: string; value: z.output<typeof ProblemSchema> }> = {};
  for (const code of STATUS_CODES_OF[status] ?? []) {
    const { title, about } = PROBLEMS[code];
    const errors = FIELD_ERRORS_EXAMPLE[code];
    examples[code] = {
      summary: title,
      value: { type: `/v1/problems/${code}`, title, status, code, detail: about, ...(errors ? { errors } : {}), request_id: "01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" },
    };
  }
  return examples;
}

function problemResponse(status: number) {
  const codes = STATUS_CODES_OF[status] ?? [];
  return {
    description: `${codes.map((c) => PROBLEMS[c].title).join(" / ")} — \`code\`: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema, examples: problemExamples(status) } },
  };
}

/**
 * Problems any operation can answer: authentication, scope, rate limit, our own bugs, and
 * a deployed Worker missing its CURSOR_SECRET (src/http/pagination.ts).
 */
const COMMON_ERRORS = [401, 403, 429, 500, 503] as const;

/** Problems of the public documents, which need no token: no 401 or 403. */
const PUBLIC_ERRORS = [429, 500] as const;

export function publicErrorResponses<const S extends readonly number[]>(...statuses: S) {
  const out: Record<number, ReturnType<typeof problemResponse>> = {};
  for (const status of [...statuses, ...PUBLIC_ERRORS]) out[status] = problemResponse(status);
  return out as { [K in S[number] | (typeof PUBLIC_ERRORS)[number]]: ReturnType<typeof problemResponse> };
}

export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  const out: Record<number, ReturnType<typeof problemResponse>> = {};
  for (const status of [...statuses, ...COMMON_ERRORS]) out[status] = problemResponse(status);
  return out as { [K in S[number] | (typeof COMMON_ERRORS)[number]]: ReturnType<typeof problemResponse> };
}

const ETAG_HEADER = {
  ETag: { description: "Entity tag of the resource; send it back in `If-Match` / `If-None-Match`.", schema: { type: "string" as const } },
};

// Examples are typed against their schema here (z.output for responses, z.input for
// bodies) and validated against the generated JSON Schema by test/openapi-contract.test.ts.
export function resourceResponse<S extends z.ZodType>(schema: S, description: string, example: z.output<S>) {
  return { description, headers: ETAG_HEADER, content: { [JSON_MEDIA_TYPE]: { schema, example } } } as const;
}

export function createdResponse<S extends z.ZodType>(schema: S, description: string, example: z.output<S>) {
  return {
    description,
    headers: { ...ETAG_HEADER, Location: { description: "Path of the new resource.", schema: { type: "string" as const } } },
    content: { [JSON_MEDIA_TYPE]: { schema, example } },
  } as const;
}

export const notModifiedResponse = { description: "Not modified: `If-None-Match` matched the current ETag." } as const;
export const noContentResponse = { description: "Deleted." } as const;

export function listSchema<S extends z.ZodType>(item: S, name: string) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z.string().nullable().openapi({ description: "Cursor of the next page, or null on the last page.", example: null }),
    })
    .openapi(name);
}

/** A signed `next_cursor`, as the examples of list responses show it. */
const NEXT_CURSOR_EXAMPLE = "W251bGwsImNvbl8wMU04MTg4TjJaNlAxMDNDNTJYOVFOQ1BYQSJd.Dvt6hZ4ngrcXz38WG2lMQw";

/** `items`: the example page's rows; the example has a next page. */
export function listResponse<S extends z.ZodType<{ data: unknown[]; next_cursor: string | null }>>(schema: S, description: string, items: z.output<S>["data"]) {
  return {
    description,
    headers: { Link: { description: 'RFC 8288 link to the next page (`rel="next"`), when there is one.', schema: { type: "string" as const } } },
    content: { [JSON_MEDIA_TYPE]: { schema, example: { data: items, next_cursor: NEXT_CURSOR_EXAMPLE } } },
  } as const;
}

export function jsonBody<S extends z.ZodType>(schema: S, description: string, example: z.input<S>) {
  return { required: true, description, content: { [JSON_MEDIA_TYPE]: { schema, example } } } as const;
}

/** PATCH bodies are JSON Merge Patch (RFC 7396), in either media type. */
export function mergePatchBody<S extends z.ZodType>(schema: S, description: string, example: z.input<S>) {
  return {
    required: true,
    description: `${description} JSON Merge Patch (RFC 7396): absent fields stay, \`null\` clears an optional field, arrays are replaced whole, objects merge.`,
    content: { [JSON_MEDIA_TYPE]: { schema, example }, [MERGE_PATCH_MEDIA_TYPE]: { schema, example } },
  } as const;
}

export const TimestampSchema = z.string().openapi({ format: "date-time", example: "2026-11-22T09:30:00.000Z" });

/** For the description of reads that answer 304. */
export const CONDITIONAL_GET = " `If-None-Match` with the ETag of a previous read answers 304 Not Modified while the resource is unchanged.";

export const IF_MATCH_HEADER_DOC =
  "`If-Match` with the ETag from a read makes the write fail with 412 if the resource changed since. Without it the write applies to what is current; if other writes keep committing first through its retries, it answers 409 `write_conflict` with `Retry-After`.";

/** The sponsoring account of a resource (docs/accounts.md): read-only in every body. */
export const AccountRefSchema = z
  .string()
  .openapi({ example: "acc_00000000000000000000000000", description: "The sponsoring account (EPP clID). Read-only: set at creation." });

/** `account` in a create body: only an operator's token may name one (docs/accounts.md). */
export const SponsorInputSchema = z.string().max(64).optional().openapi({
  example: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
  description: "Operators only: the account the new object belongs to (default: the token's own). From a customer's token: 422 read_only_field.",
});

/** The `account` filter of a list: only that account's objects (a customer sees only its own anyway). */
export const AccountFilterSchema = z.string().max(64).optional().openapi({ description: "Only objects of this account (`acc_…`)." });
