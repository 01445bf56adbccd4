// Turns zod's findings into problem details (docs/conventions.md): every problem listed, each
// with a JSON-pointer-ish `field` (`address.country_code`, `nameservers[2]`) and a
// message a person can act on.
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { setAsideFields } from "./json-body";
import { ApiError, validationError, type FieldError } from "./problem";
import { queryError } from "./query";

type Issue = z.core.$ZodIssue;

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function typeName(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
    case "int":
      return "a number";
    case "boolean":
      return "true or false";
    case "array":
      return "an array";
    case "object":
      return "an object";
    default:
      return expected;
  }
}

function unitOf(origin: string): string {
  return origin === "string" ? " characters" : origin === "array" || origin === "set" ? " items" : "";
}

/** The raw value at `path` in the request part that was validated. */
function valueAt(data: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let current: unknown = data;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key as string)) return { present: false, value: undefined };
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value: current };
}

/** A plain-language message for one issue; messages set on a schema win. */
export function issueMessage(issue: Issue, data?: unknown): string {
  switch (issue.code) {
    case "invalid_type": {
      const { present, value } = valueAt(data, issue.path);
      if (!present || value === undefined) return "is required";
      if (value === null) return `must be ${typeName(issue.expected)}, not null`;
      return `must be ${typeName(issue.expected)}`;
    }
    case "too_small":
      if (issue.message && !issue.message.startsWith("Too small")) return issue.message;
      return issue.origin === "string" && issue.minimum === 1 ? "must not be empty" : `must be at least ${String(issue.minimum)}${unitOf(issue.origin)}`;
    case "too_big":
      if (issue.message && !issue.message.startsWith("Too big")) return issue.message;
      return `must be at most ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return "is not a field of this object";
    case "invalid_format":
      return issue.message && !issue.message.startsWith("Invalid") ? issue.message : `is not a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

function fieldErrors(error: z.ZodError, data: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push({ field: fieldPath([...issue.path, key]), message: "is not a field of this object" });
    } else {
      errors.push({ field: fieldPath(issue.path), message: issueMessage(issue, data) });
    }
  }
  return errors;
}

/** The zod-openapi hook: validation failures of any request part become problems. */
export function validationHook(result: { success: boolean; error?: z.ZodError; data?: unknown; target: string }, c: Context): void {
  // Unknown and read-only fields were set aside before validation: one 422 names them
  // together with every other problem of the body (docs/conventions.md: every 422 lists all).
  const setAside = result.target === "json" ? setAsideFields(c as Context<AppEnv>) : undefined;
  if (setAside) {
    const others = result.success || !result.error ? [] : fieldErrors(result.error, result.data);
    const detail =
      others.length === 0
        ? setAside.detail
        : `${setAside.detail} ${others.length === 1 ? "One other field is" : `${others.length} other fields are`} invalid too.`;
    throw new ApiError(setAside.code, detail, { errors: [...setAside.errors, ...others] });
  }
  if (result.success || !result.error) return;
  // On failure `data` is the raw input, which tells a missing field from a wrong type.
  const errors = fieldErrors(result.error, result.data);
  if (result.target === "query") {
    throw queryError(errors);
  }
  if (result.target === "param") {
    throw new ApiError("not_found", "No resource has this path.");
  }
  const onlyUnknown = result.error.issues.every((i) => i.code === "unrecognized_keys");
  throw validationError(errors, onlyUnknown ? "unknown_field" : "validation_failed");
}
