// ULIDs (https://github.com/ulid/spec): 48 bits of milliseconds, then 80 random bits, in
// Crockford's base 32. The one implementation for the Worker (src/db/ids.ts, which adds
// the type prefixes) and for the Node scripts and bench, which cannot import TypeScript:
// so it is plain JavaScript, typed by ulid.d.ts.

/** Crockford's base 32: no I, L, O or U. */
export const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = -1;
/** @type {number[]} */
let lastRandom = [];

/** The 10-character time part for `time` milliseconds. */
export function encodeTime(time) {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[time % 32] + out;
    time = Math.floor(time / 32);
  }
  return out;
}

function freshRandom() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte % 32);
}

/** Within one millisecond the random part is incremented, so ULIDs stay strictly ordered (the spec's monotonic mode). */
function nextRandom(time) {
  if (time !== lastTime) {
    lastTime = time;
    lastRandom = freshRandom();
    return lastRandom;
  }
  const next = [...lastRandom];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      break;
    }
    next[i] = 0;
  }
  lastRandom = next;
  return next;
}

/** A ULID for the instant `at` (milliseconds; now when omitted), after every ULID this module made before. */
export function ulid(at = Date.now()) {
  return ulids(1, at)[0];
}

/**
 * `count` ULIDs for the instant `at`, in order, after every ULID this module made before:
 * one time part and one random draw for all of them (a delivery pass records thousands).
 */
export function ulids(count, at = Date.now()) {
  const time = Math.max(at, lastTime);
  const prefix = encodeTime(time);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    out[i] =
      prefix +
      nextRandom(time)
        .map((digit) => CROCKFORD[digit])
        .join("");
  }
  return out;
}
