import { describe, expect, it } from "vitest";
import { certWithNumbers } from "../../src/dns/rdata/cert";
import { keyTag } from "../../src/dns/rdata/dnskey";
import { nameWire } from "../../src/dns/rdata/wire";
import {
  canonicalRdata,
  isRecordType,
  parseRdata,
  RECORD_TYPE_CODES,
  RECORD_TYPES,
  rdataExamples,
  rdataNames,
  rdataWire,
  type RecordType,
  recordTypeOf,
} from "../../src/dns/rdata";

const json = (type: RecordType, text: string) => canonicalRdata(type, text, null);
const zone = (type: RecordType, text: string) => canonicalRdata(type, text, "example.com");
const accepted = (content: string) => ({ ok: true, content });
const refused = (error: string) => ({ ok: false, error });

const HEX64 = "0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6";

describe("record types", () => {
  it("knows exactly the supported types, upper case", () => {
    expect(RECORD_TYPES).toEqual([
      ...["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SRV", "CAA", "PTR", "DS", "TLSA", "SSHFP", "NAPTR", "SVCB", "HTTPS", "DNAME"],
      ...["DNSKEY", "CDS", "CDNSKEY"],
      ...["HINFO", "RP", "URI", "SPF", "EUI48", "EUI64"],
      "LOC",
      ...["CERT", "OPENPGPKEY", "SMIMEA", "ZONEMD"],
    ]);
    expect(isRecordType("MX")).toBe(true);
    expect(isRecordType("mx")).toBe(false);
    expect(isRecordType("SOA")).toBe(false);
  });
});

describe("every example is valid and already canonical", () => {
  it.each(RECORD_TYPES.map((t) => [t, rdataExamples[t]] as const))("%s %s", (type, example) => {
    expect(json(type, example)).toEqual(accepted(example));
    expect(zone(type, example)).toEqual(accepted(example));
  });
});

describe("canonical output is stable (canonicalising twice changes nothing)", () => {
  it.each([
    ["TXT", '"a\\"b" "c\\\\d" "caf\\195\\169" "\\000"'],
    ["SVCB", '1 svc.example.com. mandatory=alpn alpn="f\\\\\\\\oo\\\\,bar,h2" key667="x y"'],
    ["CAA", '128 iodef "mailto:security@example.com"'],
    ["NAPTR", '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .'],
  ] as const)("%s %s", (type, canonical) => {
    expect(json(type, canonical)).toEqual(accepted(canonical));
  });
});

describe("empty content", () => {
  it.each(RECORD_TYPES)("%s refuses empty content and says what it needs", (type) => {
    const result = json(type, "   ");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(new RegExp(`^${type} content is empty; it needs .+ \\(e\\.g\\. .+\\)$`));
  });
  it("says what MX needs", () => {
    expect(json("MX", "")).toEqual(refused("MX content is empty; it needs a preference and a mail server name (e.g. 10 mail.example.com.)"));
  });
});

describe("A", () => {
  it("accepts a dotted quad", () => {
    expect(json("A", " 192.0.2.1 ")).toEqual(accepted("192.0.2.1"));
  });
  it("refuses leading zeros, out-of-range octets and extra fields", () => {
    expect(json("A", "192.0.2.01")).toEqual(refused('A content "192.0.2.01" is not an IPv4 address (e.g. 192.0.2.10; no leading zeros)'));
    expect(json("A", "256.0.0.1").ok).toBe(false);
    expect(json("A", "192.0.2.1 192.0.2.2")).toEqual(refused('A has more than an IPv4 address: unexpected "192.0.2.2"'));
  });
  it("points an IPv6 address to AAAA", () => {
    expect(json("A", "2001:db8::1")).toEqual(refused('A needs an IPv4 address; "2001:db8::1" is IPv6, use an AAAA record'));
  });
});

describe("AAAA", () => {
  it("compresses per RFC 5952", () => {
    expect(json("AAAA", "2001:0DB8:0:0:0:0:0:0001")).toEqual(accepted("2001:db8::1"));
  });
  it("points an IPv4 address to A", () => {
    expect(json("AAAA", "192.0.2.1")).toEqual(refused('AAAA needs an IPv6 address; "192.0.2.1" is IPv4, use an A record'));
  });
  it("refuses junk", () => {
    expect(json("AAAA", "1::2::3")).toEqual(refused('AAAA content "1::2::3" is not an IPv6 address (e.g. 2001:db8::10)'));
  });
});

describe("names inside content", () => {
  it("in JSON, are absolute with or without the dot, lower-cased, and returned with the dot", () => {
    expect(json("CNAME", "WWW.Example.COM")).toEqual(accepted("www.example.com."));
    expect(json("CNAME", "www.example.com.")).toEqual(accepted("www.example.com."));
  });
  it("in a master file, are relative to the origin unless they end with a dot", () => {
    expect(zone("CNAME", "www")).toEqual(accepted("www.example.com."));
    expect(zone("CNAME", "www.example.net.")).toEqual(accepted("www.example.net."));
    expect(zone("CNAME", "@")).toEqual(accepted("example.com."));
    expect(canonicalRdata("CNAME", "www", "Example.COM.")).toEqual(accepted("www.example.com."));
  });
  it('refuses "@" without an origin', () => {
    expect(json("CNAME", "@")).toEqual(refused('CNAME target "@" needs a zone origin; give the full name'));
  });
  it("converts IDN to A-labels", () => {
    expect(json("CNAME", "münchen.de")).toEqual(accepted("xn--mnchen-3ya.de."));
  });
  it("names the label at fault", () => {
    expect(json("NS", "-ns.example.net")).toEqual(refused('NS host "-ns.example.net": label "-ns" starts with a hyphen'));
    expect(json("CNAME", "a..example.com")).toEqual(refused('CNAME target "a..example.com": has an empty label'));
  });
  it("refuses escaped characters and quoted names", () => {
    expect(json("PTR", "a\\.b.example.com")).toEqual(refused('PTR target "a\\\\.b.example.com": escaped characters in names (such as \\.) are not supported'));
    expect(json("CNAME", '"www.example.com"')).toEqual(refused("CNAME target must be a domain name, not a quoted string"));
  });
  it("refuses the root where it means nothing", () => {
    expect(json("CNAME", ".")).toEqual(refused('CNAME target cannot be the root "."'));
    expect(json("NS", ".")).toEqual(refused('NS host cannot be the root "."'));
  });
  it("allows service labels in alias targets, not in host names", () => {
    expect(json("CNAME", "s1._domainkey.example.net")).toEqual(accepted("s1._domainkey.example.net."));
    expect(json("NS", "_ns.example.net")).toEqual(refused('NS host "_ns.example.net": label "_ns" may contain only letters, digits and hyphens'));
  });
  it("refuses wildcards in targets", () => {
    expect(json("CNAME", "*.example.com")).toEqual(refused('CNAME target "*.example.com": label "*" is not allowed here'));
  });
});

describe("CNAME, NS, PTR, DNAME", () => {
  it("take exactly one name", () => {
    expect(json("PTR", "host.example.com")).toEqual(accepted("host.example.com."));
    expect(json("DNAME", "example.net")).toEqual(accepted("example.net."));
    expect(json("NS", "ns1.example.net ns2.example.net")).toEqual(refused('NS has more than a name server\'s host name: unexpected "ns2.example.net"'));
  });
});

