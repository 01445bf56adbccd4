import { describe, expect, it } from "vitest";
import { apexNsRemovalProblem, apexProblem, coexistenceProblem, neighbourConflict } from "../src/dns/rrset-rules";

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
