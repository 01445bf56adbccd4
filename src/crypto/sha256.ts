// SHA-256 (FIPS 180-4) of text: what is stored of a secret (an API token's, `npm start`'s
// local credential: only the digest, never the secret), and the key a secret is
// remembered under (the token cache, idempotency records).

const encoder = new TextEncoder();

/** SHA-256 of the text's UTF-8 octets. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the text, as 64 lower-case hex digits (as stored). */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await sha256(text));
}

/**
 * A digest to compare with: 32 octets of zeroes, which no SHA-256 of a presented secret
 * matches. Compared with where nothing is stored (an unknown id, a secret not configured),
 * so that such a presentation takes the same path, and the same time, as a known one.
 */
export const NO_SUCH_DIGEST = new Uint8Array(32);

/** A stored digest (64 lower-case hex digits) as octets; anything else is NO_SUCH_DIGEST's zeroes. */
export function digestOctets(text: string): Uint8Array {
  const bytes = new Uint8Array(32);
  if (!/^[0-9a-f]{64}$/.test(text)) return bytes;
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
