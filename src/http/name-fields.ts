// Zod fields for DNS names, so that a body's names are checked, and normalised, with
// every other field: one 422 lists a bad name beside a bad TTL (docs/conventions.md).
import { z } from "@hono/zod-openapi";
import { normalizeName, type NameRules } from "../dns/name";

/** A DNS name, normalised (lowercase A-labels, no trailing dot); errors name the label. */
export function dnsNameField(rules: NameRules = {}) {
  return z
    .string()
    .max(1024)
    .transform((input, ctx) => {
      const result = normalizeName(input, rules);
      if (result.ok) return result.name;
      ctx.addIssue({ code: "custom", message: `"${input}" ${result.error}` });
      return z.NEVER;
    });
}

/** A host name (RFC 952/1123 LDH, at least two labels), normalised. */
export const hostNameField = () => dnsNameField({ minLabels: 2 });

/** A list of host names, normalised, each at most once. */
export function hostNameListField() {
  return z.array(hostNameField()).superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) ctx.addIssue({ code: "custom", path: [index], message: `${name} is listed twice` });
    });
  });
}
