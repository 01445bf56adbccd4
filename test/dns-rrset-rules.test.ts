import { describe, expect, it } from "vitest";
import { apexProblem, coexistenceProblem } from "../src/dns/rrset-rules";

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
