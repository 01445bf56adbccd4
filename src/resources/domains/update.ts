// PATCH /v1/domains/{domain}: JSON Merge Patch of contacts, name servers (replaced whole),
// client statuses (replaced whole), auth_info and auto_renew. RFC 5731 §2.3: under
// clientUpdateProhibited, only the patch that removes it is accepted.
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { domainsNamed, hostsNamed } from "../../db/links";
import { domains } from "../../db/schema";
import type { AppEnv } from "../../env";
import { copyFindings, newFindings, throwFindings } from "../../http/findings";
import { updateResource } from "../../http/mutate";
import { mergePatch } from "../../http/patch";
import { ApiError } from "../../http/problem";
import { contactAddressErrors, unknownContactErrors } from "../../registry/contacts";
import { nameserverCountErrors, nameserverNames, newNameserverHosts, superordinateCandidates } from "../../registry/nameservers";
import { canonicalDs, dsErrors, dsPolicyErrors } from "../../registry/ds";
import { canonicalStatuses, type ClientStatus, clientStatusErrors, prohibitingStatus } from "../../registry/statuses";
import { assignedContacts, contactIdsOf, domainCollection } from "./collection";
import { contactAddressGuards, replaceNameserverLinks } from "./links";
import { presentDomain, shownStatuses } from "./present";
import { contactsById, type DomainWithLinks } from "./queries";
import type * as routes from "./routes";
import { forgetDomainFailures } from "./transfer-failures";

/** The part of a domain a patch can change, as the API shows it. */
function writableDomain(row: DomainWithLinks) {
  return {
    registrant: row.registrantId,
    contacts: { admin: row.adminId, tech: row.techId, billing: row.billingId },
    nameservers: row.nameservers,
    status: row.statuses,
    auth_info: row.authInfo,
    auto_renew: row.autoRenew,
  };
}

export const updateDomain: RouteHandler<typeof routes.updateDomain, AppEnv> = async (c) => {
  const patch = c.req.valid("json");
  const cat = await catalog(c.get("db"));

  // Parse: the statuses and name servers the patch sets, the contacts it assigns.
  const parsed = newFindings();
  parsed.invalid.push(...clientStatusErrors(patch.status ?? []));
  const statuses = patch.status === undefined ? undefined : canonicalStatuses((patch.status ?? []) as ClientStatus[]);
  const named = patch.nameservers === undefined ? undefined : nameserverNames(patch.nameservers ?? []);
  parsed.invalid.push(...(named?.errors ?? []));
  const nameservers = named?.names;
  const assigned = assignedContacts(patch);
  parsed.invalid.push(...dsErrors(patch.ds ?? []));

  return updateResource(c, domainCollection, c.req.valid("param").domain, {
    // Name servers are names: their hosts and superordinate domains are looked up in every account.
    reads: (db) => [
      contactsById(db, contactIdsOf(assigned)),
      hostsNamed(c.get("dbAllAccounts") ?? db, nameservers ?? []),
      domainsNamed(c.get("dbAllAccounts") ?? db, superordinateCandidates(nameservers ?? [], cat.extensions)),
    ],
    async update(ctx, current, [contactRows, knownHosts, managed]) {
      const prohibiting = prohibitingStatus("update", shownStatuses(current), statuses);
      if (prohibiting) {
        throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; remove it (set status without it) before or while changing anything else.`);
      }

      // Checks on what is stored: the name server count, the contacts, the new hosts.
      const findings = copyFindings(parsed);
      const extension = cat.extensions.get(current.extensionId)!;
      if (nameservers) findings.policy.push(...nameserverCountErrors((patch.nameservers ?? []).length, extension));
      findings.policy.push(...dsPolicyErrors(patch.ds ?? [], extension));
      // The domain's account's own contacts: another account's is as unknown as a wrong id.
      const contacts = new Map(contactRows.filter((r) => r.accountId === current.accountId).map((r) => [r.id, r]));
      findings.invalid.push(...unknownContactErrors(assigned, contacts));
      findings.policy.push(...contactAddressErrors(assigned, contacts));
      const managedNames = new Set([...managed.map((d) => d.name), current.name]);
      const { external, errors } = nameservers
        ? newNameserverHosts(nameservers, new Set(knownHosts.map((h) => h.name)), managedNames, cat.extensions)
        : { external: [], errors: [] };
      findings.invalid.push(...errors);
      throwFindings(findings);

      const merged = mergePatch(writableDomain(current), { ...patch, status: statuses, nameservers });
      const changed: DomainWithLinks = {
        ...current,
        registrantId: merged.registrant ?? null,
        adminId: merged.contacts?.admin ?? null,
        techId: merged.contacts?.tech ?? null,
        billingId: merged.contacts?.billing ?? null,
        statuses: merged.status ?? [],
        authInfo: merged.auth_info,
        autoRenew: merged.auto_renew,
        nameservers: merged.nameservers ?? [],
        ds: patch.ds === undefined ? current.ds : canonicalDs(patch.ds ?? []),
      };
      if (JSON.stringify(presentDomain(changed)) === JSON.stringify(presentDomain(current))) return null;

      const next = { ...changed, version: current.version + 1, updatedAt: ctx.at };
      const nameserversChanged = JSON.stringify(next.nameservers) !== JSON.stringify(current.nameservers);
      const links = nameserversChanged ? replaceNameserverLinks(ctx, current, next.nameservers, external) : { alongside: [], guards: [] };
      return {
        next,
        write: ctx.db
          .update(domains)
          .set({
            registrantId: next.registrantId,
            adminId: next.adminId,
            techId: next.techId,
            billingId: next.billingId,
            statuses: next.statuses,
            authInfo: next.authInfo,
            autoRenew: next.autoRenew,
            ds: next.ds,
            version: next.version,
            updatedAt: next.updatedAt,
          })
          .where(eq(domains.id, current.id)),
        // A new auth_info starts the domain's count of failed transfer requests again.
        alongside: next.authInfo === current.authInfo ? links.alongside : [...links.alongside, forgetDomainFailures(ctx.db, current.id)],
        guards: [...contactAddressGuards(ctx.db, current.id, assigned), ...links.guards],
      };
    },
  });
};
