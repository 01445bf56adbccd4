// Every response kind the EPP codec reads (src/epp/responses.ts), from fixtures: the RFCs'
// examples (RFC 5730–5733, 5910, 3915, 8748; transcribed, the machine has no copy of the
// RFC text, and each validated against the RFC schemas below) and registries' answers
// (Nomulus, ZA Central Registry, ISPAPI, Identity Digital), each naming its source in its
// first comment. Elements are read by namespace URI: `epp:`-prefixed documents, default
// namespaces and other prefixes read the same.
import { describe, expect, it } from "vitest";
import { findExtension, findResData, parseGreeting, parseResponse, parseServerMessage } from "../../src/epp/responses";
import type { EppResponse, Greeting } from "../../src/epp/types";
import { fixture, fixtureNames } from "../epp/fixtures.mjs";
import { validateEpp } from "../epp/xmllint.mjs";

function response(name: string): EppResponse {
  const parsed = parseResponse(fixture(name));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value;
}

function greeting(name: string): Greeting {
  const parsed = parseGreeting(fixture(name));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value;
}

const OK = { code: 1000, msg: "Command completed successfully", values: [], extValues: [] };

/** Fixtures that carry an element of a namespace no RFC schema has (a registry's own extension, RFC 5730's placeholder `obj`). */
const FOREIGN = new Set([
  "rfc5730-poll-req.xml",
  "zacr-domain-info.xml",
  "zacr-contact-info.xml",
  "iddigital-domain-info-default-ns.xml",
  "iddigital-domain-info.xml",
]);

describe("the fixtures are what they claim: each validates against the RFC schemas (xmllint), but those with a registry's own namespace", () => {
  const names = fixtureNames();
  const verdicts = validateEpp(names.map(fixture));
  names.forEach((name, i) => {
    it(`${name} ${FOREIGN.has(name) ? "does not validate: it holds a namespace of its own" : "validates"}`, () => {
      expect(verdicts[i]!.valid, verdicts[i]!.output).toBe(!FOREIGN.has(name));
    });
  });

  it("every fixture reads, as a greeting or a response, without error", () => {
    for (const name of names) expect(parseServerMessage(fixture(name)).ok, name).toBe(true);
  });
});

describe("the greeting (RFC 5730 §2.4): svID, svDate, the service menu, the data collection policy", () => {
  it("RFC 5730's example greeting", () => {
    expect(greeting("rfc5730-greeting.xml")).toEqual({
      svID: "Example EPP server epp.example.com",
      svDate: "2000-06-08T22:00:00.0Z",
      versions: ["1.0"],
      langs: ["en", "fr"],
      objURIs: ["urn:ietf:params:xml:ns:obj1", "urn:ietf:params:xml:ns:obj2", "urn:ietf:params:xml:ns:obj3"],
      extURIs: ["http://custom/obj1ext-1.0"],
      dcp: { access: "all", statements: [{ purpose: ["admin", "prov"], recipient: ["ours", "public"], retention: "stated" }] },
    });
  });

  it("Nomulus's greeting offers fee-1.0 beside older fee drafts", () => {
    const value = greeting("nomulus-greeting.xml");
    expect(value.objURIs).toEqual(["urn:ietf:params:xml:ns:host-1.0", "urn:ietf:params:xml:ns:domain-1.0"]);
    expect(value.extURIs).toContain("urn:ietf:params:xml:ns:epp:fee-1.0");
    expect(value.extURIs).toContain("urn:ietf:params:xml:ns:fee-0.12");
    expect(value.dcp).toEqual({ access: "all", statements: [{ purpose: ["admin", "prov"], recipient: ["ours", "public"], retention: "indefinite" }] });
  });

  it("ZA Central Registry's greeting, every element prefixed epp:, reads the same; its expiry is relative", () => {
    expect(greeting("zacr-greeting.xml")).toEqual({
      svID: "DNS EPP Server",
      svDate: "2017-05-25T13:29:41.602+02:00",
      versions: ["1.0"],
      langs: ["en"],
      objURIs: ["urn:ietf:params:xml:ns:domain-1.0", "urn:ietf:params:xml:ns:contact-1.0"],
      extURIs: [
        "urn:ietf:params:xml:ns:secDNS-1.1",
        "http://co.za/epp/extensions/cozacontact-1-0",
        "http://co.za/epp/extensions/cozadomain-1-0",
        "urn:ietf:params:xml:ns:launch-1.0",
        "http://www.unitedtld.com/epp/charge-1.0",
      ],
      dcp: { access: "personal", statements: [{ purpose: ["admin"], recipient: ["same"], retention: "business" }], expiry: { relative: "P365DT0H0M0S" } },
    });
  });
});

