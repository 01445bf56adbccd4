// DNS UPDATE as pure rules (src/dns/message.ts, src/dns/tsig.ts, src/dns/update.ts): the
// wire form as nsupdate and knsupdate write it (two messages captured from the real tools),
// TSIG verification and signing (RFC 8945), the zone section, prerequisites and update
// section of RFC 2136, each rule a test.
import { describe, expect, it } from "vitest";
import { CLASS_ANY, CLASS_IN, nameText, OPCODE_UPDATE, parseMessage, renderResponse, TYPE_SOA, wireName, withAdditional } from "../../src/dns/message";
import { readTsig, responseTsig, signRequest, TSIG_ERROR, type TsigRecord, verifyRequest, verifyResponse } from "../../src/dns/tsig";
import { applyUpdates, genericRdata, prerequisiteRefusal, prescanUpdates, type UpdateOperation } from "../../src/dns/update";
import type { RrsetMember } from "../../src/dns/rrset-changes";
import { updateMessage } from "../dns-update-messages";

const hex = (text: string) => Uint8Array.from(text.match(/../g)!.map((byte) => Number.parseInt(byte, 16)));
const SECRET = Uint8Array.from(atob("c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ="), (c) => c.charCodeAt(0));

// `nsupdate -y hmac-sha256:acme-writer.example.com:c2Vj…` (BIND 9.18.49) sending, for zone example.com:
//   prereq nxrrset _acme-challenge.example.com. TXT
//   update add _acme-challenge.example.com. 60 TXT "token-1"
//   update add www.example.com. 300 CNAME example.com.      (nsupdate compresses the target)
//   update delete old.example.com. A
//   update delete old.example.com. AAAA 2001:db8::1
// captured on a UDP socket of node:dgram.
const NSUPDATE =
  "a6d428000001000100040001076578616d706c6503636f6d00000600010f5f61636d652d6368616c6c656e6765c00c001000fe000000000000c01d001000010000003c000807746f6b656e2d3103777777c00c000500010000012c0002c00c036f6c64c00c000100ff000000000000c05f001c00fe00000000001020010db80000000000000000000000010b61636d652d777269746572076578616d706c6503636f6d0000fa00ff00000000003d0b686d61632d7368613235360000006b0b8c9b012c00201c8be558d84a867b03fea1448f5abe96f77f5cbbc2bb223b9dcf4d7993fa3da0a6d400000000";
// `knsupdate -y hmac-sha512:ddns.example.com:c2Vj…` (Knot 3.2): origin example.com., prereq
// yxdomain www, update add home 300 A 192.0.2.7, add home 300 AAAA 2001:db8::7, del home MX.
const KNSUPDATE =
  "bef328000001000100030001076578616d706c6503636f6d000006000103777777c00c00ff00ff00000000000004686f6d65c00c000100010000012c0004c0000207c02d001c00010000012c001020010db8000000000000000000000007c02d000f00ff0000000000000464646e73076578616d706c6503636f6d0000fa00ff00000000005d0b686d61632d7368613531320000006b0b8cb3012c0040679f02fd0009fdb726f47e13db8e6e007afb93e975138c781197c34da55c0654c2222d792724981aa8d985b17ed54fd3b136d33c6e356735f4bb0c549e8cafd8bef300000000";

function parsed(bytes: Uint8Array) {
  const result = parseMessage(bytes);
  if (!result.ok) throw new Error(result.error);
  return result.message;
}

function tsigOf(bytes: Uint8Array): TsigRecord {
  const read = readTsig(parsed(bytes));
  if (!read.ok || !read.tsig) throw new Error("no TSIG");
  return read.tsig;
}

