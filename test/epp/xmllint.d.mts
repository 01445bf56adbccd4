// Types for xmllint.mjs, which runs in Node (the unit project).
export interface Validation {
  /** xmllint said "validates". */
  valid: boolean;
  /** xmllint's lines about this message (errors name it "message"). */
  output: string;
}
export function validateEpp(messages: string[]): Validation[];
