// EUI64 (RFC 7043 §4): a 64-bit extended unique identifier.
import { euiRdata } from "./eui";

export const EUI64 = euiRdata({ type: "EUI64", code: 109, octets: 8, example: "00-00-5e-ef-10-00-00-2a", section: "§4.2" });
