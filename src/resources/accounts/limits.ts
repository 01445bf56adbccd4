// An operator's overrides of an account's limits, merged as JSON Merge Patch (RFC 7396):
// a number sets one, null returns it to the configured default, absent keeps it.
import type { LimitName } from "../../registry/limits";

export type LimitOverrides = Partial<Record<string, number>>;

export function mergeLimits(current: LimitOverrides | null, patch: Partial<Record<LimitName, number | null | undefined>> | undefined): LimitOverrides | null {
  if (patch === undefined) return current;
  const merged: LimitOverrides = { ...(current ?? {}) };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  return Object.keys(merged).length > 0 ? merged : null;
}