describe("messages as nsupdate and knsupdate send them read whole, compressed names and all", () => {
  it("nsupdate's message: the zone section, one prerequisite, four updates, the CNAME target it compressed read back as example.com.", () => {
    const message = parsed(hex(NSUPDATE));
    expect(message.header).toMatchObject({ opcode: OPCODE_UPDATE, qr: false, counts: [1, 1, 4, 1] });
    expect(message.questions.map((q) => [nameText(q.name), q.type, q.class])).toEqual([["example.com", TYPE_SOA, CLASS_IN]]);
    const [prereqs, updates] = message.sections;
    expect(prereqs.map((r) => nameText(r.name))).toEqual(["_acme-challenge.example.com"]);
    const scan = prescanUpdates("example.com", updates);
    expect(scan).toEqual({
      ok: true,
      operations: [
        { kind: "add", index: 0, name: "_acme-challenge", type: "TXT", content: '"token-1"', ttl: 60 },
        { kind: "add", index: 1, name: "www", type: "CNAME", content: "example.com.", ttl: 300 },
        { kind: "deleteRrset", index: 2, name: "old", type: "A" },
        { kind: "deleteRecord", index: 3, name: "old", type: "AAAA", content: "2001:db8::1" },
      ],
    });
  });

  it("nsupdate's TSIG (hmac-sha256) verifies with the key's secret at its time; another secret is BADSIG, 301 s later BADTIME", async () => {
    const bytes = hex(NSUPDATE);
    const tsig = tsigOf(bytes);
    expect(tsig).toMatchObject({ keyName: "acme-writer.example.com", algorithm: "hmac-sha256", fudge: 300 });
    expect(await verifyRequest(bytes, tsig, "hmac-sha256", SECRET, tsig.timeSigned)).toEqual({ ok: true });
    expect(await verifyRequest(bytes, tsig, "hmac-sha256", SECRET, tsig.timeSigned + 300)).toEqual({ ok: true });
    expect(
      await verifyRequest(
        bytes,
        tsig,
        "hmac-sha256",
        SECRET.map((b) => b ^ 1),
        tsig.timeSigned,
      ),
    ).toEqual({ ok: false, error: "BADSIG" });
    expect(await verifyRequest(bytes, tsig, "hmac-sha256", SECRET, tsig.timeSigned + 301)).toEqual({ ok: false, error: "BADTIME" });
    expect(await verifyRequest(bytes, tsig, "hmac-sha256", SECRET, tsig.timeSigned - 301)).toEqual({ ok: false, error: "BADTIME" });
  });

  it("one octet of the message changed (an update's TTL) and the MAC no longer verifies: BADSIG", async () => {
    const bytes = hex(NSUPDATE);
    const tsig = tsigOf(bytes);
    const altered = bytes.slice();
    altered[0x55]! ^= 0x01;
    expect(parseMessage(altered).ok).toBe(true);
    expect(await verifyRequest(altered, tsig, "hmac-sha256", SECRET, tsig.timeSigned)).toEqual({ ok: false, error: "BADSIG" });
  });

  it("knsupdate's message (hmac-sha512) reads and verifies: prerequisite yxdomain, adds of A and AAAA, the MX RRset deleted", async () => {
    const bytes = hex(KNSUPDATE);
    const message = parsed(bytes);
    const read = readTsig(message);
    if (!read.ok || !read.tsig) throw new Error("no TSIG");
    expect(read.tsig).toMatchObject({ keyName: "ddns.example.com", algorithm: "hmac-sha512" });
    expect(await verifyRequest(bytes, read.tsig, "hmac-sha512", SECRET, read.tsig.timeSigned)).toEqual({ ok: true });
    expect(prescanUpdates("example.com", message.sections[1])).toEqual({
      ok: true,
      operations: [
        { kind: "add", index: 0, name: "home", type: "A", content: "192.0.2.7", ttl: 300 },
        { kind: "add", index: 1, name: "home", type: "AAAA", content: "2001:db8::7", ttl: 300 },
        { kind: "deleteRrset", index: 2, name: "home", type: "MX" },
      ],
    });
  });
});

describe("malformed messages are refused with a reason, never read past their end", () => {
  it("a compression pointer that points forward (a loop), a label past the end, octets after the last record, a header cut short", () => {
    const good = hex(NSUPDATE);
    const loop = good.slice();
    // The prerequisite's owner is `_acme-challenge` + pointer c00c: make the pointer point at itself.
    const at = good.indexOf(0xc0, 29);
    loop[at + 1] = at;
    expect(parseMessage(loop)).toMatchObject({ ok: false, error: "a compression pointer does not point backwards" });
    expect(parseMessage(good.subarray(0, good.length - 5))).toMatchObject({ ok: false });
    expect(parseMessage(Uint8Array.from([...good, 0]))).toMatchObject({ ok: false, error: "octets follow the message's last record" });
    expect(parseMessage(good.subarray(0, 11))).toEqual({ ok: false, error: "a DNS message has a 12-octet header; this is shorter", header: null });
  });

  it("a TSIG that is not the last record, or two of them, is malformed (FORMERR)", async () => {
    const message = updateMessage("example.com", [{ add: "a.example.com", type: "A", content: "192.0.2.1" }]);
    const once = await signRequest(message, { name: "k.example.com", algorithm: "hmac-sha256", secret: SECRET }, 1_800_000_000);
    const twice = await signRequest(once, { name: "k.example.com", algorithm: "hmac-sha256", secret: SECRET }, 1_800_000_000);
    expect(readTsig(parsed(twice))).toEqual({ ok: false, error: expect.stringMatching(/last record of the additional section, and the only one/) });
  });
});

