// CDNSKEY (RFC 7344 §3.2): the DNSKEY a child zone asks its parent to make a DS of, in
// the DNSKEY format; "0 3 0 AA==" asks the parent to remove the DS records (RFC 8078 §4).
import { dnskeyRdata } from "./dnskey";

export const CDNSKEY = dnskeyRdata({
  type: "CDNSKEY",
  code: 60,
  example: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==",
  deletion: "0 3 0 AA==",
});
