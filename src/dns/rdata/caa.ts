// CAA (RFC 8659): flags, a tag and a value. Tags: RFC 8659 §4.2–4.4 (issue, issuewild,
// iodef), RFC 9495 (issuemail), the CA/Browser Forum's issuevmc, contactemail and
// contactphone (CAB Forum Baseline Requirements, appendix A).
import { fail, ok, show } from "../result";
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS } from "./character-string";
import { defineRdata } from "./descriptor";
import { uintField } from "./fields";
import { concatWire, octetList, u8 } from "./wire";

const CAA_TAGS = ["issue", "issuewild", "iodef", "issuemail", "issuevmc", "contactemail", "contactphone"] as const;
type CaaTag = (typeof CAA_TAGS)[number];

function isCaaTag(tag: string): tag is CaaTag {
  return (CAA_TAGS as readonly string[]).includes(tag);
}

// RFC 8659 §4.2 ABNF: issuer-domain-name, then optional "; tag=value" parameters.
const LABEL = "[A-Za-z0-9](?:-*[A-Za-z0-9])*";
const PARAMETER = `${LABEL}[ \\t]*=[ \\t]*[\\x21-\\x3a\\x3c-\\x7e]*`;
const ISSUE_VALUE = new RegExp(`^[ \\t]*(?:${LABEL}(?:\\.${LABEL})*[ \\t]*)?(?:;[ \\t]*(?:${PARAMETER}(?:[ \\t]*;[ \\t]*${PARAMETER})*[ \\t]*)?)?$`);

function valueProblem(tag: CaaTag, value: string): string | null {
  switch (tag) {
    case "issue":
    case "issuewild":
    case "issuemail":
    case "issuevmc":
      return ISSUE_VALUE.test(value) ? null : `CAA ${tag} value must be a CA's domain name, optionally followed by "; key=value" parameters (RFC 8659 §4.2)`;
    case "iodef":
      return /^(mailto:|https?:\/\/)[\x21-\x7e]+$/i.test(value) ? null : "CAA iodef value must be a mailto:, http:// or https:// URL (RFC 8659 §4.4)";
    case "contactemail":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : "CAA contactemail value must be an email address";
    case "contactphone":
      return /^\+?[0-9][0-9 ().-]*$/.test(value) ? null : "CAA contactphone value must be a telephone number";
  }
}

export const CAA = defineRdata({
  type: "CAA",
  code: 257,
  shape: "flags, a tag and a value",
  example: '0 issue "letsencrypt.org"',
  tokens: { min: 3 },
  parse([flagsToken, tagToken, valueToken]) {
    const flags = uintField(flagsToken, 255, "CAA flags");
    if (!flags.ok) return flags;
    // Tags match case-insensitively (RFC 8659 §4.1); the registered ones are lower case.
    const tag = tagToken!.raw.toLowerCase();
    if (tagToken!.quoted || !isCaaTag(tag)) return fail(`CAA tag ${show(tagToken!.raw)} is not one of ${CAA_TAGS.join(", ")}`);
    const value = decodeCharString(valueToken!.raw);
    if (!value.ok) return fail(`CAA value: ${value.error}`);
    if (2 + tag.length + value.value.length > MAX_RDATA_OCTETS) return fail(`CAA value is longer than a record can hold`);
    const valueProblemText = valueProblem(tag, value.value);
    if (valueProblemText) return fail(valueProblemText);
    return ok({ flags: flags.value, tag, value: value.value });
  },
  text: ({ flags, tag, value }) => `${flags} ${tag} ${encodeCharString(value)}`,
  // RFC 8659 §4.1: flags, tag length, tag, then the value to the end (no length octet).
  wire: ({ flags, tag, value }) => concatWire(u8(flags), u8(tag.length), octetList(tag), octetList(value)),
  names: () => [],
  fromWire(r) {
    const flags = r.u8();
    const tag = r.bytes(r.u8());
    return `${flags} ${String.fromCharCode(...tag)} ${encodeCharString(String.fromCharCode(...r.rest()))}`;
  },
});
