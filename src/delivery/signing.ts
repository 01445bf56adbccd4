// Standard Webhooks signatures (https://www.standardwebhooks.com/, "Signature scheme"):
// HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the secret's key, sent
// as `v1,<base64>`; several (during a secret's rotation) separated by spaces. The
// timestamp is the time of sending in whole seconds, which receivers compare with their
// clock (the reference library allows 5 minutes either way).
import { base64Text } from "../crypto/base64";
import { signingKeyBytes } from "./secrets";

const encoder = new TextEncoder();

/** HMAC keys of the secrets this isolate signed with lately (a few per webhook). */
const keys = new Map<string, Promise<CryptoKey>>();
const KEYS_KEPT = 256;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= KEYS_KEPT) keys.delete(keys.keys().next().value!);
    key = crypto.subtle.importKey("raw", signingKeyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

async function signature(secret: string, content: Uint8Array): Promise<string> {
  return `v1,${base64Text(new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), content)))}`;
}

/** The three headers of one delivery, signed with every secret given (newest first). */
export async function signedHeaders(secrets: readonly string[], messageId: string, body: string, sentAt: Date): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  const content = encoder.encode(`${messageId}.${timestamp}.${body}`);
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, content)));
  return { "webhook-id": messageId, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
