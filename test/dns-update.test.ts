// DNS UPDATE through the update gateway's route (docs/dns-update.md): signed messages, built
// in the test with the service's own codec (test/dns-update-messages.ts), POSTed to
// /v1/pdns/{token}/update as the gateway forwards them, and the answers read back as DNS
// messages. Each rule of RFC 2136 and RFC 8945 the service applies, the replay refusal, any
// number of update keys per zone, the size bound and the cost's shape.
// scripts/update-e2e.mjs runs the same through the gateway with nsupdate and knsupdate.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { CLASS_IN, nameText, OPCODE_QUERY, RCODE, renderMessage, TYPE_SOA, wireName } from "../src/dns/message";
import { readTsig, TSIG_ERROR, verifyResponse } from "../src/dns/tsig";
import { parseMessage } from "../src/dns/message";
import worker from "../src/index";
import { MAX_ZONE_RECORD_BYTES } from "../src/resources/zones/master-file";
import { costOfRequest, roundTrips, tokenVerifiedAfresh } from "./d1-cost";
import { answerOf, keyBytes, type PrereqLine, signed, type TestKey, type UpdateLine, updateMessage } from "./dns-update-messages";
import { api, type ApiResponse } from "./helpers";

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

let dnsToken = "";
beforeAll(async () => {
  dnsToken = ok(await api("POST", "/v1/tokens", { json: { name: "dns-update-test", scope: "dns" } }), 201).secret;
});

function updateRequest(bytes: Uint8Array, token = dnsToken) {
  return new Request(`http://api.test/v1/pdns/${token}/update`, {
    method: "POST",
    headers: { "content-type": "application/dns-message", "dns-client": "192.0.2.53#53001" },
    body: bytes,
  });
}

interface Sent {
  status: number;
  answer: ReturnType<typeof answerOf>;
  bytes: Uint8Array;
  outcome: string;
}

/** POSTs a message as the gateway does; its answer as a DNS message. */
async function send(bytes: Uint8Array): Promise<Sent> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(updateRequest(bytes), env, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/dns-message");
  const answer = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, answer: answerOf(answer), bytes: answer, outcome: decodeURIComponent(response.headers.get("dns-update-outcome") ?? "") };
}

