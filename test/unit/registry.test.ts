// Unit tests of the pure registry policy (no HTTP, no database).
import { describe, expect, it } from "vitest";
import { idnErrors, matchRegistrableName, registrableDomainOf } from "../../src/registry/extensions";
import { nameserverCountErrors, nameserverNames, newNameserverHosts, superordinateCandidates } from "../../src/registry/nameservers";
import { canonicalAddresses, glueAddresses, glueErrors, glueProblem, normalizeHostName } from "../../src/registry/hosts";
import { expiryAfter, periodErrors, periodProblem, wholeYearsErrors } from "../../src/registry/periods";
import {
  autoRenewAllowed,
  canonicalLockStatuses,
  canonicalStatuses,
  clientStatusProblem,
  delegationPublished,
  domainStatus,
  isLockChangeOnly,
  LOCK_STATUSES,
  objectStatus,
  PROHIBITING_STATUSES,
  prohibitingStatus,
  statusSettingErrors,
  sweepDeleteAllowed,
} from "../../src/registry/statuses";
import { fromCents, namePricing, priceConfirmationErrors, priceOf, priceTable, reservedNameErrors, toCents } from "../../src/registry/prices";
import { unavailability } from "../../src/registry/extensions";
import { addressRequiredErrors, contactAddressErrors, contactsNeedingAddress, missingAddressFields, unknownContactErrors } from "../../src/registry/contacts";
import { isCountryCode } from "../../src/registry/countries";

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
    expect(prohibitingStatus("update", ["clientUpdateProhibited"], undefined)).toBe("clientUpdateProhibited");
    expect(prohibitingStatus("update", ["clientUpdateProhibited"], ["clientUpdateProhibited", "clientHold"])).toBe("clientUpdateProhibited");
    expect(prohibitingStatus("update", ["clientUpdateProhibited"], [])).toBeNull();
    expect(prohibitingStatus("update", [], undefined)).toBeNull();
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

// The rules a domain or host write calls, each a named pure function that returns the
// field errors it finds (none when the input is fine).

describe("forbidden statuses are a table: operation → statuses", () => {
  it("each operation is forbidden by its client and server status", () => {
    expect(PROHIBITING_STATUSES.delete).toEqual(expect.arrayContaining(["clientDeleteProhibited", "serverDeleteProhibited"]));
    expect(prohibitingStatus("delete", ["clientHold", "clientDeleteProhibited"])).toBe("clientDeleteProhibited");
    expect(prohibitingStatus("delete", ["clientUpdateProhibited"])).toBeNull();
    expect(prohibitingStatus("renew", ["clientRenewProhibited"])).toBe("clientRenewProhibited");
    expect(prohibitingStatus("transfer", ["serverTransferProhibited"])).toBe("serverTransferProhibited");
  });
  it("a delete cannot remove its own prohibition: only an update can", () => {
    expect(prohibitingStatus("delete", ["clientDeleteProhibited"], [])).toBe("clientDeleteProhibited");
  });
  it("reports each status a client may not set at its index; the lock is read-only to customers, the operator's to set", () => {
    const customer = statusSettingErrors(["clientHold", "ok", "serverHold", "pendingDelete"], false);
    expect(customer.invalid.map((e) => e.field)).toEqual(["status[1]", "status[3]"]);
    expect(customer.readOnly).toEqual([{ field: "status[2]", message: expect.stringContaining("only the registry's operator") }]);
    const operator = statusSettingErrors(["clientHold", "ok", "serverHold", "frozen"], true);
    expect(operator.readOnly).toEqual([]);
    expect(operator.invalid).toEqual([
      { field: "status[1]", message: '"ok" is the registry\'s to compute, not to set' },
      { field: "status[3]", message: expect.stringContaining("is not a domain status") },
    ]);
    expect(statusSettingErrors(["clientHold"], false)).toEqual({ readOnly: [], invalid: [] });
  });
});

