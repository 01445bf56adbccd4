// The ids a registry holds for our contacts. EPP's `clIDType` (RFC 5730 §4.2, eppcom) is
// 3–16 characters, and our ids (`con_` and a 26-character ULID) are 30: the registry's id
// is derived from ours by a pure function, the same every time, so that a create whose
// answer never came is asked after (and sent again) under the same id.
//
// The choice (docs/epp.md "Contact ids at a registry"): a prefix and the first bits of
// SHA-256 of our id, in lower-case Crockford base32 (digits and letters but i, l, o, u):
// 16 characters in all, starting with a letter, one case (registries that compare ids
// without case see no two ids as one). With the default prefix `c`, 15 characters carry
// 75 bits: among ten million contacts the chance that two share an id is about 1 in
// 750 million (n²/2^76). A registry's ids are shared by all its registrars, so an id may
// still be taken by another's contact (2302 at create): `attempt` 1, 2, … derives another
// id from the same one, and what the registry accepted is kept beside the contact.

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

export interface RegistryIdOptions {
  /** 1–6 lower-case letters and digits, starting with a letter (`c` unless told): a registrar's own prefix keeps its ids apart from others'. */
  prefix?: string;
  /** 0 (the default) for the first id; 1, 2, … for the next ones when an id is taken. */
  attempt?: number;
}

/** The 3–16 character id a registry holds for our object `id` (a contact's `con_…`). */
export function registryContactId(id: string, options: RegistryIdOptions = {}): string {
  const prefix = options.prefix ?? "c";
  if (!/^[a-z][a-z0-9]{0,5}$/.test(prefix)) throw new RangeError("prefix: 1–6 lower-case letters and digits, starting with a letter");
  const attempt = options.attempt ?? 0;
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError("attempt: a whole number from 0");
  if (id.length === 0) throw new RangeError("id: not empty");
  const digest = sha256(new TextEncoder().encode(attempt === 0 ? id : `${id}#${attempt}`));
  return prefix + base32(digest, 16 - prefix.length);
}

/** The first `count` base32 characters of `bytes` (5 bits each, most significant first). */
function base32(bytes: Uint8Array, count: number): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < count) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === count) break;
  }
  return out;
}

// ---- SHA-256 (FIPS 180-4), synchronous: WebCrypto's digest is asynchronous, and this
// module imports nothing of node: (it runs in the Worker as it is).

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32), false);
  view.setUint32(padded.length - 4, bitLength >>> 0, false);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4, false);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i]! + w[i]!) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!, false);
  return out;
}
