// The connector's pure mapping (src/connector/, docs/registries.md): our objects as EPP
// commands — each one validated by the real `xmllint --schema` against the RFCs' schemas —
// and the registry's answers as ours: each result code's problem with the registry's
// words, the check's availability, reason, premium and prices from the fee answer.
import { describe, expect, it } from "vitest";
import { accepted, apiTime, registryProblem, registryWords } from "../../src/connector/answers";
import {
  checkReason,
  contactCreateCommand,
  domainAtRegistry,
  domainCheckCommand,
  domainCreateCommand,
  domainUpdateCommand,
  dsData,
  hostCreateCommand,
  registryChecks,
  restoreReport,
} from "../../src/connector/commands";
import { connectorIds } from "../../src/connector/config";
import { clientTransactionId, registryUnavailable } from "../../src/connector/gateway";
import { buildCommand } from "../../src/epp/commands";
import { registryContactId } from "../../src/epp/ids";
import type { EppCommand, EppResponse } from "../../src/epp/types";
import { validateEpp } from "../epp/xmllint.mjs";

const ADA = {
  name: "Ada Lovelace",
  organization: "Analytical Ltd",
  email: "ada@example.org",
  phone: "+44.2071234567",
  fax: null,
  street: ["12 Example Row"],
  city: "London",
  state: null,
  postalCode: "N1 9GU",
  countryCode: "GB",
  privacy: false,
};
const DS = { key_tag: 12345, algorithm: 13, digest_type: 2, digest: "ab".repeat(32) };
const CONTACT = registryContactId("con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");

function response(code: number, extra: Partial<EppResponse> = {}): EppResponse {
  return { code, results: [{ code, msg: "Registry says", values: [], extValues: [] }], resData: [], extensions: [], trID: { svTRID: "SV-1" }, ...extra };
}

describe("our objects become EPP commands that validate against the RFCs' schemas", () => {
  const domain = {
    registrantId: "con_a",
    adminId: "con_a",
    techId: null,
    billingId: null,
    nameservers: ["ns1.example.fr"],
    statuses: [] as string[],
    authInfo: "Auth-1234-abcd",
    ds: [] as (typeof DS)[],
  };
  const ids = new Map([
    ["con_a", registryContactId("con_a")],
    ["con_b", registryContactId("con_b")],
  ]);
  const commands: [string, EppCommand][] = [
    ["a check of names asks the fees of create, renew, transfer and restore", domainCheckCommand(["a.com", "vacation.com"])],
    ["a contact with an ASCII address is an int postalInfo", contactCreateCommand(ADA, CONTACT, "Contact-Auth-1")],
    ["a contact with privacy asks the registry not to disclose it", contactCreateCommand({ ...ADA, privacy: true }, CONTACT, "Contact-Auth-1")],
    [
      "a contact with a non-ASCII address is a loc postalInfo",
      contactCreateCommand({ ...ADA, name: "Zoë Ünal", city: "Zürich", countryCode: "CH" }, CONTACT, "Contact-Auth-1"),
    ],
    ["an external host is created without addresses", hostCreateCommand("ns1.example.fr", [])],
    ["a subordinate host is created with its glue", hostCreateCommand("ns1.example.com", ["192.0.2.1", "2001:db8::1"])],
    [
      "a registration carries its period, hosts, contacts, authInfo, DS and the confirmed fee",
      domainCreateCommand({
        name: "vacation.com",
        years: 2,
        nameservers: ["ns1.example.fr", "ns2.example.fr"],
        contacts: { registrant: CONTACT, admin: CONTACT, tech: CONTACT, billing: null },
        authInfo: "Auth-1234-abcd",
        ds: dsData([DS]),
        fee: { amount: "5000.00", currency: "USD" },
      }),
    ],
    [
      "an update adds and removes hosts, contacts, statuses and DS, and changes the registrant and authInfo",
      domainUpdateCommand(
        "example.com",
        domainAtRegistry(domain, ids),
        domainAtRegistry(
          {
            ...domain,
            registrantId: "con_b",
            techId: "con_b",
            nameservers: ["ns2.example.fr"],
            statuses: ["clientTransferProhibited"],
            authInfo: "Auth-5678-efgh",
            ds: [DS],
          },
          ids,
        ),
      ) as EppCommand,
    ],
    [
      "a restore report carries both statements",
      {
        kind: "domain:update",
        name: "example.com",
        restore: { op: "report", report: restoreReport("example.com", "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z") },
      },
    ],
  ];
  const results = validateEpp(commands.map(([, command]) => buildCommand(command, clientTransactionId("req-1"))));
  commands.forEach(([name], i) => {
    it(name, () => {
      expect(results[i]!.valid, results[i]!.output).toBe(true);
    });
  });
});

