// DNAME (RFC 6672 §2.1): the target of a subtree's redirection.
import { singleNameRdata } from "./single-name";

export const DNAME = singleNameRdata({
  type: "DNAME",
  code: 39,
  shape: "the target domain name",
  example: "example.net.",
  what: "DNAME target",
  rules: { underscore: true },
});