describe("the registry lock (RFC 5731 §2.3 server statuses)", () => {
  it("each lock status forbids what it names; an update may remove its own prohibition, the lock by the operator's status", () => {
    expect(prohibitingStatus("update", ["serverUpdateProhibited"])).toBe("serverUpdateProhibited");
    expect(prohibitingStatus("update", ["serverUpdateProhibited"], ["serverUpdateProhibited", "clientHold"])).toBe("serverUpdateProhibited");
    expect(prohibitingStatus("update", ["serverUpdateProhibited"], [])).toBeNull();
    expect(prohibitingStatus("delete", ["serverDeleteProhibited"], [])).toBe("serverDeleteProhibited");
    expect(prohibitingStatus("renew", ["serverRenewProhibited"])).toBe("serverRenewProhibited");
    expect(prohibitingStatus("restore", ["serverUpdateProhibited", "pendingDelete"])).toBe("serverUpdateProhibited");
    expect(prohibitingStatus("restore", ["clientUpdateProhibited", "pendingDelete"])).toBeNull();
    expect(prohibitingStatus("approveTransfer", ["serverTransferProhibited", "pendingTransfer"])).toBe("serverTransferProhibited");
    expect(prohibitingStatus("approveTransfer", ["clientTransferProhibited", "pendingTransfer"])).toBeNull();
    expect(prohibitingStatus("update", ["serverHold"])).toBeNull();
  });
  it("a change of the lock alone is told apart from an update", () => {
    const current = { statuses: ["clientHold"], serverStatuses: [] as string[] };
    expect(isLockChangeOnly(current, { statuses: ["clientHold"], serverStatuses: ["serverHold"] }, false)).toBe(true);
    expect(isLockChangeOnly(current, { statuses: ["clientHold"], serverStatuses: ["serverHold"] }, true)).toBe(false);
    expect(isLockChangeOnly(current, { statuses: [], serverStatuses: ["serverHold"] }, false)).toBe(false);
    expect(isLockChangeOnly(current, { statuses: ["clientHold"], serverStatuses: [] }, false)).toBe(false);
  });
  it("binds the sweep: no auto-renewal under either renew prohibition, no deletion under serverDeleteProhibited", () => {
    expect(autoRenewAllowed({ autoRenew: true, statuses: [], serverStatuses: [] })).toBe(true);
    expect(autoRenewAllowed({ autoRenew: true, statuses: [], serverStatuses: ["serverRenewProhibited"] })).toBe(false);
    expect(autoRenewAllowed({ autoRenew: true, statuses: ["clientRenewProhibited"], serverStatuses: [] })).toBe(false);
    expect(autoRenewAllowed({ autoRenew: false, statuses: [], serverStatuses: [] })).toBe(false);
    expect(sweepDeleteAllowed(["serverDeleteProhibited"])).toBe(false);
    expect(sweepDeleteAllowed(["serverHold"])).toBe(true);
  });
  it("a held domain's delegation is not published (serverHold or clientHold)", () => {
    expect(delegationPublished(["serverHold"])).toBe(false);
    expect(delegationPublished(["clientHold", "inactive"])).toBe(false);
    expect(delegationPublished(["serverDeleteProhibited"])).toBe(true);
  });
  it("shows the lock after the client statuses, in canonical order", () => {
    expect(canonicalLockStatuses(["serverUpdateProhibited", "serverHold", "clientHold", "serverHold"])).toEqual(["serverHold", "serverUpdateProhibited"]);
    expect(domainStatus(["clientHold"], 1, ["serverHold", "pendingDelete"])).toEqual(["clientHold", "serverHold", "pendingDelete"]);
    expect(LOCK_STATUSES).toHaveLength(5);
  });
});

