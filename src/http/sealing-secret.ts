// The secret that seals private keys at rest (zones' DNSSEC keys, TSIG secrets:
// src/crypto/sealed.ts), as a request's handlers get it.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { isLocalDevelopment } from "./local-development";
import { ApiError } from "./problem";

// Seals private keys when DNSSEC_KEY_SECRET is unset and the request came to a loopback
// host (npm start, the e2e scripts): a key anyone can read, never used by a deployed Worker.
const LOCAL_DNSSEC_KEY_SECRET = "local-development-dnssec-key-secret";
const MIN_SECRET_LENGTH = 32;

/**
 * The secret private keys are sealed under. Fails closed like CURSOR_SECRET
 * (src/http/pagination.ts): a deployed Worker without it answers DNSSEC requests with 503
 * `not_configured`, naming the command that fixes it.
 */
export function dnssecSecret(c: Context<AppEnv>): string {
  const secret = c.env.DNSSEC_KEY_SECRET;
  if (secret && secret.length >= MIN_SECRET_LENGTH) return secret;
  if (!secret && isLocalDevelopment(c.req.raw)) return LOCAL_DNSSEC_KEY_SECRET;
  const what = secret ? `a DNSSEC_KEY_SECRET of ${secret.length} characters, too short to be a key (at least ${MIN_SECRET_LENGTH})` : "no DNSSEC_KEY_SECRET";
  throw new ApiError(
    "not_configured",
    `This Worker has ${what}, the key that seals zones' private DNSSEC keys, so it cannot sign. Set one with \`openssl rand -base64 32 | npx wrangler secret put DNSSEC_KEY_SECRET\`.`,
  );
}
