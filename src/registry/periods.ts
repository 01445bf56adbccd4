// Registration periods (RFC 5731 §2.5): whole years within the extension's range.
import type { FieldError } from "./field-error";

export interface PeriodRange {
  min: number;
  max: number;
}

export function periodProblem(years: number, range: PeriodRange, extension: string): string | null {
  if (years < range.min || years > range.max) {
    return range.min === range.max
      ? `.${extension} registers for exactly ${range.min} year${range.min === 1 ? "" : "s"}`
      : `.${extension} registers for ${range.min} to ${range.max} years`;
  }
  return null;
}

/**
 * `from` plus `years` calendar years, in UTC. A registration made on 29 February expires
 * on 28 February of a common year, as registries do, rather than rolling into March.
 */
export function expiryAfter(from: Date, years: number): Date {
  const result = new Date(from.getTime());
  result.setUTCFullYear(from.getUTCFullYear() + years);
  if (result.getUTCMonth() !== from.getUTCMonth()) result.setUTCDate(0);
  return result;
}

/** The registration period as `period` gives it: whole years (bad input otherwise). */
export function wholeYearsErrors(years: number): FieldError[] {
  return Number.isInteger(years) ? [] : [{ field: "period", message: "must be a whole number of years" }];
}

/** The period within the extension's range (the registry's policy). */
export function periodErrors(years: number, extension: { id: string; periodMin: number; periodMax: number }): FieldError[] {
  if (!Number.isInteger(years)) return [];
  const problem = periodProblem(years, { min: extension.periodMin, max: extension.periodMax }, extension.id);
  return problem ? [{ field: "period", message: problem }] : [];
}
