// What each caller sees of D1 (src/access/visibility.ts, docs/accounts.md): the rule that
// picks a viewer's visibility from its token's rights, and the statements that enforce it.
// Route by route, through the Worker: test/visibility.test.ts.
import { describe, expect, it } from "vitest";
import type { TokenRights } from "../../src/access/token-rights";
import { scopeStatement, visibilityOf, visibilityPrefix } from "../../src/access/visibility";

const rights = (role: TokenRights["role"], over: Partial<TokenRights> = {}): TokenRights => ({
  accountId: role === "operator" ? "acc_OPERATOR" : "acc_CUSTOMER",
  role,
  scope: "write",
  zones: null,
  domains: null,
  records: null,
  allowedIps: null,
  expiresAt: null,
  ...over,
});

describe("visibilityOf: an operator's unrestricted token sees everything; a customer's its account; a narrowed token its named zones or domains", () => {
  it("an operator's unrestricted token is not scoped", () => {
    expect(visibilityOf(rights("operator"))).toBeNull();
  });
  it("a customer's token sees its own account, every zone and domain of it", () => {
    expect(visibilityOf(rights("customer"))).toEqual({ accountId: "acc_CUSTOMER", zones: null, domains: null });
  });
  it("a token narrowed to zones sees those zones and no domain, an operator's across accounts", () => {
    expect(visibilityOf(rights("customer", { zones: ["example.com"] }))).toEqual({ accountId: "acc_CUSTOMER", zones: ["example.com"], domains: [] });
    expect(visibilityOf(rights("operator", { domains: ["example.net"] }))).toEqual({ accountId: null, zones: [], domains: ["example.net"] });
  });
});

describe("scopeStatement: reads go through the viewer's tables, writes are left as they are", () => {
  const prefix = visibilityPrefix({ accountId: "acc_CUSTOMER", zones: null, domains: null });
  it("puts the viewer's expressions before a SELECT and among a WITH's own", () => {
    expect(scopeStatement("select * from contacts", prefix)).toMatch(/^WITH "accounts" AS NOT MATERIALIZED .*\nselect \* from contacts$/s);
    expect(scopeStatement("with x as (select 1) select * from x", prefix)).toMatch(
      /^with "accounts" AS NOT MATERIALIZED .*,\n\s*x as \(select 1\) select \* from x$/s,
    );
  });
  it("leaves INSERT, UPDATE and DELETE alone", () => {
    for (const statement of ["insert into contacts values (1)", "update contacts set city = 'x'", "delete from contacts"]) {
      expect(scopeStatement(statement, prefix)).toBe(statement);
    }
  });
  it("quotes the account as a literal", () => {
    expect(visibilityPrefix({ accountId: "acc_'x", zones: null, domains: null })).toContain("account_id = 'acc_''x'");
  });
});
