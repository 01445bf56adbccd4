// The DS set a parent not managed here shows, asked of its own name servers
// (src/dns/dnssec/parent-servers.ts; docs/dnssec-rollovers.md "The parent"): the iteration
// from the root servers over wire messages built with the codec, each server a small
// authoritative one written here, and the TCP framing the Worker reads responses with.
import { describe, expect, it } from "vitest";
import type { DsFields } from "../../src/dns/dnssec/parent-ds";
import { lookupParentDs, parseServerList, queryMessage, ROOT_SERVERS_IPV4, readReply, type ServerAddress, TYPE_DS } from "../../src/dns/dnssec/parent-servers";
import { CLASS_IN, nameText, parseMessage, RCODE, TYPE_OPT } from "../../src/dns/message";
import { framedMessage, readFramed } from "../../src/dns/tcp-frame";
import { aRec, authoritative, dsRec, nsRec, rec, respond, rrsigRec, type Server, soaRec, type Zone, world } from "./dns-world";

const DS_A: DsFields = { key_tag: 2371, algorithm: 13, digest_type: 2, digest: "1F987CC6583E92DF0890718C4206C3D0C3D1A3AC0A27E8F7EB1F2F7CF5B6A8C1D0" };
const DS_B: DsFields = { key_tag: 51_234, algorithm: 13, digest_type: 2, digest: "AB".repeat(32) };

const ROOTS: ServerAddress[] = [
  { ip: "192.0.2.1", port: 53 },
  { ip: "192.0.2.2", port: 53 },
];
const ROOT: Zone = {
  apex: "",
  ns: ["a.root.test", "b.root.test"],
  delegations: {
    com: [
      ["ns1.nic.com", "192.0.2.10"],
      ["ns2.nic.com", "192.0.2.11"],
    ],
    net: [["ns.nic.net", "192.0.2.20"]],
  },
};
const COM: Zone = {
  apex: "com",
  ns: ["ns1.nic.com", "ns2.nic.com"],
  ds: { "example.com": [DS_A] },
  delegations: { "example.com": [["ns1.example.com", "198.51.100.1"]] },
  signed: true,
};

/** The root and com, each served by its servers; `com` overrides com's servers one by one. */
function comWorld(com: { ns1?: Server; ns2?: Server; root1?: Server } = {}) {
  return world({
    "192.0.2.1:53": com.root1 ?? authoritative(ROOT),
    "192.0.2.2:53": authoritative(ROOT),
    "192.0.2.10:53": com.ns1 ?? authoritative(COM),
    "192.0.2.11:53": com.ns2 ?? authoritative(COM),
  });
}

