import { describe, expect, it } from "vitest";
import { apexNsRemovalProblem, apexProblem, coexistenceProblem, neighbourConflict, ownerNameProblem, targetNameProblem } from "../../src/dns/rrset-rules";

describe("a CNAME is alone at its name (RFC 1034 §3.6.2, RFC 2181 §10.1)", () => {
  it("refuses a CNAME beside other data, naming it", () => {
    expect(coexistenceProblem("CNAME", ["A", "A", "TXT"])).toBe("a CNAME cannot share its name with other records (here A, TXT) (RFC 1034 §3.6.2)");
  });
  it("refuses other data beside a CNAME", () => {
    expect(coexistenceProblem("TXT", ["CNAME"])).toBe("the name already has a CNAME record, which must be alone (RFC 1034 §3.6.2)");
  });
  it("refuses a second CNAME", () => {
    expect(coexistenceProblem("CNAME", ["CNAME"])).toBe("a name has at most one CNAME record (RFC 2181 §10.1)");
  });
  it("allows a CNAME alone and ordinary types together", () => {
    expect(coexistenceProblem("CNAME", [])).toBeNull();
    expect(coexistenceProblem("A", ["AAAA", "MX", "TXT"])).toBeNull();
  });
});

describe("one DNAME per name (RFC 6672 §2.4)", () => {
  it("refuses a second DNAME", () => {
    expect(coexistenceProblem("DNAME", ["DNAME"])).toBe("a name has at most one DNAME record (RFC 6672 §2.4)");
    expect(coexistenceProblem("DNAME", ["A"])).toBeNull();
  });
});

describe("no CNAME at the zone apex", () => {
  it("refuses CNAME only", () => {
    expect(apexProblem("CNAME")).toBe("a CNAME cannot be at the zone apex, which holds the SOA and NS records (RFC 1034 §3.6.2)");
    expect(apexProblem("NS")).toBeNull();
  });
});

describe("a record joins the records at its name only if no rule keeps it out", () => {
  it("an identical record is a duplicate (RFC 2181 §5: they would be one record)", () => {
    expect(neighbourConflict({ name: "www", type: "A", content: "192.0.2.1" }, [{ type: "A", content: "192.0.2.1" }])).toEqual({
      kind: "duplicate",
      message: "An identical A record (www 192.0.2.1) already exists.",
    });
  });
  it("a coexistence rule names the name and the rule", () => {
    expect(neighbourConflict({ name: "www", type: "CNAME", content: "other.example." }, [{ type: "A", content: "192.0.2.1" }])).toEqual({
      kind: "coexistence",
      message: "www: a CNAME cannot share its name with other records (here A) (RFC 1034 §3.6.2).",
    });
  });
  it("a record of another type or content joins", () => {
    expect(
      neighbourConflict({ name: "www", type: "A", content: "192.0.2.2" }, [
        { type: "A", content: "192.0.2.1" },
        { type: "TXT", content: '"x"' },
      ]),
    ).toBeNull();
  });
});

describe("the apex keeps at least one NS record (RFC 1034 §4.2.1)", () => {
  it("refuses to remove or move the last apex NS record", () => {
    expect(apexNsRemovalProblem({ name: "@", type: "NS" }, 1)).toContain("last NS record at the apex");
  });
  it("allows it while another apex NS record stays, and for any other record", () => {
    expect(apexNsRemovalProblem({ name: "@", type: "NS" }, 2)).toBeNull();
    expect(apexNsRemovalProblem({ name: "www", type: "NS" }, 1)).toBeNull();
    expect(apexNsRemovalProblem({ name: "@", type: "A" }, 1)).toBeNull();
  });
});

describe("no DS at the zone apex (RFC 4035 §2.4: it belongs in the parent; BIND refuses it)", () => {
  it("refuses a DS at the apex", () => {
    expect(apexProblem("DS")).toBe("a DS record cannot be at the zone apex: it belongs in the parent zone, at the delegation (RFC 4035 §2.4)");
  });
});

describe("owner names follow BIND's check-names exactly (checkowner_in_a, checkowner_in_aaaa, checkowner_mx)", () => {
  it("refuses a service label in the owner of an A, AAAA or MX record", () => {
    expect(ownerNameProblem("A", "_msdcs.example.com")).toBe('the owner of an A record must be a host name (RFC 1123 §2.1); label "_msdcs" has an underscore');
    expect(ownerNameProblem("AAAA", "x._tcp.example.com")).toBe(
      'the owner of an AAAA record must be a host name (RFC 1123 §2.1); label "_tcp" has an underscore',
    );
    expect(ownerNameProblem("MX", "_spf.example.com")).toBe('the owner of a MX record must be a host name (RFC 1123 §2.1); label "_spf" has an underscore');
  });
  it("allows Active Directory's gc._msdcs.<forest> for A and AAAA", () => {
    expect(ownerNameProblem("A", "gc._msdcs.example.com")).toBeNull();
    expect(ownerNameProblem("AAAA", "gc._msdcs.example.com")).toBeNull();
    expect(ownerNameProblem("A", "gc._msdcs.bad_forest.example.com")).not.toBeNull();
    expect(ownerNameProblem("MX", "gc._msdcs.example.com")).not.toBeNull();
  });
  it("allows, for A only, a _spf, _spf_verify or _spf_rate label anywhere but last (RFC 7208 §5.7, appendix D.1)", () => {
    expect(ownerNameProblem("A", "192.0.2.1._spf.example.com")).toBeNull();
    expect(ownerNameProblem("A", "x._spf_verify.example.com")).toBeNull();
    expect(ownerNameProblem("A", "x._spf_rate.example.com")).toBeNull();
    expect(ownerNameProblem("AAAA", "x._spf.example.com")).not.toBeNull();
    expect(ownerNameProblem("A", "x._spf2.example.com")).not.toBeNull();
  });
  it("takes a leading wildcard label, and leaves other types alone", () => {
    expect(ownerNameProblem("A", "*.example.com")).toBeNull();
    expect(ownerNameProblem("TXT", "_dmarc.example.com")).toBeNull();
    expect(ownerNameProblem("SRV", "_sip._tcp.example.com")).toBeNull();
  });
  it("refuses an NS record at a wildcard name (RFC 4592 §4.2; BIND: invalid NS owner name)", () => {
    expect(ownerNameProblem("NS", "*.example.com")).toBe("an NS record cannot be at a wildcard name (RFC 4592 §4.2)");
    expect(ownerNameProblem("DNAME", "*.example.com")).toBeNull();
  });
});

describe("a PTR in a reverse tree names a host (BIND's checknames_ptr)", () => {
  it("refuses a service label in the target under in-addr.arpa, ip6.arpa and ip6.int", () => {
    expect(targetNameProblem("PTR", "1.2.0.192.in-addr.arpa", ["_x.example.com"])).toBe(
      "in a reverse zone a PTR record names a host, so _x.example.com may not hold an underscore (RFC 1123 §2.1, BIND's check-names)",
    );
    expect(targetNameProblem("PTR", "1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", ["_x.example.com"])).not.toBeNull();
  });
  it("allows it for DNS-SD browsing names (RFC 6763 §11) and outside the reverse trees", () => {
    expect(targetNameProblem("PTR", "b._dns-sd._udp.0.2.0.192.in-addr.arpa", ["_x.example.com"])).toBeNull();
    expect(targetNameProblem("PTR", "_services._dns-sd._udp.example.com", ["_http._tcp.example.com"])).toBeNull();
    expect(targetNameProblem("PTR", "1.2.0.192.in-addr.arpa", ["host.example.com"])).toBeNull();
  });
});
