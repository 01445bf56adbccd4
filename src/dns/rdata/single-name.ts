// The shape of the types whose RDATA is one domain name (CNAME, NS, PTR, DNAME, and
// RFC 1035's other single-name types): each type file states only what differs.
import { ok } from "../result";
import { defineRdata, referencedName, type RdataDescriptor } from "./descriptor";
import { nameField, type TargetRules } from "./fields";
import { nameWire } from "./wire";

export interface SingleName {
  /** Absolute, lower case, with the trailing dot. */
  target: string;
}

export function singleNameRdata(about: {
  type: string;
  code: number;
  shape: string;
  example: string;
  what: string;
  rules: TargetRules;
}): RdataDescriptor<SingleName> {
  return defineRdata({
    type: about.type,
    code: about.code,
    shape: about.shape,
    example: about.example,
    tokens: { min: 1 },
    parse([token], origin) {
      const name = nameField(token, origin, about.what, about.rules);
      return name.ok ? ok({ target: name.value }) : name;
    },
    text: ({ target }) => target,
    wire: ({ target }) => Uint8Array.from(nameWire(target)),
    names: ({ target }) => referencedName(target),
    fromWire: (r) => r.name(),
  });
}
