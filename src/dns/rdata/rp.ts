// RP (RFC 1183 §2.2): the responsible person's mailbox, written as a name, and the name
// of TXT records with more about them; "." for either means none.
import { ok } from "../result";
import { defineRdata, referencedName } from "./descriptor";
import { nameField } from "./fields";
import { concatWire, nameWire } from "./wire";

export const RP = defineRdata({
  type: "RP",
  code: 17,
  shape: "a mailbox name and a TXT record's name",
  example: "hostmaster.example.com. contact.example.com.",
  tokens: { min: 2 },
  parse([mailboxToken, textToken], origin) {
    // BIND's check-names wants a mailbox here: any first label, then a host name.
    const mailbox = nameField(mailboxToken, origin, "RP mailbox", { root: true, mailbox: true });
    if (!mailbox.ok) return mailbox;
    const text = nameField(textToken, origin, "RP TXT name", { root: true, underscore: true });
    if (!text.ok) return text;
    return ok({ mailbox: mailbox.value, text: text.value });
  },
  text: ({ mailbox, text }) => `${mailbox} ${text}`,
  wire: ({ mailbox, text }) => concatWire(nameWire(mailbox), nameWire(text)),
  names: ({ text }) => referencedName(text),
  fromWire: (r) => `${r.name()} ${r.name()}`,
});
