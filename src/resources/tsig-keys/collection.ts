// TSIG keys as the write routine sees them (src/http/mutate.ts), and the rules their
// create and PATCH share: zones of the key's account, the account's quota, and no key
// pulled from under a declared secondary. A zone takes any number of update keys: the
// service verifies each update's TSIG itself and knows which key signed it.
import type { Database } from "../../db/client";
import type { TsigKeyUse } from "../../db/schema";
import type { Collection } from "../../http/mutate";
import { ApiError, validationError } from "../../http/problem";
import { presentTsigKey } from "./present";
import { accountZones, findTsigKey, type TsigKeyRow } from "./queries";
import type { TsigKey } from "./schemas";

export const tsigKeyCollection: Collection<TsigKeyRow, TsigKey> = {
  type: "tsig_key",
  path: "/v1/tsig-keys",
  byName: false,
  find: findTsigKey,
  present: presentTsigKey,
  accountOf: (row) => row.accountId,
};

export function keyNameTaken(name: string): ApiError {
  return new ApiError("already_exists", `A TSIG key named ${name}. already exists (key names are one namespace in the service); choose another name.`);
}

/** 422 unless every zone named is a zone of the key's account (another account's zone reads as unknown). */
export async function requireAccountZones(db: Database, accountId: string, names: readonly string[]): Promise<void> {
  requireZonesFound(await accountZones(db, accountId, names), names);
}

/** 422 unless every zone of `names` is among `rows` (the zones of the key's account read). */
export function requireZonesFound(rows: readonly { name: string }[], names: readonly string[]): void {
  const found = new Set(rows.map((row) => row.name));
  const errors = names.flatMap((name, i): { field: string; message: string }[] =>
    found.has(name) ? [] : [{ field: `zones[${i}]`, message: `no zone ${name} exists in the key's account` }],
  );
  if (errors.length > 0) throw validationError(errors);
}

/**
 * 409 when the key would stop working for a zone whose declared secondary transfers with it
 * (`using`: those zones, read with the key: queries.ts zonesUsingKey); `next` null for a delete.
 */
export function requireNotPulledFromSecondaries(
  using: readonly { name: string }[],
  key: TsigKeyRow,
  next: { allow: TsigKeyUse[]; zones: string[] } | null,
): void {
  const names = using.map((row) => row.name);
  const broken = next === null ? names : names.filter((zone) => !next.allow.includes("transfer") || !next.zones.includes(zone));
  if (broken.length > 0) {
    throw new ApiError(
      "object_linked",
      `The declared secondaries of ${broken.join(", ")} transfer with ${key.id}: change their \`secondaries\` (PATCH /v1/zones/{zone}) first.`,
    );
  }
}
