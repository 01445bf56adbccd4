// Route access declarations as pure rules (src/access/route-access.ts): what each kind of
// restricted token may use is what the route declares, and a declaration that says
// nothing refuses every restricted token (deny by default).
import { describe, expect, it } from "vitest";
import { accessRefusal, type Caller, type RouteAccess } from "../../src/access/route-access";
import type { TokenRights } from "../../src/access/token-rights";

const rights: TokenRights = {
  scope: "write",
  accountId: "acc_A",
  role: "customer",
  zones: null,
  domains: null,
  records: null,
  allowedIps: null,
  expiresAt: null,
};
const caller = (over: Partial<TokenRights> = {}, scope: Caller["scope"] = "write"): Caller => ({
  kind: "token",
  tokenId: "tok_SELF",
  name: "t",
  scope,
  rights: { ...rights, ...over, scope },
});
const zoneToken = caller({ zones: ["example.com"] });
const domainToken = caller({ domains: ["example.com"] });
const recordsToken = caller({ records: [{ name: "_acme-challenge", types: ["TXT"] }] });
const op = "POST /v1/x";

describe("deny by default", () => {
  const bare: RouteAccess = { scope: "write" };
  it("a route that declares nothing more than its scope refuses tokens narrowed to zones or domains", () => {
    expect(accessRefusal(bare, zoneToken, op)).toEqual({
      code: "forbidden",
      detail: "This token is restricted to named zones; POST /v1/x is not open to such tokens.",
    });
    expect(accessRefusal(bare, domainToken, op)?.detail).toBe("This token is restricted to named domains; POST /v1/x is not open to such tokens.");
  });
  it("and refuses tokens with records rules, naming the rules", () => {
    expect(accessRefusal(bare, recordsToken, op)).toEqual({
      code: "forbidden",
      detail: "This token may write only records (_acme-challenge TXT); POST /v1/x is not open to it.",
    });
  });
  it("an unrestricted write token passes", () => {
    expect(accessRefusal(bare, caller(), op)).toBeNull();
  });
});

describe("what a declaration opens", () => {
  it("narrow: visible lets zone and domain tokens through (visibility then decides what they find)", () => {
    expect(accessRefusal({ scope: "write", narrow: "visible" }, zoneToken, op)).toBeNull();
    expect(accessRefusal({ scope: "write", narrow: "visible" }, domainToken, op)).toBeNull();
  });
  it("records: true lets record-rule tokens through; narrow alone does not", () => {
    expect(accessRefusal({ scope: "write", records: true }, recordsToken, op)).toBeNull();
    expect(accessRefusal({ scope: "write", narrow: "visible" }, recordsToken, op)?.code).toBe("forbidden");
  });
  it("a token both narrow and with records rules needs both grants", () => {
    const acme = caller({ zones: ["example.com"], records: [{ name: "_acme-challenge", types: ["TXT"] }] });
    expect(accessRefusal({ scope: "write", narrow: "visible" }, acme, op)?.code).toBe("forbidden");
    expect(accessRefusal({ scope: "write", records: true }, acme, op)?.code).toBe("forbidden");
    expect(accessRefusal({ scope: "write", narrow: "visible", records: true }, acme, op)).toBeNull();
  });
  it("self admits a restricted token only on itself", () => {
    const self: RouteAccess = { scope: "read", narrow: "self", records: "self" };
    expect(accessRefusal(self, zoneToken, "GET /v1/tokens/{token}", "tok_SELF")).toBeNull();
    expect(accessRefusal(self, zoneToken, "GET /v1/tokens/{token}", "tok_OTHER")?.detail).toBe(
      "This token is restricted to named zones; it may use GET /v1/tokens/{token} only on itself.",
    );
    expect(accessRefusal(self, recordsToken, "GET /v1/tokens/{token}", "tok_OTHER")?.code).toBe("forbidden");
    expect(accessRefusal(self, recordsToken, "GET /v1/me")).toBeNull();
  });
  it("dns routes serve only the operator's unrestricted dns token: a customer's or a narrowed one is refused", () => {
    expect(accessRefusal({ scope: "dns" }, caller({}, "dns"), op)?.detail).toBe(
      "POST /v1/x serves the operator's DNS tier, which serves every account's zones; a dns-scope token belongs to the operator's account, and this one to a customer's.",
    );
    expect(accessRefusal({ scope: "dns" }, caller({ role: "operator", zones: ["example.com"] }, "dns"), op)?.detail).toBe(
      "POST /v1/x serves the operator's DNS tier, which serves every account's zones; a dns-scope token is not restricted to zones or domains, and this one is.",
    );
  });

  it("operator routes refuse customers", () => {
    expect(accessRefusal({ scope: "write", operator: true }, caller(), op)?.detail).toBe(
      "POST /v1/x is for the operator's tokens only; this token belongs to a customer account.",
    );
    expect(accessRefusal({ scope: "write", operator: true }, caller({ role: "operator" }), op)).toBeNull();
  });
});

describe("scopes", () => {
  it("a read token is refused a write route", () => {
    expect(accessRefusal({ scope: "write" }, caller({}, "read"), op)?.detail).toBe('The token "t" has the read scope; POST /v1/x needs a write token.');
  });
  it("a dns token serves only dns routes, and only a dns token does", () => {
    expect(accessRefusal({ scope: "read" }, caller({}, "dns"), op)?.code).toBe("forbidden");
    expect(accessRefusal({ scope: "dns" }, caller({ role: "operator" }, "dns"), op)).toBeNull();
    expect(accessRefusal({ scope: "dns" }, caller(), op)?.code).toBe("forbidden");
  });
  it("public routes need nothing; others need a token", () => {
    const nobody: Caller = { kind: "public", tokenId: null, name: "public", scope: "read", rights: null };
    expect(accessRefusal({ scope: "public" }, nobody, op)).toBeNull();
    expect(accessRefusal({ scope: "read" }, nobody, op)?.code).toBe("unauthorized");
  });
});
