// Types whose RDATA is mostly a domain name: CNAME, NS, PTR, DNAME (RFC 1035 §3.3,
// RFC 6672), MX (RFC 1035 §3.3.9, RFC 7505) and SRV (RFC 2782).
import { countProblem, nameField, uintField, type RdataParser, type TargetRules } from "./fields";
import { content, fail } from "../result";
import type { RecordType } from "./types";

// MX, NS and SRV point at hosts, whose names are LDH (RFC 2181 §10.3, RFC 2782);
// an alias or a PTR may point at any name, service labels (`_dkim`) included.
const HOST: TargetRules = {};
const ANY_NAME: TargetRules = { underscore: true };

function singleName(type: RecordType, what: string, rules: TargetRules): RdataParser {
  return (tokens, origin) => {
    const problem = countProblem(type, tokens, 1);
    if (problem) return fail(problem);
    const name = nameField(tokens[0], origin, what, rules);
    return name.ok ? content(name.value) : name;
  };
}

export const canonicalCname = singleName("CNAME", "CNAME target", ANY_NAME);
export const canonicalNs = singleName("NS", "NS host", HOST);
export const canonicalPtr = singleName("PTR", "PTR target", ANY_NAME);
export const canonicalDname = singleName("DNAME", "DNAME target", ANY_NAME);

export const canonicalMx: RdataParser = (tokens, origin) => {
  const problem = countProblem("MX", tokens, 2);
  if (problem) return fail(problem);
  const preference = uintField(tokens[0], 65535, "MX preference");
  if (!preference.ok) return preference;
  const exchange = nameField(tokens[1], origin, "MX exchange", { ...HOST, root: true });
  if (!exchange.ok) return exchange;
  if (exchange.value === "." && preference.value !== 0) {
    return fail('a null MX (exchange ".") must have preference 0 (RFC 7505 §3)');
  }
  return content(`${preference.value} ${exchange.value}`);
};

export const canonicalSrv: RdataParser = (tokens, origin) => {
  const problem = countProblem("SRV", tokens, 4);
  if (problem) return fail(problem);
  const priority = uintField(tokens[0], 65535, "SRV priority");
  if (!priority.ok) return priority;
  const weight = uintField(tokens[1], 65535, "SRV weight");
  if (!weight.ok) return weight;
  const port = uintField(tokens[2], 65535, "SRV port");
  if (!port.ok) return port;
  // "." says the service is decidedly not available at this domain (RFC 2782).
  const target = nameField(tokens[3], origin, "SRV target", { ...HOST, root: true });
  if (!target.ok) return target;
  return content(`${priority.value} ${weight.value} ${port.value} ${target.value}`);
};
