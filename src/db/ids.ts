// Resource ids: a type prefix and a ULID (https://github.com/ulid/spec): 48 bits of
// milliseconds then 80 random bits, Crockford base32. Ids sort in creation order, which
// makes `id` the keyset for the default (creation-order) listing.

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

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
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(time: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  return out;
}

function freshRandom(): number[] {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b % 32);
}

/** Within one millisecond the random part is incremented, so ids stay strictly ordered. */
function nextRandom(time: number): number[] {
  if (time !== lastTime) {
    lastTime = time;
    lastRandom = freshRandom();
    return lastRandom;
  }
  const next = [...lastRandom];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]!++;
      break;
    }
    next[i] = 0;
  }
  lastRandom = next;
  return next;
}

export function newId(kind: IdKind, at: Date): string {
  const time = Math.max(at.getTime(), lastTime);
  return (
    ID_PREFIXES[kind] +
    encodeTime(time) +
    nextRandom(time)
      .map((d) => CROCKFORD[d])
      .join("")
  );
}

/**
 * The smallest id of that kind made at or after `at`: an id's time part is never earlier
 * than the time it was made for, so `id >= idFloor(kind, t)` keeps every row made at or
 * after `t` and lets a time filter walk the primary key.
 */
export function idFloor(kind: IdKind, at: Date): string {
  return ID_PREFIXES[kind] + encodeTime(Math.max(0, at.getTime())) + "0".repeat(16);
}