let zones = 0;
async function zone(records: { name: string; type: string; content: string }[] = [], account?: { authorization: string }) {
  const name = `z${++zones}.upd.test`;
  const headers = account ? { authorization: account.authorization } : undefined;
  ok(await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"] }, headers }), 201);
  for (const r of records) ok(await api("POST", "/v1/records", { json: { zone: name, ...r }, headers }), 201);
  return name;
}

let keys = 0;
async function key(fields: Record<string, unknown>, account?: { authorization: string }): Promise<TestKey & { id: string }> {
  const headers = account ? { authorization: account.authorization } : undefined;
  const made = ok(await api("POST", "/v1/tsig-keys", { json: { name: `k${++keys}.keys.upd.test`, allow: ["update"], ...fields }, headers }), 201);
  return { id: made.id, name: made.name.replace(/\.$/, ""), algorithm: made.algorithm, secret: made.secret };
}

async function records(zoneName: string): Promise<string[]> {
  const body = ok(await api("GET", `/v1/zones/${zoneName}/records?limit=200`), 200);
  return body.data.map((r: { name: string; ttl: number; type: string; content: string }) => `${r.name} ${r.ttl} ${r.type} ${r.content}`).sort();
}

const serial = async (zoneName: string) => ok(await api("GET", `/v1/zones/${zoneName}`), 200).soa.serial as number;

async function update(zoneName: string, k: TestKey, lines: UpdateLine[], prerequisites: PrereqLine[] = []) {
  return send(await signed(updateMessage(zoneName, lines, prerequisites), k));
}

describe("a signed update is applied whole: NOERROR, a signed answer, one serial step, an event per record by the key", () => {
  it("add, then replace an RRset (delete and add in one message), then delete a record: each NOERROR, the zone as the update leaves it", async () => {
    const z = await zone([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const k = await key({ zones: [z] });
    const before = await serial(z);
    const message = await signed(updateMessage(z, [{ add: `new.${z}`, type: "TXT", content: '"hello world"', ttl: 60 }]), k);
    const first = await send(message);
    expect(first.answer).toMatchObject({ rcode: RCODE.NOERROR, tsigError: 0, signed: true, zone: 1 });
    expect(first.outcome).toBe("NOERROR: 1 record written");
    // The answer's MAC is over the request's MAC (RFC 8945 §5.3): it verifies with the key.
    const request = readTsig((parseMessage(message) as { ok: true; message: never }).message);
    const response = readTsig((parseMessage(first.bytes) as { ok: true; message: never }).message);
    if (!request.ok || !request.tsig || !response.ok || !response.tsig) throw new Error("no TSIG");
    expect(await verifyResponse(first.bytes, response.tsig, request.tsig.mac, k.algorithm, keyBytes(k))).toBe(true);

    expect(
      (
        await update(z, k, [
          { deleteRrset: `www.${z}`, type: "A" },
          { add: `www.${z}`, type: "A", content: "192.0.2.7", ttl: 120 },
          { add: `www.${z}`, type: "A", content: "192.0.2.8", ttl: 120 },
        ])
      ).answer.rcode,
    ).toBe(RCODE.NOERROR);
    expect((await update(z, k, [{ deleteRecord: `www.${z}`, type: "A", content: "192.0.2.8" }])).answer.rcode).toBe(RCODE.NOERROR);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net.", 'new 60 TXT "hello world"', "www 120 A 192.0.2.7"]);
    // One step per update, whatever it held (three updates).
    expect(await serial(z)).toBe(before + 3);
    const events = ok(await api("GET", `/v1/events?token=${k.id}&limit=50`), 200).data as { operation: string; type: string; token: string }[];
    expect(events.map((e) => e.operation).sort()).toEqual(["create", "create", "create", "delete", "delete"]);
    expect(events.every((e) => e.token === k.id && e.type === "record")).toBe(true);
  });

  it("an update that changes nothing answers NOERROR and moves no serial", async () => {
    const z = await zone([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const k = await key({ zones: [z] });
    const before = await serial(z);
    const sent = await update(z, k, [
      { add: `www.${z}`, type: "A", content: "192.0.2.1", ttl: 3600 },
      { deleteRrset: `nothing.${z}`, type: "TXT" },
    ]);
    expect(sent.answer).toMatchObject({ rcode: RCODE.NOERROR, signed: true });
    expect(await serial(z)).toBe(before);
  });

  it("the SOA is the service's: an update of it is ignored, and the apex keeps its NS (deleting the RRset, or its last record, is ignored)", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const sent = await update(z, k, [{ deleteRrset: z, type: "NS" }, { deleteRecord: z, type: "NS", content: "ns1.example.net." }, { deleteName: z }]);
    expect(sent.answer.rcode).toBe(RCODE.NOERROR);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });
});

describe("TSIG (RFC 8945 §5.2): who signed, and whether the signature holds", () => {
  it("an unsigned update answers REFUSED, unsigned, and nothing is applied", async () => {
    const z = await zone();
    const sent = await send(updateMessage(z, [{ add: `x.${z}`, type: "A", content: "192.0.2.1" }]));
    expect(sent.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: false });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("an unknown, deleted or expired key answers NOTAUTH with TSIG error BADKEY, unsigned; nothing is applied", async () => {
    const z = await zone();
    const line: UpdateLine[] = [{ add: `x.${z}`, type: "A", content: "192.0.2.1" }];
    const unknown = { name: "nobody.keys.upd.test", algorithm: "hmac-sha256" as const, secret: btoa("x".repeat(32)) };
    expect((await update(z, unknown, line)).answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADKEY, signed: false });
    const deleted = await key({ zones: [z] });
    ok(await api("DELETE", `/v1/tsig-keys/${deleted.id}`), 204);
    expect((await update(z, deleted, line)).answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADKEY, signed: false });
    const expired = await key({ zones: [z] });
    await env.DB.prepare("update tsig_keys set expires_at = '2020-01-01T00:00:00.000Z' where id = ?").bind(expired.id).run();
    expect((await update(z, expired, line)).answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADKEY, signed: false });
    // The key's algorithm is part of the key: hmac-sha512 named for an hmac-sha256 key is BADKEY.
    const k = await key({ zones: [z] });
    expect((await update(z, { ...k, algorithm: "hmac-sha512" }, line)).answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADKEY });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("a wrong secret answers BADSIG, unsigned; a time more than 300 s away answers BADTIME, signed; nothing is applied", async () => {
    const z = await zone();
    const k = await key({ zones: [z], algorithm: "hmac-sha512" });
    const line: UpdateLine[] = [{ add: `x.${z}`, type: "A", content: "192.0.2.1" }];
    const wrong = await update(z, { ...k, secret: btoa("y".repeat(64)) }, line);
    expect(wrong.answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADSIG, signed: false });
    const late = await send(await signed(updateMessage(z, line), k, Math.floor(Date.now() / 1000) - 400));
    expect(late.answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADTIME, signed: true });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });
});

describe("replays: a (key, time signed, MAC) seen before is refused, durably (dns_update_seen)", () => {
  it("a replayed signed update answers BADSIG and changes nothing", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const message = await signed(updateMessage(z, [{ add: `once.${z}`, type: "TXT", content: '"one"' }]), k);
    expect((await send(message)).answer.rcode).toBe(RCODE.NOERROR);
    // The record is deleted through the API; the captured message sent again must not bring it back.
    const [stored] = ok(await api("GET", `/v1/records?zone=${z}&name=once`), 200).data;
    ok(await api("DELETE", `/v1/records/${stored.id}`), 204);
    const before = await serial(z);
    const replay = await send(message);
    expect(replay.answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADSIG, signed: false });
    expect(replay.outcome).toMatch(/seen before/);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
    expect(await serial(z)).toBe(before);
  });

  it("a refused update is remembered too: its replay, once its prerequisite would hold, is still BADSIG", async () => {
    const z = await zone([{ name: "taken", type: "TXT", content: '"x"' }]);
    const k = await key({ zones: [z] });
    const message = await signed(updateMessage(z, [{ add: `taken.${z}`, type: "A", content: "192.0.2.9" }], [{ nxdomain: `taken.${z}` }]), k);
    expect((await send(message)).answer.rcode).toBe(RCODE.YXDOMAIN);
    const [stored] = ok(await api("GET", `/v1/records?zone=${z}&name=taken`), 200).data;
    ok(await api("DELETE", `/v1/records/${stored.id}`), 204);
    expect((await send(message)).answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: TSIG_ERROR.BADSIG });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("what was seen is kept in D1 (it outlives the isolate), and rows older than twice the fudge are pruned by later updates", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const now = Math.floor(Date.now() / 1000);
    await env.DB.prepare("insert into dns_update_seen (key_id, signed_at, mac) values (?, ?, 'old'), (?, ?, 'recent')")
      .bind(k.id, now - 601, k.id, now - 599)
      .run();
    expect((await update(z, k, [{ add: `p.${z}`, type: "A", content: "192.0.2.1" }])).answer.rcode).toBe(RCODE.NOERROR);
    const rows = await env.DB.prepare("select mac from dns_update_seen where key_id = ? order by signed_at").bind(k.id).all<{ mac: string }>();
    expect(rows.results.map((r) => r.mac)).toEqual(["recent", expect.stringMatching(/^[A-Za-z0-9+/]+=*$/)]);
  });
});