describe("an update sends only what differs at the registry", () => {
  const base = {
    registrantId: "con_a",
    adminId: null,
    techId: null,
    billingId: null,
    nameservers: ["ns1.example.fr", "ns2.example.fr"],
    statuses: ["clientTransferProhibited"],
    authInfo: "Auth-1",
    ds: [DS],
  };
  const ids = new Map([["con_a", "ca"]]);
  const at = (d: typeof base) => ({
    nameservers: d.nameservers,
    contacts: { registrant: ids.get(d.registrantId) ?? null, admin: null, tech: null, billing: null },
    statuses: d.statuses,
    authInfo: d.authInfo,
    ds: dsData(d.ds),
  });

  it("nothing that the registry holds changed: no command (auto_renew is ours alone)", () => {
    expect(domainUpdateCommand("example.com", at(base), at(base))).toBeNull();
  });

  it("hosts replaced whole become one add and one rem; statuses set whole become add/rem of client statuses only", () => {
    const command = domainUpdateCommand(
      "example.com",
      at(base),
      at({ ...base, nameservers: ["ns1.example.fr", "ns3.example.fr"], statuses: ["clientHold", "serverHold"] }),
    );
    expect(command).toEqual({
      kind: "domain:update",
      name: "example.com",
      add: { nameservers: ["ns3.example.fr"], statuses: [{ s: "clientHold" }] },
      rem: { nameservers: ["ns2.example.fr"], statuses: [{ s: "clientTransferProhibited" }] },
    });
  });

  it("DS records removed go to secDNS:rem, added ones to secDNS:add (digests upper-case)", () => {
    expect(domainUpdateCommand("example.com", at(base), at({ ...base, ds: [] }))).toEqual({
      kind: "domain:update",
      name: "example.com",
      ds: { rem: [{ keyTag: 12345, alg: 13, digestType: 2, digest: "AB".repeat(32) }] },
    });
  });
});

describe("the registry's check answers become ours", () => {
  const answer = response(1000, {
    resData: [
      {
        kind: "domain:chkData",
        items: [
          { name: "free.com", avail: true },
          { name: "taken.com", avail: false, reason: "In use" },
          { name: "nic.com", avail: false, reason: "Reserved" },
          { name: "vacation.com", avail: true },
        ],
      },
    ],
    extensions: [
      {
        kind: "fee:chkData",
        currency: "USD",
        items: [
          {
            objID: "free.com",
            class: "standard",
            avail: true,
            commands: ["create", "renew", "transfer"]
              .map((name) => ({
                name: name as "create",
                period: { value: 1, unit: "y" as const },
                standard: true,
                fees: [{ amount: "12.00" }],
                credits: [],
              }))
              .concat([{ name: "restore" as "create", standard: true, fees: [{ amount: "40.00" }], credits: [] } as never]),
          },
          {
            objID: "vacation.com",
            class: "premium",
            avail: true,
            commands: ["create", "renew", "transfer", "restore"].map((name) => ({
              name: name as "create",
              ...(name === "restore" ? {} : { period: { value: 1, unit: "y" as const } }),
              standard: false,
              fees: [{ amount: name === "restore" ? "40.00" : "2500.00" }],
              credits: [],
            })),
          },
        ],
      },
    ],
  });
  const checks = registryChecks(answer, ["free.com", "taken.com", "nic.com", "vacation.com"]);

  it("available and reason are the registry's: in use is registered, reserved is reserved", () => {
    expect(checks.get("free.com")).toMatchObject({ available: true, reason: null, premium: false });
    expect(checks.get("taken.com")).toEqual({ available: false, reason: "registered", premium: false, yearly: null });
    expect(checks.get("nic.com")).toEqual({ available: false, reason: "reserved", premium: false, yearly: null });
  });

  it("premium and the yearly prices come from the fee answer", () => {
    expect(checks.get("free.com")!.yearly).toEqual({ currency: "USD", register: "12.00", renew: "12.00", transfer: "12.00", restore: "40.00" });
    expect(checks.get("vacation.com")).toEqual({
      available: true,
      reason: null,
      premium: true,
      yearly: { currency: "USD", register: "2500.00", renew: "2500.00", transfer: "2500.00", restore: "40.00" },
    });
  });

  it("a registry that sends no fee answer leaves the prices to the catalog (yearly null)", () => {
    const plain = registryChecks({ ...answer, extensions: [] }, ["free.com"]);
    expect(plain.get("free.com")).toEqual({ available: true, reason: null, premium: false, yearly: null });
  });

  it("a reason in the registry's words maps to the API's four", () => {
    expect([
      checkReason(true, undefined),
      checkReason(false, "Reserved name"),
      checkReason(false, "Not served by this registry"),
      checkReason(false, "pending delete"),
    ]).toEqual([null, "reserved", "invalid", "registered"]);
  });
});