describe("results (RFC 5730 §2.6): codes, messages, values and extValue reasons; trID", () => {
  it("RFC 5730's error example: two results, a value, an extValue with its reason", () => {
    const value = response("rfc5730-response-errors.xml");
    expect(value.code).toBe(2004);
    expect(value.results).toEqual([
      { code: 2004, msg: "Parameter value range error", values: ['<obj:elem1 xmlns:obj="urn:ietf:params:xml:ns:obj">2525</obj:elem1>'], extValues: [] },
      {
        code: 2005,
        msg: "Parameter value syntax error",
        values: ['<obj:elem2 xmlns:obj="urn:ietf:params:xml:ns:obj">ex(ample</obj:elem2>'],
        extValues: [{ value: '<obj:elem3 xmlns:obj="urn:ietf:params:xml:ns:obj">abc.ex(ample</obj:elem3>', reason: "Invalid character found." }],
      },
    ]);
    expect(value.trID).toEqual({ clTRID: "ABC-12345", svTRID: "54321-XYZ" });
  });

  it("a registry's 2306 with the reason a policy_violation passes on (ISPAPI)", () => {
    const value = response("ispapi-error-ext.xml");
    expect(value.results).toEqual([
      {
        code: 2306,
        msg: "Parameter value policy error",
        values: [],
        extValues: [{ value: '<domain:name xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"/>', reason: "Maximum of 20 domains exceeded." }],
      },
    ]);
  });

  it("a registry's 2303 (ISPAPI), and RFC 5730's 1500 to a logout", () => {
    expect(response("ispapi-error-2303.xml").results[0]).toMatchObject({
      code: 2303,
      msg: "Object does not exist",
      extValues: [{ reason: "545 Object not found" }],
    });
    expect(response("rfc5730-logout.xml")).toEqual({
      code: 1500,
      results: [{ code: 1500, msg: "Command completed successfully; ending session", values: [], extValues: [] }],
      resData: [],
      extensions: [],
      trID: { clTRID: "ABC-12345", svTRID: "54321-XYZ" },
    });
  });
});

