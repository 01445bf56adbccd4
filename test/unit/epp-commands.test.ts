// Every command the EPP codec builds (src/epp/commands.ts), validated by the real
// `xmllint --schema` against the schemas of RFC 5730–5733, 5910, 3915 and 8748
// (schemas/epp/all.xsd), and read back by the codec's own command reader (what the local
// registry uses) to the same typed value.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/epp/command-reader";
import { buildCommand, buildHello } from "../../src/epp/commands";
import type { EppCommand } from "../../src/epp/types";
import { EppInputError } from "../../src/epp/values";
import { validateEpp } from "../epp/xmllint.mjs";

const DS = { keyTag: 12345, alg: 13, digestType: 2, digest: "49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE0F9A6D4C5F8BD5C1D9A8A0D2" };

/** One command of every kind the gateway sends, with every optional part it uses. */
const COMMANDS: [string, EppCommand][] = [
  [
    "a login with a new password, the objects and extensions, validates against RFC 5730",
    {
      kind: "login",
      clientId: "ClientX",
      password: "foo-BAR2",
      newPassword: "bar-FOO2",
      objURIs: ["urn:ietf:params:xml:ns:domain-1.0", "urn:ietf:params:xml:ns:host-1.0", "urn:ietf:params:xml:ns:contact-1.0"],
      extURIs: ["urn:ietf:params:xml:ns:secDNS-1.1", "urn:ietf:params:xml:ns:rgp-1.0", "urn:ietf:params:xml:ns:epp:fee-1.0"],
    },
  ],
  [
    "a login without extensions validates against RFC 5730",
    { kind: "login", clientId: "ClientX", password: "foo-BAR2", objURIs: ["urn:ietf:params:xml:ns:domain-1.0"], extURIs: [] },
  ],
  ["a logout validates against RFC 5730", { kind: "logout" }],
  ["a poll request validates against RFC 5730", { kind: "poll", op: "req" }],
  ["a poll ack validates against RFC 5730", { kind: "poll", op: "ack", msgID: "12345" }],
  ["a domain:check of several names validates against RFC 5731", { kind: "domain:check", names: ["example.com", "example.net", "example.org"] }],
  [
    "a domain:check with fee:check for create, renew, transfer and restore validates against RFC 5731 and 8748",
    {
      kind: "domain:check",
      names: ["example.com", "rich.example"],
      fee: {
        currency: "USD",
        commands: [
          { name: "create", period: { value: 2, unit: "y" } },
          { name: "renew", period: { value: 1, unit: "y" } },
          { name: "transfer" },
          { name: "restore" },
        ],
      },
    },
  ],
  ["a domain:info with hosts=all and authInfo validates against RFC 5731", { kind: "domain:info", name: "example.com", hosts: "all", authInfo: "2fooBAR" }],
  [
    "a domain:create with secDNS and fee validates against RFC 5731, 5910 and 8748",
    {
      kind: "domain:create",
      name: "example.com",
      period: { value: 2, unit: "y" },
      nameservers: ["ns1.example.net", "ns2.example.net"],
      registrant: "jd1234",
      contacts: [
        { type: "admin", id: "sh8013" },
        { type: "tech", id: "sh8013" },
        { type: "billing", id: "sh8013" },
      ],
      authInfo: "2fooBAR",
      ds: [DS],
      fee: { currency: "USD", fees: [{ amount: "100.00", description: "Premium create" }] },
    },
  ],
  ["a minimal domain:create validates against RFC 5731", { kind: "domain:create", name: "example.org", authInfo: "2fooBAR" }],
  [
    "a domain:renew with curExpDate, period and fee validates against RFC 5731 and 8748",
    {
      kind: "domain:renew",
      name: "example.com",
      curExpDate: "2000-04-03",
      period: { value: 5, unit: "y" },
      fee: { currency: "USD", fees: [{ amount: "5.00" }] },
    },
  ],
  [
    "a domain:update of hosts, contacts, client statuses, registrant and authInfo validates against RFC 5731",
    {
      kind: "domain:update",
      name: "example.com",
      add: {
        nameservers: ["ns2.example.com"],
        contacts: [{ type: "tech", id: "mak21" }],
        statuses: [{ s: "clientHold", lang: "en", text: "Payment overdue." }],
      },
      rem: { nameservers: ["ns1.example.com"], contacts: [{ type: "tech", id: "sh8013" }], statuses: [{ s: "clientUpdateProhibited" }] },
      chg: { registrant: "sh8013", authInfo: "2BARfoo" },
    },
  ],
  [
    "a domain:update that removes the registrant and authInfo validates against RFC 5731",
    { kind: "domain:update", name: "example.com", chg: { registrant: "", authInfo: null } },
  ],
  [
    "a domain:update with secDNS:update removing and adding DS records validates against RFC 5731 and 5910",
    { kind: "domain:update", name: "example.com", ds: { rem: [{ ...DS, keyTag: 1 }], add: [DS] } },
  ],
  ["a domain:update removing every DS record validates against RFC 5910", { kind: "domain:update", name: "example.com", ds: { rem: "all" } }],
  [
    "a domain:update asking for an urgent DS change and a maxSigLife validates against RFC 5910",
    { kind: "domain:update", name: "example.com", ds: { urgent: true, rem: "all", add: [DS], maxSigLife: 604800 } },
  ],
  [
    "a domain:update with rgp:restore op=request and a fee validates against RFC 5731, 3915 and 8748",
    { kind: "domain:update", name: "example.com", restore: { op: "request" }, fee: { currency: "USD", fees: [{ amount: "40.00", description: "Restore" }] } },
  ],
  [
    "a domain:update with rgp:restore op=report and its fields validates against RFC 3915",
    {
      kind: "domain:update",
      name: "example.com",
      restore: {
        op: "report",
        report: {
          preData: "Pre-delete registration data goes here. Both XML and free text are allowed.",
          postData: "Post-restore registration data goes here. Both XML and free text are allowed.",
          delTime: "2003-07-10T22:00:00.0Z",
          resTime: "2003-07-20T22:00:00.0Z",
          resReason: "Registrant error.",
          statements: [
            "This registrar has not restored the Registered Name in order to assume the rights to use or sell the Registered Name for itself or for any third party.",
            "The information in this report is true to best of this registrar's knowledge, and this registrar acknowledges that intentionally supplying false information in this report shall constitute an incurable material breach of the Registry-Registrar Agreement.",
          ],
          other: "Supporting information goes here.",
        },
      },
    },
  ],
  ["a domain:delete validates against RFC 5731", { kind: "domain:delete", name: "example.com" }],
  [
    "a domain:transfer request with authInfo, period and fee validates against RFC 5731 and 8748",
    {
      kind: "domain:transfer",
      op: "request",
      name: "example.com",
      period: { value: 1, unit: "y" },
      authInfo: "2fooBAR",
      fee: { currency: "USD", fees: [{ amount: "11.00" }] },
    },
  ],
  ["a domain:transfer query validates against RFC 5731", { kind: "domain:transfer", op: "query", name: "example.com", authInfo: "2fooBAR" }],
  ["a domain:transfer approve validates against RFC 5731", { kind: "domain:transfer", op: "approve", name: "example.com" }],
  ["a domain:transfer reject validates against RFC 5731", { kind: "domain:transfer", op: "reject", name: "example.com" }],
  ["a domain:transfer cancel validates against RFC 5731", { kind: "domain:transfer", op: "cancel", name: "example.com" }],
  ["a host:check validates against RFC 5732", { kind: "host:check", names: ["ns1.example.com", "ns2.example.com"] }],
  ["a host:info validates against RFC 5732", { kind: "host:info", name: "ns1.example.com" }],
  [
    "a host:create with IPv4 and IPv6 addresses validates against RFC 5732",
    { kind: "host:create", name: "ns1.example.com", addresses: ["192.0.2.2", "192.0.2.29", "2001:db8::1"] },
  ],
  ["a host:create without addresses validates against RFC 5732", { kind: "host:create", name: "ns1.example.net" }],
  [
    "a host:update adding and removing addresses and statuses and renaming validates against RFC 5732",
    {
      kind: "host:update",
      name: "ns1.example.com",
      add: { addresses: ["192.0.2.22"], statuses: [{ s: "clientUpdateProhibited" }] },
      rem: { addresses: ["2001:db8::1"] },
      newName: "ns2.example.com",
    },
  ],
  ["a host:delete validates against RFC 5732", { kind: "host:delete", name: "ns1.example.com" }],
  ["a contact:check validates against RFC 5733", { kind: "contact:check", ids: ["sh8013", "sah8013", "8013sah"] }],
  ["a contact:info with authInfo validates against RFC 5733", { kind: "contact:info", id: "sh8013", authInfo: "2fooBAR" }],
  [
    "a contact:create with int and loc postal info, voice, fax, email, authInfo and disclose validates against RFC 5733",
    {
      kind: "contact:create",
      id: "sh8013",
      postalInfo: [
        { type: "int", name: "John Doe", org: "Example Inc.", street: ["123 Example Dr.", "Suite 100"], city: "Dulles", sp: "VA", pc: "20166-6503", cc: "US" },
        { type: "loc", name: "Jöhn Döe", street: ["Straße 1"], city: "Köln", cc: "DE" },
      ],
      voice: { number: "+1.7035555555", ext: "1234" },
      fax: { number: "+1.7035555556" },
      email: "jdoe@example.com",
      authInfo: "2fooBAR",
      disclose: { flag: false, voice: true, email: true },
    },
  ],
  [
    "a contact:update of statuses, postal info, voice, email, authInfo and disclose validates against RFC 5733",
    {
      kind: "contact:update",
      id: "sh8013",
      add: { statuses: [{ s: "clientDeleteProhibited" }] },
      rem: { statuses: [{ s: "clientUpdateProhibited" }] },
      chg: {
        postalInfo: [{ type: "int", org: "", addr: { street: ["124 Example Dr.", "Suite 200"], city: "Dulles", sp: "VA", pc: "20166-6503", cc: "US" } }],
        voice: { number: "+1.7034444444" },
        fax: null,
        email: "jdoe@example.net",
        authInfo: "2fooBAR",
        disclose: { flag: true, name: ["int"], addr: ["int", "loc"], voice: true, email: true },
      },
    },
  ],
  ["a contact:delete validates against RFC 5733", { kind: "contact:delete", id: "sh8013" }],
  ["a contact:transfer request with authInfo validates against RFC 5733", { kind: "contact:transfer", op: "request", id: "sh8013", authInfo: "2fooBAR" }],
  ["a contact:transfer query validates against RFC 5733", { kind: "contact:transfer", op: "query", id: "sh8013" }],
];

