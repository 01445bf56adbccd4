// CNAME (RFC 1035 §3.3.1): the canonical name of an alias; any name, service labels
// (`_dkim`) included, since an alias may point anywhere.
import { singleNameRdata } from "./single-name";

export const CNAME = singleNameRdata({
  type: "CNAME",
  code: 5,
  shape: "the canonical name",
  example: "www.example.com.",
  what: "CNAME target",
  rules: { underscore: true },
});
