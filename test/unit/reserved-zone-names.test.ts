// Names no customer may hold, or nobody (src/registry/reserved-zone-names.ts), as pure
// rules: the catalog zone's names, special-use names, names under `arpa`, names at a
// public suffix; an operator's creation, or a zone of the account's own above, delegates.
import { describe, expect, it } from "vitest";
import { type ReservedNameClaim, reservedNameRefusal } from "../../src/registry/reserved-zone-names";
import { SPECIAL_USE_NAMES, specialUseName } from "../../src/dns/special-use-names";

function claim(fields: Partial<ReservedNameClaim>): ReservedNameClaim {
  return {
    name: "shop.example.com",
    accountId: "acc_a",
    byOperator: false,
    catalogZone: "catalog.invalid",
    testNamesAllowed: false,
    zonesAbove: [],
    ...fields,
  };
}

describe("nobody's zone is at or under the catalog zone's name, an operator's included", () => {
  it.each(["catalog.invalid", "zones.catalog.invalid", "x.zones.catalog.invalid"])("%s", (name) => {
    for (const byOperator of [false, true]) {
      const refusal = reservedNameRefusal(claim({ name, byOperator, zonesAbove: [{ name: "catalog.invalid", accountId: "acc_a" }] }));
      expect(refusal).toMatch(new RegExp(`^${name.replaceAll(".", "\\.")} (is|lies under) the catalog zone catalog\\.invalid, `));
    }
  });

  it("follows the configured name: a name beside it is not the catalog's", () => {
    expect(reservedNameRefusal(claim({ name: "members.catalog.example.net", catalogZone: "catalog.example.net" }))).toMatch(
      /catalog zone catalog\.example\.net/,
    );
    expect(reservedNameRefusal(claim({ name: "mycatalog.example.net", catalogZone: "catalog.example.net" }))).toBeNull();
  });
});

describe("a customer's zone is at or under no special-use name", () => {
  it.each([
    ["localhost", "localhost"],
    ["x.localhost", "localhost"],
    ["anything.invalid", "invalid"],
    ["printer.local", "local"],
    ["hidden.onion", "onion"],
    ["router.home.arpa", "home.arpa"],
    ["shop.test", "test"],
  ])("%s (%s)", (name, special) => {
    expect(reservedNameRefusal(claim({ name }))).toContain(`the special-use name ${special} (`);
    expect(reservedNameRefusal(claim({ name, byOperator: true }))).toBeNull();
  });

  it("test names only where the deployment takes them; example names are any names (RFC 6761 §6.5)", () => {
    expect(reservedNameRefusal(claim({ name: "shop.test", testNamesAllowed: true }))).toBeNull();
    expect(reservedNameRefusal(claim({ name: "x.localhost", testNamesAllowed: true }))).toContain("special-use name localhost");
    for (const name of ["shop.example", "example.com", "www.example.org"]) expect(reservedNameRefusal(claim({ name })), name).toBeNull();
    expect(specialUseName("testing.com")).toBeNull();
    expect(SPECIAL_USE_NAMES.map((special) => special.name)).toEqual(["localhost", "invalid", "test", "local", "onion", "home.arpa"]);
  });
});

describe("a customer's zone is under arpa only where an operator delegated it", () => {
  it("refused: reverse zones, ENUM", () => {
    for (const name of ["in-addr.arpa", "2.0.192.in-addr.arpa", "8.b.d.0.1.0.0.2.ip6.arpa", "4.4.e164.arpa"])
      expect(reservedNameRefusal(claim({ name })), name).toMatch(/^(\S+ lies under arpa|\S+ is a public suffix)/);
    expect(reservedNameRefusal(claim({ name: "2.0.192.in-addr.arpa" }))).toBe(
      "2.0.192.in-addr.arpa lies under arpa, the Internet's infrastructure domain (RFC 3172): a reverse zone is delegated with the addresses it maps, so an operator creates it for the account that holds them",
    );
  });

  it("an operator may, for any account; inside a zone of the account's own the names are its own", () => {
    expect(reservedNameRefusal(claim({ name: "2.0.192.in-addr.arpa", byOperator: true }))).toBeNull();
    const delegated = { name: "0.192.in-addr.arpa", accountId: "acc_a" };
    expect(reservedNameRefusal(claim({ name: "2.0.192.in-addr.arpa", zonesAbove: [delegated] }))).toBeNull();
    expect(reservedNameRefusal(claim({ name: "2.0.192.in-addr.arpa", zonesAbove: [{ ...delegated, accountId: "acc_b" }] }))).toMatch(/lies under arpa/);
  });
});

describe("a customer's zone is at no public suffix, of either section of the list", () => {
  it.each([
    ["ac.uk", "the Public Suffix List's ICANN section, rule ac.uk"],
    ["gov.uk", "the Public Suffix List's ICANN section, rule gov.uk"],
    ["anything.ck", "the Public Suffix List's ICANN section, rule *.ck"],
    ["github.io", "the Public Suffix List's PRIVATE section, rule github.io"],
  ])("%s", (name, rule) => {
    expect(reservedNameRefusal(claim({ name }))).toBe(
      `${name} is a public suffix (${rule}): a zone there would take the names its registry hands out to others; an operator may create it for the account that runs it`,
    );
    expect(reservedNameRefusal(claim({ name, byOperator: true }))).toBeNull();
  });

  it("a name under a suffix is a customer's to claim", () => {
    for (const name of ["cam.ac.uk", "alice.github.io", "city.kobe.jp", "shop.example.com"]) expect(reservedNameRefusal(claim({ name })), name).toBeNull();
  });
});