describe("MX", () => {
  it("canonicalises preference and exchange", () => {
    expect(json("MX", "010 Mail.Example.com")).toEqual(accepted("10 mail.example.com."));
    expect(zone("MX", "10 mail")).toEqual(accepted("10 mail.example.com."));
  });
  it("range-checks the preference", () => {
    expect(json("MX", "65536 mail.example.com")).toEqual(refused("MX preference must be an integer 0–65535"));
    expect(json("MX", "-1 mail.example.com")).toEqual(refused("MX preference must be an integer 0–65535"));
    expect(json("MX", "mail.example.com")).toEqual(refused("MX needs a preference and a mail server name (e.g. 10 mail.example.com.)"));
  });
  it("accepts a null MX with preference 0 only (RFC 7505)", () => {
    expect(json("MX", "0 .")).toEqual(accepted("0 ."));
    expect(json("MX", "10 .")).toEqual(refused('a null MX (exchange ".") must have preference 0 (RFC 7505 §3)'));
  });
});

describe("SRV", () => {
  it("canonicalises all four fields", () => {
    expect(json("SRV", "10 05 5060 SIP.example.com")).toEqual(accepted("10 5 5060 sip.example.com."));
    expect(zone("SRV", "0 0 443 host")).toEqual(accepted("0 0 443 host.example.com."));
  });
  it("accepts the root target: no service here (RFC 2782)", () => {
    expect(json("SRV", "0 0 0 .")).toEqual(accepted("0 0 0 ."));
  });
  it("range-checks each number and names it", () => {
    expect(json("SRV", "70000 1 1 a.example.com")).toEqual(refused("SRV priority must be an integer 0–65535"));
    expect(json("SRV", "1 x 1 a.example.com")).toEqual(refused("SRV weight must be an integer 0–65535"));
    expect(json("SRV", "1 1 65536 a.example.com")).toEqual(refused("SRV port must be an integer 0–65535"));
    expect(json("SRV", "1 1 1")).toEqual(refused("SRV needs priority, weight, port and target (e.g. 10 5 5060 sip.example.com.)"));
  });
});

describe("TXT", () => {
  it("in JSON, takes unquoted content as one text, spaces and all", () => {
    expect(json("TXT", "v=spf1 include:_spf.example.com ~all")).toEqual(accepted('"v=spf1 include:_spf.example.com ~all"'));
    expect(json("TXT", 'say "hi" \\o/')).toEqual(accepted('"say \\"hi\\" \\\\o/"'));
  });
  it("in JSON, splits a long unquoted text into strings of at most 255 bytes", () => {
    const result = json("TXT", "a".repeat(600));
    expect(result).toEqual(accepted(`"${"a".repeat(255)}" "${"a".repeat(255)}" "${"a".repeat(90)}"`));
  });
  it("does not cut a UTF-8 character in two when splitting", () => {
    const result = json("TXT", `${"a".repeat(254)}é`);
    expect(result).toEqual(accepted(`"${"a".repeat(254)}" "\\195\\169"`));
  });
  it("takes quoted strings with escapes", () => {
    expect(json("TXT", '"a\\"b" "c\\\\d"  "\\065\\066"')).toEqual(accepted('"a\\"b" "c\\\\d" "AB"'));
    expect(json("TXT", '""')).toEqual(accepted('""'));
    expect(json("TXT", '"v=DKIM1; k=rsa;" "p=abc"')).toEqual(accepted('"v=DKIM1; k=rsa;" "p=abc"'));
  });
  it("writes non-printable and non-ASCII bytes as \\DDD", () => {
    expect(json("TXT", '"tab\there" "café"')).toEqual(accepted('"tab\\009here" "caf\\195\\169"'));
  });
  it("in a master file, takes each bare token as one string", () => {
    expect(zone("TXT", 'hello world "and more"')).toEqual(accepted('"hello" "world" "and more"'));
  });
  it("refuses a quoted string over 255 bytes", () => {
    expect(json("TXT", `"${"a".repeat(256)}"`)).toEqual(
      refused("TXT string 1 is 256 bytes; a string holds at most 255 (split it into several quoted strings)"),
    );
  });
  it("refuses bad escapes and unclosed quotes", () => {
    expect(json("TXT", '"\\256"')).toEqual(refused('TXT string 1: "\\256" is not an octet (0–255)'));
    expect(json("TXT", '"\\12"')).toEqual(refused('TXT string 1: "\\12" is not an escape: use \\DDD with three decimal digits'));
    expect(json("TXT", '"abc')).toEqual(refused("TXT content: a quoted string is not closed"));
  });
  it("refuses more than 65535 bytes of data", () => {
    const strings = Array.from({ length: 300 }, () => `"${"x".repeat(255)}"`).join(" ");
    expect(json("TXT", strings)).toEqual(refused("TXT data is longer than a record can hold (65535 octets on the wire)"));
  });
});

describe("CAA", () => {
  it("quotes the value and lower-cases the tag", () => {
    expect(json("CAA", "0 ISSUE letsencrypt.org")).toEqual(accepted('0 issue "letsencrypt.org"'));
    expect(json("CAA", '0 issue "letsencrypt.org; validationmethods=dns-01"')).toEqual(accepted('0 issue "letsencrypt.org; validationmethods=dns-01"'));
    expect(json("CAA", '0 issuewild ";"')).toEqual(accepted('0 issuewild ";"'));
    expect(json("CAA", '128 iodef "https://example.com/caa"')).toEqual(accepted('128 iodef "https://example.com/caa"'));
    expect(json("CAA", '0 issuemail "ca.example.net"')).toEqual(accepted('0 issuemail "ca.example.net"'));
    expect(json("CAA", '0 contactemail "security@example.com"')).toEqual(accepted('0 contactemail "security@example.com"'));
    expect(json("CAA", '0 contactphone "+1 (555) 010-0000"')).toEqual(accepted('0 contactphone "+1 (555) 010-0000"'));
  });
  it("range-checks the flags", () => {
    expect(json("CAA", '256 issue "ca.example.net"')).toEqual(refused("CAA flags must be an integer 0–255"));
  });
  it("refuses unknown tags and names the known ones", () => {
    expect(json("CAA", '0 tbs "x"')).toEqual(refused('CAA tag "tbs" is not one of issue, issuewild, iodef, issuemail, issuevmc, contactemail, contactphone'));
  });
  it("checks the value against the tag", () => {
    expect(json("CAA", '0 issue "not a domain"')).toEqual(
      refused('CAA issue value must be a CA\'s domain name, optionally followed by "; key=value" parameters (RFC 8659 §4.2)'),
    );
    expect(json("CAA", '0 iodef "ftp://example.com"')).toEqual(refused("CAA iodef value must be a mailto:, http:// or https:// URL (RFC 8659 §4.4)"));
  });
  it("asks for a quoted value when it has spaces", () => {
    expect(json("CAA", "0 issue letsencrypt.org; validationmethods=dns-01")).toEqual(
      refused('CAA has more than flags, a tag and a value: unexpected "validationmethods=dns-01"'),
    );
  });
});

