// MX (RFC 1035 §3.3.9): a preference and a mail exchanger's host name; "." with
// preference 0 is the null MX, "this domain accepts no mail" (RFC 7505).
import { fail, ok } from "../result";
import { defineRdata, referencedName } from "./descriptor";
import { nameField, uintField } from "./fields";
import { concatWire, nameWire, u16 } from "./wire";

export const MX = defineRdata({
  type: "MX",
  code: 15,
  shape: "a preference and a mail server name",
  example: "10 mail.example.com.",
  tokens: { min: 2 },
  parse([preferenceToken, exchangeToken], origin) {
    const preference = uintField(preferenceToken, 65535, "MX preference");
    if (!preference.ok) return preference;
    const exchange = nameField(exchangeToken, origin, "MX exchange", { root: true });
    if (!exchange.ok) return exchange;
    if (exchange.value === "." && preference.value !== 0) return fail('a null MX (exchange ".") must have preference 0 (RFC 7505 §3)');
    return ok({ preference: preference.value, exchange: exchange.value });
  },
  text: ({ preference, exchange }) => `${preference} ${exchange}`,
  wire: ({ preference, exchange }) => concatWire(u16(preference), nameWire(exchange)),
  names: ({ exchange }) => referencedName(exchange),
  fromWire: (r) => `${r.u16()} ${r.name()}`,
});