describe("poll responses (RFC 5730 §2.9.2.3): the message queue and its payloads", () => {
  it("RFC 5730's poll request answer: msgQ count, id, qDate, msg; an unknown payload kept whole as XML", () => {
    const value = response("rfc5730-poll-req.xml");
    expect(value.code).toBe(1301);
    expect(value.msgQ).toEqual({ count: 5, id: "12345", qDate: "2000-06-08T22:00:00.0Z", msg: "Transfer requested." });
    expect(value.resData).toHaveLength(1);
    const [payload] = value.resData;
    expect(payload).toMatchObject({ kind: "unknown", ns: "urn:ietf:params:xml:ns:obj", name: "trnData" });
    // Kept whole, its namespace declared on it, as written (the whitespace between its elements too).
    const xml = payload!.kind === "unknown" ? payload!.xml : "";
    expect(xml).toMatch(/^<obj:trnData xmlns:obj="urn:ietf:params:xml:ns:obj">\s*<obj:name>example\.com<\/obj:name>\s*<obj:trStatus>pending<\/obj:trStatus>/);
    expect(xml).toMatch(/<obj:exDate>2002-09-08T22:00:00\.0Z<\/obj:exDate>\s*<\/obj:trnData>$/);
  });

  it("RFC 5730's ack answer (msgQ without qDate or msg) and empty queue (1300)", () => {
    expect(response("rfc5730-poll-ack.xml").msgQ).toEqual({ count: 4, id: "12345" });
    const empty = response("rfc5730-poll-empty.xml");
    expect(empty.code).toBe(1300);
    expect(empty.msgQ).toBeUndefined();
    expect(response("ispapi-poll-empty.xml").code).toBe(1300);
  });

  it("RFC 5731's pending action outcome: domain:panData with paResult, paTRID, paDate", () => {
    const value = response("rfc5731-poll-pan.xml");
    expect(value.msgQ).toEqual({ count: 5, id: "12345", qDate: "1999-04-04T22:01:00.0Z", msg: "Pending action completed successfully." });
    expect(findResData(value, "domain:panData")).toEqual({
      kind: "domain:panData",
      name: "example.com",
      paResult: true,
      paTRID: { clTRID: "ABC-12345", svTRID: "54321-XYZ" },
      paDate: "1999-04-04T22:00:00.0Z",
    });
    expect(value.trID).toEqual({ clTRID: "BCD-23456", svTRID: "65432-WXY" });
  });

  it("Nomulus's poll messages: a deletion's panData, a transfer's trnData (serverApproved), an autorenewal's renData", () => {
    expect(findResData(response("nomulus-poll-pending-action.xml"), "domain:panData")).toEqual({
      kind: "domain:panData",
      name: "test.example",
      paResult: true,
      paTRID: { clTRID: "ABC-12345", svTRID: "other-trid" },
      paDate: "2011-01-02T01:01:01.000Z",
    });
    const transfer = response("nomulus-poll-transfer.xml");
    expect(transfer.msgQ).toEqual({ count: 1, id: "5-2011", qDate: "2011-01-01T01:01:01Z", msg: "Transfer approved." });
    expect(findResData(transfer, "domain:trnData")).toEqual({
      kind: "domain:trnData",
      name: "test.example",
      trStatus: "serverApproved",
      reID: "NewRegistrar",
      reDate: "2010-12-28T01:01:01Z",
      acID: "TheRegistrar",
      acDate: "2011-01-01T01:01:01Z",
      exDate: "2012-01-02T01:01:01Z",
    });
    expect(findResData(response("nomulus-poll-autorenew.xml"), "domain:renData")).toEqual({
      kind: "domain:renData",
      name: "test.example",
      exDate: "2012-01-01T01:01:01Z",
    });
  });
});