describe("DS", () => {
  it("writes the digest in upper case, joined, as BIND does", () => {
    expect(json("DS", `12345 13 2 ${HEX64.slice(0, 32)} ${HEX64.slice(32)}`)).toEqual(accepted(`12345 13 2 ${HEX64.toUpperCase()}`));
  });
  it("accepts algorithm mnemonics and writes the number", () => {
    expect(json("DS", `1 ECDSAP256SHA256 2 ${HEX64}`)).toEqual(accepted(`1 13 2 ${HEX64.toUpperCase()}`));
  });
  it("checks the digest length for known digest types", () => {
    expect(json("DS", `1 8 1 ${"a".repeat(40)}`)).toEqual(accepted(`1 8 1 ${"A".repeat(40)}`));
    expect(json("DS", `1 8 4 ${"a".repeat(96)}`)).toEqual(accepted(`1 8 4 ${"A".repeat(96)}`));
    expect(json("DS", `1 8 2 ${"a".repeat(62)}`)).toEqual(refused("DS digest for digest type 2 (SHA-256) must be 64 hex digits, not 62"));
    expect(json("DS", `1 8 99 abcd`)).toEqual(accepted("1 8 99 ABCD"));
  });
  it("range-checks key tag, algorithm and digest type", () => {
    expect(json("DS", `65536 8 2 ${HEX64}`)).toEqual(refused("DS key tag must be an integer 0–65535"));
    expect(json("DS", `1 256 2 ${HEX64}`)).toEqual(refused("DS algorithm must be an integer 0–255"));
    expect(json("DS", `1 8 256 ${HEX64}`)).toEqual(refused("DS digest type must be an integer 0–255"));
    expect(json("DS", `1 8 0 ${HEX64}`)).toEqual(refused("DS digest type 0 is reserved (RFC 4034 §5.1.3)"));
  });
  it("refuses non-hex and odd-length digests", () => {
    expect(json("DS", "1 8 2 xyz")).toEqual(refused("DS digest must be hexadecimal digits (0–9, A–F)"));
    expect(json("DS", "1 8 99 abc")).toEqual(refused("DS digest has an odd number of hex digits (3)"));
  });
});

describe("TLSA", () => {
  it("canonicalises and checks the data length per matching type", () => {
    expect(json("TLSA", `3 1 1 ${HEX64}`)).toEqual(accepted(`3 1 1 ${HEX64.toUpperCase()}`));
    expect(json("TLSA", `3 1 2 ${HEX64}${HEX64}`)).toEqual(accepted(`3 1 2 ${(HEX64 + HEX64).toUpperCase()}`));
    expect(json("TLSA", `3 0 0 3082`)).toEqual(accepted("3 0 0 3082"));
    expect(json("TLSA", `3 1 2 ${HEX64}`)).toEqual(refused("TLSA data for matching type 2 must be 128 hex digits, not 64"));
  });
  it("range-checks usage, selector and matching type", () => {
    expect(json("TLSA", `4 1 1 ${HEX64}`)).toEqual(refused("TLSA certificate usage must be an integer 0–3"));
    expect(json("TLSA", `3 2 1 ${HEX64}`)).toEqual(refused("TLSA selector must be an integer 0–1"));
    expect(json("TLSA", `3 1 3 ${HEX64}`)).toEqual(refused("TLSA matching type must be an integer 0–2"));
  });
});

describe("SSHFP", () => {
  it("canonicalises and checks the fingerprint length", () => {
    expect(json("SSHFP", `4 2 ${HEX64}`)).toEqual(accepted(`4 2 ${HEX64.toUpperCase()}`));
    expect(json("SSHFP", `1 1 ${"ab".repeat(20)}`)).toEqual(accepted(`1 1 ${"AB".repeat(20)}`));
    expect(json("SSHFP", `1 1 ${HEX64}`)).toEqual(refused("SSHFP fingerprint for type 1 must be 40 hex digits, not 64"));
  });
  it("range-checks algorithm and type", () => {
    expect(json("SSHFP", `7 2 ${HEX64}`)).toEqual(refused("SSHFP algorithm must be an integer 0–6"));
    expect(json("SSHFP", `4 3 ${HEX64}`)).toEqual(refused("SSHFP fingerprint type must be an integer 0–2"));
  });
});

describe("NAPTR", () => {
  it("quotes the strings and makes the replacement absolute", () => {
    expect(json("NAPTR", '100 10 S SIP+D2U "" _sip._udp.example.com')).toEqual(accepted('100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'));
    expect(zone("NAPTR", '100 10 "S" "SIP+D2U" "" _sip._udp')).toEqual(accepted('100 10 "S" "SIP+D2U" "" _sip._udp.example.com.'));
  });
  it("accepts a regexp with the root as replacement", () => {
    expect(json("NAPTR", '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .')).toEqual(accepted('100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .'));
  });
  it("refuses both a regexp and a replacement", () => {
    expect(json("NAPTR", '100 10 "u" "E2U+sip" "!^.*$!sip:a@example.com!" sip.example.com')).toEqual(
      refused('NAPTR regexp and replacement are mutually exclusive: with a regexp the replacement must be "." (RFC 3403 §4.1)'),
    );
  });
  it("checks flags and numbers", () => {
    expect(json("NAPTR", '100 10 "S!" "SIP+D2U" "" .')).toEqual(refused("NAPTR flags may contain only letters and digits (RFC 3403 §4.1)"));
    expect(json("NAPTR", '100 70000 "S" "SIP+D2U" "" .')).toEqual(refused("NAPTR preference must be an integer 0–65535"));
    expect(json("NAPTR", '100 10 "S" "SIP+D2U" ""')).toEqual(
      refused('NAPTR needs order, preference, flags, services, regexp and replacement (e.g. 100 10 "S" "SIP+D2U" "" _sip._udp.example.com.)'),
    );
  });
});

describe("SVCB and HTTPS", () => {
  it("sorts parameters by key number and writes them canonically", () => {
    expect(
      json("HTTPS", "1 . port=8443 ipv6hint=2001:DB8:0::1 ech=AEX+DQBB alpn=h2,h3 ipv4hint=192.0.2.1,192.0.2.2 mandatory=port,alpn no-default-alpn"),
    ).toEqual(accepted('1 . mandatory=alpn,port alpn="h2,h3" no-default-alpn port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEX+DQBB ipv6hint=2001:db8::1'));
  });
  it("resolves the target like any name", () => {
    expect(zone("SVCB", "1 svc alpn=h2")).toEqual(accepted('1 svc.example.com. alpn="h2"'));
    expect(json("SVCB", "0 svc.example.net")).toEqual(accepted("0 svc.example.net."));
  });
  it("keeps escaped commas inside an alpn id (RFC 9460 appendix A.1)", () => {
    expect(json("SVCB", '1 . alpn="f\\\\\\\\oo\\\\,bar,h2"')).toEqual(accepted('1 . alpn="f\\\\\\\\oo\\\\,bar,h2"'));
  });
  it("accepts generic keys, dohpath and ohttp (written key8, which BIND 9.18 reads)", () => {
    expect(json("SVCB", '1 doh.example.net alpn=h2 dohpath="/dns-query{?dns}" ohttp key667="hello world" key1000')).toEqual(
      accepted('1 doh.example.net. alpn="h2" dohpath="/dns-query{?dns}" key8 key667="hello world" key1000'),
    );
    expect(json("SVCB", "1 . key3=443")).toEqual(accepted("1 . port=443"));
  });
  it("refuses parameters in AliasMode", () => {
    expect(json("HTTPS", "0 example.net alpn=h2")).toEqual(refused("HTTPS with priority 0 (AliasMode) takes no parameters (RFC 9460 §2.4.2)"));
  });
  it("refuses unknown, duplicate and malformed parameters", () => {
    expect(json("SVCB", "1 . colour=blue")).toEqual(
      refused('SVCB unknown SvcParamKey "colour" (known: mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, or keyNNNNN)'),
    );
    expect(json("SVCB", "1 . port=1 port=2")).toEqual(refused("SVCB parameter port appears twice (RFC 9460 §2.2)"));
    expect(json("SVCB", "1 . key65535=x")).toEqual(refused("SVCB SvcParamKey key65535 is out of range (key65535 is reserved, RFC 9460 §14.3.2)"));
    expect(json("SVCB", "1 . port=99999")).toEqual(refused("SVCB port must be an integer 0–65535"));
    expect(json("SVCB", "1 . ipv4hint=2001:db8::1")).toEqual(refused("SVCB ipv4hint must be a comma-separated list of IPv4 addresses"));
    expect(json("SVCB", "1 . ipv6hint=")).toEqual(refused("SVCB ipv6hint needs a value (ipv6hint=…)"));
    expect(json("SVCB", "1 . alpn=h2,,h3")).toEqual(refused("SVCB alpn must be a comma-separated list of protocol ids, each 1–255 bytes (e.g. alpn=h2,h3)"));
    expect(json("SVCB", "1 . ech=not*base64")).toEqual(refused("SVCB ech must be an ECHConfigList in base64"));
    expect(json("SVCB", "1 . alpn=h2 no-default-alpn=x")).toEqual(refused("SVCB no-default-alpn takes no value"));
  });
  it("checks mandatory and no-default-alpn for consistency (RFC 9460 §8, §7.1.1)", () => {
    expect(json("SVCB", "1 . mandatory=port alpn=h2")).toEqual(refused("SVCB mandatory lists port, which the record does not have"));
    expect(json("SVCB", "1 . mandatory=mandatory")).toEqual(refused("SVCB mandatory must not list mandatory itself (RFC 9460 §8)"));
    expect(json("SVCB", "1 . no-default-alpn")).toEqual(refused("SVCB no-default-alpn requires alpn (RFC 9460 §7.1.1)"));
  });
  it("range-checks the priority", () => {
    expect(json("HTTPS", "65536 .")).toEqual(refused("HTTPS priority must be an integer 0–65535"));
  });
});

