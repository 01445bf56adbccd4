// NS (RFC 1035 §3.3.11): a name server's host name, which is LDH (RFC 2181 §10.3).
import { singleNameRdata } from "./single-name";

export const NS = singleNameRdata({
  type: "NS",
  code: 2,
  shape: "a name server's host name",
  example: "ns1.example.net.",
  what: "NS host",
  rules: {},
});
