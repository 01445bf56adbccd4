// What a route needs, declared where the route is defined (`defineRoute({ access })`) and
// decided here, once, before the route reads its body: pure functions over the caller's
// rights, no HTTP, no D1. Deny by default: a route admits tokens restricted to zones or
// domains, or tokens with `records` rules, only when its declaration says so — a new
// route that says nothing is closed to every restricted token (docs/accounts.md,
// "Who may use which route").
import type { Principal } from "./principal";
import { isNarrow, type TokenRights } from "./token-rights";

export interface RouteAccess {
  /**
   * The credential the route needs: `public` none (documents); `read` any read or write
   * token; `write` a write token; `dns` only the DNS backend's dns-scope token.
   */
  scope: "public" | "read" | "write" | "dns";
  /** Only tokens of an operator account (customers: 403). */
  operator?: true;
  /**
   * Tokens restricted to named zones or domains may use the route: `visible` on the
   * objects they see (the visibility layer, src/access/visibility.ts, hides the rest: 404);
   * `self` only on the token itself (the path's `{token}` is the caller's own id, or
   * the route has no `{token}`: `/me`).
   */
  narrow?: "visible" | "self";
  /**
   * Tokens with `records` rules may use the route: `true` for record reads and writes (each
   * write checks the rules, src/http/caller.ts) and reads of the zones they are in;
   * `self` only on the token itself. Every other route is closed to them.
   */
  records?: true | "self";
}

/** Who is calling: the principal authentication resolved. */
export type Caller = Principal;

export type AccessRefusal = { code: "forbidden"; detail: string } | { code: "unauthorized"; detail: string };

function restriction(rights: TokenRights): string {
  if (rights.zones !== null && rights.domains !== null) return "restricted to named zones and domains";
  if (rights.zones !== null) return "restricted to named zones";
  return "restricted to named domains";
}

/**
 * Why the caller may not use a route (null when it may). `pathToken` is the route's
 * `{token}` parameter, for routes whose narrow callers may act only on themselves.
 */
export function accessRefusal(access: RouteAccess, caller: Caller, operation: string, pathToken?: string): AccessRefusal | null {
  if (access.scope === "public") return null;
  if (access.scope === "dns") {
    if (caller.scope !== "dns") return { code: "forbidden", detail: `${operation} serves only the DNS backend's dns-scope token.` };
    const misfit = caller.rights ? dnsTokenMisfit(caller.rights) : null;
    return misfit ? { code: "forbidden", detail: `${operation} serves the operator's DNS tier, which serves every account's zones; ${misfit}.` } : null;
  }
  if (caller.kind === "public" || caller.rights === null) return { code: "unauthorized", detail: "Send `Authorization: Bearer <token>`." };
  const rights = caller.rights;
  if (caller.scope === "dns") {
    return {
      code: "forbidden",
      detail: `The token "${caller.name}" has the dns scope, which serves only the DNS backend; use a read or write token for ${operation}.`,
    };
  }
  if (access.scope === "write" && caller.scope !== "write") {
    return { code: "forbidden", detail: `The token "${caller.name}" has the read scope; ${operation} needs a write token.` };
  }
  if (access.operator && rights.role !== "operator") {
    return { code: "forbidden", detail: `${operation} is for the operator's tokens only; this token belongs to a customer account.` };
  }
  if (isNarrow(rights)) {
    if (access.narrow === undefined) {
      return { code: "forbidden", detail: `This token is ${restriction(rights)}; ${operation} is not open to such tokens.` };
    }
    if (access.narrow === "self" && pathToken !== undefined && pathToken !== caller.tokenId) {
      return { code: "forbidden", detail: `This token is ${restriction(rights)}; it may use ${operation} only on itself.` };
    }
  }
  if (rights.records !== null) {
    if (access.records === undefined) {
      return { code: "forbidden", detail: `This token may write only records (${describeRules(rights)}); ${operation} is not open to it.` };
    }
    if (access.records === "self" && pathToken !== undefined && pathToken !== caller.tokenId) {
      return { code: "forbidden", detail: `This token may write only records (${describeRules(rights)}); it may use ${operation} only on itself.` };
    }
  }
  return null;
}

function describeRules(rights: TokenRights): string {
  return (rights.records ?? []).map((rule) => `${rule.name} ${rule.types.join("/")}`).join(", ") || "no name";
}

/** The declaration as the OpenAPI document shows it (`x-access`), for clients and the docs. */
export function describeAccess(access: RouteAccess): Record<string, unknown> {
  return {
    scope: access.scope,
    operator_only: access.operator === true,
    narrow_tokens: access.narrow ?? "refused",
    record_rule_tokens: access.records === true ? "allowed" : (access.records ?? "refused"),
  };
}

/**
 * Why a dns-scope token with these rights cannot be the DNS backend's (null when it can).
 * The backend is the serving tier's: it answers for every account's zones, the catalog and
 * NOTIFY bookkeeping (docs/serving.md), so its token is the operator's and unrestricted;
 * a customer's or a narrowed dns token would be a second, partial tier (docs/decisions.md).
 */
export function dnsTokenMisfit(rights: TokenRights): string | null {
  if (rights.role !== "operator") return "a dns-scope token belongs to the operator's account, and this one to a customer's";
  if (isNarrow(rights)) return "a dns-scope token is not restricted to zones or domains, and this one is";
  return null;
}
