// Token restrictions and attenuation (docs/accounts.md) as pure rules, without HTTP or D1.
import { describe, expect, it } from "vitest";
import {
  addressAllowed,
  ownerPatternMatches,
  parseCidr,
  recordWriteRefusal,
  type TokenRights,
  visibleDomainNames,
  visibleZoneNames,
  widening,
} from "../../src/access/token-rights";

const customer: TokenRights = {
  scope: "write",
  accountId: "acc_A",
  role: "customer",
  zones: null,
  domains: null,
  records: null,
  allowedIps: null,
  expiresAt: null,
};
const operator: TokenRights = { ...customer, accountId: "acc_OP", role: "operator" };
const acme: TokenRights = {
  ...customer,
  zones: ["example.com"],
  records: [{ name: "_acme-challenge", types: ["TXT"] }],
  expiresAt: "2026-11-23T05:00:00.000Z",
};

describe("records: owner-name patterns relative to the zone", () => {
  it.each([
    ["_acme-challenge", "_acme-challenge", true],
    ["_acme-challenge", "_ACME-Challenge", true],
    ["_acme-challenge", "www", false],
    ["_acme-challenge", "x._acme-challenge", false],
    ["@", "@", true],
    ["@", "www", false],
    ["*._domainkey", "s1._domainkey", true],
    ["*._domainkey", "a.b._domainkey", true],
    ["*._domainkey", "_domainkey", false],
    ["*._domainkey", "s1._domainkeyx", false],
    ["*", "www", true],
    ["*", "@", false],
  ])("pattern %s and owner %s → %s", (pattern, owner, expected) => {
    expect(ownerPatternMatches(pattern, owner)).toBe(expected);
  });

  it("a write outside every rule is refused naming the rules", () => {
    expect(recordWriteRefusal(acme, "_acme-challenge", "TXT")).toBeNull();
    expect(recordWriteRefusal(acme, "_acme-challenge", "txt")).toBeNull();
    expect(recordWriteRefusal(acme, "_acme-challenge", "A")).toBe(
      "This token may write records only for _acme-challenge TXT; A at _acme-challenge is not among them.",
    );
    expect(recordWriteRefusal(acme, "www", "TXT")).toContain("TXT at www is not among them");
    expect(recordWriteRefusal(customer, "anything", "A")).toBeNull();
  });
});

describe("zones and domains narrow what a token sees", () => {
  it("an unrestricted token sees all of its account's zones and domains", () => {
    expect(visibleZoneNames(customer)).toBeNull();
    expect(visibleDomainNames(customer)).toBeNull();
  });
  it("a token restricted to zones sees those zones and no domain", () => {
    expect(visibleZoneNames(acme)).toEqual(["example.com"]);
    expect(visibleDomainNames(acme)).toEqual([]);
  });
});

describe("allowed_ips: CIDRs, IPv4 and IPv6", () => {
  it.each([
    ["192.0.2.0/24", "192.0.2.0/24"],
    ["192.0.2.7", "192.0.2.7/32"],
    ["2001:DB8::/32", "2001:db8::/32"],
    ["0.0.0.0/0", "0.0.0.0/0"],
  ])("%s parses as %s", (input, text) => {
    expect(parseCidr(input)?.text).toBe(text);
  });
  it.each(["192.0.2.1/24", "192.0.2.0/33", "2001:db8::/129", "nope", "192.0.2.0/", "192.0.2.0/24/1"])("%s is refused", (input) => {
    expect(parseCidr(input)).toBeNull();
  });
  it("an address is allowed only inside one of the CIDRs", () => {
    const allowed = ["192.0.2.0/24", "2001:db8::/32"];
    expect(addressAllowed(allowed, "192.0.2.200")).toBe(true);
    expect(addressAllowed(allowed, "192.0.3.1")).toBe(false);
    expect(addressAllowed(allowed, "2001:db8:1::5")).toBe(true);
    expect(addressAllowed(allowed, "2001:db9::5")).toBe(false);
    expect(addressAllowed(allowed, null)).toBe(false);
    expect(addressAllowed(null, null)).toBe(true);
  });
});

describe("attenuation: a token mints only tokens with at most its own rights", () => {
  it("equal or narrower rights are fine", () => {
    expect(widening(customer, customer)).toBeNull();
    expect(widening(customer, acme)).toBeNull();
    expect(widening(customer, { ...customer, scope: "read" })).toBeNull();
    expect(widening(acme, { ...acme, expiresAt: "2026-11-23T04:00:00.000Z" })).toBeNull();
  });
  it("a wider scope is named", () => {
    expect(widening({ ...customer, scope: "read" }, customer)).toBe("scope write is wider than this token's scope read");
  });
  it("only an unrestricted operator token mints a dns token", () => {
    expect(widening(customer, { ...customer, scope: "dns" })).toContain("scope dns");
    expect(widening(operator, { ...operator, scope: "dns" })).toBeNull();
    expect(widening({ ...operator, allowedIps: ["192.0.2.0/24"] }, { ...operator, scope: "dns", allowedIps: ["192.0.2.0/24"] })).toBeNull();
  });
  it("another account: only operators", () => {
    expect(widening(customer, { ...customer, accountId: "acc_B" })).toBe("the token would belong to another account");
    expect(widening(operator, { ...customer, accountId: "acc_B" })).toBeNull();
  });
  it("zones and domains must stay within the minter's", () => {
    expect(widening(acme, { ...acme, zones: ["example.com", "other.com"] })).toBe("zones other.com are not among this token's zones");
    expect(widening(acme, { ...acme, zones: null, domains: ["example.com"] })).toBe("domains example.com are not among this token's domains");
    expect(widening(acme, { ...acme, zones: null })).toBe("the token would not be restricted to zones or domains, and this one is");
  });
  it("every records rule must be covered by one of the minter's", () => {
    expect(widening(acme, { ...acme, records: null })).toContain("would write records at any name");
    expect(widening(acme, { ...acme, records: [{ name: "_acme-challenge", types: ["TXT", "A"] }] })).toContain("is not covered");
    const dkim: TokenRights = { ...customer, records: [{ name: "*._domainkey", types: ["TXT"] }] };
    expect(widening(dkim, { ...dkim, records: [{ name: "s1._domainkey", types: ["TXT"] }] })).toBeNull();
    expect(widening(dkim, { ...dkim, records: [{ name: "*.s1._domainkey", types: ["TXT"] }] })).toBeNull();
    expect(widening(dkim, { ...dkim, records: [{ name: "*", types: ["TXT"] }] })).toContain("is not covered");
  });
  it("allowed_ips must lie inside the minter's", () => {
    const office: TokenRights = { ...customer, allowedIps: ["192.0.2.0/24"] };
    expect(widening(office, { ...office, allowedIps: ["192.0.2.128/25"] })).toBeNull();
    expect(widening(office, { ...office, allowedIps: ["192.0.0.0/16"] })).toBe("allowed_ips 192.0.0.0/16 is not inside this token's 192.0.2.0/24");
    expect(widening(office, { ...office, allowedIps: null })).toContain("usable from any address");
  });
  it("expires_at may not be later, nor absent when the minter's is set", () => {
    expect(widening(acme, { ...acme, expiresAt: "2026-11-23T06:00:00.000Z" })).toContain("is later than this token's");
    expect(widening(acme, { ...acme, expiresAt: null })).toContain("would never expire");
  });
});