describe("domain responses (RFC 5731)", () => {
  it("chkData: avail and reason per name (RFC 5731 §3.1.1); avail written true/false reads the same (ISPAPI)", () => {
    expect(findResData(response("rfc5731-check.xml"), "domain:chkData")).toEqual({
      kind: "domain:chkData",
      items: [
        { name: "example.com", avail: true },
        { name: "example.net", avail: false, reason: "In use" },
        { name: "example.org", avail: true },
      ],
    });
    expect(findResData(response("ispapi-domain-check.xml"), "domain:chkData")?.items).toEqual([
      { name: "eppdev.com", avail: true },
      { name: "eppdev.net", avail: false },
      { name: "eppdev.net", avail: false, reason: "In Use" },
    ]);
  });

  const RFC_INFO = {
    kind: "domain:infData",
    name: "example.com",
    roid: "EXAMPLE1-REP",
    statuses: [{ s: "ok" }],
    registrant: "jd1234",
    contacts: [
      { type: "admin", id: "sh8013" },
      { type: "tech", id: "sh8013" },
    ],
    nameservers: ["ns1.example.com", "ns1.example.net"],
    hostAttrs: [],
    hosts: ["ns1.example.com", "ns2.example.com"],
    clID: "ClientX",
    crID: "ClientY",
    crDate: "1999-04-03T22:00:00.0Z",
    upID: "ClientX",
    upDate: "1999-12-03T09:00:00.0Z",
    exDate: "2005-04-03T22:00:00.0Z",
    trDate: "2000-04-08T09:00:00.0Z",
    authInfo: "2fooBAR",
  };

  it("infData: roid, statuses, registrant, contacts, ns, hosts, clID, crID, dates and authInfo (RFC 5731 §3.1.2)", () => {
    const value = response("rfc5731-info.xml");
    expect(value.resData).toEqual([RFC_INFO]);
    expect(value.extensions).toEqual([]);
  });

  it("the same infData with the domain namespace as the default namespace reads the same (Identity Digital); its kv extension is kept as XML", () => {
    const value = response("iddigital-domain-info-default-ns.xml");
    expect(findResData(value, "domain:infData")).toEqual({ ...RFC_INFO, name: "xn--ls8h.example" });
    expect(value.extensions).toEqual([
      {
        kind: "unknown",
        ns: "urn:X-ar:params:xml:ns:kv-1.0",
        name: "infData",
        xml: expect.stringMatching(/^<infData xmlns="urn:X-ar:params:xml:ns:kv-1.0">\s*<kvlist name="bn">\s*<item key="abn">18 092 242 209<\/item>/),
      },
    ]);
  });

  it("a sparse infData with xsi:schemaLocation attributes (Identity Digital): what is absent stays absent", () => {
    expect(findResData(response("iddigital-domain-info.xml"), "domain:infData")).toEqual({
      kind: "domain:infData",
      name: "example.travel",
      roid: "7dde6f25ec354959b2876413cbf3aaa1-DONUTS",
      statuses: [{ s: "inactive" }],
      contacts: [],
      nameservers: [],
      hostAttrs: [],
      hosts: [],
      clID: "Registrar01",
      crDate: "2021-03-04T16:46:08.793Z",
      upDate: "2021-03-09T16:53:13.72Z",
      exDate: "2023-03-04T16:46:08.793Z",
    });
  });

  it("ZA Central Registry's infData, prefixed epp: with the domain namespace declared on the root: hostAttr name servers, a status with its text, its own extension kept", () => {
    const value = response("zacr-domain-info.xml");
    expect(value.results).toEqual([{ code: 1000, msg: "Domain Info Command completed successfully", values: [], extValues: [] }]);
    expect(findResData(value, "domain:infData")).toEqual({
      kind: "domain:infData",
      name: "exampledomain.co.za",
      roid: "DOM_26I-COZA",
      statuses: [{ s: "ok", text: "Domain Creation" }],
      registrant: "rant1",
      contacts: [],
      nameservers: ["ns1.otherdomain.co.za", "ns2.otherdomain.co.za"],
      hostAttrs: [
        { name: "ns1.otherdomain.co.za", addresses: [] },
        { name: "ns2.otherdomain.co.za", addresses: [] },
      ],
      hosts: [],
      clID: "testrar1",
      crID: "testrar1",
      crDate: "2011-01-19T09:16:10Z",
      upID: "testrar1",
      upDate: "2011-01-19T09:16:10Z",
      exDate: "2013-01-18T09:16:10Z",
      authInfo: "coza",
    });
    expect(value.extensions).toEqual([
      {
        kind: "unknown",
        ns: "http://co.za/epp/extensions/cozadomain-1-0",
        name: "infData",
        xml: '<cozadomain:infData xmlns:cozadomain="http://co.za/epp/extensions/cozadomain-1-0"><cozadomain:autorenew>true</cozadomain:autorenew></cozadomain:infData>',
      },
    ]);
    expect(value.trID).toEqual({ clTRID: "CLTRID-12954285819-DV2N", svTRID: "DNS-EPP-12D9D8F7A69-8E651" });
  });

  it("creData, renData (RFC 5731 §3.2.1, §3.2.3) and a delete's plain 1000 (§3.2.2)", () => {
    expect(response("rfc5731-create.xml").resData).toEqual([
      { kind: "domain:creData", name: "example.com", crDate: "1999-04-03T22:00:00.0Z", exDate: "2001-04-03T22:00:00.0Z" },
    ]);
    expect(response("rfc5731-renew.xml").resData).toEqual([{ kind: "domain:renData", name: "example.com", exDate: "2005-04-03T22:00:00.0Z" }]);
    expect(response("rfc5731-delete.xml")).toMatchObject({ code: 1000, results: [OK], resData: [] });
  });

  it("trnData to a transfer request (1001, pending) and a query (RFC 5731 §3.2.4, §3.1.3)", () => {
    const request = response("rfc5731-transfer-request.xml");
    expect(request.code).toBe(1001);
    expect(request.resData).toEqual([
      {
        kind: "domain:trnData",
        name: "example.com",
        trStatus: "pending",
        reID: "ClientX",
        reDate: "2000-06-08T22:00:00.0Z",
        acID: "ClientY",
        acDate: "2000-06-13T22:00:00.0Z",
        exDate: "2002-09-08T22:00:00.0Z",
      },
    ]);
    expect(findResData(response("rfc5731-transfer-query.xml"), "domain:trnData")).toMatchObject({
      trStatus: "pending",
      reDate: "2000-06-06T22:00:00.0Z",
      acDate: "2000-06-11T22:00:00.0Z",
    });
  });
});

