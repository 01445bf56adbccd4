// The ownership rules of zone names (src/registry/zone-ownership.ts), as pure functions.
import { describe, expect, it } from "vitest";
import { nameAndAncestors, reservedZoneName, type ZoneClaim, zoneClaimRefusal } from "../../src/registry/zone-ownership";

const EXTENSIONS = new Set(["com", "co.uk", "gov.example.uk"]);

function claim(fields: Partial<ZoneClaim>): ZoneClaim {
  return {
    name: "shop.example.com",
    accountId: "acc_a",
    operatorAccount: false,
    extensions: EXTENSIONS,
    zonesAbove: [],
    zonesBelow: [],
    domainsAtOrAbove: [],
    ...fields,
  };
}

describe("a customer's account holds no zone at or above an extension, nor at a top-level name", () => {
  it.each([
    ["com", "com is an extension offered here; a zone at an extension or above one is an operator's"],
    ["co.uk", "co.uk is an extension offered here; a zone at an extension or above one is an operator's"],
    ["example.uk", "example.uk is above the extension gov.example.uk; a zone at an extension or above one is an operator's"],
    ["uk", "uk is a top-level name; a zone there is an operator's"],
  ])("%s", (name, reason) => {
    expect(reservedZoneName(name, EXTENSIONS)).toBe(reason);
    expect(zoneClaimRefusal(claim({ name }))).toEqual({ kind: "reserved", message: reason });
    expect(zoneClaimRefusal(claim({ name, operatorAccount: true }))).toBeNull();
  });

  it("a name under an extension, or outside the catalog with two labels, is a customer's to claim", () => {
    for (const name of ["example.com", "www.example.co.uk", "reseller.example", "a.gov.example.uk"])
      expect(reservedZoneName(name, EXTENSIONS), name).toBeNull();
  });
});

describe("nobody holds a zone inside, above or at another account's names", () => {
  it.each([
    ["a zone of another account above", { zonesAbove: [{ name: "example.com", accountId: "acc_b" }] }],
    ["a zone of another account below", { zonesBelow: [{ name: "www.shop.example.com", accountId: "acc_b" }] }],
    ["a domain of another account at the name", { domainsAtOrAbove: [{ name: "shop.example.com", accountId: "acc_b" }] }],
    ["a domain of another account above", { domainsAtOrAbove: [{ name: "example.com", accountId: "acc_b" }] }],
  ])("%s: held, whoever asks", (_case, around) => {
    expect(zoneClaimRefusal(claim(around))).toEqual({ kind: "held" });
    expect(zoneClaimRefusal(claim({ ...around, operatorAccount: true }))).toEqual({ kind: "held" });
  });

  it("the account's own zones and domains around the name do not block it", () => {
    const own = { name: "example.com", accountId: "acc_a" };
    expect(zoneClaimRefusal(claim({ zonesAbove: [own], zonesBelow: [{ ...own, name: "x.shop.example.com" }], domainsAtOrAbove: [own] }))).toBeNull();
  });
});

it("the names that may hold a name: itself and every name above it", () => {
  expect(nameAndAncestors("a.b.example.com")).toEqual(["a.b.example.com", "b.example.com", "example.com", "com"]);
  expect(nameAndAncestors("org")).toEqual(["org"]);
});
