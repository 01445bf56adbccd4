// A new token's restrictions (docs/accounts.md) as its body gives them, normalised as names
// and addresses are everywhere in the API (lowercase A-labels, canonical CIDRs), each bad
// entry named: the body schemas of tokens and TSIG keys run these, so that one 422 lists
// every problem of the body. What the restrictions then allow is token-rights.ts's.
import type { z } from "@hono/zod-openapi";
import { normalizeName } from "../dns/name";
import { RECORD_TYPES, recordTypeOf } from "../dns/rdata";
import { parseCidr } from "./token-rights";
import { normalizeHostName } from "../registry/hosts";

type Normalized = { ok: true; value: string } | { ok: false; error: string };

const fromName = (result: ReturnType<typeof normalizeName>): Normalized => (result.ok ? { ok: true, value: result.name } : result);

/** A zone name, as POST /v1/zones takes it (underscores allowed, RFC 8552). */
export const zoneName = (input: string) => fromName(normalizeName(input, { underscore: true }));

/** A domain name, as POST /v1/domains takes it (LDH, at least two labels). */
export const domainName = (input: string) => fromName(normalizeHostName(input));

/** An owner-name pattern: `@`, or labels relative to the zone, the first of which may be `*`. */
export function ownerPattern(input: string): Normalized {
  if (input === "@") return { ok: true, value: "@" };
  if (input.endsWith(".")) return { ok: false, error: "is absolute; write it relative to the zone (`www`, `_acme-challenge`, `@` for the apex)" };
  return fromName(normalizeName(input, { underscore: true, wildcard: true }));
}

/** A record type mnemonic, upper case. */
export function recordType(input: string): Normalized {
  // As a record stores its type: a mnemonic in upper case, TYPE1 read as A, a type known
  // only by number as TYPEnnn (RFC 3597 §5), so a rule matches the records it names.
  const lookup = recordTypeOf(input);
  if (lookup.ok) return { ok: true, value: lookup.type };
  switch (lookup.kind) {
    case "soa":
      return { ok: false, error: "is the zone's own SOA, changed through PATCH /v1/zones/{zone}, never a record" };
    case "signer":
      return { ok: false, error: `is a DNSSEC signer's type: this service signs zones itself and keeps no ${lookup.type} records` };
    case "meta":
      return { ok: false, error: "is a meta-type (RFC 6895 §3.1), never data in a zone" };
    default:
      return { ok: false, error: `is not a supported record type; supported: ${RECORD_TYPES.join(", ")}, and TYPEnnn for a type known only by its number` };
  }
}

/** A CIDR in canonical text (`2001:DB8:0::/32` → `2001:db8::/32`, one address → /32 or /128). */
export function cidr(input: string): Normalized {
  const parsed = parseCidr(input);
  return parsed
    ? { ok: true, value: parsed.text }
    : { ok: false, error: "is not a CIDR (`192.0.2.0/24`, `2001:db8::/32`, or one address) with its host bits zero" };
}

/** A zod transform: one value normalised, or an issue naming it. */
export function normalizedOne(normalize: (input: string) => Normalized) {
  return (input: string, ctx: z.core.$RefinementCtx<string>): string => {
    const result = normalize(input);
    if (result.ok) return result.value;
    ctx.addIssue({ code: "custom", message: `"${input}" ${result.error}` });
    return input;
  };
}

/** A zod transform: each entry normalised, or an issue naming it; a repeat (once normalised) refused. */
export function normalizedEach(normalize: (input: string) => Normalized) {
  return (inputs: string[], ctx: z.core.$RefinementCtx<string[]>): string[] => {
    const seen = new Map<string, number>();
    inputs.forEach((input, i) => {
      const result = normalize(input);
      if (!result.ok) ctx.addIssue({ code: "custom", path: [i], message: `"${input}" ${result.error}` });
      else if (seen.has(result.value)) ctx.addIssue({ code: "custom", path: [i], message: `repeats [${seen.get(result.value)}] (${result.value})` });
      else seen.set(result.value, i);
    });
    return [...seen.keys()];
  };
}