describe("each result code is our answer, with the registry's words in detail", () => {
  it.each([
    [2302, 409, "unavailable"],
    [2303, 409, "registry_mismatch"],
    [2201, 403, "forbidden"],
    [2202, 422, "invalid_auth_info"],
    [2304, 409, "status_prohibits"],
    [2305, 409, "object_linked"],
    [2306, 422, "policy_violation"],
    [2308, 422, "policy_violation"],
    [2400, 503, "registry_unavailable"],
    [2502, 503, "registry_unavailable"],
  ])("%i answers %i %s", (code, status, problem) => {
    const answer = response(code, { results: [{ code, msg: "Registry says no", values: [], extValues: [{ value: "<x/>", reason: "because" }] }] });
    const error = registryProblem(answer, "Registering example.com")!;
    expect({ status: error.status, code: error.code }).toEqual({ status, code: problem });
    expect(error.message).toContain(`${code} Registry says no (because)`);
    if (status === 503) expect(Number(error.headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  it("1000 is done and 1001 pending, each with the registry's svTRID", () => {
    expect(accepted(response(1000), "x")).toEqual({ outcome: "done", svTRID: "SV-1" });
    expect(accepted(response(1001), "x")).toEqual({ outcome: "pending", svTRID: "SV-1" });
  });

  it("the registry's words are its code, its message and every extValue's reason", () => {
    expect(
      registryWords(
        response(2004, {
          results: [{ code: 2004, msg: "Parameter value range error", values: [], extValues: [{ value: "", reason: "the fee is 2500.00 USD" }] }],
        }),
      ),
    ).toBe("2004 Parameter value range error (the fee is 2500.00 USD)");
  });
});

describe("the gateway's failures are 503 registry_unavailable with Retry-After", () => {
  it("Retry-After is whole seconds, at least 1", () => {
    const error = registryUnavailable("the registry is down", 0.2);
    expect({ status: error.status, code: error.code, retryAfter: error.headers?.["Retry-After"] }).toEqual({
      status: 503,
      code: "registry_unavailable",
      retryAfter: "1",
    });
    expect(error.message).toContain("the registry is down");
  });

  it("the clTRID is the request id, fitted to 3–64 characters", () => {
    expect([clientTransactionId("ab"), clientTransactionId("b1b12814-6a40-4468-bb98-0c9bf757c273"), clientTransactionId("x".repeat(128)).length]).toEqual([
      "req-ab",
      "b1b12814-6a40-4468-bb98-0c9bf757c273",
      64,
    ]);
  });

  it("an EPP dateTime becomes the API's time", () => {
    expect([apiTime("2027-11-29T03:22:14.5Z"), apiTime("not a date"), apiTime(undefined)]).toEqual(["2027-11-29T03:22:14.500Z", null, null]);
  });
});

describe("REGISTRY_CONNECTORS is read for its repository ids only", () => {
  it("the ids, and nothing else", () => {
    expect([...(connectorIds('{"verisign": {"password": "secret-pw"}, "pir": {}}') as Set<string>)]).toEqual(["verisign", "pir"]);
    expect([...(connectorIds(undefined) as Set<string>)]).toEqual([]);
  });

  it("text that is not an object keyed by repository id is an error that shows none of it", () => {
    for (const text of ['{"verisign": {"password": "secret-pw"', "[]", '{"Not An Id": {}}']) {
      const error = connectorIds(text);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toContain("secret-pw");
    }
  });
});
