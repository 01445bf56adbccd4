// Zones as the write routine sees them (src/http/mutate.ts), and what their operations share.
import type { SoaFields } from "../../dns/master-file";
import { findZone, type ZoneWithLinks } from "../../db/zones";
import type { Collection } from "../../http/mutate";
import { mergePatch } from "../../http/patch";
import { ApiError } from "../../http/problem";
import { presentZone } from "./present";
import type { SoaInput, Zone } from "./schemas";

export const zoneCollection: Collection<ZoneWithLinks, Zone> = {
  type: "zone",
  path: "/v1/zones",
  byName: true,
  find: findZone,
  present: presentZone,
  accountOf: (row) => row.accountId,
};

/** Zone names are one namespace across accounts (contract §11); the id only to its own account. */
export function zoneExists(name: string, existing?: { id: string; accountId: string }, accountId?: string): ApiError {
  return new ApiError("already_exists", `The zone ${name} already exists${existing && existing.accountId === accountId ? ` (${existing.id})` : ""}.`);
}

/** SOA fields given in a body merged onto `base` (JSON Merge Patch); `serial` is the service's, never the client's. */
export function mergeSoa(base: Omit<SoaFields, "serial">, input: SoaInput | undefined): Omit<SoaFields, "serial"> {
  if (input?.serial !== undefined) {
    throw new ApiError("read_only_field", "soa.serial is managed by the service: it rises with every change.", {
      errors: [{ field: "soa.serial", message: "is read-only" }],
    });
  }
  // Names arrive normalised by the schema (src/http/name-fields.ts).
  return mergePatch(base, input ?? {});
}