describe("rdataNames lists the names a record refers to", () => {
  it.each([
    ["CNAME", "www.example.com.", ["www.example.com"]],
    ["MX", "10 mail.example.com.", ["mail.example.com"]],
    ["MX", "0 .", []],
    ["SRV", "10 5 5060 sip.example.com.", ["sip.example.com"]],
    ["NAPTR", '100 10 "S" "SIP D2U" "" _sip._udp.example.com.', ["_sip._udp.example.com"]],
    ["HTTPS", '1 svc.example.com. alpn="h2"', ["svc.example.com"]],
    ["A", "192.0.2.1", []],
    ["TXT", '"x.example.com."', []],
  ] as const)("%s %s", (type, content, names) => {
    expect(rdataNames(type, content)).toEqual(names);
  });
});

/** Wire form as spaced hex, for readable comparisons. */
function wireHex(type: RecordType, content: string): string {
  const wire = rdataWire(type, content);
  if (!wire.ok) throw new Error(wire.error);
  return [...wire.value].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

const hexOf = (text: string) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
/** A name in wire form (RFC 1035 §3.1), as spaced hex. */
const nameHex = (name: string) =>
  `${name
    .split(".")
    .filter(Boolean)
    .map((label) => `${label.length.toString(16).padStart(2, "0")} ${hexOf(label)}`)
    .join(" ")} 00`.trim();

describe("type codes come from the IANA registry (RFC 6895)", () => {
  it("gives each type its code", () => {
    expect(RECORD_TYPE_CODES).toEqual({
      A: 1,
      NS: 2,
      CNAME: 5,
      PTR: 12,
      MX: 15,
      TXT: 16,
      AAAA: 28,
      SRV: 33,
      NAPTR: 35,
      DNAME: 39,
      DS: 43,
      SSHFP: 44,
      TLSA: 52,
      SVCB: 64,
      HTTPS: 65,
      CAA: 257,
      DNSKEY: 48,
      CDS: 59,
      CDNSKEY: 60,
      HINFO: 13,
      RP: 17,
      URI: 256,
      SPF: 99,
      EUI48: 108,
      EUI64: 109,
      LOC: 29,
      CERT: 37,
      OPENPGPKEY: 61,
      SMIMEA: 53,
      ZONEMD: 63,
    });
  });
});

describe("parseRdata gives typed fields", () => {
  it("reads numbers as numbers and names absolute", () => {
    expect(parseRdata("MX", "10 mail", "example.com")).toEqual({ ok: true, value: { preference: 10, exchange: "mail.example.com." } });
    expect(parseRdata("SRV", "0 5 5060 sip.example.com", null)).toEqual({
      ok: true,
      value: { priority: 0, weight: 5, port: 5060, target: "sip.example.com." },
    });
    expect(parseRdata("DS", `60485 RSASHA1 1 ${"2BB183AF5F22588179A53B0A98631FAD1A292118"}`, null)).toEqual({
      ok: true,
      value: { keyTag: 60485, algorithm: 5, digestType: 1, digest: "2BB183AF5F22588179A53B0A98631FAD1A292118" },
    });
  });
  it("holds strings as octets", () => {
    expect(parseRdata("TXT", '"caf\\195\\169" x', null)).toEqual({ ok: true, value: { strings: ["caf\xc3\xa9", "x"] } });
  });
  it("refuses what canonicalRdata refuses, with the same reason", () => {
    expect(parseRdata("MX", "10 .", null)).toEqual({ ok: false, error: 'a null MX (exchange ".") must have preference 0 (RFC 7505 §3)' });
  });
});

describe("wire form (RFC 1035 §3.3, uncompressed and lower case as RFC 4034 §6.2 wants)", () => {
  it("A, AAAA (RFC 1035 §3.4.1, RFC 3596 §2.2)", () => {
    expect(wireHex("A", "192.0.2.1")).toBe("c0 00 02 01");
    expect(wireHex("AAAA", "2001:db8::1")).toBe("20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01");
  });
  it("names are label sequences, lower case, the root one zero octet", () => {
    expect(wireHex("CNAME", "WWW.Example.COM.")).toBe(nameHex("www.example.com"));
    expect(wireHex("NS", "ns1.example.net")).toBe(nameHex("ns1.example.net"));
    expect(wireHex("PTR", "host.example.com")).toBe(nameHex("host.example.com"));
    expect(wireHex("DNAME", "example.net")).toBe(nameHex("example.net"));
    expect(wireHex("MX", "0 .")).toBe("00 00 00");
  });
  it("MX and SRV put their numbers first, in network order", () => {
    expect(wireHex("MX", "10 mail.example.com")).toBe(`00 0a ${nameHex("mail.example.com")}`);
    expect(wireHex("SRV", "1 2 5060 sip.example.com")).toBe(`00 01 00 02 13 c4 ${nameHex("sip.example.com")}`);
  });
  it("TXT is length-prefixed strings, escapes resolved", () => {
    expect(wireHex("TXT", '"ab" "" "\\\\\\"\\255"')).toBe("02 61 62 00 03 5c 22 ff");
    expect(wireHex("TXT", "café")).toBe("05 63 61 66 c3 a9");
  });
  it("CAA is flags, tag length, tag and the value to the end (RFC 8659 §4.1)", () => {
    expect(wireHex("CAA", '128 issue "ca.example.net"')).toBe(`80 05 ${hexOf("issue")} ${hexOf("ca.example.net")}`);
  });
  it("DS: the RFC 4034 §5.4 example", () => {
    // dskey.example.com. 86400 IN DS 60485 5 1 ( 2BB183AF5F22588179A53B0A98631FAD1A292118 )
    expect(wireHex("DS", "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118")).toBe("ec 45 05 01 2b b1 83 af 5f 22 58 81 79 a5 3b 0a 98 63 1f ad 1a 29 21 18");
  });
  it("TLSA and SSHFP: numbers, then the hex as octets", () => {
    expect(wireHex("TLSA", `3 1 1 ${HEX64}`)).toBe(`03 01 01 ${HEX64.match(/../g)!.join(" ")}`);
    expect(wireHex("SSHFP", `1 1 ${"ab".repeat(20)}`)).toBe(`01 01 ${"ab ".repeat(20).trim()}`);
  });
  it("NAPTR: order, preference, three strings and the replacement (RFC 3403 §4.1)", () => {
    expect(wireHex("NAPTR", '100 10 "S" "SIP+D2U" "" _sip._udp.example.com')).toBe(
      `00 64 00 0a 01 53 07 ${hexOf("SIP+D2U")} 00 ${nameHex("_sip._udp.example.com")}`,
    );
  });
  // RFC 9460 appendix D: the test vectors, presentation form and wire form.
  it.each([
    ["D.1 AliasMode", "0 foo.example.com.", `00 00 ${nameHex("foo.example.com")}`],
    ["D.2 figure 3, the simplest ServiceMode", "1 .", "00 01 00"],
    ["D.2 figure 4, a port", "16 foo.example.com. port=53", `00 10 ${nameHex("foo.example.com")} 00 03 00 02 00 35`],
    ["D.2 figure 5, a generic key and value", "1 foo.example.com. key667=hello", `00 01 ${nameHex("foo.example.com")} 02 9b 00 05 68 65 6c 6c 6f`],
    [
      "D.2 figure 6, a generic key and quoted value with a decimal escape",
      '1 foo.example.com. key667="hello\\210qoo"',
      `00 01 ${nameHex("foo.example.com")} 02 9b 00 09 68 65 6c 6c 6f d2 71 6f 6f`,
    ],
    [
      "D.2 figure 7, two quoted IPv6 hints",
      '1 foo.example.com. ipv6hint="2001:db8::1,2001:db8::53:1"',
      `00 01 ${nameHex("foo.example.com")} 00 06 00 20 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 20 01 0d b8 00 00 00 00 00 00 00 00 00 53 00 01`,
    ],
    [
      "D.2 figure 8, an IPv6 hint using the embedded IPv4 syntax",
      "1 example.com. ipv6hint=2001:db8:122:344::192.0.2.33",
      `00 01 ${nameHex("example.com")} 00 06 00 10 20 01 0d b8 01 22 03 44 00 00 00 00 c0 00 02 21`,
    ],
    [
      "D.2 figure 9, SvcParamKey ordering in the presentation format",
      "16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1",
      `00 10 ${nameHex("foo.example.org")} 00 00 00 04 00 01 00 04 00 01 00 09 02 68 32 05 68 33 2d 31 39 00 04 00 04 c0 00 02 01`,
    ],
    [
      "D.2 figure 10, an alpn value with an escaped comma and an escaped backslash",
      '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
      `00 10 ${nameHex("foo.example.org")} 00 01 00 0c 08 66 5c 6f 6f 2c 62 61 72 02 68 32`,
    ],
  ])("SVCB, RFC 9460 %s", (_, content, wire) => {
    expect(wireHex("SVCB", content)).toBe(wire);
  });
});

describe("every type's example has a wire form, and HTTPS is SVCB's", () => {
  it.each(RECORD_TYPES)("%s", (type) => {
    const wire = rdataWire(type, rdataExamples[type]);
    expect(wire.ok && wire.value.length).toBeGreaterThan(0);
  });
  it("HTTPS and SVCB of the same content have the same wire form", () => {
    expect(wireHex("HTTPS", rdataExamples.HTTPS)).toBe(wireHex("SVCB", rdataExamples.HTTPS));
  });
});

function wireOf(type: RecordType, content: string): Uint8Array {
  const wire = rdataWire(type, content);
  if (!wire.ok) throw new Error(wire.error);
  return wire.value;
}

/** A DS digest (RFC 4034 §5.1.4): the hash of the owner name and the DNSKEY RDATA, in wire form. */
async function dsDigest(algorithm: "SHA-1" | "SHA-256", owner: string, dnskey: string): Promise<string> {
  const data = new Uint8Array([...nameWire(owner), ...wireOf("DNSKEY", dnskey)]);
  const digest = new Uint8Array(await crypto.subtle.digest(algorithm, data));
  return [...digest]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}

describe("DNSKEY (RFC 4034 §2), and the DS made of it (RFC 4034 §5)", () => {
  // RFC 4034 §5.4: dskey.example.com.'s DNSKEY, key id 60485, and its DS.
  const RFC4034_KEY = [
    "256 3 5 ( AQOeiiR0GOMYkDshWoSKz9Xz",
    "fwJr1AYtsmx3TGkJaNXVbfi/",
    "2pHm822aJ5iI9BMzNXxeYCmZ",
    "DRD99WYwYqUSdjMmmAphXdvx",
    "egXd/M5+X7OrzKBaMbCVdFLU",
    "Uh6DhweJBjEVv5f2wwjM9Xzc",
    "nOf+EPbtG9DMBmADjFDc2w/r",
    "ljwvFw== )",
  ].join(" ");
  const RFC4034_CANONICAL =
    "256 3 5 AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==";
  it("joins a key split over several tokens, as RFC 4034 §2.2 allows", () => {
    // The parentheses belong to the master file; the key's pieces are separate tokens.
    expect(json("DNSKEY", RFC4034_KEY.replace("( ", "").replace(" )", ""))).toEqual(accepted(RFC4034_CANONICAL));
  });
  it("RFC 4034 §5.4: key tag 60485, and the SHA-1 DS digest of its wire form", async () => {
    expect(keyTag(wireOf("DNSKEY", RFC4034_CANONICAL))).toBe(60485);
    expect(await dsDigest("SHA-1", "dskey.example.com.", RFC4034_CANONICAL)).toBe("2BB183AF5F22588179A53B0A98631FAD1A292118");
  });
  it("RFC 6605 §6.1: the ECDSA P-256 example key, key tag 55648, and its SHA-256 DS", async () => {
    expect(keyTag(wireOf("DNSKEY", rdataExamples.DNSKEY))).toBe(55648);
    expect(await dsDigest("SHA-256", "example.net.", rdataExamples.DNSKEY)).toBe(rdataExamples.CDS.split(" ")[3]);
  });
  it("accepts the protocol mnemonic and BIND's algorithm mnemonics", () => {
    expect(json("DNSKEY", "256 DNSSEC ECDSAP256SHA256 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==")).toEqual(
      accepted("256 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA=="),
    );
  });
  it("refuses protocols other than 3, reserved flag bits, algorithm 0 and keys of the wrong size", () => {
    expect(json("DNSKEY", "257 4 8 AQID")).toEqual(refused("DNSKEY protocol must be 3 (RFC 4034 §2.1.2)"));
    expect(json("DNSKEY", "258 3 8 AQID")).toEqual(
      refused("DNSKEY flags 258 set reserved bits: only 256 (zone key), 128 (revoked) and 1 (secure entry point) are defined (RFC 4034 §2.1.1)"),
    );
    expect(json("DNSKEY", "257 3 0 AQID")).toEqual(refused("DNSKEY algorithm 0 is reserved (RFC 4034 appendix A.1)"));
    expect(json("DNSKEY", "257 3 13 AQID")).toEqual(refused("DNSKEY public key for algorithm 13 must be 64 octets, not 3"));
  });
  it("needs padded base64, as BIND does", () => {
    expect(json("DNSKEY", "257 3 8 AQI")).toEqual(refused("DNSKEY public key must be base64 (A–Z, a–z, 0–9, +, /, padded with =)"));
    expect(json("DNSKEY", "257 3 8 A Q I =")).toEqual(accepted("257 3 8 AQI="));
    expect(json("DNSKEY", "257 3 8")).toEqual(refused("DNSKEY needs flags, protocol, algorithm and public key (e.g. " + rdataExamples.DNSKEY + ")"));
  });
});

describe("CDS and CDNSKEY (RFC 7344), with the deletion records of RFC 8078 §4", () => {
  it("take the DS and DNSKEY formats", () => {
    expect(json("CDS", rdataExamples.CDS)).toEqual(accepted(rdataExamples.CDS));
    expect(json("CDNSKEY", rdataExamples.CDNSKEY)).toEqual(accepted(rdataExamples.CDNSKEY));
    expect(wireHex("CDS", rdataExamples.CDS)).toBe(wireHex("DS", rdataExamples.CDS));
  });
  it("accept exactly the deletion records, and refuse the reserved values otherwise", () => {
    expect(json("CDS", "0 0 0 00")).toEqual(accepted("0 0 0 00"));
    expect(json("CDNSKEY", "0 3 0 AA==")).toEqual(accepted("0 3 0 AA=="));
    expect(json("CDS", "1 0 0 00")).toEqual(
      refused('CDS digest type 0 is reserved, except in the record "0 0 0 00" that asks for the DS to be removed (RFC 8078 §4)'),
    );
    expect(json("CDNSKEY", "0 3 0 AQ==")).toEqual(
      refused('CDNSKEY algorithm 0 is reserved, except in the record "0 3 0 AA==" that asks for the DS to be removed (RFC 8078 §4)'),
    );
    expect(json("DS", "0 0 0 00")).toEqual(refused("DS digest type 0 is reserved (RFC 4034 §5.1.3)"));
  });
});

describe("DNSSEC mnemonics are BIND 9.18's (lib/dns/rcode.c), so an import takes nothing BIND refuses", () => {
  it("reads BIND's algorithm and digest type names, case-insensitive", () => {
    expect(json("DS", `1 nsec3rsasha1 SHA-256 ${HEX64}`)).toEqual(accepted(`1 7 2 ${HEX64.toUpperCase()}`));
    expect(json("DS", `1 ECDSA256 sha256 ${HEX64}`)).toEqual(accepted(`1 13 2 ${HEX64.toUpperCase()}`));
  });
  it("refuses the IANA registry's spellings BIND does not read", () => {
    expect(json("DS", `1 RSASHA1-NSEC3-SHA1 2 ${HEX64}`)).toEqual(refused("DS algorithm must be an integer 0–255"));
    expect(json("DS", `1 ECC-GOST 2 ${HEX64}`)).toEqual(refused("DS algorithm must be an integer 0–255"));
  });
});

describe("HINFO (RFC 1035 §3.3.2)", () => {
  it("takes two strings, quoted or bare, and writes them quoted", () => {
    expect(json("HINFO", '"VAX-11/780" UNIX')).toEqual(accepted('"VAX-11/780" "UNIX"'));
    expect(json("HINFO", '"RFC8482" ""')).toEqual(accepted('"RFC8482" ""')); // RFC 8482 §4.2
    expect(wireHex("HINFO", '"RFC8482" ""')).toBe(`07 ${hexOf("RFC8482")} 00`);
  });
  it("needs both strings", () => {
    expect(json("HINFO", '"cpu"')).toEqual(refused(`HINFO needs a CPU and an operating system string (e.g. ${rdataExamples.HINFO})`));
  });
});

describe("RP (RFC 1183 §2.2)", () => {
  it("RFC 1183's example: a mailbox and a TXT name, lower-cased", () => {
    expect(json("RP", "louie.trantor.umd.edu. LAM1.people.umd.edu.")).toEqual(accepted("louie.trantor.umd.edu. lam1.people.umd.edu."));
    expect(wireHex("RP", "louie.trantor.umd.edu. LAM1.people.umd.edu.")).toBe(`${nameHex("louie.trantor.umd.edu")} ${nameHex("lam1.people.umd.edu")}`);
  });
  it('takes "." for none, and relative names in a master file', () => {
    expect(json("RP", ". .")).toEqual(accepted(". ."));
    expect(zone("RP", "admin contacts")).toEqual(accepted("admin.example.com. contacts.example.com."));
    expect(rdataNames("RP", "admin.example.com. contacts.example.com.")).toEqual(["contacts.example.com"]);
  });
  it("lets only the mailbox's first label hold an underscore (BIND's check-names)", () => {
    expect(json("RP", "first_last.example.com. .")).toEqual(accepted("first_last.example.com. ."));
    expect(json("RP", "a.b_c.example.com. .")).toEqual(
      refused('RP mailbox "a.b_c.example.com.": only the mailbox\'s first label may hold "_"; label "b_c" is part of a host name'),
    );
  });
});

describe("URI (RFC 7553)", () => {
  it("RFC 7553 §4.5's example, and the URI on the wire without a length octet", () => {
    expect(json("URI", '10 1 "ftp://ftp1.example.com/public"')).toEqual(accepted('10 1 "ftp://ftp1.example.com/public"'));
    expect(wireHex("URI", '10 1 "ftp://x/"')).toBe(`00 0a 00 01 ${hexOf("ftp://x/")}`);
  });
  it("needs the target quoted (as BIND does), and a URI there", () => {
    expect(json("URI", "10 1 ftp://x/")).toEqual(refused('URI target must be a quoted string, e.g. "https://www.example.com/" (RFC 7553 §4.4)'));
    expect(json("URI", '10 1 ""')).toEqual(
      refused("URI target must be a URI with a scheme, such as https:// or ftp://, and no spaces (RFC 7553 §4.4, RFC 3986)"),
    );
    expect(json("URI", '10 1 "no scheme"')).toEqual(
      refused("URI target must be a URI with a scheme, such as https:// or ftp://, and no spaces (RFC 7553 §4.4, RFC 3986)"),
    );
  });
  it("holds a URI longer than 255 octets (RFC 7553 §4.4)", () => {
    const long = `https://example.com/${"a".repeat(300)}`;
    expect(json("URI", `1 1 "${long}"`)).toEqual(accepted(`1 1 "${long}"`));
  });
});

describe("SPF (RFC 7208 §3.1)", () => {
  it("is TXT's format under its own type", () => {
    expect(json("SPF", "v=spf1 +mx a:colo.example.com/28 -all")).toEqual(accepted('"v=spf1 +mx a:colo.example.com/28 -all"'));
    expect(wireHex("SPF", '"v=spf1 -all"')).toBe(wireHex("TXT", '"v=spf1 -all"'));
    expect(json("SPF", '"a" "b"')).toEqual(accepted('"a" "b"'));
  });
});

describe("EUI48 and EUI64 (RFC 7043)", () => {
  it("RFC 7043 §3.2 and §4.2's examples, written lower case", () => {
    expect(json("EUI48", "00-00-5E-00-53-2A")).toEqual(accepted("00-00-5e-00-53-2a"));
    expect(wireHex("EUI48", "00-00-5e-00-53-2a")).toBe("00 00 5e 00 53 2a");
    expect(json("EUI64", "00-00-5e-ef-10-00-00-2a")).toEqual(accepted("00-00-5e-ef-10-00-00-2a"));
    expect(wireHex("EUI64", "00-00-5e-ef-10-00-00-2a")).toBe("00 00 5e ef 10 00 00 2a");
  });
  it("need two hex digits per octet and the right count", () => {
    expect(json("EUI48", "0-0-5e-0-53-2a")).toEqual(refused("EUI48 must be 6 two-digit hex groups joined by hyphens, e.g. 00-00-5e-00-53-2a (RFC 7043 §3.2)"));
    expect(json("EUI64", "00-00-5e-00-53-2a")).toEqual(
      refused("EUI64 must be 8 two-digit hex groups joined by hyphens, e.g. 00-00-5e-ef-10-00-00-2a (RFC 7043 §4.2)"),
    );
    expect(json("EUI48", "00:00:5e:00:53:2a").ok).toBe(false);
  });
});

describe("LOC (RFC 1876), read and written as BIND does", () => {
  // RFC 1876 §4's examples, and what named-checkzone -D prints for each.
  it.each([
    ["42 21 54 N 71 06 18 W -24m 30m", "42 21 54.000 N 71 6 18.000 W -24.00m 30m 10000m 10m"],
    ["42 21 43.952 N 71 5 6.344 W -24m 1m 200m", "42 21 43.952 N 71 5 6.344 W -24.00m 1m 200m 10m"],
    ["52 14 05 N 00 08 50 E 10m", "52 14 5.000 N 0 8 50.000 E 10.00m 1m 10000m 10m"],
    ["32 7 19 S 116 2 25 E 10m", "32 7 19.000 S 116 2 25.000 E 10.00m 1m 10000m 10m"],
    ["42 21 28.764 N 71 00 51.617 W -44m 2000m", "42 21 28.764 N 71 0 51.617 W -44.00m 2000m 10000m 10m"],
  ])("RFC 1876: %s", (input, canonical) => {
    expect(json("LOC", input)).toEqual(accepted(canonical));
    expect(json("LOC", canonical)).toEqual(accepted(canonical));
  });
  it("keeps sizes as the power of ten they are stored as, and reaches every limit", () => {
    expect(json("LOC", "90 S 180 W 42849672.95m 90000000m 0.15m 0m")).toEqual(accepted("90 0 0.000 S 180 0 0.000 W 42849672.95m 90000000m 0.10m 0.00m"));
    expect(json("LOC", "0 N 0 E -100000m 1.5 .05 5.")).toEqual(accepted("0 0 0.000 N 0 0 0.000 E -100000.00m 1m 0.05m 5m"));
    expect(json("LOC", "1 2 N 3 4 E 0")).toEqual(accepted("1 2 0.000 N 3 4 0.000 E 0.00m 1m 10000m 10m"));
  });
  it("writes the RFC 1876 §2 wire form: version, size, precisions, then three 32-bit values", () => {
    // 42°21'54"N = 2^31 + 152514000 thousandths; 71°06'18"W = 2^31 - 255978000; -24m = 10^7 - 2400 cm.
    expect(wireHex("LOC", "42 21 54 N 71 06 18 W -24m 30m")).toBe("00 33 16 13 89 17 2d d0 70 be 15 f0 00 98 8d 20");
  });
  it.each([
    ["91 N 0 E 0", "LOC latitude degrees must be an integer 0–90"],
    ["90 1 N 0 E 0", "LOC latitude cannot be beyond 90 degrees"],
    ["1 60 N 0 E 0", "LOC latitude minutes must be an integer 0–59"],
    ["1 2 60 N 0 E 0", "LOC latitude seconds must be 0–59.999, at most three decimals (RFC 1876 §3)"],
    ["1 2 3.1234 N 0 E 0", "LOC latitude seconds must be 0–59.999, at most three decimals (RFC 1876 §3)"],
    ["1 n 0 E 0", "LOC latitude minutes must be an integer 0–59"],
    ["1.5 N 0 E 0", "LOC latitude degrees must be an integer 0–90"],
    ["1 N 181 E 0", "LOC longitude degrees must be an integer 0–180"],
    ["1 N 0 E -100001m", "LOC altitude must be metres from -100000.00 to 42849672.95, at most two decimals, e.g. -24m or 10.5m (RFC 1876 §3)"],
    ["1 N 0 E 42849673m", "LOC altitude must be metres from -100000.00 to 42849672.95, at most two decimals, e.g. -24m or 10.5m (RFC 1876 §3)"],
    ["1 N 0 E 5mm", "LOC altitude must be metres from -100000.00 to 42849672.95, at most two decimals, e.g. -24m or 10.5m (RFC 1876 §3)"],
    ["1 N 0 E 0 90000001m", "LOC size must be metres from 0 to 90000000, at most two decimals (RFC 1876 §3)"],
    ["1 N 0 E 0 1.123m", "LOC size must be metres from 0 to 90000000, at most two decimals (RFC 1876 §3)"],
    ["1 N 0 E 0m 1 2 3 4", 'LOC has more than latitude, longitude, altitude and optional size and precisions: unexpected "4"'],
  ])("refuses %s, as BIND does", (input, error) => {
    expect(json("LOC", input)).toEqual(refused(error));
  });
});

describe("CERT (RFC 4398 §2)", () => {
  it("reads mnemonics or numbers and writes type and algorithm as BIND does", () => {
    expect(json("CERT", "1 65535 8 AQID")).toEqual(accepted("PKIX 65535 RSASHA256 AQID"));
    expect(json("CERT", "pgp 0 0 AQID AQ==")).toEqual(accepted("PGP 0 0 AQIDAQ=="));
    expect(json("CERT", "300 1 200 AQID")).toEqual(accepted("300 1 200 AQID"));
    expect(wireHex("CERT", "PGP 0 0 AQID")).toBe("00 03 00 00 00 01 02 03");
  });
  it("refuses the reserved types 0 and 65535 and a missing certificate", () => {
    expect(json("CERT", "0 1 8 AQID")).toEqual(refused("CERT type 0 is reserved (RFC 4398 §2.1)"));
    expect(json("CERT", "65535 1 8 AQID")).toEqual(refused("CERT type 65535 is reserved (RFC 4398 §2.1)"));
    expect(json("CERT", "PKIX 1 8")).toEqual(
      refused(`CERT needs certificate type, key tag, algorithm and the certificate in base64 (e.g. ${rdataExamples.CERT})`),
    );
  });
});

describe("OPENPGPKEY (RFC 7929 §2)", () => {
  it("joins the key's base64 pieces and writes the key's octets on the wire", () => {
    const key = rdataExamples.OPENPGPKEY;
    expect(json("OPENPGPKEY", `${key.slice(0, 60)} ${key.slice(60)}`)).toEqual(accepted(key));
    expect(wireHex("OPENPGPKEY", "AQIDBA==")).toBe("01 02 03 04");
  });
  it("refuses what is not base64", () => {
    expect(json("OPENPGPKEY", "not*base64")).toEqual(refused("OPENPGPKEY key must be base64 (A–Z, a–z, 0–9, +, /, padded with =)"));
  });
});

describe("SMIMEA (RFC 8162 §2)", () => {
  it("is TLSA's format", () => {
    expect(json("SMIMEA", `3 0 1 ${HEX64}`)).toEqual(accepted(`3 0 1 ${HEX64.toUpperCase()}`));
    expect(wireHex("SMIMEA", `3 0 1 ${HEX64}`)).toBe(wireHex("TLSA", `3 0 1 ${HEX64}`));
    expect(json("SMIMEA", `4 0 1 ${HEX64}`)).toEqual(refused("SMIMEA certificate usage must be an integer 0–3"));
  });
});

describe("ZONEMD (RFC 8976)", () => {
  it("RFC 8976 appendix A.1's record, the digest joined and upper-cased", () => {
    const rfc = "2018031900 1 1 c68090d90a7aed716bc459f9340e3d7c 1370d4d24b7e2fc3a1ddc0b9a87153b9 a9713b3c9ae5cc27777f98b8e730044c";
    expect(json("ZONEMD", rfc)).toEqual(accepted(rdataExamples.ZONEMD));
    expect(wireHex("ZONEMD", rfc).startsWith("78 48 b9 1c 01 01 c6 80")).toBe(true);
  });
  it("checks the digest length (RFC 8976 §2.2.4) and the reserved values", () => {
    expect(json("ZONEMD", `1 1 1 ${"ab".repeat(47)}`)).toEqual(refused("ZONEMD digest for hash algorithm 1 must be 48 octets, not 47"));
    expect(json("ZONEMD", `1 1 240 ${"ab".repeat(11)}`)).toEqual(refused("ZONEMD digest must be at least 12 octets, not 11 (RFC 8976 §2.2.4)"));
    expect(json("ZONEMD", `1 1 240 ${"ab".repeat(12)}`)).toEqual(accepted(`1 1 240 ${"AB".repeat(12)}`));
    expect(json("ZONEMD", `1 0 1 ${"ab".repeat(48)}`)).toEqual(refused("ZONEMD scheme 0 is reserved (RFC 8976 §5.2)"));
    expect(json("ZONEMD", `1 1 0 ${"ab".repeat(48)}`)).toEqual(refused("ZONEMD hash algorithm 0 is reserved (RFC 8976 §5.3)"));
  });
});

const hexWire = (type: RecordType, content: string) => [...wireOf(type, content)].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("types by number and RDATA in generic form (RFC 3597)", () => {
  it("names a known type by its number, and keeps any number neither this service nor BIND knows", () => {
    expect(recordTypeOf("TYPE1")).toEqual({ ok: true, type: "A" });
    expect(recordTypeOf("type99")).toEqual({ ok: true, type: "SPF" });
    expect(recordTypeOf("TYPE731")).toEqual({ ok: true, type: "TYPE731" });
    expect(recordTypeOf("TYPE65280")).toEqual({ ok: true, type: "TYPE65280" });
    expect(recordTypeOf("TYPE65535")).toEqual({ ok: true, type: "TYPE65535" });
  });
  it("RFC 3597 §5's examples: unknown types in generic form, kept octet for octet", () => {
    expect(canonicalRdata("TYPE731", "\\# 6 abcd ef 01 23 45", "example")).toEqual(accepted("\\# 6 ABCDEF012345"));
    expect(canonicalRdata("TYPE62347", "\\# 0", "example")).toEqual(accepted("\\# 0"));
    expect(rdataWire("TYPE731", "\\# 6 ABCDEF012345")).toEqual({ ok: true, value: Uint8Array.from([0xab, 0xcd, 0xef, 0x01, 0x23, 0x45]) });
  });
  it("RFC 3597 §5's example of a known type in generic form reads as that type, as BIND does", () => {
    expect(zone("A", "\\# 4 0A000001")).toEqual(accepted("10.0.0.1"));
    expect(json("MX", `\\# 20 000a 04${"6d61696c"} 07${"6578616d706c65"} 03${"636f6d"} 00`)).toEqual(accepted("10 mail.example.com."));
  });
  it("checks a known type's octets as strictly as its presentation form", () => {
    expect(json("A", "\\# 3 0A0000")).toEqual(refused("generic A RDATA: the RDATA ends before its last field"));
    expect(json("A", "\\# 5 0A00000101")).toEqual(refused("generic A RDATA has 1 octets more than A holds"));
    expect(json("TXT", "\\# 0")).toEqual(refused(`generic TXT RDATA: TXT content is empty; it needs one or more strings (e.g. ${rdataExamples.TXT})`));
    expect(json("CNAME", "\\# 5 03612e6200")).toEqual(
      refused("generic CNAME RDATA: a name in the RDATA has characters other than letters, digits, hyphens and underscores"),
    );
    expect(json("CNAME", "\\# 2 c000")).toEqual(refused("generic CNAME RDATA: a name in the RDATA is compressed or has a label over 63 octets"));
    expect(json("CAA", `\\# 7 0003${"626164"}${"7878"}`)).toEqual(
      refused('generic CAA RDATA: CAA tag "bad" is not one of issue, issuewild, iodef, issuemail, issuevmc, contactemail, contactphone'),
    );
    expect(json("SVCB", "\\# 16 0001 00 0003 0002 01bb 0001 0003 026832")).toEqual(
      refused("generic SVCB RDATA: SVCB parameters are not in strictly increasing key order (RFC 9460 §2.2)"),
    );
  });
  it("checks the length against the octets given", () => {
    expect(canonicalRdata("TYPE731", "\\# 2 abcdef", null)).toEqual(refused("generic TYPE731 RDATA says 2 octets (4 hex digits) but gives 6 hex digits"));
    expect(canonicalRdata("TYPE731", "\\# x", null).ok).toBe(false);
    expect(canonicalRdata("TYPE731", "abcd", null)).toEqual(
      refused("TYPE731 is a type this service knows only by number: write its RDATA as \\# length hex (RFC 3597 §5), e.g. \\# 4 0A000001"),
    );
  });
  it("reads every type's example back from its wire form", () => {
    for (const type of RECORD_TYPES) {
      const wire = wireOf(type, rdataExamples[type]);
      expect(json(type, `\\# ${wire.length} ${hexWire(type, rdataExamples[type])}`), type).toEqual(accepted(rdataExamples[type]));
    }
  });
  it("refuses meta-types, the types BIND knows and this service does not, and unknown names", () => {
    for (const meta of ["TYPE0", "TYPE41", "TYPE128", "TYPE255", "ANY", "AXFR", "OPT", "TSIG"]) {
      expect(recordTypeOf(meta), meta).toMatchObject({ ok: false, kind: "meta", error: expect.stringContaining("is a meta-type (RFC 6895 §3.1)") });
    }
    expect(recordTypeOf("KEY")).toMatchObject({ ok: false, kind: "refused", error: expect.stringMatching(/^record type KEY \(25\) is not supported/) });
    expect(recordTypeOf("TYPE22")).toMatchObject({ ok: false, kind: "refused", error: expect.stringMatching(/^record type NSAP \(22\) is not supported/) });
    expect(recordTypeOf("BOGUS")).toMatchObject({
      ok: false,
      kind: "refused",
      error: expect.stringMatching(/^"BOGUS" is not a supported record type; supported: A, AAAA, /),
    });
    expect(recordTypeOf("TYPE65536")).toMatchObject({ ok: false, kind: "refused" });
  });
  it("names the zone's SOA and the DNSSEC signer's types apart", () => {
    expect(recordTypeOf("soa")).toEqual({ ok: false, kind: "soa" });
    expect(recordTypeOf("TYPE6")).toEqual({ ok: false, kind: "soa" });
    expect(recordTypeOf("TYPE46")).toMatchObject({ ok: false, kind: "signer", type: "RRSIG" });
    for (const type of ["RRSIG", "NSEC", "NSEC3", "NSEC3PARAM"]) expect(recordTypeOf(type)).toMatchObject({ ok: false, kind: "signer", type });
  });
});

describe("an address is a bare token, as BIND reads it", () => {
  it("refuses a quoted A or AAAA address", () => {
    expect(json("A", '"192.0.2.1"')).toEqual(refused("A content must be an address, not a quoted string"));
    expect(json("AAAA", '"2001:db8::1"')).toEqual(refused("AAAA content must be an address, not a quoted string"));
  });
});

describe("CERT with numbers (certWithNumbers: the form PowerDNS 4.7 parses)", () => {
  it("turns the type and algorithm mnemonics of the canonical form into their numbers, and leaves numbers as they are", () => {
    const pgp = canonicalRdata("CERT", "PGP 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=", null);
    expect(pgp.ok && certWithNumbers(pgp.content)).toBe("3 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=");
    const pkix = canonicalRdata("CERT", "1 12345 13 mDMEXEcE6RYJ", null);
    expect(pkix.ok && pkix.content).toBe("PKIX 12345 ECDSAP256SHA256 mDMEXEcE6RYJ");
    expect(pkix.ok && certWithNumbers(pkix.content)).toBe("1 12345 13 mDMEXEcE6RYJ");
    expect(certWithNumbers("100 7 200 AAAA")).toBe("100 7 200 AAAA");
  });
});
