// The special-purpose address ranges webhooks are refused (src/dns/special-addresses.ts):
// each class at the edges of its ranges, and the public addresses just outside them.
import { describe, expect, it } from "vitest";
import { parseIp } from "../../src/dns/ip";
import { nonGlobalReason, specialAddress } from "../../src/dns/special-addresses";

const classOf = (text: string) => specialAddress(parseIp(text)!)?.class ?? "public";

describe("each special-purpose range is recognised up to its edges, and no further", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.255.255.255", "unspecified"],
    ["10.0.0.0", "private"],
    ["10.255.255.255", "private"],
    ["11.0.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.64.0.0", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.0", "public"],
    ["126.255.255.255", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.255", "loopback"],
    ["169.253.255.255", "public"],
    ["169.254.169.254", "link-local"],
    ["169.255.0.0", "public"],
    ["172.15.255.255", "public"],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.0", "public"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.255", "documentation"],
    ["192.0.3.0", "public"],
    ["192.88.99.1", "reserved"],
    ["192.167.255.255", "public"],
    ["192.168.0.1", "private"],
    ["192.169.0.0", "public"],
    ["198.17.255.255", "public"],
    ["198.18.0.0", "reserved"],
    ["198.19.255.255", "reserved"],
    ["198.20.0.0", "public"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.255", "documentation"],
    ["223.255.255.255", "public"],
    ["224.0.0.0", "multicast"],
    ["239.255.255.255", "multicast"],
    ["240.0.0.0", "reserved"],
    ["255.255.255.255", "reserved"],
    ["93.184.215.14", "public"],
    ["1.1.1.1", "public"],
  ])("IPv4 %s: %s", (address, expected) => {
    expect(classOf(address)).toBe(expected);
  });

  it.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:8.8.8.8", "public"],
    ["::10.0.0.1", "private"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::808:808", "public"],
    ["64:ff9b:1::1", "private"],
    ["100::1", "reserved"],
    ["2001::1", "reserved"],
    ["2001:1ff:ffff::1", "reserved"],
    ["2001:200::1", "public"],
    ["2001:db8::1", "documentation"],
    ["2001:db9::1", "public"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:5db8:d70e::1", "public"],
    ["3fff:fff::1", "documentation"],
    ["3fff:1000::1", "public"],
    ["fbff::1", "reserved"],
    ["1fff:ffff::1", "reserved"],
    ["4000::1", "reserved"],
    ["5f00::1", "reserved"],
    ["::ffff:0:a9fe:a9fe", "link-local"],
    ["::ffff:0:808:808", "public"],
    ["::ffff:1:a00:1", "reserved"],
    ["::a9fe:a9fe", "link-local"],
    ["::808:808", "public"],
    ["::2", "unspecified"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b:0:1::a00:1", "reserved"],
    ["64:ff9b:1::808:808", "private"],
    ["64:ff9b:1:ffff::1", "private"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
    ["2002:a9fe:a9fe::1", "link-local"],
    ["2002:6440:1::1", "cgnat"],
    ["fc00::1", "private"],
    ["fdff:ffff::1", "private"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2606:4700:4700::1111", "public"],
  ])("IPv6 %s: %s", (address, expected) => {
    expect(classOf(address)).toBe(expected);
  });

  it("an IPv4 address carried in IPv6 names the range of the address it carries", () => {
    expect(specialAddress(parseIp("::ffff:10.1.2.3")!)?.range).toBe("10.0.0.0/8, RFC 1918, carried in ::ffff:10.1.2.3 (IPv4-mapped, ::ffff:0:0/96, RFC 4291)");
    expect(specialAddress(parseIp("::ffff:0:a9fe:a9fe")!)).toEqual({
      class: "link-local",
      range: "169.254.0.0/16, RFC 3927, carried in ::ffff:0:a9fe:a9fe (IPv4-translated, ::ffff:0:0:0/96, RFC 2765)",
    });
    expect(specialAddress(parseIp("2002:c0a8:101::1")!)?.range).toBe("192.168.0.0/16, RFC 1918, carried in 2002:c0a8:101::1 (6to4, 2002::/16, RFC 3056)");
  });
});

describe("nonGlobalReason: the same ranges, as the reason a declared secondary is refused", () => {
  it.each([
    ["10.1.2.3", "is a private address (10.0.0.0/8, RFC 1918)"],
    ["::ffff:0:a9fe:a9fe", "is a link-local address (169.254.0.0/16, RFC 3927, carried in ::ffff:0:a9fe:a9fe (IPv4-translated, ::ffff:0:0:0/96, RFC 2765))"],
    ["0.1.2.3", 'is an unspecified address (0.0.0.0/8, RFC 791 "this network")'],
    ["2001:db8::53", "is a documentation address (2001:db8::/32, RFC 3849)"],
    ["::ffff:9.9.9.9", "is an IPv4-mapped address; give the IPv4 address instead"],
    ["9.9.9.9", null],
    ["2a00:1450:4001::53", null],
  ])("%s: %s", (address, reason) => {
    expect(nonGlobalReason(parseIp(address)!)).toBe(reason);
  });
});
