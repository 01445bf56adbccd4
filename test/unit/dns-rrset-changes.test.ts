import { describe, expect, it } from "vitest";
import { applyRrsetChanges, type RrsetChange, type RrsetMember, rrsetOutcomeProblems, rrsetSizeProblems } from "../../src/dns/rrset-changes";

const zone: RrsetMember[] = [
  { name: "@", type: "NS", content: "ns1.example.net.", ttl: 3600 },
  { name: "www", type: "A", content: "192.0.2.1", ttl: 300 },
  { name: "www", type: "A", content: "192.0.2.2", ttl: 300 },
  { name: "www", type: "TXT", content: '"x"', ttl: 600 },
];

function outcome(changes: RrsetChange[], current = zone) {
  return applyRrsetChanges(current, changes, 3600).map((o) => `${o.name} ${o.type} ${o.ttl} ${o.contents.join(",")}`);
}

describe("each action leaves its RRset as it says (RFC 2181 §5)", () => {
  it("add keeps what is there, once, and appends the rest; without a ttl the RRset keeps its own", () => {
    expect(outcome([{ action: "add", name: "www", type: "A", contents: ["192.0.2.2", "192.0.2.3", "192.0.2.3"] }])).toEqual([
      "www A 300 192.0.2.1,192.0.2.2,192.0.2.3",
    ]);
  });
  it("add with a ttl sets it on the whole RRset (RFC 2181 §5.2), even when it adds nothing", () => {
    expect(outcome([{ action: "add", name: "www", type: "A", ttl: 60, contents: ["192.0.2.1"] }])).toEqual(["www A 60 192.0.2.1,192.0.2.2"]);
  });
  it("a new RRset takes the default TTL", () => {
    expect(outcome([{ action: "add", name: "new", type: "AAAA", contents: ["2001:db8::1"] }])).toEqual(["new AAAA 3600 2001:db8::1"]);
  });
  it("replace sets the RRset exactly, keeping its TTL unless given; [] empties it", () => {
    expect(outcome([{ action: "replace", name: "www", type: "A", contents: ["192.0.2.9", "192.0.2.2"] }])).toEqual(["www A 300 192.0.2.2,192.0.2.9"]);
    expect(outcome([{ action: "replace", name: "www", type: "A", contents: [] }])).toEqual(["www A null "]);
  });
  it("remove takes contents out and ignores absent ones; delete empties the RRset", () => {
    expect(outcome([{ action: "remove", name: "www", type: "A", contents: ["192.0.2.1", "192.0.2.77"] }])).toEqual(["www A 300 192.0.2.2"]);
    expect(outcome([{ action: "delete", name: "www", type: "TXT", contents: [] }])).toEqual(["www TXT null "]);
  });
  it("changes to one RRset apply in order: deleted then added anew takes the default TTL", () => {
    expect(
      outcome([
        { action: "delete", name: "www", type: "A", contents: [] },
        { action: "add", name: "www", type: "A", contents: ["192.0.2.5"] },
      ]),
    ).toEqual(["www A 3600 192.0.2.5"]);
  });
  it("records which change added each content, for errors that name it", () => {
    const [www] = applyRrsetChanges(
      zone,
      [
        { action: "add", name: "www", type: "A", contents: ["192.0.2.1"] },
        { action: "add", name: "www", type: "A", contents: ["192.0.2.1", "192.0.2.8"] },
      ],
      3600,
    );
    expect([...www!.addedBy]).toEqual([["192.0.2.8", { change: 1, content: 1 }]]);
    expect(www!.lastChange).toBe(1);
  });
});

describe("the rules at each touched name hold afterwards", () => {
  const problems = (changes: RrsetChange[]) => rrsetOutcomeProblems(zone, applyRrsetChanges(zone, changes, 3600));

  it("a CNAME beside the name's other data is refused, naming the last change at that name (RFC 1034 §3.6.2)", () => {
    expect(
      problems([
        { action: "add", name: "www", type: "CNAME", contents: ["web.example.net."] },
        { action: "delete", name: "www", type: "A", contents: [] },
      ]),
    ).toEqual([{ change: 1, message: "www: a CNAME cannot share its name with other records (here TXT) (RFC 1034 §3.6.2)" }]);
  });
  it("a CNAME that replaces everything at its name is fine", () => {
    expect(
      problems([
        { action: "delete", name: "www", type: "A", contents: [] },
        { action: "delete", name: "www", type: "TXT", contents: [] },
        { action: "add", name: "www", type: "CNAME", contents: ["web.example.net."] },
      ]),
    ).toEqual([]);
  });
  it("two CNAMEs or two DNAMEs at a name are refused (RFC 2181 §10.1, RFC 6672 §2.4)", () => {
    expect(problems([{ action: "add", name: "alias", type: "CNAME", contents: ["a.example.", "b.example."] }])).toEqual([
      { change: 0, message: "alias: a name has at most one CNAME record (RFC 2181 §10.1)" },
    ]);
    expect(problems([{ action: "add", name: "d", type: "DNAME", contents: ["a.example.", "b.example."] }])).toEqual([
      { change: 0, message: "d: a name has at most one DNAME record (RFC 6672 §2.4)" },
    ]);
  });
  it("the apex keeps an NS record (RFC 1034 §4.2.1)", () => {
    expect(problems([{ action: "remove", name: "@", type: "NS", contents: ["ns1.example.net."] }])).toEqual([
      { change: 0, message: "the zone apex must keep at least one NS record (RFC 1034 §4.2.1)" },
    ]);
    expect(problems([{ action: "replace", name: "@", type: "NS", contents: ["ns2.example.net."] }])).toEqual([]);
  });
});

describe("an RRset fits one DNS message (RFC 1035 §4.2.2)", () => {
  const addresses = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
  it("4 000 A records at a short name fit; 4 200 do not, naming the last change to that RRset", () => {
    const fits = applyRrsetChanges([], [{ action: "add", name: "a", type: "A", contents: addresses(4000) }], 3600);
    expect(rrsetSizeProblems("example.com", fits)).toEqual([]);
    const over = applyRrsetChanges(
      [],
      [
        { action: "add", name: "a", type: "A", contents: addresses(4000) },
        { action: "add", name: "a", type: "A", contents: addresses(4200) },
      ],
      3600,
    );
    expect(rrsetSizeProblems("example.com", over)).toEqual([
      { change: 1, message: expect.stringMatching(/^the A RRset at a would take \d+ octets on the wire/) },
    ]);
  });
});
