import { describe, expect, it } from "vitest";
import { parseIp, unusableGlueReason } from "../../src/dns/ip";

describe("IP addresses are returned canonical", () => {
  it.each([
    ["192.0.2.53", "192.0.2.53"],
    ["2001:DB8:0:0:0:0:0:53", "2001:db8::53"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8::0001", "2001:db8::1"],
    ["::ffff:192.0.2.1", "::ffff:192.0.2.1"],
    ["::FFFF:c000:0201", "::ffff:192.0.2.1"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1::", "1::"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
  ])("%s → %s", (input, canonical) => {
    expect(parseIp(input)?.text).toBe(canonical);
  });
  it.each(["192.0.2", "192.0.2.256", "01.2.3.4", "1:2:3:4:5:6:7:8:9", "1::2::3", "g::1", "", "::1.2.3", "1:2:3:4:5:6:7::8"])("refuses %s", (input) => {
    expect(parseIp(input)).toBeNull();
  });
  it.each(["0.0.0.0", "127.0.0.1", "169.254.1.1", "224.0.0.1", "255.255.255.255", "::", "::1", "fe80::1", "ff02::1", "::ffff:192.0.2.1"])(
    "refuses %s as glue",
    (input) => {
      expect(unusableGlueReason(parseIp(input)!)).not.toBeNull();
    },
  );
  it("accepts ordinary addresses as glue", () => {
    expect(unusableGlueReason(parseIp("192.0.2.1")!)).toBeNull();
    expect(unusableGlueReason(parseIp("2001:db8::53")!)).toBeNull();
  });
});
