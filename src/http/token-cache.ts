// What an isolate remembers of the API tokens it has checked (src/http/auth.ts): a token
// whose secret matched, for TOKEN_CACHE_MS, and when it last wrote a token's last_used_at.
// Each map is cleared whole when it reaches MAX_CACHED_TOKENS, so that no flood of tokens
// grows it without bound.
import type { Principal } from "../access/principal";

/** How long an isolate trusts a token it has checked: revocation takes effect within this. */
export const TOKEN_CACHE_MS = 10_000;
const MAX_CACHED_TOKENS = 10_000;

/**
 * A verified token (its secret matched), as the isolate remembers it for TOKEN_CACHE_MS:
 * revocation, expiry and suspension are decided from this copy.
 */
export interface VerifiedToken {
  principal: Principal;
  revoked: boolean;
  expiresAt: string | null;
  suspended: boolean;
  until: number;
}

// Keyed by SHA-256 of the whole presented token, so only a token whose secret matched is
// ever answered from memory; a wrong secret for a known id costs what an unknown id costs.
const verifiedTokens = new Map<string, VerifiedToken>();

/** The token remembered under this key (its re-check may be due: see `until`). */
export function rememberedToken(key: string): VerifiedToken | undefined {
  return verifiedTokens.get(key);
}

export function rememberToken(key: string, token: VerifiedToken): void {
  if (verifiedTokens.size >= MAX_CACHED_TOKENS) verifiedTokens.clear();
  verifiedTokens.set(key, token);
}

export function forgetToken(key: string): void {
  verifiedTokens.delete(key);
}

/** last_used_at is written at most this often per token and isolate, after the answer. */
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

/** Whether this isolate should write the token's last_used_at now (and, if so, it is noted as written). */
export function lastUseDue(tokenId: string, now: number): boolean {
  if ((lastUsedWritten.get(tokenId) ?? 0) > now - LAST_USED_EVERY_MS) return false;
  if (lastUsedWritten.size >= MAX_CACHED_TOKENS) lastUsedWritten.clear();
  lastUsedWritten.set(tokenId, now);
  return true;
}