describe("the query asks the parent's servers themselves", () => {
  it("DS <zone>, RD unset (no recursion asked), EDNS0 with DO (the DS RRset's signatures wanted)", () => {
    const parsed = parseMessage(queryMessage({ id: 7, name: "example.com", type: TYPE_DS }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const { header, questions, sections } = parsed.message;
    expect(header).toMatchObject({ id: 7, qr: false, opcode: 0, rd: false });
    expect(questions.map((q) => [nameText(q.name), q.type, q.class])).toEqual([["example.com", TYPE_DS, CLASS_IN]]);
    expect(sections[2].map((r) => [nameText(r.name), r.type, r.class, r.ttl & 0x8000])).toEqual([["", TYPE_OPT, 1232, 0x8000]]);
  });
});

describe("the iteration from the root servers to the parent's", () => {
  it("a referral is followed down to the parent, and the DS set every one of its servers shows is what the parent shows", async () => {
    const { ask, asked } = comWorld();
    expect(await lookupParentDs("example.com", ROOTS, ask)).toEqual({ kind: "ds", records: [DS_A], queries: 5 });
    expect(asked.map((a) => `${a.server} ${a.name} ${a.type}`)).toEqual([
      "192.0.2.1:53 example.com 43",
      "192.0.2.10:53 example.com 43",
      "192.0.2.10:53 com 2",
      "192.0.2.10:53 example.com 43",
      "192.0.2.11:53 example.com 43",
    ]);
  });

  it("an authoritative NODATA with the parent's SOA is no DS: the empty set", async () => {
    const { ask } = comWorld();
    expect(await lookupParentDs("insecure.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [] });
  });

  it("an authoritative NXDOMAIN from the parent is no DS either", async () => {
    const { ask } = comWorld();
    expect(await lookupParentDs("gone.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [] });
  });

  it("a zone a level below a name that is no cut: the parent is the zone the servers answer from (its SOA), not the name above", async () => {
    const { ask } = comWorld();
    expect(await lookupParentDs("a.b.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [] });
  });

  it("a lame referral (up, or sideways away from the zone) is passed over for the cut's next server", async () => {
    const sideways: Server = (q) => respond(q, { authority: [nsRec("net", "ns.nic.net")], additional: [aRec("ns.nic.net", "192.0.2.20")] });
    const { ask, asked } = comWorld({ root1: sideways });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_A] });
    expect(asked.slice(0, 2).map((a) => a.server)).toEqual(["192.0.2.1:53", "192.0.2.2:53"]);
    expect(asked.some((a) => a.server === "192.0.2.20:53")).toBe(false);

    const upward: Server = (q) => respond(q, { authority: [nsRec("", "a.root.test")] });
    const lame = world({ "192.0.2.1:53": upward, "192.0.2.2:53": sideways });
    expect(await lookupParentDs("example.com", ROOTS, lame.ask)).toEqual({
      kind: "unavailable",
      reason: expect.stringMatching(/^no server of \. answered example\.com: .*a lame referral: to net, which is not below \. on the way to example\.com$/),
      queries: 2,
    });
  });

  it("glue outside the referring server's own zone is not believed: the name server is looked up instead", async () => {
    // com refers example.com to ns1.example.net with an address for it: com's servers cannot say where net's names are.
    const com: Zone = { ...COM, delegations: { "example.com": [["ns1.example.net", "203.0.113.66"]] } };
    const comServer: Server = (q) => {
      const response = authoritative(com)(q);
      if (!(response instanceof Uint8Array) || q.name !== "zone.example.com") return response;
      return respond(q, { authority: [nsRec("example.com", "ns1.example.net")], additional: [aRec("ns1.example.net", "203.0.113.66")] });
    };
    const net: Zone = { apex: "net", ns: ["ns.nic.net"], delegations: { "example.net": [["ns.example.net", "192.0.2.30"]] } };
    const exampleNet: Zone = { apex: "example.net", ns: ["ns.example.net"], a: { "ns1.example.net": "192.0.2.40" } };
    const exampleCom: Zone = { apex: "example.com", ns: ["ns1.example.net"], ds: { "zone.example.com": [DS_B] } };
    const { ask, asked } = world({
      "192.0.2.1:53": authoritative(ROOT),
      "192.0.2.10:53": comServer,
      "192.0.2.11:53": comServer,
      "192.0.2.20:53": authoritative(net),
      "192.0.2.30:53": authoritative(exampleNet),
      "192.0.2.40:53": authoritative(exampleCom),
    });
    expect(await lookupParentDs("zone.example.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_B] });
    expect(asked.some((a) => a.server === "203.0.113.66:53")).toBe(false);
    expect(asked.filter((a) => a.name === "ns1.example.net").map((a) => a.server)).toEqual(["192.0.2.1:53", "192.0.2.20:53", "192.0.2.30:53"]);
  });

  it("a parent's name server without glue is looked up by the same iteration, and asked like the others", async () => {
    const exampleCom: Zone = {
      apex: "example.com",
      ns: ["ns1.example.com", "ns.host.net"],
      a: { "ns1.example.com": "198.51.100.1" },
      ds: { "shop.example.com": [DS_B] },
    };
    const net: Zone = { apex: "net", ns: ["ns.nic.net"], delegations: { "host.net": [["ns.host.net", "192.0.2.50"]] } };
    const hostNet: Zone = { apex: "host.net", ns: ["ns.host.net"], a: { "ns.host.net": "192.0.2.50" } };
    const { ask, asked } = world({
      "192.0.2.1:53": authoritative(ROOT),
      "192.0.2.10:53": authoritative(COM),
      "198.51.100.1:53": authoritative(exampleCom),
      "192.0.2.20:53": authoritative(net),
      "192.0.2.50:53": authoritative(hostNet, exampleCom),
    });
    expect(await lookupParentDs("shop.example.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_B] });
    expect(asked.filter((a) => a.name === "shop.example.com" && a.type === TYPE_DS).map((a) => a.server)).toEqual([
      "192.0.2.1:53",
      "192.0.2.10:53",
      "198.51.100.1:53",
      "192.0.2.50:53",
      "198.51.100.1:53",
    ]);
  });

  it("a referral of the DS question to the zone itself (a parent that does not answer DS) concludes nothing", async () => {
    const noDs: Server = (q) => respond(q, { authority: [nsRec(q.name, "ns1.example.com")], additional: [aRec("ns1.example.com", "198.51.100.1")] });
    const { ask, asked } = comWorld({ ns1: noDs, ns2: noDs });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toEqual({
      kind: "unavailable",
      reason: "no server of com answered example.com: ns2.nic.com (192.0.2.11:53) referred the DS question to example.com itself",
      queries: 3,
    });
    expect(asked.some((a) => a.server === "198.51.100.1:53")).toBe(false);
  });

  it("no root server that answers: nothing concluded", async () => {
    const { ask } = world({});
    expect(await lookupParentDs("example.com", ROOTS, ask)).toEqual({
      kind: "unavailable",
      reason: "no server of . answered example.com: 192.0.2.2:53: the connection failed (connection refused)",
      queries: 2,
    });
  });

  it("the query bound reached: nothing concluded", async () => {
    const { ask } = comWorld();
    expect(await lookupParentDs("example.com", ROOTS, ask, { limits: { queries: 4 } })).toEqual({
      kind: "unavailable",
      reason: "no conclusion within 4 queries",
      queries: 4,
    });
  });

  it("a parent with more name servers than are asked concludes nothing", async () => {
    const { ask } = comWorld();
    expect(await lookupParentDs("example.com", ROOTS, ask, { limits: { parentServers: 1 } })).toMatchObject({
      kind: "unavailable",
      reason: "com has 2 name servers, more than the 1 asked",
    });
  });
});

describe("every name server of the parent must show the same DS set", () => {
  it("parent servers that disagree conclude nothing, whichever shows the new set", async () => {
    const { ask } = comWorld({ ns2: authoritative({ ...COM, ds: { "example.com": [DS_A, DS_B] } }) });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toEqual({
      kind: "unavailable",
      reason: "ns2.nic.com answered a different DS set than ns1.nic.com",
      queries: 5,
    });
    const behind = comWorld({ ns2: authoritative({ ...COM, ds: {} }) });
    expect(await lookupParentDs("example.com", ROOTS, behind.ask)).toMatchObject({ reason: "ns2.nic.com answered a different DS set than ns1.nic.com" });
  });

  it("the same set in another order, or with a record repeated, is the same set", async () => {
    const { ask } = comWorld({
      ns1: authoritative({ ...COM, ds: { "example.com": [DS_A, DS_B] } }),
      ns2: authoritative({ ...COM, ds: { "example.com": [DS_B, DS_A, DS_B] } }),
    });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_A, DS_B] });
  });

  it("a parent server that does not answer at all concludes nothing", async () => {
    const { ask } = comWorld({ ns2: () => ({ error: "no response within 3 s" }) });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({
      kind: "unavailable",
      reason: "ns2.nic.com, a name server of com, did not answer (192.0.2.11:53: no response within 3 s)",
    });
  });

  it("the parent's name servers are those of the referral and those its apex names: one only the apex names is asked too", async () => {
    const com: Zone = { ...COM, ns: ["ns1.nic.com", "ns2.nic.com", "ns3.nic.com"], a: { "ns3.nic.com": "192.0.2.12" } };
    const { ask, asked } = world({
      "192.0.2.1:53": authoritative(ROOT),
      "192.0.2.10:53": authoritative(com),
      "192.0.2.11:53": authoritative(com),
      "192.0.2.12:53": authoritative({ ...com, ds: {} }),
    });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({
      kind: "unavailable",
      reason: "ns3.nic.com answered a different DS set than ns1.nic.com",
    });
    // Its address came with the apex's NS set (a name in com., which com.'s server may say): no lookup of it.
    expect(asked.filter((a) => a.name === "ns3.nic.com")).toEqual([]);
    expect(asked.filter((a) => a.server === "192.0.2.12:53").map((a) => a.name)).toEqual(["example.com"]);
  });

  it("a name server only the apex names, without an address there, is looked up", async () => {
    const com: Zone = { ...COM, ns: ["ns1.nic.com", "ns2.nic.com", "ns.other.net"] };
    const net: Zone = { apex: "net", ns: ["ns.nic.net"], a: { "ns.other.net": "192.0.2.21" } };
    const { ask, asked } = world({
      "192.0.2.1:53": authoritative(ROOT),
      "192.0.2.10:53": authoritative(com),
      "192.0.2.11:53": authoritative(com),
      "192.0.2.20:53": authoritative(net),
      "192.0.2.21:53": authoritative(com),
    });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_A] });
    expect(asked.filter((a) => a.name === "ns.other.net").map((a) => a.server)).toEqual(["192.0.2.1:53", "192.0.2.20:53"]);
  });

  it("a zone right under the root: the parent's servers are the configured root servers", async () => {
    const { ask, asked } = world({
      "192.0.2.1:53": authoritative({ ...ROOT, ds: { com: [DS_B] } }),
      "192.0.2.2:53": authoritative({ ...ROOT, ds: { com: [DS_B] } }),
    });
    expect(await lookupParentDs("com", ROOTS, ask)).toMatchObject({ kind: "ds", records: [DS_B] });
    expect(asked.map((a) => a.server)).toEqual(["192.0.2.1:53", "192.0.2.1:53", "192.0.2.2:53"]);
  });

  it("a NODATA whose SOA is the zone's own (a server of the child only) concludes nothing", async () => {
    const childOnly: Server = (q) => respond(q, { aa: true, authority: [soaRec("example.com")] });
    const { ask } = comWorld({ ns2: (q) => (q.type === TYPE_DS ? childOnly(q) : authoritative(COM)(q)) });
    expect(await lookupParentDs("example.com", ROOTS, ask)).toMatchObject({
      kind: "unavailable",
      reason: "ns2.nic.com, a name server of com, said nothing sure: it answered from example.com itself (a server of the child, not of the parent)",
    });
  });

  it("SERVFAIL, REFUSED, a mismatched id or question, a truncated, non-authoritative or malformed response: nothing concluded", async () => {
    const cases: [Server, RegExp][] = [
      [(q) => respond(q, { rcode: RCODE.SERVFAIL }), /answered SERVFAIL$/],
      [(q) => respond(q, { rcode: RCODE.REFUSED }), /answered REFUSED$/],
      [(q) => respond(q, { aa: true, answer: [dsRec(q.name, DS_A)], id: (q.id + 1) & 0xffff }), /id is not the query's$/],
      [(q) => respond(q, { aa: true, answer: [dsRec(q.name, DS_A)], name: "other.com" }), /question is not the query's$/],
      [(q) => respond(q, { aa: true, tc: true }), /truncated$/],
      [(q) => respond(q, { answer: [dsRec(q.name, DS_A)] }), /not authoritative \(AA unset\)$/],
      [(q) => respond(q, { rcode: RCODE.NXDOMAIN }), /a non-authoritative NXDOMAIN$/],
      [(q) => respond(q, { aa: true }), /an authoritative NODATA without the zone's SOA$/],
      [(q) => respond(q, { aa: true, answer: [rec(q.name, TYPE_DS, Uint8Array.from([1, 2, 13]))] }), /a DS record is not DS data$/],
      [(q) => respond(q, { aa: true, answer: [dsRec(q.name, DS_A)] }).slice(0, 30), /does not read/],
    ];
    for (const [ns2, reason] of cases) {
      const { ask } = comWorld({ ns2: (q) => (q.type === TYPE_DS ? ns2(q) : authoritative(COM)(q)) });
      const answer = await lookupParentDs("example.com", ROOTS, ask);
      expect(answer).toMatchObject({ kind: "unavailable" });
      expect(answer.kind === "unavailable" && answer.reason, String(reason)).toMatch(reason);
    }
  });
});

describe("a response read for what it says", () => {
  const q = { id: 1, name: "example.com", type: TYPE_DS };
  it("a signed answer names its zone by the RRSIG's signer; glue is kept for the referral's names only", () => {
    expect(readReply(respond(q, { aa: true, answer: [dsRec("example.com", DS_A), rrsigRec("example.com", TYPE_DS, "com")] }), q, "com")).toMatchObject({
      kind: "answer",
      signers: ["com"],
    });
    expect(
      readReply(respond(q, { authority: [nsRec("com", "a.nic.com")], additional: [aRec("a.nic.com", "192.0.2.10"), aRec("b.nic.com", "192.0.2.99")] }), q, ""),
    ).toEqual({ kind: "referral", cut: "com", servers: [{ name: "a.nic.com", addresses: [{ ip: "192.0.2.10", port: 53 }] }] });
  });
});

describe("DNSSEC_ROOT_SERVERS", () => {
  it("addresses with and without a port, IPv6 in brackets; unset or empty is the IANA root servers a to m; anything else is refused", () => {
    expect(parseServerList("127.0.0.53, 127.1.2.3:5353,[::1],[2001:DB8::1]:53")).toEqual({
      ok: true,
      addresses: [
        { ip: "127.0.0.53", port: 53 },
        { ip: "127.1.2.3", port: 5353 },
        { ip: "::1", port: 53 },
        { ip: "2001:db8::1", port: 53 },
      ],
    });
    expect(parseServerList(undefined)).toEqual({ ok: true, addresses: ROOT_SERVERS_IPV4.map((ip) => ({ ip, port: 53 })) });
    expect(parseServerList("")).toMatchObject({ ok: true, addresses: expect.arrayContaining([{ ip: "198.41.0.4", port: 53 }]) });
    expect(ROOT_SERVERS_IPV4).toHaveLength(13);
    for (const bad of ["a.root-servers.net", "::1", "127.0.0.1:0", "127.0.0.1:65536", "[::1]:x", "127.0.0.1,", "010.0.0.1"]) {
      expect(parseServerList(bad), bad).toMatchObject({ ok: false, error: expect.stringMatching(/is not an address/) });
    }
  });
});

describe("DNS over TCP: each message behind its two-octet length (RFC 1035 §4.2.2, RFC 7766 §8)", () => {
  const stream = (...chunks: number[][]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(Uint8Array.from(chunk));
        controller.close();
      },
    }).getReader();

  it("a message split across reads is joined; octets after it are left", async () => {
    expect(framedMessage(Uint8Array.from([7, 8, 9]))).toEqual(Uint8Array.from([0, 3, 7, 8, 9]));
    expect(await readFramed(stream([0], [3, 7], [8, 9, 1, 2]))).toEqual(Uint8Array.from([7, 8, 9]));
  });

  it("a message sent one octet a read, or the largest one in uneven reads, is read whole and exact", async () => {
    const message = Uint8Array.from({ length: 4_096 }, (_, i) => (i * 7) % 256);
    const framed = [...framedMessage(message), 1, 2];
    expect(await readFramed(stream(...framed.map((octet) => [octet])))).toEqual(message);
    const largest = Uint8Array.from({ length: 65_535 }, (_, i) => (i * 13) % 256);
    const whole = [...framedMessage(largest), 3];
    const chunks = Array.from({ length: Math.ceil(whole.length / 997) }, (_, i) => whole.slice(i * 997, (i + 1) * 997));
    expect(await readFramed(stream(...chunks))).toEqual(largest);
    expect(await readFramed(stream([0, 2], [], [5], [6, 9]))).toEqual(Uint8Array.from([5, 6]));
  });

  it("a connection closed before the whole message, or an empty message, is no response", async () => {
    expect(await readFramed(stream([0, 3, 7]))).toEqual({ error: "the server closed the connection before its whole response" });
    expect(await readFramed(stream([0, 0]))).toEqual({ error: "the server sent an empty message" });
  });
});
