// Private keys at rest: AES-256-GCM (NIST SP 800-38D) under a key derived with HKDF-SHA-256
// (RFC 5869) from the secret DNSSEC_KEY_SECRET. A fresh 96-bit nonce per sealing; the key's
// id is the additional authenticated data, so a sealed key copied onto another row does not
// open. Stored as "v1.<nonce base64>.<ciphertext+tag base64>".
import { base64Octets, base64Text } from "../rdata/wire";

const encoder = new TextEncoder();
const derived = new Map<string, Promise<CryptoKey>>();
const HKDF_INFO = encoder.encode("domain-api dnssec private key v1");
const HKDF_SALT = encoder.encode("domain-api");

function sealingKey(secret: string): Promise<CryptoKey> {
  let key = derived.get(secret);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: HKDF_INFO }, base, { name: "AES-GCM", length: 256 }, false, [
        "encrypt",
        "decrypt",
      ]);
    })();
    derived.set(secret, key);
  }
  return key;
}

/** `plaintext` sealed under `secret`, bound to `context` (the key's id). */
export async function seal(secret: string, context: string, plaintext: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, await sealingKey(secret), plaintext);
  return `v1.${base64Text(iv)}.${base64Text(new Uint8Array(sealed))}`;
}

/** The plaintext of `sealed`, or null when it does not open (another secret, another context, altered). */
export async function unseal(secret: string, context: string, sealed: string): Promise<Uint8Array | null> {
  const parts = sealed.split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return null;
  try {
    const iv = base64Octets(parts[1]!);
    const data = base64Octets(parts[2]!);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, await sealingKey(secret), data);
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
