// One valid, canonical content per type (for API docs, tests and error messages),
// and a short description of each type's fields.
import type { RecordType } from "./types";

export const rdataExamples: Record<RecordType, string> = {
  A: "192.0.2.10",
  AAAA: "2001:db8::10",
  CNAME: "www.example.com.",
  MX: "10 mail.example.com.",
  NS: "ns1.example.net.",
  TXT: '"v=spf1 -all"',
  SRV: "10 5 5060 sip.example.com.",
  CAA: '0 issue "letsencrypt.org"',
  PTR: "host.example.com.",
  DS: "12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D",
  TLSA: "3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6",
  SSHFP: "4 2 123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789",
  NAPTR: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  SVCB: '1 svc.example.com. alpn="h2,h3" port=8443',
  HTTPS: '1 . alpn="h3,h2" ipv4hint=192.0.2.10 ipv6hint=2001:db8::10',
  DNAME: "example.net.",
};

export const rdataShapes: Record<RecordType, string> = {
  A: "an IPv4 address",
  AAAA: "an IPv6 address",
  CNAME: "the canonical name",
  MX: "a preference and a mail server name",
  NS: "a name server's host name",
  TXT: "one or more strings",
  SRV: "priority, weight, port and target",
  CAA: "flags, a tag and a value",
  PTR: "a domain name",
  DS: "key tag, algorithm, digest type and digest",
  TLSA: "certificate usage, selector, matching type and association data",
  SSHFP: "algorithm, fingerprint type and fingerprint",
  NAPTR: "order, preference, flags, services, regexp and replacement",
  SVCB: "a priority, a target name and optional key=value parameters",
  HTTPS: "a priority, a target name and optional key=value parameters",
  DNAME: "the target domain name",
};
