// The server's half of the codec, which the local registry uses: greetings and responses
// built from typed values (src/epp/response-builder.ts) validate against the RFC schemas
// and read back as the same values; commands are read (src/epp/command-reader.ts), and a
// verb, object or extension the codec does not speak is named in a typed error.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/epp/command-reader";
import { buildCommand } from "../../src/epp/commands";
import { buildGreeting, buildResponse } from "../../src/epp/response-builder";
import { parseServerMessage, type ServerMessage } from "../../src/epp/responses";
import type { EppResponse } from "../../src/epp/types";
import { fixture, fixtureNames } from "../epp/fixtures.mjs";
import { validateEpp } from "../epp/xmllint.mjs";

function read(xml: string): ServerMessage {
  const parsed = parseServerMessage(xml);
  if (!parsed.ok) throw new Error(`${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value;
}

function rebuild(message: ServerMessage): string {
  return message.type === "greeting" ? buildGreeting(message.greeting) : buildResponse(message.response);
}

describe("every greeting and response kind, read from the fixtures and built again, validates against the RFC schemas and reads back the same", () => {
  const names = fixtureNames();
  const messages = names.map((name) => read(fixture(name)));
  const rebuilt = messages.map(rebuild);
  const verdicts = validateEpp(rebuilt);
  // Those with a registry's own namespace cannot validate (RFC 5730's placeholder obj, ZACR's, Identity Digital's kv).
  const foreign = (message: ServerMessage) =>
    message.type === "response" && [...message.response.resData, ...message.response.extensions].some((data) => data.kind === "unknown");

  names.forEach((name, i) => {
    it(`${name}, built again, ${foreign(messages[i]!) ? "keeps its own namespace's element" : "validates"} and reads back as the same value`, () => {
      if (!foreign(messages[i]!)) expect(verdicts[i], rebuilt[i]).toEqual({ valid: true, output: "message validates" });
      expect(read(rebuilt[i]!)).toEqual(messages[i]);
    });
  });

  it("the kinds covered: every resData and extension kind the codec reads", () => {
    const kinds = new Set(
      messages.flatMap((message) =>
        message.type === "response" ? [...message.response.resData, ...message.response.extensions].map((data) => data.kind) : [],
      ),
    );
    expect([...kinds].sort()).toEqual(
      [
        "contact:chkData",
        "contact:creData",
        "contact:infData",
        "contact:trnData",
        "domain:chkData",
        "domain:creData",
        "domain:infData",
        "domain:panData",
        "domain:renData",
        "domain:trnData",
        "fee:chkData",
        "fee:creData",
        "fee:delData",
        "fee:renData",
        "fee:trnData",
        "host:chkData",
        "host:creData",
        "host:infData",
        "rgp:infData",
        "rgp:upData",
        "secDNS:infData",
        "unknown",
      ].sort(),
    );
  });
});

describe("responses the fixtures do not hold, built and validated", () => {
  const responses: [string, Omit<EppResponse, "code">][] = [
    [
      "a host:panData and a contact:panData in poll messages validate against RFC 5732 and 5733",
      {
        results: [{ code: 1301, msg: "Command completed successfully; ack to dequeue", values: [], extValues: [] }],
        msgQ: { count: 2, id: "7", qDate: "2024-01-02T03:04:05Z", msg: "Pending action completed." },
        resData: [
          { kind: "host:panData", name: "ns1.example.com", paResult: false, paTRID: { svTRID: "S-1" }, paDate: "2024-01-02T03:04:05Z" },
          { kind: "contact:panData", id: "sh8013", paResult: true, paTRID: { clTRID: "ABC-1", svTRID: "S-2" }, paDate: "2024-01-02T03:04:05Z" },
        ],
        extensions: [],
        trID: { clTRID: "ABC-12345", svTRID: "S-3" },
      },
    ],
    [
      "a fee:updData and a fee:chkData with a credit and a standard command validate against RFC 8748",
      {
        results: [{ code: 1000, msg: "Command completed successfully", values: [], extValues: [] }],
        resData: [],
        extensions: [
          { kind: "fee:updData", currency: "EUR", fees: [{ amount: "40.00", description: "Restore", applied: "immediate" }], credits: [] },
          {
            kind: "fee:chkData",
            currency: "EUR",
            items: [
              {
                objID: "example.eu",
                avail: true,
                commands: [
                  {
                    name: "renew",
                    standard: true,
                    period: { value: 1, unit: "y" },
                    fees: [{ amount: "8.00" }],
                    credits: [{ amount: "-1.00", description: "Promotion" }],
                  },
                ],
              },
            ],
          },
        ],
        trID: { svTRID: "S-4" },
      },
    ],
  ];
  const built = responses.map(([, response]) => buildResponse(response));
  const verdicts = validateEpp(built);
  responses.forEach(([name, response], i) => {
    it(name, () => {
      expect(verdicts[i], built[i]).toEqual({ valid: true, output: "message validates" });
      expect(read(built[i]!)).toEqual({ type: "response", response: { code: response.results[0]!.code, ...response } });
    });
  });

  it("a result's message defaults to RFC 5730's text for its code", () => {
    const xml = buildResponse({ results: [{ code: 2302 }], trID: { svTRID: "S-5" } });
    expect(read(xml)).toMatchObject({ type: "response", response: { code: 2302, results: [{ code: 2302, msg: "Object exists" }] } });
  });
});

describe("commands a server reads", () => {
  it("a hello", () => {
    expect(parseCommand('<?xml version="1.0" encoding="UTF-8"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><hello/></epp>')).toEqual({
      ok: true,
      value: { type: "hello" },
    });
  });

  it("a command written with other prefixes (or none) reads the same", () => {
    const xml = `<e:epp xmlns:e="urn:ietf:params:xml:ns:epp-1.0"><e:command><e:check><check xmlns="urn:ietf:params:xml:ns:domain-1.0"><name>a.example</name><name>b.example</name></check></e:check><e:clTRID>ABC-1</e:clTRID></e:command></e:epp>`;
    expect(parseCommand(xml)).toEqual({
      ok: true,
      value: { type: "command", command: { kind: "domain:check", names: ["a.example", "b.example"] }, clTRID: "ABC-1" },
    });
  });

  it("an object service the codec does not speak is unimplemented_object (a server answers 2307)", () => {
    const xml = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><info><obj:info xmlns:obj="urn:example:obj"><obj:name>x</obj:name></obj:info></info><clTRID>ABC-1</clTRID></command></epp>`;
    expect(parseCommand(xml)).toEqual({ ok: false, error: { code: "unimplemented_object", message: "no object service urn:example:obj" } });
  });

  it("an extension the command does not take is unimplemented_extension (2103); a verb EPP lacks is unimplemented_command (2000)", () => {
    const withExtension = buildCommand({ kind: "domain:info", name: "example.com" }, "ABC-1").replace(
      "<clTRID>",
      '<extension><x:thing xmlns:x="urn:example:ext"/></extension><clTRID>',
    );
    expect(parseCommand(withExtension)).toEqual({
      ok: false,
      error: { code: "unimplemented_extension", message: "no extension {urn:example:ext}thing for this command" },
    });
    const feeOnDelete = buildCommand({ kind: "domain:delete", name: "example.com" }, "ABC-1").replace(
      "<clTRID>",
      '<extension><fee:create xmlns:fee="urn:ietf:params:xml:ns:epp:fee-1.0"><fee:fee>1.00</fee:fee></fee:create></extension><clTRID>',
    );
    expect(parseCommand(feeOnDelete)).toMatchObject({ ok: false, error: { code: "unimplemented_extension" } });
    const verb = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><frobnicate/><clTRID>ABC-1</clTRID></command></epp>`;
    expect(parseCommand(verb)).toEqual({ ok: false, error: { code: "unimplemented_command", message: "no command <frobnicate>" } });
  });

  it("a command missing what its schema requires is malformed, naming it", () => {
    const xml = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><create><domain:create xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.com</domain:name></domain:create></create></command></epp>`;
    expect(parseCommand(xml)).toEqual({ ok: false, error: { code: "malformed", message: "a domain:create has no authInfo" } });
  });
});
