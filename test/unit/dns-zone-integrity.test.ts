// BIND's zone integrity checks (named-checkzone -i local -M fail -S fail) as pure rules:
// each case is one BIND was asked about (scripts/zone-check.mjs asks it again every run).
import { describe, expect, it } from "vitest";
import { integrityCheck, integrityProblems } from "../../src/dns/zone-integrity";

const ZONE = "example.com";

/** Records as `owner TYPE content` lines, owners relative to the zone ("@" for the apex). */
function zone(...lines: string[]) {
  return lines.map((line) => {
    const [owner, type, ...rest] = line.split(" ");
    return { fqdn: owner === "@" ? ZONE : `${owner}.${ZONE}`, type: type!, content: rest.join(" ") };
  });
}

function problems(...lines: string[]) {
  return integrityProblems(ZONE, zone("@ NS ns1.example.net.", ...lines)).map((p) => `${p.record.type} ${p.record.content}: ${p.message}`);
}

describe("an in-zone name server of the apex has an address record (BIND: has no address records)", () => {
  it("refuses one without A or AAAA", () => {
    expect(problems("@ NS ns2.example.com.")).toEqual([
      "NS ns2.example.com.: the zone's name server ns2.example.com lies inside the zone but has no address record (A or AAAA) there; add one before naming it (RFC 1034 §4.2.2)",
    ]);
  });
  it("takes an A, an AAAA, or an address from a wildcard", () => {
    expect(problems("@ NS ns2.example.com.", "ns2 A 192.0.2.2")).toEqual([]);
    expect(problems("@ NS ns2.example.com.", "ns2 AAAA 2001:db8::2")).toEqual([]);
    expect(problems("@ NS x.example.com.", "* A 192.0.2.7")).toEqual([]);
  });
  it("refuses an existing name without an address even where a wildcard would give one", () => {
    expect(problems("@ NS x.example.com.", "* A 192.0.2.7", 'x TXT "here"')).toHaveLength(1);
    expect(problems("@ NS x.example.com.", "* A 192.0.2.7", 'a.x TXT "below"')).toHaveLength(1);
  });
  it("takes a name server at or below a delegation, glue or not (BIND only warns)", () => {
    expect(problems("@ NS ns.sub.example.com.", "sub NS ns.sub.example.com.")).toEqual([]);
    expect(problems("@ NS sub.example.com.", "sub NS ns1.example.net.")).toEqual([]);
  });
  it("refuses an alias and a name below a DNAME (BIND: is a CNAME / is below a DNAME)", () => {
    expect(problems("@ NS nsc.example.com.", "nsc CNAME ns1.example.net.")).toEqual([
      "NS nsc.example.com.: the zone's name server nsc.example.com is an alias (CNAME at nsc.example.com); NS records must name a canonical name (RFC 2181 §10.3)",
    ]);
    expect(problems("@ NS ns.x.example.com.", "x DNAME example.net.", "ns.x A 192.0.2.1")).toEqual([
      "NS ns.x.example.com.: the zone's name server ns.x.example.com lies below the DNAME at x.example.com, which redirects it out of the zone (RFC 6672 §2.3)",
    ]);
    expect(problems("@ NS ns1.example.com.", "@ DNAME example.net.", "ns1 A 192.0.2.1")).toHaveLength(1);
  });
  it("lets a delegation win over a DNAME at the same name, as BIND's database does", () => {
    expect(problems("@ NS ns.x.example.com.", "x DNAME example.net.", "x NS ns1.example.net.")).toEqual([]);
  });
  it("leaves delegations' own name servers alone: BIND only warns about their glue", () => {
    expect(problems("sub NS ns.sub.example.com.", "other NS ns.other2.example.com.")).toEqual([]);
  });
});

describe("an MX or SRV target inside the zone is no alias and not below a DNAME (-M fail, -S fail)", () => {
  it("refuses an MX exchange and an SRV target that are CNAMEs", () => {
    expect(problems("@ MX 10 mail.example.com.", "mail CNAME host.example.net.")).toEqual([
      "MX 10 mail.example.com.: the mail exchanger mail.example.com is an alias (CNAME at mail.example.com); MX records must name a canonical name (RFC 2181 §10.3)",
    ]);
    expect(problems("_sip._tcp SRV 0 0 5060 alias.example.com.", "alias CNAME host.example.net.")).toEqual([
      "SRV 0 0 5060 alias.example.com.: the SRV target alias.example.com is an alias (CNAME at alias.example.com); SRV records must name a canonical name (RFC 2181 §10.3, RFC 2782)",
    ]);
  });
  it("refuses a target that only a wildcard CNAME answers", () => {
    expect(problems("@ MX 10 x.example.com.", "* CNAME host.example.net.")).toHaveLength(1);
  });
  it("refuses a target below a DNAME", () => {
    expect(problems("@ MX 10 mail.x.example.com.", "x DNAME example.net.")).toHaveLength(1);
  });
  it("takes a target without address (BIND only warns), outside the zone, the root, or below a delegation", () => {
    expect(problems("@ MX 10 nomail.example.com.", "@ MX 0 .", "@ MX 5 mx.example.net.", "@ MX 7 a.sub.example.com.", "sub NS ns1.example.net.")).toEqual([]);
  });
  it("leaves records below a delegation or a DNAME unchecked: they are not the zone's own data", () => {
    expect(problems("sub NS ns1.example.net.", "a.sub MX 10 alias.example.com.", "alias CNAME host.example.net.")).toEqual([]);
    expect(problems("sub MX 10 alias.example.com.", "sub NS ns1.example.net.", "alias CNAME host.example.net.")).toEqual([]);
    expect(problems("d DNAME example.net.", "a.d MX 10 alias.example.com.", "alias CNAME host.example.net.")).toEqual([]);
    expect(problems("d DNAME example.net.", "d MX 10 alias.example.com.", "alias CNAME host.example.net.")).toHaveLength(1);
  });
});

describe("the check's work is linear in the records, whatever the names' depth", () => {
  const zoneOf = (depth: number) => `${Array.from({ length: depth }, (_, i) => String.fromCharCode(97 + (i % 26))).join(".")}.example`;
  const mxZone = (zone: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ fqdn: `x${i}.${zone}`, type: "MX", content: `10 tx${i % 7}.${zone}.` }));

  it("2 000 MX records below a 120-label origin make as many map probes as below a 2-label one", () => {
    const shallow = integrityCheck(zoneOf(2), mxZone(zoneOf(2), 2000));
    const deep = integrityCheck(zoneOf(120), mxZone(zoneOf(120), 2000));
    expect(deep.probes).toBe(shallow.probes);
    expect(deep.probes).toBeLessThanOrEqual(10 * 2000);
  });

  it("a deep delegation and a deep DNAME are each worked out once, not once per record below them", () => {
    const zone = zoneOf(120);
    const cutAt = `cut.${zone}`;
    const records = [
      { fqdn: cutAt, type: "NS", content: "ns.elsewhere.example." },
      ...Array.from({ length: 1000 }, (_, i) => ({ fqdn: `m${i}.${zone}`, type: "MX", content: `10 t${i}.a.b.c.d.cut.${zone}.` })),
    ];
    const { problems, probes } = integrityCheck(zone, records);
    expect(problems).toEqual([]);
    expect(probes).toBeLessThanOrEqual(20 * records.length);
  });
});
