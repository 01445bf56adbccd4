// EUI48 (RFC 7043 §3): a 48-bit MAC address.
import { euiRdata } from "./eui";

export const EUI48 = euiRdata({ type: "EUI48", code: 108, octets: 6, example: "00-00-5e-00-53-2a", section: "§3.2" });