describe("prices (src/registry/prices.ts)", () => {
  const xyz = { currency: "USD", register: "3.00", renew: "15.00", transfer: "15.00", restore: "40.00" };
  it("amounts are cents, never floating point", () => {
    expect(toCents("12")).toBe(1200);
    expect(toCents("12.5")).toBe(1250);
    expect(toCents("0.07")).toBe(7);
    expect(toCents("1.234")).toBeNull();
    expect(toCents("-1")).toBeNull();
    expect(fromCents(1250)).toBe("12.50");
    expect(fromCents(7)).toBe("0.07");
    // 0.1 + 0.2 is not 0.3 in floating point; in cents it is.
    expect(priceOf({ ...xyz, register: "0.10", renew: "0.20" }, "register", 2).amount).toBe("0.30");
  });
  it("n years of registration are the first year and n-1 renewals; a transfer's first year is its own; a restore is its fee", () => {
    expect(priceOf(xyz, "register", 1)).toEqual({ currency: "USD", amount: "3.00" });
    expect(priceOf(xyz, "register", 3)).toEqual({ currency: "USD", amount: "33.00" });
    expect(priceOf(xyz, "renew", 2).amount).toBe("30.00");
    expect(priceOf(xyz, "transfer", 2).amount).toBe("30.00");
    expect(priceOf(xyz, "restore", 1).amount).toBe("40.00");
    expect(priceTable(xyz, { min: 1, max: 2 })).toEqual({
      currency: "USD",
      register: { "1": "3.00", "2": "18.00" },
      renew: { "1": "15.00", "2": "30.00" },
      transfer: { "1": "15.00", "2": "30.00" },
      restore: "40.00",
    });
  });
  it("a premium name has its own prices, a reserved name none to register", () => {
    const listed = new Map([
      ["3d.xyz", { kind: "premium" as const, prices: { ...xyz, register: "750.00" } }],
      ["nic.xyz", { kind: "reserved" as const, prices: null }],
    ]);
    const extension = { prices: xyz };
    expect(namePricing("3d.xyz", extension, listed)).toMatchObject({ premium: true, reserved: false, yearly: { register: "750.00" } });
    expect(namePricing("nic.xyz", extension, listed)).toMatchObject({ premium: false, reserved: true });
    expect(reservedNameErrors("nic.xyz", namePricing("nic.xyz", extension, listed))).toEqual([
      { field: "name", message: "nic.xyz is reserved by its registry and cannot be registered" },
    ]);
    expect(namePricing("other.xyz", extension, listed)).toEqual({ premium: false, reserved: false, yearly: xyz });
  });
  it("a premium operation needs its price confirmed, equal to the charge (RFC 8748); an ordinary one may confirm it", () => {
    const charged = { currency: "USD", amount: "2500.00" };
    const premium = { name: "vacation.com", operation: "register" as const, years: 1, premium: true };
    expect(priceConfirmationErrors(charged, undefined, premium)[0]!.message).toBe(
      'is required: registering vacation.com for 1 year costs a premium price: 2500.00 USD; confirm it with "price": "2500.00" (RFC 8748)',
    );
    expect(priceConfirmationErrors(charged, "2400.00", premium)[0]!.message).toContain('"2400.00" is not the price');
    expect(priceConfirmationErrors(charged, "2500", premium)).toEqual([]);
    const ordinary = { ...premium, name: "plain.com", premium: false };
    expect(priceConfirmationErrors({ currency: "USD", amount: "12.00" }, undefined, ordinary)).toEqual([]);
    expect(priceConfirmationErrors({ currency: "USD", amount: "12.00" }, "11.00", ordinary)).toHaveLength(1);
  });
});

describe("availability (a check's reason)", () => {
  const catalog = new Map([
    ["com", { id: "com", idn: true }],
    ["io", { id: "io", idn: false }],
  ]);
  it("invalid, unsupported_extension, registered, reserved, or available, in the order a registration refuses", () => {
    const facts = { registered: false, reserved: false };
    expect(unavailability(null, "bad_name", facts)).toBe("invalid");
    expect(unavailability(matchRegistrableName("www.a.com", catalog), "www.a.com", facts)).toBe("invalid");
    expect(unavailability(matchRegistrableName("a.invalid", catalog), "a.invalid", facts)).toBe("unsupported_extension");
    expect(unavailability(matchRegistrableName("xn--mnchen-3ya.io", catalog), "xn--mnchen-3ya.io", facts)).toBe("invalid");
    expect(unavailability(matchRegistrableName("a.com", catalog), "a.com", { registered: true, reserved: true })).toBe("registered");
    expect(unavailability(matchRegistrableName("a.com", catalog), "a.com", { registered: false, reserved: true })).toBe("reserved");
    expect(unavailability(matchRegistrableName("a.com", catalog), "a.com", facts)).toBeNull();
  });
});