describe("secDNS (RFC 5910 §5.1.2): DS and key data in an info response", () => {
  it("the dsData interface", () => {
    const value = response("rfc5910-info-dsdata.xml");
    expect(findResData(value, "domain:infData")?.name).toBe("example.com");
    expect(findExtension(value, "secDNS:infData")).toEqual({
      kind: "secDNS:infData",
      dsData: [{ keyTag: 12345, alg: 3, digestType: 1, digest: "49FD46E6C4B45C55D4AC" }],
      keyData: [],
    });
  });

  it("the keyData interface", () => {
    expect(findExtension(response("rfc5910-info-keydata.xml"), "secDNS:infData")).toEqual({
      kind: "secDNS:infData",
      dsData: [],
      keyData: [{ flags: 257, protocol: 3, alg: 1, pubKey: "AQPJ////4Q==" }],
    });
  });

  it("a registry's DS answer (Nomulus): digest type 2, SHA-256 digest", () => {
    const value = response("nomulus-domain-info-dsdata.xml");
    expect(findResData(value, "domain:infData")).toMatchObject({ name: "example.tld", roid: "2FF-TLD", clID: "NewRegistrar", authInfo: "2fooBAR" });
    expect(findExtension(value, "secDNS:infData")?.dsData).toEqual([
      { keyTag: 12345, alg: 8, digestType: 2, digest: "D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A" },
    ]);
  });
});

describe("RGP (RFC 3915): rgpStatus in an info response and in an update's answer", () => {
  it("rgp:infData redemptionPeriod beside pendingDelete (RFC 3915 §4.1.1)", () => {
    const value = response("rfc3915-info.xml");
    expect(findResData(value, "domain:infData")?.statuses).toEqual([{ s: "pendingDelete" }]);
    expect(value.extensions).toEqual([{ kind: "rgp:infData", rgpStatus: [{ s: "redemptionPeriod" }] }]);
  });

  it("rgp:upData pendingRestore (RFC 3915 §4.2.5)", () => {
    expect(response("rfc3915-update.xml").extensions).toEqual([{ kind: "rgp:upData", rgpStatus: [{ s: "pendingRestore" }] }]);
  });

  it("a registry's grace periods with their end dates as text (ISPAPI)", () => {
    expect(findExtension(response("ispapi-domain-info-rgp.xml"), "rgp:infData")?.rgpStatus).toEqual([
      { s: "addPeriod", text: "endDate=2021-12-07T19:08:08Z" },
      { s: "renewPeriod", text: "endDate=2021-12-07T23:07:49Z" },
    ]);
  });
});

