import type { TokenRow } from "./queries";
import type { Token } from "./schemas";

/**
 * A token's API representation: never its secret or the secret's hash. Its own module,
 * apart from the handlers, because GET /v1/me shows the caller's token.
 */
export function presentToken(row: TokenRow): Token {
  return {
    id: row.id,
    name: row.name,
    account: row.accountId,
    scope: row.scope,
    parent: row.parentId,
    zones: row.zones,
    domains: row.domains,
    records: row.records,
    allowed_ips: row.allowedIps,
    expires_at: row.expiresAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
    created_at: row.createdAt,
  };
}
