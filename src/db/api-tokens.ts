// The api_tokens reads and writes of authentication (src/http/auth.ts), in raw SQL: one
// read per token checked (the token with its account, and whether any token is active, so
// that the service fails closed), and the last_used_at note. Tokens are minted and
// revoked through the write routine (src/resources/tokens/).
import type { accounts, apiTokens } from "./schema";

/** A token's row with its account's standing, as authentication reads it; all null for no such token. */
export interface TokenWithAccount {
  id: string | null;
  name: string | null;
  scope: (typeof apiTokens.$inferSelect)["scope"] | null;
  secret_hash: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  account_id: string | null;
  zones: string | null;
  domains: string | null;
  records: string | null;
  allowed_ips: string | null;
  last_used_at: string | null;
  role: (typeof accounts.$inferSelect)["role"] | null;
  account_status: (typeof accounts.$inferSelect)["status"] | null;
  account_limits: string | null;
  /** 1 when any token is not revoked: with none, the service refuses every non-public request. */
  any_active: number;
}

const NO_TOKEN: TokenWithAccount = {
  id: null,
  name: null,
  scope: null,
  secret_hash: null,
  revoked_at: null,
  expires_at: null,
  account_id: null,
  zones: null,
  domains: null,
  records: null,
  allowed_ips: null,
  last_used_at: null,
  role: null,
  account_status: null,
  account_limits: null,
  any_active: 0,
};

/**
 * One D1 read: the token's row with its account (if any), and whether any active token
 * exists (to fail closed). The same query for an unknown id (or none), so that it costs
 * what a known one costs.
 */
export async function readTokenWithAccount(d1: D1Database, id: string | null): Promise<TokenWithAccount> {
  const row = await d1
    .prepare(
      `select t.id, t.name, t.scope, t.secret_hash, t.revoked_at, t.expires_at, t.account_id, t.zones, t.domains,
            t.records, t.allowed_ips, t.last_used_at, a.role, a.status as account_status, a.limits as account_limits,
            exists (select 1 from api_tokens x where x.revoked_at is null) as any_active
       from (select 1) left join api_tokens t on t.id = ?1 left join accounts a on a.id = t.account_id`,
    )
    .bind(id ?? "")
    .first<TokenWithAccount>();
  return row ?? { ...NO_TOKEN };
}

/** Sets the token's last_used_at; a failure is swallowed (the note is advisory: it never fails a request). */
export function writeTokenLastUsed(d1: D1Database, tokenId: string, at: Date): Promise<unknown> {
  return d1
    .prepare("update api_tokens set last_used_at = ?1 where id = ?2")
    .bind(at.toISOString(), tokenId)
    .run()
    .catch(() => undefined);
}
