// The EPP codec's tables and pure rules: result codes and what the API answers for each
// (contract section 21), which commands may be sent again, what to ask after an answer
// that never came, the login a greeting allows, and the 3–16 character ids a registry
// holds for our contacts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCommand } from "../../src/epp/commands";
import { registryContactId, sha256 } from "../../src/epp/ids";
import { NS } from "../../src/epp/namespaces";
import { parseGreeting } from "../../src/epp/responses";
import { closesSession, commandRetry, outcomeQuery, RESULT_CODES, resultCode } from "../../src/epp/result-codes";
import { loginFor, loginServices } from "../../src/epp/session";
import type { EppCommand } from "../../src/epp/types";
import { eppSources, fixture } from "../epp/fixtures.mjs";

describe("result codes map to the API's answers as contract section 21 says", () => {
  const answer = (code: number) => resultCode(code).answer;

  it("1000, 1300, 1301, 1500 are done; 1001 is 202 pending", () => {
    for (const code of [1000, 1300, 1301, 1500]) expect(answer(code), String(code)).toEqual({ outcome: "done" });
    expect(answer(1001)).toEqual({ outcome: "pending", status: 202 });
  });

  it("2302 → 409 unavailable, 2303 → 409 registry_mismatch, 2201 → 403 forbidden, 2202 → 422 invalid_auth_info", () => {
    expect(answer(2302)).toEqual({ outcome: "refused", status: 409, problem: "unavailable" });
    expect(answer(2303)).toEqual({ outcome: "refused", status: 409, problem: "registry_mismatch" });
    expect(answer(2201)).toEqual({ outcome: "refused", status: 403, problem: "forbidden" });
    expect(answer(2202)).toEqual({ outcome: "refused", status: 422, problem: "invalid_auth_info" });
  });

  it("2304 → 409 status_prohibits, 2305 → 409 object_linked, 2306 and 2308 → 422 policy_violation", () => {
    expect(answer(2304)).toEqual({ outcome: "refused", status: 409, problem: "status_prohibits" });
    expect(answer(2305)).toEqual({ outcome: "refused", status: 409, problem: "object_linked" });
    expect(answer(2306)).toEqual({ outcome: "refused", status: 422, problem: "policy_violation" });
    expect(answer(2308)).toEqual({ outcome: "refused", status: 422, problem: "policy_violation" });
  });

  it("2400 and 2500–2502 → retried once if safe, else 503 registry_unavailable; 25xx close the session", () => {
    for (const code of [2400, 2500, 2501, 2502]) expect(answer(code), String(code)).toEqual({ outcome: "retry", status: 503, problem: "registry_unavailable" });
    expect([2400, 2500, 2501, 2502].map(closesSession)).toEqual([false, true, true, true]);
  });

  it("every code of RFC 5730 §3 is in the table, with the RFC's text", () => {
    const codes = [
      1000, 1001, 1300, 1301, 1500, 2000, 2001, 2002, 2003, 2004, 2005, 2100, 2101, 2102, 2103, 2104, 2105, 2106, 2200, 2201, 2202, 2300, 2301, 2302, 2303,
      2304, 2305, 2306, 2307, 2308, 2400, 2500, 2501, 2502,
    ];
    expect(Object.keys(RESULT_CODES).map(Number)).toEqual(codes);
    expect(RESULT_CODES[2305]!.message).toBe("Object association prohibits operation");
    expect(RESULT_CODES[1301]!.message).toBe("Command completed successfully; ack to dequeue");
  });

  it("a code the RFC does not list is read by its class", () => {
    expect(resultCode(1999)).toEqual({ code: 1999, message: "Command completed successfully", answer: { outcome: "done" } });
    expect(resultCode(2999).answer).toEqual({ outcome: "retry", status: 503, problem: "registry_unavailable" });
  });
});

describe("which commands may be sent again when their answer never came", () => {
  it("queries are safe: check, info, poll, a transfer query, and the session's login and logout", () => {
    const safe: EppCommand[] = [
      { kind: "domain:check", names: ["a.example"] },
      { kind: "domain:info", name: "a.example" },
      { kind: "host:info", name: "ns1.a.example" },
      { kind: "contact:check", ids: ["abc"] },
      { kind: "poll", op: "req" },
      { kind: "domain:transfer", op: "query", name: "a.example" },
      { kind: "logout" },
    ];
    for (const command of safe) {
      expect(commandRetry(command), command.kind).toBe("safe");
      expect(outcomeQuery(command), command.kind).toBeNull();
    }
  });

  it("transforms are asked after first, with an info of their object (or a transfer query)", () => {
    const asks: [EppCommand, EppCommand][] = [
      [
        { kind: "domain:create", name: "a.example", authInfo: "x" },
        { kind: "domain:info", name: "a.example", hosts: "none" },
      ],
      [
        { kind: "domain:renew", name: "a.example", curExpDate: "2030-01-01" },
        { kind: "domain:info", name: "a.example", hosts: "none" },
      ],
      [
        { kind: "domain:delete", name: "a.example" },
        { kind: "domain:info", name: "a.example", hosts: "none" },
      ],
      [
        { kind: "domain:transfer", op: "approve", name: "a.example" },
        { kind: "domain:transfer", op: "query", name: "a.example" },
      ],
      [
        { kind: "host:update", name: "ns1.a.example", newName: "ns2.a.example" },
        { kind: "host:info", name: "ns2.a.example" },
      ],
      [
        { kind: "contact:delete", id: "cabc" },
        { kind: "contact:info", id: "cabc" },
      ],
    ];
    for (const [command, query] of asks) {
      expect(commandRetry(command), command.kind).toBe("ask_first");
      expect(outcomeQuery(command), command.kind).toEqual(query);
      expect(() => buildCommand(query, "ABC-12345")).not.toThrow();
    }
  });
});