describe("TSIG (RFC 8945): a request signed as nsupdate signs it verifies, and the answer is signed over the request's MAC", () => {
  it("signRequest → verifyRequest holds for hmac-sha256 and hmac-sha512; the response's MAC verifies against the request's MAC only", async () => {
    for (const algorithm of ["hmac-sha256", "hmac-sha512"] as const) {
      const message = updateMessage("example.com", [{ add: "a.example.com", type: "TXT", content: '"x"' }], [], 0x1234);
      const bytes = await signRequest(message, { name: "Key.Example.COM", algorithm, secret: SECRET }, 1_800_000_000);
      const request = parsed(bytes);
      const read = readTsig(request);
      if (!read.ok || !read.tsig) throw new Error("no TSIG");
      expect(read.tsig.keyName).toBe("key.example.com");
      expect(await verifyRequest(bytes, read.tsig, algorithm, SECRET, 1_800_000_100)).toEqual({ ok: true });
      const response = renderResponse(request.header, 0, request.questions);
      const record = await responseTsig(response, { request: read.tsig, error: 0, nowSeconds: 1_800_000_101, key: { algorithm, secret: SECRET } });
      const answer = withAdditional(response, record);
      const answered = readTsig(parsed(answer));
      if (!answered.ok || !answered.tsig) throw new Error("no TSIG in the answer");
      expect(answered.tsig).toMatchObject({ keyName: "key.example.com", timeSigned: 1_800_000_101, originalId: 0x1234, error: 0 });
      expect(await verifyResponse(answer, answered.tsig, read.tsig.mac, algorithm, SECRET)).toBe(true);
      expect(
        await verifyResponse(
          answer,
          answered.tsig,
          read.tsig.mac.map((b) => b ^ 1),
          algorithm,
          SECRET,
        ),
      ).toBe(false);
    }
  });

  it("an answer to a bad key or signature is unsigned (MAC size 0, RFC 8945 §5.3.2); a BADTIME answer is signed and carries our time in Other Data", async () => {
    const message = updateMessage("example.com", [{ add: "a.example.com", type: "A", content: "192.0.2.1" }]);
    const bytes = await signRequest(message, { name: "k.example.com", algorithm: "hmac-sha256", secret: SECRET }, 1_800_000_000);
    const request = parsed(bytes);
    const tsig = (readTsig(request) as { ok: true; tsig: NonNullable<unknown> }).tsig as Parameters<typeof responseTsig>[1]["request"];
    const response = renderResponse(request.header, 9, request.questions);
    const badKey = readTsig(
      parsed(withAdditional(response, await responseTsig(response, { request: tsig, error: TSIG_ERROR.BADKEY, nowSeconds: 1, key: null }))),
    );
    expect(badKey.ok && badKey.tsig).toMatchObject({ error: TSIG_ERROR.BADKEY, mac: new Uint8Array(0) });
    const late = await responseTsig(response, {
      request: tsig,
      error: TSIG_ERROR.BADTIME,
      nowSeconds: 1_800_001_000,
      key: { algorithm: "hmac-sha256", secret: SECRET },
    });
    const badTime = readTsig(parsed(withAdditional(response, late)));
    if (!badTime.ok || !badTime.tsig) throw new Error("no TSIG");
    expect(badTime.tsig.error).toBe(TSIG_ERROR.BADTIME);
    expect([...badTime.tsig.otherData]).toEqual([0, 0, 0x6b, 0x49, 0xd5, 0xe8]);
    expect(await verifyResponse(withAdditional(response, late), badTime.tsig, tsig.mac, "hmac-sha256", SECRET)).toBe(true);
  });
});

const ZONE = "example.com";
const records = (message: Uint8Array) => parsed(message).sections;

