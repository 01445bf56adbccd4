import { describe, expect, it } from "vitest";
import { looksLikeTtl, MAX_TTL, parseTtl } from "../../src/dns/ttl";

describe("TTLs in seconds or with BIND units", () => {
  it.each([
    ["0", 0],
    ["3600", 3600],
    ["1h", 3600],
    ["1H30M", 5400],
    ["2d", 172800],
    ["1w2d3h4m5s", 788645],
    ["2147483647", MAX_TTL],
  ])("%s is %i seconds", (text, seconds) => {
    expect(parseTtl(text)).toEqual({ ok: true, value: seconds });
  });
  it.each(["", "-1", "1.5", "1x", "h", "1h30", "2147483648", "3551w", "9".repeat(50)])("refuses %j", (text) => {
    expect(parseTtl(text, "SOA retry")).toEqual({ ok: false, error: "SOA retry must be 0–2147483647 seconds, or a time with units such as 1h or 2d" });
  });
  it("tells a TTL-shaped token from a class or type", () => {
    expect(looksLikeTtl("1d")).toBe(true);
    expect(looksLikeTtl("IN")).toBe(false);
    expect(looksLikeTtl("A")).toBe(false);
  });
});
