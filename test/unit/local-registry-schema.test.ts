// The local registry's schema check (scripts/local-registry/schema.ts): libxml2 compiled to
// WebAssembly in the registry's process, held to the real `xmllint --schema` (Debian's
// libxml2-utils) on the same schemas. Every fixture (RFC examples and registries' answers,
// some valid, some carrying a registry's own extension that the set refuses), commands the
// codec builds, and frames broken the ways a client could break them: both give the same
// verdict on each. And the tests' own guard, xmllintCheck, reports a frame the registry
// judged otherwise than xmllint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand, buildHello } from "../../src/epp/commands";
import type { EppCommand } from "../../src/epp/types";
import { FrameSchema, xmllintVerdicts } from "../../scripts/local-registry/schema";
import type { EppServer } from "../../scripts/local-registry/server";
import { fixture, fixtureNames } from "../epp/fixtures.mjs";
import { SCHEMA, startLocalRegistry } from "./local-registry-fixture";

const EPP = 'xmlns="urn:ietf:params:xml:ns:epp-1.0"';
const contactCreate = buildCommand(
  { kind: "contact:create", id: "abc", postalInfo: [{ type: "int", name: "A", city: "B", cc: "GB" }], email: "a@example.org", authInfo: "Contact-Auth-1" },
  "schema-test-1",
);
const domainCreate = buildCommand(
  {
    kind: "domain:create",
    name: "schema-test.com",
    period: { value: 1, unit: "y" },
    nameservers: ["ns1.example.net"],
    registrant: "abc",
    authInfo: "2fooBAR-x",
    ds: [{ keyTag: 12345, alg: 13, digestType: 2, digest: "49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE0F9A6D4C5F8BD5C1D9A8A0D2" }],
    fee: { currency: "USD", fees: [{ amount: "10.00" }] },
  } as EppCommand,
  "schema-test-2",
);

/** Messages with what each is; the valid ones first. */
const MESSAGES: [string, string][] = [
  ...fixtureNames().map((name): [string, string] => [`fixture ${name}`, fixture(name)]),
  ["a hello", buildHello()],
  ["a contact:create", contactCreate],
  ["a domain:create with secDNS and fee", domainCreate],
  ["a contact id of 2 characters (clIDType is 3–16)", contactCreate.replace("<contact:id>abc</contact:id>", "<contact:id>ab</contact:id>")],
  ["a contact id of 17 characters", contactCreate.replace("<contact:id>abc</contact:id>", "<contact:id>abcdefghijklmnopq</contact:id>")],
  ["an element the schema does not have", contactCreate.replace("<contact:email>", "<contact:bogus>x</contact:bogus><contact:email>")],
  ["a period of 100 years (1–99)", domainCreate.replace(/<domain:period unit="y">1<\/domain:period>/, '<domain:period unit="y">100</domain:period>')],
  ["a DS digest that is not hexadecimal", domainCreate.replace(/<secDNS:digest>[0-9A-F]+<\/secDNS:digest>/, "<secDNS:digest>XYZ</secDNS:digest>")],
  ["a fee that is not a decimal", domainCreate.replace(/>10\.00</, ">ten<")],
  ["a clTRID of 2 characters", contactCreate.replace("<clTRID>schema-test-1</clTRID>", "<clTRID>ab</clTRID>")],
  ["an extension of a namespace the set does not import", domainCreate.replace("</extension>", '<x:thing xmlns:x="urn:example:unknown"/></extension>')],
  ["a root other than epp", `<?xml version="1.0" encoding="UTF-8"?><hello ${EPP}/>`],
  ["no namespace", '<?xml version="1.0" encoding="UTF-8"?><epp><hello/></epp>'],
  ["not well-formed", `<?xml version="1.0" encoding="UTF-8"?><epp ${EPP}><hello></epp>`],
  ["an undeclared entity", `<?xml version="1.0" encoding="UTF-8"?><epp ${EPP}><hello/>&x;</epp>`],
  ["an external entity", `<?xml version="1.0"?><!DOCTYPE epp [<!ENTITY x SYSTEM "file:///etc/passwd">]><epp ${EPP}><hello/>&x;</epp>`],
  ["a command with two verbs", contactCreate.replace("</create>", "</create><check/>")],
  ["empty", ""],
];

describe("libxml2 in the registry's process gives xmllint's verdict", () => {
  const schema = FrameSchema.of(SCHEMA);
  const verdicts = xmllintVerdicts(
    SCHEMA,
    MESSAGES.map(([, xml]) => xml),
  );

  it("on every fixture, command and broken frame, valid or not as xmllint says", () => {
    const theirs = MESSAGES.map(([what], i) => `${what}: ${verdicts[i]!.valid ? "valid" : "invalid"}`);
    const ours = MESSAGES.map(([what, xml]) => `${what}: ${schema.problem(xml) === null ? "valid" : "invalid"}`);
    expect(ours).toEqual(theirs);
  });

  it("both find valid and invalid messages among them (the comparison is not of one kind only)", () => {
    expect(verdicts.filter((v) => v.valid).length).toBeGreaterThan(40);
    expect(verdicts.filter((v) => !v.valid).length).toBeGreaterThan(15);
  });

  it("a refusal names the line and what is wrong, as the 2001's reason", () => {
    expect(schema.problem(contactCreate.replace("<contact:id>abc</contact:id>", "<contact:id>ab</contact:id>"))).toMatch(
      /^line \d+: Element '\{urn:ietf:params:xml:ns:contact-1\.0\}id': \[facet 'minLength'\]/,
    );
  });
});

describe("the tests' guard: xmllintCheck", () => {
  let server: EppServer;
  beforeAll(async () => {
    ({ server } = await startLocalRegistry());
  });
  afterAll(() => server.close());

  it("reports a frame received whose verdict differs from xmllint's, and an answer sent that xmllint refuses", () => {
    server.frames.push(
      { direction: "received", xml: new TextEncoder().encode(contactCreate), problem: null },
      { direction: "received", xml: new TextEncoder().encode(contactCreate), problem: "said invalid, but it is not" },
      { direction: "received", xml: new TextEncoder().encode(contactCreate.replace("abc", "ab")), problem: "line 1: too short" },
      { direction: "received", xml: new TextEncoder().encode(contactCreate.replace("abc", "ab")), problem: null },
      { direction: "sent", xml: `<?xml version="1.0" encoding="UTF-8"?><epp ${EPP}><greeting/></epp>`, problem: null },
    );
    const report = server.xmllintCheck();
    expect(report.checked).toBe(5);
    expect(report.disagreements.map((d) => [d.direction, d.registry, d.xmllint === "validates" ? "validates" : "refuses"])).toEqual([
      ["received", "said invalid, but it is not", "validates"],
      ["received", null, "refuses"],
      ["sent", null, "refuses"],
    ]);
  });
});
