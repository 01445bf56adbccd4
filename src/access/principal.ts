// Who is making a request, as authentication (src/http/auth.ts) resolves it and every
// access rule reads it.
import type { TokenRights, TokenScope } from "./token-rights";

/**
 * Who is making the request. A token is identified by its id, never by its name (a name
 * is the user's choice and could be "public" or "local"): rate limits, idempotency keys
 * and the audit trail key on `tokenId`.
 */
export interface Principal {
  /** `token`: a bearer token; `local`: authentication off (npm start); `public`: no token, public documents. */
  kind: "token" | "local" | "public";
  /** The token's id (`tok_…`); null for `local` and `public`. */
  tokenId: string | null;
  /** The token's name, for messages only. */
  name: string;
  scope: TokenScope;
  /**
   * What the principal may see and do: its account, role and restrictions (docs/accounts.md).
   * Local development acts as the operator account, unrestricted; `public` has none.
   */
  rights: TokenRights | null;
  /**
   * A token's account's limits as the operator overrode them (accounts.limits), read with
   * the token: its requests_per_minute is enforced per request (src/http/rate-limit.ts).
   */
  accountLimits?: Partial<Record<string, number>> | null;
}
