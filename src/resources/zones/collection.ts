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

/** The caller's own zone of that name (with its id). */
export function zoneExists(name: string, id: string): ApiError {
  return new ApiError("already_exists", `The zone ${name} already exists (${id}).`);
}

/**
 * A name another account holds (src/registry/zone-ownership.ts rules 2 and 3): its zone
 * of that name, a zone of it above or below, or a domain it registered here. One answer
 * for all of them, which says nothing of what holds the name or whose it is.
 */
export function nameHeld(name: string): ApiError {
  return new ApiError("already_exists", `The zone name ${name} is not available: it, a name above it or a zone below it is held by another account.`, {
    errors: [{ field: "name", message: "is held by another account" }],
  });
}

/** A customer's zone at or above an extension of the catalog, or at a top-level name (rule 1). */
export function reservedName(reason: string): ApiError {
  return new ApiError("policy_violation", `name: ${reason}; a customer's zone there would answer for every name under it that no zone here holds.`, {
    errors: [{ field: "name", message: reason }],
  });
}

/** A name no customer may hold, or nobody (src/registry/reserved-zone-names.ts): the reason, naming the rule. */
export function refusedName(reason: string): ApiError {
  return new ApiError("policy_violation", `name: ${reason}.`, { errors: [{ field: "name", message: reason }] });
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
