// TLSA (RFC 6698 §2): certificate usage, selector, matching type and the certificate
// association data as hex; the data's length is checked for the hashing matching types.
// SMIMEA (RFC 8162 §2, smimea.ts) shares the format.
import { fail, ok } from "../result";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { hexField, hexLengthProblem, uintField } from "./fields";
import { concatWire, hexOctets, hexText, u8 } from "./wire";

// Matching types 1 (SHA-256) and 2 (SHA-512), RFC 6698 §2.1.3.
const DATA_DIGITS: Record<number, number> = { 1: 64, 2: 128 };

export interface CertificateAssociation {
  usage: number;
  selector: number;
  matchingType: number;
  /** Upper-case hex. */
  data: string;
}

export function certificateAssociationRdata(about: { type: string; code: number; example: string }): RdataDescriptor<CertificateAssociation> {
  const { type } = about;
  return defineRdata({
    ...about,
    shape: "certificate usage, selector, matching type and association data",
    tokens: { min: 4, max: Number.POSITIVE_INFINITY },
    parse(tokens) {
      const usage = uintField(tokens[0], 3, `${type} certificate usage`);
      if (!usage.ok) return usage;
      const selector = uintField(tokens[1], 1, `${type} selector`);
      if (!selector.ok) return selector;
      const matching = uintField(tokens[2], 2, `${type} matching type`);
      if (!matching.ok) return matching;
      const data = hexField(tokens.slice(3), `${type} certificate association data`);
      if (!data.ok) return data;
      const length = hexLengthProblem(data.value, DATA_DIGITS[matching.value], `${type} data for matching type ${matching.value}`);
      if (length) return fail(length);
      return ok({ usage: usage.value, selector: selector.value, matchingType: matching.value, data: data.value });
    },
    text: ({ usage, selector, matchingType, data }) => `${usage} ${selector} ${matchingType} ${data}`,
    wire: ({ usage, selector, matchingType, data }) => concatWire(u8(usage), u8(selector), u8(matchingType), hexOctets(data)),
    names: () => [],
    fromWire: (r) => `${r.u8()} ${r.u8()} ${r.u8()} ${hexText(r.rest())}`,
  });
}

export const TLSA = certificateAssociationRdata({
  type: "TLSA",
  code: 52,
  example: "3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6",
});