describe("the update section is prescanned as RFC 2136 §3.4.1 says", () => {
  it("a record outside the zone is NOTZONE", () => {
    const [, updates] = records(updateMessage(ZONE, [{ add: "www.example.net", type: "A", content: "192.0.2.1" }]));
    expect(prescanUpdates(ZONE, updates)).toMatchObject({ ok: false, refusal: { rcode: "NOTZONE" } });
  });

  it("a deletion (class ANY) with a TTL or RDATA, and an unknown class, are FORMERR", () => {
    const [, updates] = records(updateMessage(ZONE, [{ deleteRrset: "www.example.com", type: "A" }]));
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, ttl: 5 }])).toMatchObject({ ok: false, refusal: { rcode: "FORMERR" } });
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, rdata: Uint8Array.of(1, 2, 3, 4) }])).toMatchObject({ ok: false, refusal: { rcode: "FORMERR" } });
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, class: 3 }])).toMatchObject({ ok: false, refusal: { rcode: "FORMERR" } });
  });

  it("an A record whose RDATA is 3 octets is FORMERR; an A record at a name with an underscore, or a CNAME at the apex, is REFUSED naming the rule", () => {
    const [, updates] = records(updateMessage(ZONE, [{ add: "www.example.com", type: "A", content: "192.0.2.1" }]));
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, rdata: Uint8Array.of(192, 0, 2) }])).toMatchObject({ ok: false, refusal: { rcode: "FORMERR" } });
    const [, underscore] = records(updateMessage(ZONE, [{ add: "_bad.example.com", type: "TXT", content: '"x"' }]));
    const a = { ...underscore[0]!, type: 1, rdata: Uint8Array.of(192, 0, 2, 1) };
    expect(prescanUpdates(ZONE, [a])).toMatchObject({ ok: false, refusal: { rcode: "REFUSED", reason: expect.stringMatching(/host name/) } });
    const [, apex] = records(updateMessage(ZONE, [{ add: "example.com", type: "CNAME", content: "other.example.net." }]));
    expect(prescanUpdates(ZONE, apex)).toMatchObject({ ok: false, refusal: { rcode: "REFUSED", reason: expect.stringMatching(/apex/) } });
  });

  it("an RRSIG to add is REFUSED (the service signs zones itself); the SOA is ignored (the serial is the service's)", () => {
    const [, updates] = records(updateMessage(ZONE, [{ add: "example.com", type: "TXT", content: '"x"' }]));
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, type: 46 }])).toMatchObject({
      ok: false,
      refusal: { rcode: "REFUSED", reason: expect.stringMatching(/signs zones itself/) },
    });
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, type: 6 }])).toEqual({ ok: true, operations: [{ kind: "ignored", index: 0, name: "@" }] });
  });

  it("a type this service keeps only by number is added in RFC 3597's generic form", () => {
    const [, updates] = records(updateMessage(ZONE, [{ add: "x.example.com", type: "TXT", content: '"x"' }]));
    expect(prescanUpdates(ZONE, [{ ...updates[0]!, type: 65280, rdata: Uint8Array.of(1, 2) }])).toEqual({
      ok: true,
      operations: [{ kind: "add", index: 0, name: "x", type: "TYPE65280", content: "\\# 2 0102", ttl: 300 }],
    });
  });
});

const CURRENT: RrsetMember[] = [
  { name: "@", type: "NS", content: "ns1.example.net.", ttl: 3600 },
  { name: "www", type: "A", content: "192.0.2.1", ttl: 300 },
  { name: "www", type: "A", content: "192.0.2.2", ttl: 300 },
  { name: "alias", type: "CNAME", content: "www.example.com.", ttl: 300 },
];
const state = { zone: ZONE, records: CURRENT, soaRdata: new Uint8Array(0) };

describe("prerequisites (RFC 2136 §3.2): the first that fails gives the rcode", () => {
  const check = (prerequisites: Parameters<typeof updateMessage>[2]) => prerequisiteRefusal(state, records(updateMessage(ZONE, [], prerequisites))[0]);
  it("name in use, name not in use, RRset exists, RRset does not exist: each holds, or answers NXDOMAIN, YXDOMAIN, NXRRSET, YXRRSET", () => {
    expect(
      check([
        { yxdomain: "www.example.com" },
        { nxdomain: "new.example.com" },
        { yxrrset: "www.example.com", type: "A" },
        { nxrrset: "www.example.com", type: "TXT" },
      ]),
    ).toBeNull();
    expect(check([{ yxdomain: "new.example.com" }])).toMatchObject({ rcode: "NXDOMAIN" });
    expect(check([{ nxdomain: "www.example.com" }])).toMatchObject({ rcode: "YXDOMAIN" });
    expect(check([{ yxrrset: "www.example.com", type: "TXT" }])).toMatchObject({ rcode: "NXRRSET" });
    expect(check([{ nxrrset: "www.example.com", type: "A" }])).toMatchObject({ rcode: "YXRRSET" });
    // The apex is in use (it holds the SOA), and has an SOA RRset.
    expect(check([{ yxdomain: "example.com" }, { yxrrset: "example.com", type: "NS" }])).toBeNull();
  });

  it("value-dependent prerequisites compare the whole RRset: all of it holds, a part of it is NXRRSET", () => {
    expect(
      check([
        { yxrrset: "www.example.com", type: "A", content: "192.0.2.2" },
        { yxrrset: "www.example.com", type: "A", content: "192.0.2.1" },
      ]),
    ).toBeNull();
    expect(check([{ yxrrset: "www.example.com", type: "A", content: "192.0.2.1" }])).toMatchObject({ rcode: "NXRRSET" });
  });

  it("a prerequisite outside the zone is NOTZONE; one with a TTL is FORMERR", () => {
    expect(check([{ yxdomain: "www.example.net" }])).toMatchObject({ rcode: "NOTZONE" });
    const [prereqs] = records(updateMessage(ZONE, [], [{ yxdomain: "www.example.com" }]));
    expect(prerequisiteRefusal(state, [{ ...prereqs[0]!, ttl: 1 }])).toMatchObject({ rcode: "FORMERR" });
  });
});

