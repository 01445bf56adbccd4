// Unit tests of the pure registry policy (no HTTP, no database).
import { describe, expect, it } from "vitest";
import { matchRegistrableName, registrableDomainOf } from "../src/registry/extensions";
import { canonicalAddresses, glueProblem, normalizeHostName } from "../src/registry/hosts";
import { expiryAfter, periodProblem } from "../src/registry/periods";
import { canonicalStatuses, clientStatusProblem, domainStatus, objectStatus, updateProhibited } from "../src/registry/statuses";
import { missingAddressFields } from "../src/registry/contacts";
import { isCountryCode } from "../src/registry/countries";

const extensions = new Map(["com", "uk", "co.uk", "de"].map((id) => [id, { id }]));

describe("extension matching", () => {
  it("takes the longest extension that is a suffix", () => {
    expect(matchRegistrableName("example.co.uk", extensions)).toEqual({ ok: true, match: { extension: { id: "co.uk" }, label: "example" } });
    expect(matchRegistrableName("example.uk", extensions)).toEqual({ ok: true, match: { extension: { id: "uk" }, label: "example" } });
  });
  it("refuses names deeper than one label under the extension", () => {
    const result = matchRegistrableName("www.example.com", extensions);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain("not a registrable name");
  });
  it("refuses an extension itself and names under no extension", () => {
    expect(matchRegistrableName("co.uk", extensions)).toMatchObject({ ok: false, error: expect.stringContaining("extension itself") });
    expect(matchRegistrableName("example.invalid", extensions)).toMatchObject({ ok: false, error: expect.stringContaining(".invalid") });
  });
  it("finds the one domain that can be superordinate to a host", () => {
    expect(registrableDomainOf("ns1.example.co.uk", extensions)).toBe("example.co.uk");
    expect(registrableDomainOf("a.b.example.com", extensions)).toBe("example.com");
    expect(registrableDomainOf("example.com", extensions)).toBe("example.com");
    expect(registrableDomainOf("ns1.example.org", extensions)).toBeNull();
  });
});

describe("domain statuses", () => {
  it("lets clients set only client statuses", () => {
    expect(clientStatusProblem("clientHold")).toBeNull();
    expect(clientStatusProblem("serverHold")).toBe('"serverHold" cannot be set by clients');
    expect(clientStatusProblem("ok")).toBe('"ok" cannot be set by clients');
    expect(clientStatusProblem("pendingDelete")).toBe('"pendingDelete" cannot be set by clients');
    expect(clientStatusProblem("bogus")).toContain("is not a domain status");
  });
  it("orders and deduplicates client statuses", () => {
    expect(canonicalStatuses(["clientUpdateProhibited", "clientHold", "clientHold"])).toEqual(["clientHold", "clientUpdateProhibited"]);
  });
  it("adds inactive without name servers and shows ok alone when nothing else applies", () => {
    expect(domainStatus([], 2)).toEqual(["ok"]);
    expect(domainStatus([], 0)).toEqual(["inactive"]);
    expect(domainStatus(["clientHold"], 0)).toEqual(["clientHold", "inactive"]);
    expect(domainStatus(["clientHold"], 1)).toEqual(["clientHold"]);
  });
  it("computes linked for contacts and hosts", () => {
    expect(objectStatus(true)).toEqual(["linked"]);
    expect(objectStatus(false)).toEqual(["ok"]);
  });
  it("under clientUpdateProhibited allows only the change that removes it", () => {
    expect(updateProhibited(["clientUpdateProhibited"], undefined)).toBe(true);
    expect(updateProhibited(["clientUpdateProhibited"], ["clientUpdateProhibited", "clientHold"])).toBe(true);
    expect(updateProhibited(["clientUpdateProhibited"], [])).toBe(false);
    expect(updateProhibited([], undefined)).toBe(false);
  });
});

describe("registration periods", () => {
  it("must lie in the extension's range", () => {
    expect(periodProblem(1, { min: 1, max: 10 }, "com")).toBeNull();
    expect(periodProblem(11, { min: 1, max: 10 }, "com")).toBe(".com registers for 1 to 10 years");
    expect(periodProblem(2, { min: 1, max: 1 }, "de")).toBe(".de registers for exactly 1 year");
  });
  it("expire whole calendar years later, 29 February falling back to 28 February", () => {
    expect(expiryAfter(new Date("2026-11-22T09:30:00.000Z"), 2).toISOString()).toBe("2028-11-22T09:30:00.000Z");
    expect(expiryAfter(new Date("2028-02-29T12:00:00.000Z"), 1).toISOString()).toBe("2029-02-28T12:00:00.000Z");
    expect(expiryAfter(new Date("2028-02-29T12:00:00.000Z"), 4).toISOString()).toBe("2032-02-29T12:00:00.000Z");
  });
});

describe("hosts and glue", () => {
  it("host names have at least two labels", () => {
    expect(normalizeHostName("localhost")).toMatchObject({ ok: false, error: "must have at least 2 labels" });
    expect(normalizeHostName("NS1.Example.NET.")).toEqual({ ok: true, name: "ns1.example.net" });
  });
  it("subordinate hosts need 1 to 13 addresses, external hosts none", () => {
    expect(glueProblem(true, 0, "example.com")).toContain("needs 1 to 13 addresses");
    expect(glueProblem(true, 14, "example.com")).toContain("at most 13");
    expect(glueProblem(true, 2, "example.com")).toBeNull();
    expect(glueProblem(false, 1, null)).toContain("glue belongs to subordinate hosts only");
    expect(glueProblem(false, 0, null)).toBeNull();
  });
  it("canonicalises addresses and reports each bad one by index", () => {
    expect(canonicalAddresses(["192.0.2.1", "2001:DB8::1"])).toEqual({ addresses: ["192.0.2.1", "2001:db8::1"], problems: [] });
    expect(canonicalAddresses(["2001:db8::1", "2001:db8:0::1", "127.0.0.1", "nope"]).problems).toEqual([
      { index: 1, message: "2001:db8::1 is listed twice" },
      { index: 2, message: "127.0.0.1 is a loopback address" },
      { index: 3, message: '"nope" is not an IPv4 or IPv6 address' },
    ]);
  });
});

describe("contacts", () => {
  it("a registrant, admin or tech contact needs a city and a country", () => {
    expect(missingAddressFields({ city: null, countryCode: null })).toEqual(["address.city", "address.country_code"]);
    expect(missingAddressFields({ city: "London", countryCode: "GB" })).toEqual([]);
  });
  it("country codes are assigned ISO 3166-1 alpha-2 codes", () => {
    expect(isCountryCode("gb")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
    expect(isCountryCode("UK")).toBe(false);
  });
});