describe("the login a greeting allows: the objects and extensions offered ∩ those used", () => {
  it("Nomulus offers host and domain (no contact), and secDNS, rgp, fee-1.0 among others", () => {
    const greeting = parseGreeting(fixture("nomulus-greeting.xml"));
    if (!greeting.ok) throw new Error(greeting.error.message);
    expect(loginServices(greeting.value)).toEqual({
      objURIs: [NS.domain, NS.host],
      extURIs: [NS.secDNS, NS.rgp, NS.fee],
      missingObjects: [NS.contact],
      missingExtensions: [],
    });
    expect(loginFor(greeting.value, { clientId: "ClientX", password: "foo-BAR2" })).toEqual({
      kind: "login",
      clientId: "ClientX",
      password: "foo-BAR2",
      version: "1.0",
      lang: "en",
      objURIs: [NS.domain, NS.host],
      extURIs: [NS.secDNS, NS.rgp, NS.fee],
    });
  });

  it("ZA Central Registry offers domain and contact, secDNS but no rgp or fee: the login leaves them out", () => {
    const greeting = parseGreeting(fixture("zacr-greeting.xml"));
    if (!greeting.ok) throw new Error(greeting.error.message);
    expect(loginFor(greeting.value, { clientId: "ClientX", password: "foo-BAR2" })).toMatchObject({ objURIs: [NS.domain, NS.contact], extURIs: [NS.secDNS] });
    expect(loginServices(greeting.value).missingExtensions).toEqual([NS.rgp, NS.fee]);
  });

  it("a greeting offering none of the objects used allows no login (RFC 5730's example offers obj1–obj3)", () => {
    const greeting = parseGreeting(fixture("rfc5730-greeting.xml"));
    if (!greeting.ok) throw new Error(greeting.error.message);
    expect(loginFor(greeting.value, { clientId: "ClientX", password: "foo-BAR2" })).toBeNull();
  });
});

describe("registryContactId: our ids as 3–16 character clIDType ids, the same every time", () => {
  const ID = "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";

  it("16 characters: the prefix (c unless told), then lower-case Crockford base32 of SHA-256 of our id", () => {
    const id = registryContactId(ID);
    expect(id).toMatch(/^c[0-9a-hjkmnp-tv-z]{15}$/);
    expect(registryContactId(ID)).toBe(id);
    expect(registryContactId(ID, { prefix: "dapi" })).toMatch(/^dapi[0-9a-hjkmnp-tv-z]{12}$/);
    // It fits the schema's rule: a contact:create with it builds.
    expect(() => buildCommand({ kind: "contact:info", id }, "ABC-12345")).not.toThrow();
  });

  it("a taken id's next attempt is another id, as stable", () => {
    const ids = [0, 1, 2].map((attempt) => registryContactId(ID, { attempt }));
    expect(new Set(ids).size).toBe(3);
    expect(registryContactId(ID, { attempt: 2 })).toBe(ids[2]);
  });

  it("200 000 ULID-like ids give 200 000 registry ids (no collision)", () => {
    const seen = new Set<string>();
    const base = "con_01JD3Q6Y4T8N0V4W5X";
    for (let i = 0; i < 200_000; i++) seen.add(registryContactId(base + i.toString(32).toUpperCase().padStart(6, "0")));
    expect(seen.size).toBe(200_000);
  });

  it("a bad prefix or attempt is refused", () => {
    expect(() => registryContactId(ID, { prefix: "1x" })).toThrow(RangeError);
    expect(() => registryContactId(ID, { prefix: "abcdefg" })).toThrow(RangeError);
    expect(() => registryContactId(ID, { attempt: -1 })).toThrow(RangeError);
  });

  it("its SHA-256 is FIPS 180-4's (the standard's vectors, and WebCrypto's digest of random input)", async () => {
    const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    const utf8 = (value: string) => new TextEncoder().encode(value);
    expect(hex(sha256(utf8("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(sha256(utf8("")))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hex(sha256(utf8("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (data) => {
        const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
        return hex(sha256(data)) === hex(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the codec runs in the Worker as it is", () => {
  it("src/epp imports nothing but its own modules and saxes: no node:, no HTTP, no database", () => {
    const imports = eppSources().flatMap(({ name, text }) => [...text.matchAll(/\bfrom\s+"([^"]+)"/g)].map((match) => `${name}: ${match[1]}`));
    expect(imports.length).toBeGreaterThan(20);
    expect(imports.filter((line) => !/: (\.\/[\w-]+|saxes)$/.test(line))).toEqual([]);
  });
});
