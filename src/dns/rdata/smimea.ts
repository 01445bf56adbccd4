// SMIMEA (RFC 8162 §2): an S/MIME certificate association, in TLSA's format.
import { certificateAssociationRdata } from "./tlsa";

export const SMIMEA = certificateAssociationRdata({
  type: "SMIMEA",
  code: 53,
  example: "3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6",
});
