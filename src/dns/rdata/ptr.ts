// PTR (RFC 1035 §3.3.12): a pointer to any name.
import { singleNameRdata } from "./single-name";

export const PTR = singleNameRdata({
  type: "PTR",
  code: 12,
  shape: "a domain name",
  example: "host.example.com.",
  what: "PTR target",
  rules: { underscore: true },
});
