import { describe, expect, it } from "vitest";
import { compareNamesCanonically, reversedLabels } from "../../src/dns/name-order";

describe("canonical name order (RFC 4034 §6.1)", () => {
  it("sorts the RFC's own example", () => {
    const names = [
      "z.example",
      "zABC.a.EXAMPLE",
      "a.example",
      "*.z.example",
      "example",
      "yljkjljk.a.example",
      "Z.a.example",
      "\\200.z.example",
      "\\001.z.example",
    ];
    expect([...names].sort(compareNamesCanonically)).toEqual([
      "example",
      "a.example",
      "yljkjljk.a.example",
      "Z.a.example",
      "zABC.a.EXAMPLE",
      "z.example",
      "*.z.example",
      "\\001.z.example",
      "\\200.z.example",
    ]);
  });
  it("puts the apex (@ or the empty name) first among relative names", () => {
    expect(["b", "a.b", "@", "_x"].sort(compareNamesCanonically)).toEqual(["@", "_x", "b", "a.b"]);
    expect(reversedLabels("www.example.com.")).toEqual(["com", "example", "www"]);
    expect(reversedLabels("")).toEqual([]);
  });
});
