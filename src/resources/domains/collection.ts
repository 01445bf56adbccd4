// Domains as the write routine sees them (src/http/mutate.ts), and what their operations share.
import type { Collection } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import type { AssignedContacts } from "../../registry/contacts";
import { presentDomain } from "./present";
import { type DomainWithLinks, findDomain } from "./queries";
import type { Domain } from "./schemas";

export const domainCollection: Collection<DomainWithLinks, Domain> = {
  type: "domain",
  path: "/v1/domains",
  byName: true,
  find: findDomain,
  present: presentDomain,
  accountOf: (row) => row.accountId,
};

export function domainExists(name: string): ApiError {
  return new ApiError("already_exists", `The domain ${name} is already registered.`);
}

/** The contacts a body assigns, by role: a role the body leaves out is absent, `null` clears it. */
export function assignedContacts(body: {
  registrant?: string | null | undefined;
  contacts?: { admin?: string | null | undefined; tech?: string | null | undefined; billing?: string | null | undefined } | null | undefined;
}): AssignedContacts {
  const assigned: AssignedContacts = {};
  if (body.registrant !== undefined) assigned.registrant = body.registrant;
  if (body.contacts === null) Object.assign(assigned, { admin: null, tech: null, billing: null });
  else if (body.contacts) {
    for (const role of ["admin", "tech", "billing"] as const) if (body.contacts[role] !== undefined) assigned[role] = body.contacts[role];
  }
  return assigned;
}

/** The contact ids a write assigns, each once. */
export function contactIdsOf(assigned: AssignedContacts): string[] {
  return [...new Set(Object.values(assigned).filter((id): id is string => typeof id === "string"))];
}
