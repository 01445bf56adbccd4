// A webhook's signing secrets: `whsec_` and the base64 of 32 random bytes (Standard
// Webhooks), shown once when made and kept only sealed (AES-256-GCM, as DNSSEC private
// keys are: src/crypto/sealed.ts), under a key derived from the WEBHOOK_SECRET_KEY
// secret and bound to the webhook's id. A loopback deployment (npm start) without that
// secret seals with a development key, and only webhooks written there open with it.
import { seal, unseal } from "../crypto/sealed";
import { base64Octets, base64Text } from "../crypto/base64";
import type { Env } from "../env";
import { ApiError } from "../http/problem";

const PURPOSE = "domain-api webhook signing secret v1";
/** For loopback deployments without WEBHOOK_SECRET_KEY: public, so never for a deployed Worker's webhooks. */
const LOCAL_WEBHOOK_SECRET_KEY = "local-development-webhook-secret-key";
const PREFIX = "whsec_";
const SECRET_BYTES = 32;

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function newSigningSecret(): string {
  return PREFIX + base64Text(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The HMAC key a secret stands for (the base64 after `whsec_`). */
export function signingKeyBytes(secret: string): Uint8Array {
  return base64Octets(secret.slice(PREFIX.length));
}

function sealingSecret(env: Env, loopback: boolean): string | null {
  if (env.WEBHOOK_SECRET_KEY) return env.WEBHOOK_SECRET_KEY;
  return loopback ? LOCAL_WEBHOOK_SECRET_KEY : null;
}

/** Fails closed, as CURSOR_SECRET does: a deployed Worker without the key makes no webhook. */
export function requireSealingKey(env: Env, loopback: boolean): void {
  if (sealingSecret(env, loopback) === null) {
    throw new ApiError(
      "not_configured",
      "This Worker has no WEBHOOK_SECRET_KEY, the key that seals webhook signing secrets, so it makes no webhook. Set one with `openssl rand -base64 32 | npx wrangler secret put WEBHOOK_SECRET_KEY`.",
    );
  }
}

export async function sealSecret(env: Env, loopback: boolean, webhookId: string, secret: string): Promise<string> {
  const key = sealingSecret(env, loopback);
  if (key === null) requireSealingKey(env, loopback);
  return seal(key!, webhookId, new TextEncoder().encode(secret), PURPOSE);
}

/** The secret, or null when it does not open (the key changed, or the row was altered). */
export async function openSecret(env: Env, loopback: boolean, webhookId: string, sealed: string): Promise<string | null> {
  const keys = [env.WEBHOOK_SECRET_KEY, loopback ? LOCAL_WEBHOOK_SECRET_KEY : undefined].filter((k): k is string => !!k);
  for (const key of keys) {
    const plain = await unseal(key, webhookId, sealed, PURPOSE);
    if (plain) return new TextDecoder().decode(plain);
  }
  return null;
}
