// OPENPGPKEY (RFC 7929 §2): an OpenPGP transferable public key, in base64 (white space
// inside allowed, RFC 7929 §2.3); at least one octet, as BIND requires.
import { ok } from "../result";
import { defineRdata } from "./descriptor";
import { base64Field } from "./fields";
import { base64Text } from "../../crypto/base64";

export const OPENPGPKEY = defineRdata({
  type: "OPENPGPKEY",
  code: 61,
  shape: "an OpenPGP public key in base64",
  example: "mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u120JkFsaWNlIExvdmVsYWNlIDxhbGljZUBvcGVucGdwLmV4YW1wbGU+",
  tokens: { min: 1, max: Number.POSITIVE_INFINITY },
  parse(tokens) {
    const key = base64Field(tokens, "OPENPGPKEY key");
    return key.ok ? ok({ key: key.value }) : key;
  },
  text: ({ key }) => base64Text(key),
  wire: ({ key }) => key,
  names: () => [],
  fromWire: (r) => base64Text(r.rest()),
});