describe("any number of update keys on one zone, each held to its own records rules", () => {
  it("two update keys on one zone are each held to their own records rules", async () => {
    const z = await zone();
    const acme = await key({ zones: [z], records: [{ name: "_acme-challenge", types: ["TXT"] }] });
    const ddns = await key({ zones: [z], records: [{ name: "home", types: ["A", "AAAA"] }] });
    expect((await update(z, acme, [{ add: `_acme-challenge.${z}`, type: "TXT", content: '"token"', ttl: 60 }])).answer.rcode).toBe(RCODE.NOERROR);
    expect(
      (
        await update(z, ddns, [
          { add: `home.${z}`, type: "A", content: "192.0.2.10" },
          { add: `home.${z}`, type: "AAAA", content: "2001:db8::10" },
        ])
      ).answer.rcode,
    ).toBe(RCODE.NOERROR);
    // Each refused the other's names, and a type its own rule does not name.
    const acmeAtHome = await update(z, acme, [{ add: `home.${z}`, type: "A", content: "192.0.2.66" }]);
    expect(acmeAtHome.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(acmeAtHome.outcome).toMatch(/may update only _acme-challenge TXT; A at home is not among them/);
    expect((await update(z, ddns, [{ add: `_acme-challenge.${z}`, type: "TXT", content: '"evil"' }])).answer.rcode).toBe(RCODE.REFUSED);
    expect((await update(z, ddns, [{ add: `home.${z}`, type: "TXT", content: '"x"' }])).answer.rcode).toBe(RCODE.REFUSED);
    // Deleting every RRset at a name the key shares with other data: refused, for the RRsets it may not touch.
    expect((await update(z, acme, [{ deleteName: `home.${z}` }])).answer.rcode).toBe(RCODE.REFUSED);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net.", '_acme-challenge 60 TXT "token"', "home 300 A 192.0.2.10", "home 300 AAAA 2001:db8::10"]);
    const tokens = async (k: { id: string }) =>
      (ok(await api("GET", `/v1/events?token=${k.id}`), 200).data as { after: { name: string } }[]).map((e) => e.after.name).sort();
    expect(await tokens(acme)).toEqual(["_acme-challenge"]);
    expect(await tokens(ddns)).toEqual(["home", "home"]);
  });

  it("a key that may not update the zone (another zone's, transfer-only, another account's) answers REFUSED, signed", async () => {
    const z = await zone();
    const other = await zone();
    const line: UpdateLine[] = [{ add: `x.${z}`, type: "A", content: "192.0.2.1" }];
    expect((await update(z, await key({ zones: [other] }), line)).answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect((await update(z, await key({ zones: [z], allow: ["transfer"] }), line)).answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    const account = ok(await api("POST", "/v1/accounts", { json: { name: "Update Stranger" } }), 201);
    const token = ok(await api("POST", "/v1/tokens", { json: { name: "w", scope: "write", account: account.id } }), 201);
    const theirs = { authorization: `Bearer ${token.secret}` };
    const stranger = await key({ zones: [await zone([], theirs)] }, theirs);
    expect((await update(z, stranger, line)).answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });
});

describe("the zone section, prerequisites and update section (RFC 2136 §3.1, §3.2, §3.4.1)", () => {
  it("a zone not served here answers NOTAUTH, signed", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const sent = await update("nowhere.upd.test", k, [{ add: "x.nowhere.upd.test", type: "A", content: "192.0.2.1" }]);
    expect(sent.answer).toMatchObject({ rcode: RCODE.NOTAUTH, tsigError: 0, signed: true });
  });

  it("prerequisites that fail answer NXDOMAIN, YXDOMAIN, NXRRSET, YXRRSET and apply nothing; those that hold let the update through", async () => {
    const z = await zone([{ name: "keep", type: "A", content: "192.0.2.1" }]);
    const k = await key({ zones: [z] });
    const add: UpdateLine[] = [{ add: `p.${z}`, type: "A", content: "192.0.2.20" }];
    const before = await serial(z);
    expect((await update(z, k, add, [{ yxdomain: `nothing.${z}` }])).answer.rcode).toBe(RCODE.NXDOMAIN);
    expect((await update(z, k, add, [{ nxdomain: `keep.${z}` }])).answer.rcode).toBe(RCODE.YXDOMAIN);
    expect((await update(z, k, add, [{ yxrrset: `keep.${z}`, type: "TXT" }])).answer.rcode).toBe(RCODE.NXRRSET);
    expect((await update(z, k, add, [{ nxrrset: `keep.${z}`, type: "A" }])).answer.rcode).toBe(RCODE.YXRRSET);
    expect((await update(z, k, add, [{ yxrrset: `keep.${z}`, type: "A", content: "192.0.2.99" }])).answer.rcode).toBe(RCODE.NXRRSET);
    expect(await serial(z)).toBe(before);
    expect((await update(z, k, add, [{ yxrrset: `keep.${z}`, type: "A", content: "192.0.2.1" }, { nxdomain: `p.${z}` }])).answer.rcode).toBe(RCODE.NOERROR);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net.", "keep 3600 A 192.0.2.1", "p 300 A 192.0.2.20"]);
  });

  it("a record outside the zone answers NOTZONE; nothing of the update is applied", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const sent = await update(z, k, [
      { add: `in.${z}`, type: "A", content: "192.0.2.1" },
      { add: "out.example.net", type: "A", content: "192.0.2.1" },
    ]);
    expect(sent.answer).toMatchObject({ rcode: RCODE.NOTZONE, signed: true });
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("a message that is neither an UPDATE nor a question answers NOTIMP; a body that is no DNS request is 422", async () => {
    // A NOTIFY (opcode 4) of the root.
    const notify = Uint8Array.from([0x12, 0x34, 0x20, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 1]);
    expect((await send(notify)).answer.rcode).toBe(RCODE.NOTIMP);
    const ctx = createExecutionContext();
    const short = await worker.fetch(updateRequest(Uint8Array.of(1, 2, 3)), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ code: "validation_failed", errors: [{ field: "body" }] });
  });
});

describe("a question for a zone's SOA, as clients ask the server they update to find the zone (RFC 2136 §4)", () => {
  const soaQuestion = (name: string) =>
    renderMessage({ id: 0x4242, opcode: OPCODE_QUERY, questions: [{ name: wireName(name), type: TYPE_SOA, class: CLASS_IN }], sections: [[], [], []] });

  it("a signed SOA question for a zone served here is answered authoritatively, signed; below the apex, the zone's SOA in the authority section; outside every zone, REFUSED", async () => {
    const z = await zone();
    const k = await key({ zones: [z], records: [{ name: "_acme-challenge", types: ["TXT"] }] });
    const question = await signed(soaQuestion(z), k);
    const sent = await send(question);
    expect(sent.answer).toMatchObject({ rcode: RCODE.NOERROR, signed: true, tsigError: 0 });
    const parsed = parseMessage(sent.bytes);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.message.header.aa).toBe(true);
    const [soa] = parsed.message.sections[0];
    expect(soa).toMatchObject({ type: TYPE_SOA, class: CLASS_IN, ttl: 3600 });
    // The serial: the first of the SOA's five numbers after its two names (RFC 1035 §3.3.13).
    const rdata = soa!.rdata;
    expect(new DataView(rdata.buffer, rdata.byteOffset + rdata.length - 20, 4).getUint32(0)).toBe(await serial(z));
    const request = readTsig((parseMessage(question) as { ok: true; message: never }).message);
    const response = readTsig(parsed.message);
    if (!request.ok || !request.tsig || !response.ok || !response.tsig) throw new Error("no TSIG");
    expect(await verifyResponse(sent.bytes, response.tsig, request.tsig.mac, k.algorithm, keyBytes(k))).toBe(true);
    // certbot walks up from the challenge's name to the SOA in an answer; lego reads the zone from the authority section.
    const below = await send(await signed(soaQuestion(`_acme-challenge.${z}`), k));
    expect(below.answer).toMatchObject({ rcode: RCODE.NXDOMAIN, signed: true });
    const read = parseMessage(below.bytes);
    if (!read.ok) throw new Error(read.error);
    expect(read.message.header.aa).toBe(true);
    expect(read.message.sections[0]).toEqual([]);
    expect(read.message.sections[1].map((r) => [nameText(r.name), r.type])).toEqual([[z, TYPE_SOA]]);
    // A name that exists (here an empty non-terminal above a record) is NOERROR, with no data.
    ok(await api("POST", "/v1/records", { json: { zone: z, name: "a.b", type: "TXT", content: '"x"' } }), 201);
    expect((await send(soaQuestion(`b.${z}`))).answer).toMatchObject({ rcode: RCODE.NOERROR, signed: false });
    expect((await send(soaQuestion("elsewhere.example"))).answer).toMatchObject({ rcode: RCODE.REFUSED, signed: false });
    const txt = renderMessage({ id: 1, opcode: OPCODE_QUERY, questions: [{ name: wireName(z), type: 16, class: CLASS_IN }], sections: [[], [], []] });
    expect((await send(txt)).answer.rcode).toBe(RCODE.REFUSED);
    // Unsigned, the same answers, unsigned; a wrong secret is BADSIG as for an update.
    expect((await send(soaQuestion(z))).answer).toMatchObject({ rcode: RCODE.NOERROR, signed: false });
    expect((await send(await signed(soaQuestion(z), { ...k, secret: btoa("z".repeat(32)) }))).answer).toMatchObject({
      rcode: RCODE.NOTAUTH,
      tsigError: TSIG_ERROR.BADSIG,
    });
  });
});

describe("the API's own record rules hold for what an update writes", () => {
  it("a CNAME beside other data answers REFUSED; nothing is applied", async () => {
    const z = await zone([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const k = await key({ zones: [z] });
    const sent = await update(z, k, [{ add: `www.${z}`, type: "CNAME", content: "other.example.net." }]);
    expect(sent.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(sent.outcome).toMatch(/CNAME/);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net.", "www 3600 A 192.0.2.1"]);
  });

  it("an A record at a name with an underscore answers REFUSED naming the rule; a record BIND's integrity checks refuse (an MX to an in-zone alias) too", async () => {
    const z = await zone([{ name: "alias", type: "CNAME", content: "www.example.net." }]);
    const k = await key({ zones: [z] });
    const underscore = await update(z, k, [{ add: `_bad.${z}`, type: "A", content: "192.0.2.1" }]);
    expect(underscore.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(underscore.outcome).toMatch(/must be a host name \(RFC 1123 §2.1\); label "_bad" has an underscore/);
    const mx = await update(z, k, [{ add: `mail.${z}`, type: "MX", content: `10 alias.${z}.` }]);
    expect(mx.answer.rcode).toBe(RCODE.REFUSED);
    expect(mx.outcome).toMatch(/alias/);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net.", "alias 3600 CNAME www.example.net."]);
  });

  it("what BIND's integrity checks refuse across the zone: a CNAME added where an MX points, the address of an in-zone apex name server removed", async () => {
    const z = await zone([
      { name: "mail", type: "A", content: "192.0.2.25" },
      { name: "ns", type: "A", content: "192.0.2.53" },
    ]);
    ok(await api("POST", "/v1/records", { json: { zone: z, name: "@", type: "MX", content: `10 mail.${z}.` } }), 201);
    ok(await api("POST", "/v1/records", { json: { zone: z, name: "@", type: "NS", content: `ns.${z}.` } }), 201);
    const k = await key({ zones: [z] });
    const before = await records(z);
    const alias = await update(z, k, [
      { deleteRrset: `mail.${z}`, type: "A" },
      { add: `mail.${z}`, type: "CNAME", content: "mail.example.net." },
    ]);
    expect(alias.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(alias.outcome).toMatch(/mail exchanger/);
    const orphan = await update(z, k, [{ deleteRrset: `ns.${z}`, type: "A" }]);
    expect(orphan.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(orphan.outcome).toMatch(/name server/);
    expect(await records(z)).toEqual(before);
  });

  it("an update that would take the zone past its size limit (zone_record_bytes) answers REFUSED; nothing is applied", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    await env.DB.prepare("update zones set record_bytes = ? where name = ?")
      .bind(MAX_ZONE_RECORD_BYTES - 10, z)
      .run();
    const sent = await update(z, k, [{ add: `grow.${z}`, type: "TXT", content: '"more than ten bytes"' }]);
    expect(sent.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(sent.outcome).toMatch(/size limit/);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("an update past the account's records quota answers REFUSED; nothing is applied", async () => {
    const account = ok(await api("POST", "/v1/accounts", { json: { name: "Update Quota", limits: { records: 3 } } }), 201);
    const token = ok(await api("POST", "/v1/tokens", { json: { name: "w", scope: "write", account: account.id } }), 201);
    const theirs = { authorization: `Bearer ${token.secret}` };
    const z = await zone([], theirs);
    const k = await key({ zones: [z] }, theirs);
    const sent = await update(
      z,
      k,
      ["a", "b", "c"].map((n) => ({ add: `${n}.${z}`, type: "A", content: "192.0.2.1" })),
    );
    expect(sent.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(sent.outcome).toMatch(/records quota/);
    expect(ok(await api("GET", `/v1/zones/${z}/records`, { headers: theirs }), 200).data).toHaveLength(1);
  });
});

describe("an update is bounded (DNS_UPDATE_MAX_RECORDS) and costs the same number of D1 round trips whatever its size", () => {
  const many = (z: string, count: number, prefix = "r"): UpdateLine[] =>
    Array.from({ length: count }, (_, i) => ({ add: `${prefix}${i}.${z}`, type: "TXT", content: `"value ${i}"`, ttl: 60 }));

  it("an update of more than DNS_UPDATE_MAX_RECORDS records answers REFUSED and applies nothing", async () => {
    expect(env.DNS_UPDATE_MAX_RECORDS).toBe("1000");
    const z = await zone();
    const k = await key({ zones: [z] });
    const sent = await update(z, k, many(z, 1001));
    expect(sent.answer).toMatchObject({ rcode: RCODE.REFUSED, signed: true });
    expect(sent.outcome).toMatch(/at most 1000 records/);
    expect(await records(z)).toEqual(["@ 3600 NS ns1.example.net."]);
  });

  it("an update of exactly DNS_UPDATE_MAX_RECORDS records is applied: 1 000 records, one serial step", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const before = await serial(z);
    const sent = await update(z, k, many(z, 1000));
    expect(sent.answer.rcode).toBe(RCODE.NOERROR);
    expect(sent.outcome).toBe("NOERROR: 1000 records written");
    expect(ok(await api("GET", `/v1/zones/${z}`), 200).record_count).toBe(1001);
    expect(await serial(z)).toBe(before + 1);
  });

  it("an update's D1 round trips do not grow with its size", async () => {
    const z = await zone();
    const k = await key({ zones: [z] });
    const tripsOf = async (lines: UpdateLine[]) => {
      const { response, cost } = await costOfRequest(updateRequest(await signed(updateMessage(z, lines), k)));
      expect(answerOf(new Uint8Array(await response.arrayBuffer())).rcode).toBe(RCODE.NOERROR);
      return { trips: roundTrips(cost), batches: cost.batches.length, afresh: tokenVerifiedAfresh(cost) };
    };
    // Warm just before each: the token's check is cached per isolate for 10 s, which a
    // loaded machine can run past between two measures (even between the warm-up and the
    // measure); its re-check is not the update's cost, so such a measure is taken again
    // (at most twice, each time with new records: an update is not idempotent to measure).
    const measured = async (lines: (again: number) => UpdateLine[], label: string) => {
      await tripsOf(many(z, 1, `warm-${label}`));
      let result = await tripsOf(lines(0));
      for (let again = 1; again <= 2 && result.afresh; again++) result = await tripsOf(lines(again));
      return { trips: result.trips, batches: result.batches };
    };
    const one = await measured((again) => many(z, 1, `one-${again}`), "one");
    const five = await measured((again) => many(z, 5, `five-${again}`), "five");
    const hundreds = await measured((again) => many(z, 500, `big-${again}`), "big");
    // One read batch and one write batch, whatever the update holds.
    expect(one).toEqual({ trips: 2, batches: 2 });
    expect(five).toEqual(one);
    expect(hundreds).toEqual(one);
  });
});
