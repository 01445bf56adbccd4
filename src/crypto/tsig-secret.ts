// The shared secret of a TSIG key (RFC 8945 §6): as many random bytes as the hash's output
// (RFC 2104 §3 recommends no less), generated here, shown once, stored sealed like a
// DNSSEC private key (src/crypto/sealed.ts, bound to the key's id).
import { seal, unseal } from "./sealed";
import { base64Text } from "./base64";

const SECRET_BYTES = { "hmac-sha256": 32, "hmac-sha512": 64 } as const;

export async function newSealedSecret(sealingSecret: string, keyId: string, algorithm: keyof typeof SECRET_BYTES) {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES[algorithm]));
  const sealed = await seal(sealingSecret, keyId, bytes);
  const text = base64Text(bytes);
  bytes.fill(0);
  return { text, sealed };
}

/** The secret as base64, or null when it does not open (the sealing secret changed). */
export async function openSecret(sealingSecret: string, keyId: string, sealed: string): Promise<string | null> {
  const bytes = await unseal(sealingSecret, keyId, sealed);
  if (!bytes) return null;
  const text = base64Text(bytes);
  bytes.fill(0);
  return text;
}