describe("fees (RFC 8748): fee:chkData per name and command, and the transforms' fee data", () => {
  it("fee:chkData: currency, class, each command's period and fees with description, refundable and grace period; an unavailable cd's reason (RFC 8748 §5.1.1)", () => {
    const value = response("rfc8748-check.xml");
    const fees = findExtension(value, "fee:chkData")!;
    expect(fees.currency).toBe("USD");
    expect(fees.items).toHaveLength(3);
    expect(fees.items[0]).toEqual({
      objID: "example.com",
      class: "Premium",
      avail: true,
      commands: [
        {
          name: "create",
          standard: false,
          period: { value: 2, unit: "y" },
          fees: [{ amount: "10.00", description: "Registration Fee", refundable: true, gracePeriod: "P5D" }],
          credits: [],
        },
        {
          name: "renew",
          standard: false,
          period: { value: 1, unit: "y" },
          fees: [{ amount: "10.00", description: "Renewal Fee", refundable: true, gracePeriod: "P5D" }],
          credits: [],
        },
        {
          name: "transfer",
          standard: false,
          period: { value: 1, unit: "y" },
          fees: [{ amount: "8.00", description: "Transfer Fee", refundable: true, gracePeriod: "P5D" }],
          credits: [],
        },
        { name: "restore", standard: false, fees: [{ amount: "15.00", description: "Redemption Fee" }], credits: [] },
      ],
    });
    expect(fees.items[2]).toEqual({
      objID: "example.xyz",
      avail: false,
      reason: "Only 1 year registration periods are valid.",
      commands: [{ name: "create", standard: false, period: { value: 2, unit: "y" }, fees: [], credits: [] }],
    });
  });

  it("a registry's premium answer (Nomulus): class premium per command, 100.00 to create", () => {
    const fees = findExtension(response("nomulus-domain-check-fee-premium.xml"), "fee:chkData")!;
    expect(fees.items.map((item) => [item.objID, item.class, item.avail, item.commands[0]!.name, item.commands[0]!.fees[0]!.amount])).toEqual([
      ["rich.example", "premium", true, "create", "100.00"],
      ["rich.example", "premium", true, "renew", "100.00"],
      ["rich.example", "premium", true, "transfer", "100.00"],
      ["rich.example", "standard", true, "restore", "17.00"],
      ["rich.example", "standard", true, "update", "0.00"],
    ]);
  });

  it("fee:creData with balance and credit limit, fee:renData, fee:trnData with a period, fee:delData with a credit (RFC 8748 §5.2)", () => {
    expect(findExtension(response("rfc8748-create.xml"), "fee:creData")).toEqual({
      kind: "fee:creData",
      currency: "USD",
      fees: [{ amount: "5.00", description: "Registration Fee", refundable: true, gracePeriod: "P5D" }],
      credits: [],
      balance: "-5.00",
      creditLimit: "1000.00",
    });
    expect(findExtension(response("rfc8748-renew.xml"), "fee:renData")).toEqual({
      kind: "fee:renData",
      currency: "USD",
      fees: [{ amount: "5.00", refundable: true, gracePeriod: "P5D" }],
      credits: [],
      balance: "1000.00",
    });
    const transfer = response("rfc8748-transfer.xml");
    expect(transfer.code).toBe(1001);
    expect(findExtension(transfer, "fee:trnData")).toEqual({
      kind: "fee:trnData",
      currency: "USD",
      period: { value: 1, unit: "y" },
      fees: [{ amount: "5.00", refundable: true, gracePeriod: "P5D" }],
      credits: [],
    });
    expect(findExtension(response("rfc8748-delete.xml"), "fee:delData")).toEqual({
      kind: "fee:delData",
      currency: "USD",
      fees: [],
      credits: [{ amount: "-5.00", description: "AGP Credit" }],
      balance: "1005.00",
    });
  });

  it("a registry's premium create and transfer with fee-1.0 (Nomulus)", () => {
    const create = response("nomulus-domain-create-premium.xml");
    expect(findResData(create, "domain:creData")).toEqual({
      kind: "domain:creData",
      name: "rich.example",
      crDate: "1999-04-03T22:00:00.0Z",
      exDate: "2001-04-03T22:00:00.0Z",
    });
    expect(findExtension(create, "fee:creData")).toEqual({
      kind: "fee:creData",
      currency: "USD",
      fees: [{ amount: "200.00", description: "create" }],
      credits: [],
    });
    const transfer = response("nomulus-domain-transfer-request-fee.xml");
    expect(transfer.code).toBe(1001);
    expect(findResData(transfer, "domain:trnData")).toMatchObject({ trStatus: "pending", reID: "NewRegistrar", acID: "TheRegistrar" });
    expect(findExtension(transfer, "fee:trnData")?.fees).toEqual([{ amount: "11.00", description: "renew" }]);
  });
});

