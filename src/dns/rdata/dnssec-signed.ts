// What a DNSSEC signer adds to a zone: RRSIG (RFC 4034 §3), NSEC (§4), NSEC3 and
// NSEC3PARAM (RFC 5155 §3, §4). This service signs zones itself (docs/dnssec.md), so an
// import drops these records, with a warning. They are still read as BIND reads them
// (lib/dns/rdata/generic/*): a file BIND refuses for a broken signature is refused here
// too, not made acceptable by dropping the line.
import { fail, ok, type Check } from "../result";
import { dnssecAlgorithmField } from "./dnssec-algorithm";
import { base64Field, hexField, nameField, uintField } from "./fields";
import { genericOctets, genericTypeCode, isGenericRdata } from "./generic";
import type { Token } from "./tokens";

const SHAPES: Record<string, { min: number; shape: string }> = {
  RRSIG: { min: 9, shape: "type covered, algorithm, labels, original TTL, expiration, inception, key tag, signer and signature" },
  NSEC: { min: 1, shape: "the next owner name and the types at this name" },
  NSEC3: { min: 5, shape: "hash algorithm, flags, iterations, salt, next hashed owner and the types" },
  NSEC3PARAM: { min: 4, shape: "hash algorithm, flags, iterations and salt" },
};

/** A type mnemonic BIND knows, or TYPEnnn (RFC 3597 §5): what type bitmaps and RRSIG's covered type list. */
function typeField(token: Token, known: (upper: string) => boolean, what: string): Check<null> {
  const upper = token.raw.toUpperCase();
  if (!token.quoted && (known(upper) || genericTypeCode(upper) !== null)) return ok(null);
  return fail(`${what} ${JSON.stringify(token.raw.slice(0, 40))} is not a record type`);
}

/** RRSIG times: YYYYMMDDHHmmSS (RFC 4034 §3.2), or seconds since 1970 as up to 10 digits, as BIND reads them. */
function timeField(token: Token | undefined, what: string): Check<null> {
  const raw = token && !token.quoted ? token.raw : "";
  if (/^[0-9]{1,10}$/.test(raw) && Number(raw) <= 4294967295) return ok(null);
  const date = /^([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})([0-9]{2})$/.exec(raw);
  if (date) {
    const [year, month, day, hour, minute, second] = date.slice(1).map(Number) as [number, number, number, number, number, number];
    const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    if (year >= 1970 && time.getUTCMonth() === month - 1 && time.getUTCDate() === day && hour < 24 && minute < 60 && second < 60) return ok(null);
  }
  return fail(`RRSIG ${what} must be YYYYMMDDHHmmSS or seconds since 1970 (RFC 4034 §3.2)`);
}

function saltField(token: Token | undefined, type: string): Check<null> {
  if (token && !token.quoted && token.raw === "-") return ok(null);
  const salt = hexField(token ? [token] : [], `${type} salt`);
  if (!salt.ok) return salt;
  return salt.value.length <= 510 ? ok(null) : fail(`${type} salt is longer than 255 octets`);
}

/** Base32hex without padding (RFC 4648 §7, RFC 5155 §3.3): the octets it decodes to, or null. */
export function base32hexOctets(text: string): number | null {
  if (!/^[0-9a-vA-V]+$/.test(text) || ![0, 2, 4, 5, 7].includes(text.length % 8)) return null;
  return Math.floor((text.length * 5) / 8);
}

/**
 * Why tokens cannot be the RDATA of the signer's `type` (BIND would refuse the line), or
 * null when BIND would read it. `known` says whether a type mnemonic is one BIND knows.
 */
export function signerRdataProblem(type: string, tokens: Token[], origin: string | null, known: (upper: string) => boolean): string | null {
  // Generic RDATA (RFC 3597 §5: `\# length hex`, as a type written TYPE46 usually is):
  // the record is left out all the same, so its octets need only be well-formed.
  if (isGenericRdata(tokens)) {
    const octets = genericOctets(tokens, type);
    return octets.ok ? null : octets.error;
  }
  const shape = SHAPES[type]!;
  if (tokens.length < shape.min) return `${type} needs ${shape.shape}`;
  const checks: Check<unknown>[] = [];
  switch (type) {
    case "RRSIG":
      checks.push(
        /^[0-9]{1,5}$/.test(tokens[0]!.raw) && Number(tokens[0]!.raw) <= 65535 ? ok(null) : typeField(tokens[0]!, known, "RRSIG type covered"),
        dnssecAlgorithmField(tokens[1], "RRSIG algorithm"),
        uintField(tokens[2], 255, "RRSIG labels"),
        uintField(tokens[3], 4294967295, "RRSIG original TTL"),
        timeField(tokens[4], "expiration"),
        timeField(tokens[5], "inception"),
        uintField(tokens[6], 65535, "RRSIG key tag"),
        nameField(tokens[7], origin, "RRSIG signer", { root: true, underscore: true }),
        base64Field(tokens.slice(8), "RRSIG signature"),
      );
      break;
    case "NSEC":
      checks.push(nameField(tokens[0], origin, "NSEC next name", { root: true, underscore: true, wildcard: true }));
      for (const token of tokens.slice(1)) checks.push(typeField(token, known, "NSEC type"));
      break;
    case "NSEC3": {
      const next = tokens[4]!;
      const octets = next.quoted ? null : base32hexOctets(next.raw);
      checks.push(
        uintField(tokens[0], 255, "NSEC3 hash algorithm"),
        uintField(tokens[1], 255, "NSEC3 flags"),
        uintField(tokens[2], 65535, "NSEC3 iterations"),
        saltField(tokens[3], "NSEC3"),
        octets !== null && (tokens[0]!.raw !== "1" || octets === 20)
          ? ok(null)
          : fail("NSEC3 next hashed owner must be base32hex without padding, 20 octets for SHA-1 (RFC 5155 §3.3)"),
      );
      for (const token of tokens.slice(5)) checks.push(typeField(token, known, "NSEC3 type"));
      break;
    }
    case "NSEC3PARAM":
      if (tokens.length > 4) return `NSEC3PARAM has more than ${shape.shape}`;
      checks.push(
        uintField(tokens[0], 255, "NSEC3PARAM hash algorithm"),
        uintField(tokens[1], 255, "NSEC3PARAM flags"),
        uintField(tokens[2], 65535, "NSEC3PARAM iterations"),
        saltField(tokens[3], "NSEC3PARAM"),
      );
      break;
  }
  const failed = checks.find((check) => !check.ok);
  return failed && !failed.ok ? failed.error : null;
}

/** BIND refuses an NSEC3 whose owner's first label is not a base32hex hash (RFC 5155 §3). */
export function nsec3OwnerProblem(fqdn: string): string | null {
  const label = fqdn.split(".")[0]!;
  return base32hexOctets(label) === null ? `the owner of an NSEC3 record must start with a base32hex hash label (RFC 5155 §3), not "${label}"` : null;
}
