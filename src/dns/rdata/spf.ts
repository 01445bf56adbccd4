// SPF (RFC 7208 §3.1, originally RFC 4408): the TXT format under its own type. RFC 7208
// makes TXT the only published form; the type is kept for zones that still carry it.
import { textStringsRdata } from "./txt";

export const SPF = textStringsRdata({ type: "SPF", code: 99, shape: "one or more strings", example: '"v=spf1 -all"' });
