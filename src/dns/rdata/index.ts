// RDATA in presentation form (RFC 1035 §5.1 and each type's RFC): parsed, validated,
// and written back in one canonical form, so identical data always reads the same
// (names absolute, lower case, with the trailing dot; IPv6 compressed; strings quoted).
import { canonicalA, canonicalAaaa } from "./address";
import { canonicalCaa } from "./caa";
import { canonicalDs, canonicalSshfp, canonicalTlsa } from "./digests";
import type { RdataParser } from "./fields";
import { canonicalCname, canonicalDname, canonicalMx, canonicalNs, canonicalPtr, canonicalSrv } from "./hosts";
import { canonicalNaptr } from "./naptr";
import { fail, type RdataResult } from "../result";
import { canonicalHttps, canonicalSvcb } from "./svcb";
import { tokenizeRdata, type Token } from "./tokens";
import { canonicalTxt, canonicalTxtText } from "./txt";
import type { RecordType } from "./types";

export { rdataExamples } from "./examples";
export type { RdataResult } from "../result";
export type { Token } from "./tokens";
export { isRecordType, RECORD_TYPE_CODES, RECORD_TYPES, type RecordType } from "./types";

const PARSERS: Record<RecordType, RdataParser> = {
  A: canonicalA,
  AAAA: canonicalAaaa,
  CNAME: canonicalCname,
  MX: canonicalMx,
  NS: canonicalNs,
  TXT: canonicalTxt,
  SRV: canonicalSrv,
  CAA: canonicalCaa,
  PTR: canonicalPtr,
  DS: canonicalDs,
  TLSA: canonicalTlsa,
  SSHFP: canonicalSshfp,
  NAPTR: canonicalNaptr,
  SVCB: canonicalSvcb,
  HTTPS: canonicalHttps,
  DNAME: canonicalDname,
};

function originName(origin: string | null): string | null {
  if (origin === null) return null;
  return (origin.endsWith(".") ? origin.slice(0, -1) : origin).toLowerCase();
}

/**
 * The canonical presentation form of `text` as RDATA of `type`, or why it is not valid.
 *
 * `origin === null` is the JSON API's reading: every name inside the content is
 * absolute, dot or no dot, and "@" means nothing; a TXT content that does not start
 * with a quote is plain text (spaces kept, no escapes), split into 255-octet strings.
 * With an origin (master-file reading, RFC 1035 §5.1) names without a trailing dot are
 * relative to it, "@" is the origin, and each TXT token is one string. Either way `;`
 * and parentheses are data here: comments and line continuation belong to the master
 * file, which tokenizes itself and calls `canonicalRdataTokens`.
 */
export function canonicalRdata(type: RecordType, text: string, origin: string | null): RdataResult {
  if (type === "TXT" && origin === null && !text.trimStart().startsWith('"')) return canonicalTxtText(text);
  const tokens = tokenizeRdata(text);
  if (!tokens.ok) return fail(`${type} content: ${tokens.error}`);
  return canonicalRdataTokens(type, tokens.value, originName(origin));
}

/** As `canonicalRdata`, for RDATA already split into tokens; `origin` without a trailing dot. */
export function canonicalRdataTokens(type: RecordType, tokens: Token[], origin: string | null): RdataResult {
  const first = tokens[0];
  if (first && !first.quoted && first.raw === "\\#") {
    return fail(`generic RDATA (\\# …, RFC 3597) is not supported; write ${type} data in its own presentation form`);
  }
  return PARSERS[type](tokens, origin);
}

/**
 * The domain names a canonical RDATA points at (absolute, without the trailing dot;
 * the root "." left out): CNAME/NS/PTR/DNAME targets, MX exchange, SRV/SVCB/HTTPS
 * target, NAPTR replacement. Other types hold no names.
 */
export function rdataTargets(type: RecordType, content: string): string[] {
  const fields = content.split(" ");
  let target: string | undefined;
  switch (type) {
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      target = fields[0];
      break;
    case "MX":
    case "SVCB":
    case "HTTPS":
      target = fields[1];
      break;
    case "SRV":
      target = fields[3];
      break;
    case "NAPTR":
      // The replacement is last; the quoted strings before it may hold spaces.
      target = fields[fields.length - 1];
      break;
    default:
      return [];
  }
  if (target === undefined || target === "." || target === "") return [];
  return [target.endsWith(".") ? target.slice(0, -1) : target];
}
