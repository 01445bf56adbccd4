// CDS (RFC 7344 §3.1): the DS a child zone asks its parent to publish, in the DS format;
// "0 0 0 00" asks the parent to remove the DS records (RFC 8078 §4).
import { delegationSignerRdata } from "./ds";

export const CDS = delegationSignerRdata({
  type: "CDS",
  code: 59,
  example: "55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17",
  deletion: "0 0 0 00",
});
