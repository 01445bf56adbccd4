// Unit tests of a record as a zone takes it (src/dns/record.ts): no HTTP, no database.
import { describe, expect, it } from "vitest";
import { checkRecord, recordTypeProblem } from "../../src/dns/record";

describe("a record's type", () => {
  it("is any supported type but SOA, which the zone owns", () => {
    expect(recordTypeProblem("a")).toBeNull();
    expect(recordTypeProblem("SOA")).toContain("the zone owns its SOA");
    expect(recordTypeProblem("NOPE")).toMatch(/^"NOPE" is not a supported record type; supported: A, /);
  });
});

describe("a record draft checked against its zone", () => {
  it("is made canonical: relative owner, upper-case type, canonical RDATA", () => {
    expect(checkRecord("example.com", { name: "WWW.example.com.", type: "mx", content: "10 Mail.Example.com" })).toEqual({
      record: { name: "www", type: "MX", content: "10 mail.example.com." },
      errors: [],
    });
    expect(checkRecord("example.com", { type: "A", content: "192.0.2.1" }).record.name).toBe("@");
  });
  it("lists every bad field at once", () => {
    const { errors } = checkRecord("example.com", { name: "bad..name", type: "SOA", content: "x" });
    expect(errors.map((e) => e.field)).toEqual(["name", "type"]);
  });
  it("refuses a CNAME at the apex and an underscore in an address record's owner", () => {
    expect(checkRecord("example.com", { name: "@", type: "CNAME", content: "other.example." }).errors).toEqual([
      { field: "type", message: expect.stringContaining("cannot be at the zone apex") },
    ]);
    expect(checkRecord("example.com", { name: "_x", type: "A", content: "192.0.2.1" }).errors).toEqual([
      { field: "name", message: expect.stringContaining("must be a host name") },
    ]);
  });
  it("reports RDATA its type cannot read at content", () => {
    expect(checkRecord("example.com", { name: "www", type: "A", content: "not-an-address" }).errors.map((e) => e.field)).toEqual(["content"]);
  });
});