describe("host responses (RFC 5732)", () => {
  it("chkData, infData with v4 and v6 addresses, creData", () => {
    expect(findResData(response("rfc5732-check.xml"), "host:chkData")?.items).toEqual([
      { name: "ns1.example.com", avail: true },
      { name: "ns2.example2.com", avail: false, reason: "In use" },
      { name: "ns3.example3.com", avail: true },
    ]);
    expect(response("rfc5732-info.xml").resData).toEqual([
      {
        kind: "host:infData",
        name: "ns1.example.com",
        roid: "NS1_EXAMPLE1-REP",
        statuses: [{ s: "linked" }, { s: "clientUpdateProhibited" }],
        addresses: [
          { ip: "v4", address: "192.0.2.2" },
          { ip: "v4", address: "192.0.2.29" },
          { ip: "v6", address: "1080:0:0:0:8:800:200C:417A" },
        ],
        clID: "ClientY",
        crID: "ClientX",
        crDate: "1999-04-03T22:00:00.0Z",
        upID: "ClientX",
        upDate: "1999-12-03T09:00:00.0Z",
        trDate: "2000-04-08T09:00:00.0Z",
      },
    ]);
    expect(response("rfc5732-create.xml").resData).toEqual([{ kind: "host:creData", name: "ns1.example.com", crDate: "1999-04-03T22:00:00.0Z" }]);
  });

  it("registries' host infData (Nomulus, ISPAPI)", () => {
    expect(findResData(response("nomulus-host-info.xml"), "host:infData")).toMatchObject({
      name: "ns1.example.tld",
      clID: "TheRegistrar",
      crID: "NewRegistrar",
    });
    expect(findResData(response("ispapi-host-info.xml"), "host:infData")).toEqual({
      kind: "host:infData",
      name: "host2.eppdev-1.com",
      roid: "UNDEF-ROID",
      statuses: [{ s: "ok" }],
      addresses: [
        { ip: "v4", address: "29.245.122.14" },
        { ip: "v6", address: "2404:6800:4001:0801:0000:0000:0000:200e" },
      ],
      clID: "eppdev",
      crID: "creator",
      crDate: "2021-07-26T05:28:55.0Z",
      upID: "creator",
      upDate: "2021-07-26T05:28:55.0Z",
    });
  });
});

describe("contact responses (RFC 5733)", () => {
  it("chkData per id (RFC 5733 §3.1.1, ISPAPI)", () => {
    expect(findResData(response("rfc5733-check.xml"), "contact:chkData")?.items).toEqual([
      { name: "sh8013", avail: true },
      { name: "sah8013", avail: false, reason: "In use" },
      { name: "8013sah", avail: true },
    ]);
    expect(findResData(response("ispapi-contact-check.xml"), "contact:chkData")?.items).toEqual([
      { name: "eppdev-contact-1", avail: false },
      { name: "eppdev-contact-2", avail: true },
    ]);
  });

  it("infData: postal info, voice with extension, fax, email, dates, authInfo, disclose (RFC 5733 §3.1.2)", () => {
    expect(response("rfc5733-info.xml").resData).toEqual([
      {
        kind: "contact:infData",
        id: "sh8013",
        roid: "SH8013-REP",
        statuses: [{ s: "linked" }, { s: "clientDeleteProhibited" }],
        postalInfo: [
          {
            type: "int",
            name: "John Doe",
            org: "Example Inc.",
            street: ["123 Example Dr.", "Suite 100"],
            city: "Dulles",
            sp: "VA",
            pc: "20166-6503",
            cc: "US",
          },
        ],
        voice: { number: "+1.7035555555", ext: "1234" },
        fax: { number: "+1.7035555556" },
        email: "jdoe@example.com",
        clID: "ClientY",
        crID: "ClientX",
        crDate: "1999-04-03T22:00:00.0Z",
        upID: "ClientX",
        upDate: "1999-12-03T09:00:00.0Z",
        trDate: "2000-04-08T09:00:00.0Z",
        authInfo: "2fooBAR",
        disclose: { flag: false, voice: true, email: true },
      },
    ]);
  });

  it("a registry's infData prefixed epp: with an empty org (ZA Central Registry)", () => {
    expect(findResData(response("zacr-contact-info.xml"), "contact:infData")).toMatchObject({
      id: "testCont",
      statuses: [{ s: "ok" }, { s: "linked" }],
      postalInfo: [
        { type: "loc", name: "Test Contact", street: ["22 Elm street", "Amityville"], city: "Registrant Ville", sp: "Gauteng", pc: "90210", cc: "ZA" },
      ],
      voice: { number: "+27.115551234" },
      email: "test@example.com",
    });
  });

  it("creData (RFC 5733 §3.2.1) and trnData to a transfer request (§3.2.4)", () => {
    expect(response("rfc5733-create.xml").resData).toEqual([{ kind: "contact:creData", id: "sh8013", crDate: "1999-04-03T22:00:00.0Z" }]);
    const transfer = response("rfc5733-transfer-request.xml");
    expect(transfer.code).toBe(1001);
    expect(transfer.resData).toEqual([
      {
        kind: "contact:trnData",
        id: "sh8013",
        trStatus: "pending",
        reID: "ClientX",
        reDate: "2000-06-08T22:00:00.0Z",
        acID: "ClientY",
        acDate: "2000-06-13T22:00:00.0Z",
      },
    ]);
  });
});
