// A (RFC 1035 §3.4.1) and AAAA (RFC 3596 §2.2): one address, written canonically
// (IPv4 without leading zeros, IPv6 compressed per RFC 5952).
import { parseIPv4, parseIPv6 } from "../ip";
import { countProblem, type RdataParser } from "./fields";
import { content, fail, show } from "../result";

export const canonicalA: RdataParser = (tokens) => {
  const problem = countProblem("A", tokens, 1);
  if (problem) return fail(problem);
  const raw = tokens[0]!.raw;
  const ip = parseIPv4(raw);
  if (ip) return content(ip.text);
  if (parseIPv6(raw)) return fail(`A needs an IPv4 address; ${show(raw)} is IPv6, use an AAAA record`);
  return fail(`A content ${show(raw)} is not an IPv4 address (e.g. 192.0.2.10; no leading zeros)`);
};

export const canonicalAaaa: RdataParser = (tokens) => {
  const problem = countProblem("AAAA", tokens, 1);
  if (problem) return fail(problem);
  const raw = tokens[0]!.raw;
  const ip = parseIPv6(raw);
  if (ip) return content(ip.text);
  if (parseIPv4(raw)) return fail(`AAAA needs an IPv6 address; ${show(raw)} is IPv4, use an A record`);
  return fail(`AAAA content ${show(raw)} is not an IPv6 address (e.g. 2001:db8::10)`);
};
