// Private keys at rest: AES-256-GCM (NIST SP 800-38D) under a key derived with HKDF-SHA-256
// (RFC 5869) from the secret DNSSEC_KEY_SECRET. A fresh 96-bit nonce per sealing; the key's
// id is the additional authenticated data, so a sealed key copied onto another row does not
// open. Stored as "v1.<nonce base64>.<ciphertext+tag base64>". Other secrets at rest (a
// webhook's signing secrets) are sealed the same way under a key of their own: another
// secret, and another HKDF `info`, so that a key derived for one purpose opens nothing of
// the other.
import { base64Octets, base64Text } from "./base64";

const encoder = new TextEncoder();
const derived = new Map<string, Promise<CryptoKey>>();
/** What a sealing key is for (HKDF `info`): DNSSEC private keys unless said otherwise. */
export const DNSSEC_PRIVATE_KEYS = "domain-api dnssec private key v1";
const HKDF_SALT = encoder.encode("domain-api");

function sealingKey(secret: string, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\n${secret}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
      const info = encoder.encode(purpose);
      return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info }, base, { name: "AES-GCM", length: 256 }, false, [
        "encrypt",
        "decrypt",
      ]);
    })();
    derived.set(cacheKey, key);
  }
  return key;
}

/** `plaintext` sealed under `secret`, bound to `context` (the key's id). */
export async function seal(secret: string, context: string, plaintext: Uint8Array, purpose = DNSSEC_PRIVATE_KEYS): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, await sealingKey(secret, purpose), plaintext);
  return `v1.${base64Text(iv)}.${base64Text(new Uint8Array(sealed))}`;
}

/** The plaintext of `sealed`, or null when it does not open (another secret, another context, altered). */
export async function unseal(secret: string, context: string, sealed: string, purpose = DNSSEC_PRIVATE_KEYS): Promise<Uint8Array | null> {
  const parts = sealed.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return null;
  try {
    const iv = base64Octets(parts[1]!);
    const data = base64Octets(parts[2]!);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, await sealingKey(secret, purpose), data);
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
