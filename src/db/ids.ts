// Resource ids: a type prefix and a ULID (https://github.com/ulid/spec): 48 bits of
// milliseconds then 80 random bits, Crockford base32. Ids sort in creation order, which
// makes `id` the keyset for the default (creation-order) listing.
import { encodeTime, ulid, ulids } from "./ulid.js";

export const ID_PREFIXES = {
  contact: "con_",
  domain: "dom_",
  host: "hst_",
  zone: "zon_",
  record: "rec_",
  event: "evt_",
  account: "acc_",
  token: "tok_",
  transfer: "trn_",
  tsigKey: "tsk_",
  webhook: "whk_",
  delivery: "dlv_",
  ping: "png_",
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind, at: Date): string {
  return ID_PREFIXES[kind] + ulid(at.getTime());
}

/** `count` ids of one kind made at `at`, in order: newId's, made together for one batch. */
export function newIds(kind: IdKind, count: number, at: Date): string[] {
  return ulids(count, at.getTime()).map((id) => ID_PREFIXES[kind] + id);
}

/**
 * The smallest id of that kind made at or after `at`: an id's time part is never earlier
 * than the time it was made for, so `id >= idFloor(kind, t)` keeps every row made at or
 * after `t` and lets a time filter walk the primary key.
 */
export function idFloor(kind: IdKind, at: Date): string {
  return ID_PREFIXES[kind] + encodeTime(Math.max(0, at.getTime())) + "0".repeat(16);
}
