// Handlers that check many things collect every finding, so that one 422 lists them all
// (docs/conventions.md), and tell bad input from input the registry's policy refuses.
import type { NameResult } from "../dns/name";
import { ApiError, type FieldError } from "./problem";

/** Bad input (validation_failed) and input the registry's policy refuses (policy_violation). */
export interface Findings {
  invalid: FieldError[];
  policy: FieldError[];
  /** Values only the server (or the operator) sets (read_only_field): they decide the code when present. */
  readOnly?: FieldError[];
}

export function newFindings(): Findings {
  return { invalid: [], policy: [] };
}

/** Throws the 422 that lists every finding; read-only values, then validation errors decide the code when present. */
export function throwFindings(findings: Findings): void {
  const readOnly = findings.readOnly ?? [];
  const all = [...readOnly, ...findings.invalid, ...findings.policy];
  if (all.length === 0) return;
  const code = readOnly.length > 0 ? "read_only_field" : findings.invalid.length > 0 ? "validation_failed" : "policy_violation";
  const detail = all.length === 1 ? `${all[0]!.field}: ${all[0]!.message}` : `${all.length} fields are invalid`;
  throw new ApiError(code, detail, { errors: all });
}

/** The normalised name, or null with the finding that says why `input` is not one. */
export function validName(result: NameResult, input: string, field: string, findings: Findings): string | null {
  if (result.ok) return result.name;
  findings.invalid.push({ field, message: `"${input}" ${result.error}` });
  return null;
}

/** A copy to add to: what was found on the body, for one attempt of a write that may run again. */
export function copyFindings(findings: Findings): Findings {
  return { invalid: [...findings.invalid], policy: [...findings.policy], readOnly: [...(findings.readOnly ?? [])] };
}

/** 422 price_mismatch: the price an operation costs was not confirmed, or another was (RFC 8748). */
export function throwPriceErrors(errors: FieldError[]): void {
  if (errors.length === 0) return;
  throw new ApiError("price_mismatch", `${errors[0]!.field}: ${errors[0]!.message}`, { errors });
}