describe("a domain's name servers", () => {
  it("are normalised, each listed once, each bad one reported at its index", () => {
    const { names, errors } = nameserverNames(["NS1.Example.NET.", "ns1.example.net", "bad..name"]);
    expect(names).toEqual(["ns1.example.net"]);
    expect(errors.map((e) => e.field)).toEqual(["nameservers[1]", "nameservers[2]"]);
    expect(errors[0]!.message).toBe("ns1.example.net is listed twice");
  });
  it("number within the extension's bounds", () => {
    const com = { id: "com", nameserversMin: 0, nameserversMax: 13 };
    expect(nameserverCountErrors(2, com)).toEqual([]);
    expect(nameserverCountErrors(14, com)).toEqual([{ field: "nameservers", message: ".com domains have 0 to 13 name servers; 14 given" }]);
  });
  it("under a domain managed here must exist as hosts; other unknown names become external hosts", () => {
    const { external, errors } = newNameserverHosts(
      ["ns1.known.net", "ns1.managed.com", "ns1.elsewhere.net"],
      new Set(["ns1.known.net"]),
      new Set(["managed.com"]),
      extensions,
    );
    expect(external).toEqual(["ns1.elsewhere.net"]);
    expect(errors).toEqual([{ field: "nameservers[1]", message: expect.stringContaining("create the host with its addresses first") }]);
  });
  it("can only be subordinate to the registrable domain each falls under", () => {
    expect(superordinateCandidates(["ns1.example.co.uk", "ns2.example.co.uk", "ns.other.com", "ns.nowhere.invalid"], extensions)).toEqual([
      "example.co.uk",
      "other.com",
    ]);
  });
});

describe("a domain's contacts", () => {
  const found = new Map([
    ["con_A", { city: "London", countryCode: "GB" }],
    ["con_B", { city: null, countryCode: "GB" }],
  ]);
  it("must exist", () => {
    expect(unknownContactErrors({ registrant: "con_A", admin: "con_X", tech: null }, found)).toEqual([
      { field: "contacts.admin", message: "contact con_X does not exist" },
    ]);
  });
  it("need a city and a country as registrant, admin or tech, not as billing", () => {
    expect(contactAddressErrors({ registrant: "con_B", billing: "con_B" }, found)).toEqual([
      { field: "registrant", message: "contact con_B lacks address.city, required for a registrant contact" },
    ]);
    expect(contactsNeedingAddress({ registrant: "con_A", admin: null, tech: "con_B", billing: "con_C" })).toEqual(["con_A", "con_B"]);
  });
  it("keep their address while in those roles", () => {
    expect(addressRequiredErrors(["address.city"])).toEqual([
      { field: "address.city", message: "is required while the contact is a registrant, admin or tech contact" },
    ]);
  });
});

describe("a domain's name and period", () => {
  it("an extension without IDN refuses A-labels", () => {
    expect(idnErrors("xn--mnchen-3ya.com", { id: "com", idn: false })).toEqual([
      { field: "name", message: ".com does not register internationalised (IDN) names" },
    ]);
    expect(idnErrors("xn--mnchen-3ya.de", { id: "de", idn: true })).toEqual([]);
    expect(idnErrors("example.com", { id: "com", idn: false })).toEqual([]);
  });
  it("a period is whole years within the extension's range", () => {
    const uk = { id: "co.uk", periodMin: 1, periodMax: 10 };
    expect(wholeYearsErrors(1.5)).toEqual([{ field: "period", message: "must be a whole number of years" }]);
    expect(periodErrors(1.5, uk)).toEqual([]);
    expect(periodErrors(11, uk)).toEqual([{ field: "period", message: ".co.uk registers for 1 to 10 years" }]);
    expect(periodErrors(2, uk)).toEqual([]);
  });
});

describe("glue as field errors", () => {
  it("reports each refused address at its index, canonical ones kept", () => {
    const { addresses, errors } = glueAddresses(["2001:DB8::1", "127.0.0.1", "2001:db8::1"]);
    expect(addresses).toEqual(["2001:db8::1"]);
    expect(errors.map((e) => e.field)).toEqual(["addresses[1]", "addresses[2]"]);
  });
  it("a subordinate host needs glue, an external one takes none", () => {
    expect(glueErrors(true, 0, "example.com")).toEqual([{ field: "addresses", message: expect.stringContaining("needs 1 to 13 addresses") }]);
    expect(glueErrors(false, 1, null)).toEqual([{ field: "addresses", message: expect.stringContaining("external host") }]);
    expect(glueErrors(false, 0, null)).toEqual([]);
  });
});