function ops(lines: Parameters<typeof updateMessage>[1]): UpdateOperation[] {
  const scan = prescanUpdates(ZONE, records(updateMessage(ZONE, lines))[1]);
  if (!scan.ok) throw new Error(scan.refusal.reason);
  return scan.operations;
}
const outcomeOf = (lines: Parameters<typeof updateMessage>[1]) =>
  applyUpdates(CURRENT, ops(lines), 3600).map((o) => `${o.name} ${o.type} ${o.ttl} ${o.contents.join(",")}`);

describe("updates apply in order (RFC 2136 §3.4.2)", () => {
  it("an add joins its RRset, and the RRset takes the TTL of the last record added (RFC 2181 §5.2); a record already there is not added twice", () => {
    expect(
      outcomeOf([
        { add: "www.example.com", type: "A", content: "192.0.2.3", ttl: 60 },
        { add: "www.example.com", type: "A", content: "192.0.2.1", ttl: 60 },
      ]),
    ).toEqual(["www A 60 192.0.2.1,192.0.2.2,192.0.2.3"]);
  });

  it("a CNAME added where a CNAME is replaces it", () => {
    expect(outcomeOf([{ add: "alias.example.com", type: "CNAME", content: "other.example.net." }])).toEqual(["alias CNAME 300 other.example.net."]);
  });

  it("delete an RRset, a record, every RRset at a name; deleting what is not there changes nothing", () => {
    expect(outcomeOf([{ deleteRecord: "www.example.com", type: "A", content: "192.0.2.1" }])).toEqual(["www A 300 192.0.2.2"]);
    expect(outcomeOf([{ deleteRrset: "www.example.com", type: "A" }])).toEqual(["www A null "]);
    expect(outcomeOf([{ deleteName: "alias.example.com" }])).toEqual(["alias CNAME null "]);
    expect(outcomeOf([{ deleteRecord: "www.example.com", type: "A", content: "192.0.2.9" }, { deleteName: "nothing.example.com" }])).toEqual([]);
  });

  it("at the apex the NS RRset is never deleted whole and its last record stays (§3.4.2.3, §3.4.2.4)", () => {
    expect(outcomeOf([{ deleteRrset: "example.com", type: "NS" }, { deleteName: "example.com" }])).toEqual([]);
    expect(outcomeOf([{ deleteRecord: "example.com", type: "NS", content: "ns1.example.net." }])).toEqual([]);
    expect(
      outcomeOf([
        { add: "example.com", type: "NS", content: "ns2.example.net." },
        { deleteRecord: "example.com", type: "NS", content: "ns1.example.net." },
      ]),
    ).toEqual(["@ NS 300 ns2.example.net."]);
  });

  it("an update that deletes then adds at one name sees its own deletion: the RRset is exactly what was added", () => {
    expect(
      outcomeOf([
        { deleteRrset: "www.example.com", type: "A" },
        { add: "www.example.com", type: "A", content: "192.0.2.11" },
      ]),
    ).toEqual(["www A 300 192.0.2.11"]);
  });
});

describe("RDATA from the wire is read through each type's own descriptor", () => {
  it("RFC 3597's generic form of the octets", () => {
    expect(genericRdata(Uint8Array.of(192, 0, 2, 1))).toBe("\\# 4 c0000201");
    expect(genericRdata(new Uint8Array(0))).toBe("\\# 0");
  });

  it("a name is written back lower case, with escapes for what is not a hostname character", () => {
    expect(nameText(wireName("WWW.Example.COM"))).toBe("www.example.com");
    expect(nameText({ labels: [Uint8Array.of(0x61, 0x2e, 0x20)] })).toBe("a\\.\\032");
    expect(CLASS_ANY).toBe(255);
  });
});