describe("every command kind the codec builds validates against the RFC schemas (xmllint --schema)", () => {
  const built = COMMANDS.map(([, command], i) => buildCommand(command, `ABC-${12345 + i}`));
  const verdicts = validateEpp([buildHello(), ...built]);

  it("a hello validates against RFC 5730", () => {
    expect(verdicts[0]).toEqual({ valid: true, output: "message validates" });
  });

  COMMANDS.forEach(([name], i) => {
    it(name, () => {
      expect(verdicts[i + 1], built[i]).toEqual({ valid: true, output: "message validates" });
    });
  });
});

describe("a command built and read back by the codec is the same command", () => {
  COMMANDS.forEach(([name, command], i) => {
    it(name.replace(/ validates against.*$/, " reads back as itself"), () => {
      const read = parseCommand(buildCommand(command, `ABC-${12345 + i}`));
      expect(read).toEqual({ ok: true, value: { type: "command", command: normalized(command), clTRID: `ABC-${12345 + i}` } });
    });
  });
});

describe("a secDNS:update is read as sent, what a server refuses included", () => {
  const update = (secDns: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="no"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><update><domain:update xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.com</domain:name><domain:chg/></domain:update></update><extension>${secDns}</extension><clTRID>ABC-1</clTRID></command></epp>`;
  const read = (secDns: string) => {
    const xml = update(secDns);
    expect(validateEpp([xml])[0]!.valid).toBe(true);
    const parsed = parseCommand(xml);
    return parsed.ok && parsed.value.type === "command" && parsed.value.command.kind === "domain:update" ? parsed.value.command.ds : parsed;
  };
  const sec = 'xmlns:secDNS="urn:ietf:params:xml:ns:secDNS-1.1"';
  const key =
    "<secDNS:keyData><secDNS:flags>257</secDNS:flags><secDNS:protocol>3</secDNS:protocol><secDNS:alg>13</secDNS:alg><secDNS:pubKey>AQPJ////4Q==</secDNS:pubKey></secDNS:keyData>";

  it("<secDNS:all>false</secDNS:all> removes nothing and is named all-false (RFC 5910 §5.2.5: all is for removing every DS)", () => {
    expect(read(`<secDNS:update ${sec}><secDNS:rem><secDNS:all>false</secDNS:all></secDNS:rem></secDNS:update>`)).toEqual({ unsupported: ["all-false"] });
  });

  it("keyData in rem or add (the key data interface, RFC 5910 §4.2) is named keyData, never dropped silently", () => {
    expect(read(`<secDNS:update ${sec}><secDNS:add>${key}</secDNS:add></secDNS:update>`)).toEqual({ add: [], unsupported: ["keyData"] });
    expect(read(`<secDNS:update ${sec}><secDNS:rem>${key}</secDNS:rem></secDNS:update>`)).toEqual({ rem: [], unsupported: ["keyData"] });
  });

  it('urgent and maxSigLife are read; urgent="false" is the default, not a request', () => {
    expect(read(`<secDNS:update ${sec} urgent="1"><secDNS:chg><secDNS:maxSigLife>604800</secDNS:maxSigLife></secDNS:chg></secDNS:update>`)).toEqual({
      urgent: true,
      maxSigLife: 604800,
    });
    expect(read(`<secDNS:update ${sec} urgent="false"><secDNS:rem><secDNS:all>true</secDNS:all></secDNS:rem></secDNS:update>`)).toEqual({ rem: "all" });
  });

  it("the builder refuses to send what only a server reads (unsupported)", () => {
    expect(() => buildCommand({ kind: "domain:update", name: "example.com", ds: { rem: "all", unsupported: ["all-false"] } }, "ABC-1")).toThrow(EppInputError);
  });
});

/** What the reader gives for a command: the defaults the builder writes filled in. */
function normalized(command: EppCommand): EppCommand {
  if (command.kind === "login") return { ...command, version: command.version ?? "1.0", lang: command.lang ?? "en" };
  if (command.kind === "domain:info") return { ...command, hosts: command.hosts ?? "all" };
  if (command.kind === "domain:create" && command.ds) return { ...command, ds: command.ds.map((ds) => ({ ...ds, digest: ds.digest.toUpperCase() })) };
  return command;
}

describe("values are escaped, never spliced", () => {
  it("markup in a value is text in the document: an authInfo of </domain:pw><x/> stays one password", () => {
    const xml = buildCommand({ kind: "domain:info", name: "example.com", authInfo: '</domain:pw><evil a="1"/>&amp;' }, "ABC-12345");
    expect(xml).toContain('<domain:pw>&lt;/domain:pw&gt;&lt;evil a="1"/&gt;&amp;amp;</domain:pw>');
    expect(validateEpp([xml])[0]!.valid).toBe(true);
    const read = parseCommand(xml);
    expect(read.ok && read.value.type === "command" && read.value.command).toEqual({
      kind: "domain:info",
      name: "example.com",
      hosts: "all",
      authInfo: '</domain:pw><evil a="1"/>&amp;',
    });
  });

  it("a quote and an ampersand in an attribute value are escaped (a status reason's lang, a fee's description)", () => {
    const xml = buildCommand(
      { kind: "domain:create", name: "example.com", authInfo: "2fooBAR", fee: { fees: [{ amount: "1.00", description: 'a "premium" & rare' }] } },
      "ABC-12345",
    );
    expect(xml).toContain('description="a &quot;premium&quot; &amp; rare"');
    expect(validateEpp([xml])[0]!.valid).toBe(true);
  });
});

describe("a value that breaks its schema's rule is refused before anything is written (EppInputError naming the field)", () => {
  const refused = (command: EppCommand, clTRID = "ABC-12345") => {
    try {
      buildCommand(command, clTRID);
    } catch (error) {
      if (error instanceof EppInputError) return error.field;
      throw error;
    }
    return "built";
  };

  it("a clTRID is 3–64 characters", () => {
    expect(refused({ kind: "logout" }, "AB")).toBe("clTRID");
    expect(refused({ kind: "logout" }, "A".repeat(65))).toBe("clTRID");
    expect(refused({ kind: "logout" }, "A".repeat(64))).toBe("built");
  });

  it("a contact id (clIDType) is 3–16 characters", () => {
    expect(refused({ kind: "contact:info", id: "ab" })).toBe("id");
    expect(refused({ kind: "contact:info", id: "a".repeat(17) })).toBe("id");
    expect(refused({ kind: "domain:create", name: "example.com", registrant: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", authInfo: "x" })).toBe("registrant");
  });

  it("a login password is 6–16 characters (RFC 5730 pwType)", () => {
    expect(refused({ kind: "login", clientId: "ClientX", password: "short", objURIs: ["urn:ietf:params:xml:ns:domain-1.0"], extURIs: [] })).toBe("password");
  });

  it("a period is 1–99; a DS digest is hexadecimal; a fee a decimal string; a currency three capitals", () => {
    expect(refused({ kind: "domain:renew", name: "example.com", curExpDate: "2000-04-03", period: { value: 100, unit: "y" } })).toBe("period");
    expect(refused({ kind: "domain:renew", name: "example.com", curExpDate: "2000-02-30" })).toBe("curExpDate");
    expect(refused({ kind: "domain:create", name: "example.com", authInfo: "x", ds: [{ ...DS, digest: "XYZ" }] })).toBe("ds[0].digest");
    expect(refused({ kind: "domain:create", name: "example.com", authInfo: "x", fee: { fees: [{ amount: "-1" }] } })).toBe("fee.fees[0].amount");
    expect(refused({ kind: "domain:create", name: "example.com", authInfo: "x", fee: { currency: "usd", fees: [{ amount: "1" }] } })).toBe("fee.currency");
  });

  it("a client may set client* statuses only", () => {
    expect(refused({ kind: "domain:update", name: "example.com", add: { statuses: [{ s: "serverHold" as "clientHold" }] } })).toBe("add.statuses[0].s");
  });

  it("a host address is IPv4 or IPv6; an update changes something", () => {
    expect(refused({ kind: "host:create", name: "ns1.example.com", addresses: ["999.1.1.1"] })).toBe("addresses[0]");
    expect(refused({ kind: "host:update", name: "ns1.example.com" })).toBe("update");
    expect(refused({ kind: "domain:update", name: "example.com" })).toBe("update");
  });

  it("int postal info is ASCII; a phone is +CC.NUMBER; a contact has one or two postal infos of different types", () => {
    const base = { kind: "contact:create" as const, id: "sh8013", email: "a@example.com", authInfo: "2fooBAR" };
    expect(refused({ ...base, postalInfo: [{ type: "int", name: "Jöhn", city: "X", cc: "US" }] })).toBe("postalInfo[0].name");
    expect(refused({ ...base, postalInfo: [{ type: "int", name: "John", city: "X", cc: "US" }], voice: { number: "703-555-5555" } })).toBe("voice.number");
    expect(
      refused({
        ...base,
        postalInfo: [
          { type: "int", name: "John", city: "X", cc: "US" },
          { type: "int", name: "John", city: "X", cc: "US" },
        ],
      }),
    ).toBe("postalInfo");
  });

  it("a character XML cannot hold (a control character) is refused, not written", () => {
    expect(refused({ kind: "domain:info", name: "example.com", authInfo: "a\u0001b" })).toBe("authInfo");
  });
});
