// PATCH /v1/domains/{domain}: JSON Merge Patch of contacts, name servers (replaced whole),
// client statuses (replaced whole), auth_info and auto_renew. RFC 5731 §2.3: under
// clientUpdateProhibited, only the patch that removes it is accepted. Under a connected
// repository the registry changes first (<domain:update>: hosts, contacts, client statuses,
// authInfo, DS through secDNS), and D1 only after its success; an update it leaves pending
// (1001) answers 202 with pendingUpdate, and the domain changes when it settles.
import type { RouteHandler } from "@hono/zod-openapi";
import { catalog } from "../../db/catalog";
import { domainsNamed, hostsNamed } from "../../db/links";
import { registryDomainUpsert } from "../../db/registry-state";
import { domains } from "../../db/schema";
import { versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { copyFindings, newFindings, throwFindings } from "../../http/findings";
import { updateResource } from "../../http/mutate";
import { isOperator } from "../../http/caller";
import { mergePatch } from "../../http/patch";
import { ApiError } from "../../http/problem";
import { contactAddressErrors, unknownContactErrors } from "../../registry/contacts";
import { nameserverCountErrors, nameserverNames, newNameserverHosts, superordinateCandidates } from "../../registry/nameservers";
import { canonicalDs, dsErrors, dsPolicyErrors } from "../../registry/ds";
import {
  canonicalLockStatuses,
  canonicalStatuses,
  type ClientStatus,
  isLockChangeOnly,
  prohibitingStatus,
  shownStatuses,
  statusSettingErrors,
} from "../../registry/statuses";
import { assignedContacts, contactIdsOf, domainCollection } from "./collection";
import { contactAddressGuards, replaceNameserverLinks } from "./links";
import { presentDomain } from "./present";
import { contactsById, type DomainWithLinks } from "./queries";
import type * as routes from "./routes";
import { forgetDomainFailures } from "./transfer-failures";
import { domainRegistry, registryTransaction, updateAtRegistry } from "./registry";

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

/**
 * The statuses a patch leaves: `status` replaces the statuses its caller may set — a
 * customer's the client statuses (the registry lock stays as it is), the operator's the
 * client statuses and the lock together (RFC 5731 §2.3: the server statuses are the
 * server operator's). Undefined when the patch leaves `status` alone.
 */
function nextStatuses(status: readonly string[] | null | undefined, byOperator: boolean, current: DomainWithLinks) {
  if (status === undefined) return undefined;
  const given = status ?? [];
  return { statuses: canonicalStatuses(given as ClientStatus[]), serverStatuses: byOperator ? canonicalLockStatuses(given) : current.serverStatuses };
}

export const updateDomain: RouteHandler<typeof routes.updateDomain, AppEnv> = async (c) => {
  const patch = c.req.valid("json");
  const cat = await catalog(c.get("db"));

  // Parse: the statuses and name servers the patch sets, the contacts it assigns.
  const parsed = newFindings();
  const byOperator = isOperator(c);
  const statusErrors = statusSettingErrors(patch.status ?? [], byOperator);
  parsed.invalid.push(...statusErrors.invalid);
  parsed.readOnly = statusErrors.readOnly;
  const named = patch.nameservers === undefined ? undefined : nameserverNames(patch.nameservers ?? []);
  parsed.invalid.push(...(named?.errors ?? []));
  const nameservers = named?.names;
  const assigned = assignedContacts(patch);
  parsed.invalid.push(...dsErrors(patch.ds ?? []));

  const registries = new Map<string, ReturnType<typeof domainRegistry>>();
  let pending = false;
  const updated = (await updateResource(c, domainCollection, c.req.valid("param").domain, {
    // Name servers are names: their hosts and superordinate domains are looked up in every account.
    reads: (db) => [
      contactsById(db, contactIdsOf(assigned)),
      hostsNamed(c.get("dbAllAccounts") ?? db, nameservers ?? []),
      domainsNamed(c.get("dbAllAccounts") ?? db, superordinateCandidates(nameservers ?? [], cat.extensions)),
    ],
    async update(ctx, current, [contactRows, knownHosts, managed]) {
      // The lock in a customer's patch is refused before anything else it asks (with every other problem of the body).
      if (statusErrors.readOnly.length > 0) throwFindings(parsed);
      const next = nextStatuses(patch.status, byOperator, current);
      const { status: _status, ...otherFields } = patch;
      const lockChangeOnly = next !== undefined && isLockChangeOnly(current, next, Object.keys(otherFields).length > 0);
      // The operator's change of the lock alone is no update of the domain: its statuses do not forbid it.
      const prohibiting = lockChangeOnly ? null : prohibitingStatus("update", shownStatuses(current), next && [...next.statuses, ...next.serverStatuses]);
      if (prohibiting) {
        const how = prohibiting.startsWith("server")
          ? "only the registry's operator can clear it"
          : prohibiting.startsWith("client")
            ? "remove it (set status without it) before or while changing anything else"
            : "it must end first";
        throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; ${how}.`);
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

      const merged = mergePatch(writableDomain(current), { ...patch, status: next?.statuses, nameservers });
      const changed: DomainWithLinks = {
        ...current,
        registrantId: merged.registrant ?? null,
        adminId: merged.contacts?.admin ?? null,
        techId: merged.contacts?.tech ?? null,
        billingId: merged.contacts?.billing ?? null,
        statuses: merged.status ?? [],
        serverStatuses: next?.serverStatuses ?? current.serverStatuses,
        authInfo: merged.auth_info,
        autoRenew: merged.auto_renew,
        nameservers: merged.nameservers ?? [],
        ds: patch.ds === undefined ? current.ds : canonicalDs(patch.ds ?? []),
      };
      if (JSON.stringify(presentDomain(changed)) === JSON.stringify(presentDomain(current))) return null;

      const written = { ...changed, version: current.version + 1, updatedAt: ctx.at };
      const nameserversChanged = JSON.stringify(written.nameservers) !== JSON.stringify(current.nameservers);
      const links = nameserversChanged ? replaceNameserverLinks(ctx, current, written.nameservers, external) : { alongside: [], guards: [] };
      // A connected repository's registry changes first (the operator's lock stays ours: no registrar sets server statuses).
      if (!registries.has(current.repositoryId)) registries.set(current.repositoryId, domainRegistry(c, current.repositoryId));
      const registry = registries.get(current.repositoryId)!;
      const atRegistry = registry ? await updateAtRegistry(registry, ctx.db, ctx.allAccounts, current, written, ctx.at) : { rows: [], svTRID: undefined };
      // 1001: the registry has yet to act (RFC 5730 §3): nothing it holds is shown as done (name
      // servers, DS, contacts, statuses, auth_info stay as they were); the domain shows
      // pendingUpdate until its poll message or reconciliation brings the registry's state in
      // one write. What only we hold (auto_renew, the operator's lock) is written now.
      pending = atRegistry.outcome === "pending";
      if (pending) {
        const held = {
          ...current,
          statuses: [...current.statuses, "pendingUpdate"],
          serverStatuses: written.serverStatuses,
          autoRenew: written.autoRenew,
          version: current.version + 1,
          updatedAt: ctx.at,
        };
        return {
          next: held,
          write: versionStep(ctx.db, domains, current, held),
          afterFromDatabase: registryTransaction(atRegistry.svTRID),
          // The contacts and hosts created at the registry are held there whatever it decides;
          // the auth_info asked for is kept for the settlement, should the registry's info not show
          // it, with the update's clTRID: only the panData naming that command settles it (drizzle/0047).
          alongside: [
            ...atRegistry.rows,
            ...(written.authInfo === current.authInfo || !atRegistry.clTRID
              ? []
              : [
                  registryDomainUpsert(ctx.db, {
                    domainId: current.id,
                    repositoryId: current.repositoryId,
                    pendingAuthInfo: { authInfo: written.authInfo, clTRID: atRegistry.clTRID },
                  }),
                ]),
          ],
          readBack: domainCollection.find(ctx.db, { kind: "id", id: current.id }),
        };
      }
      return {
        next: written,
        write: versionStep(ctx.db, domains, current, written),
        afterFromDatabase: registryTransaction(atRegistry.svTRID),
        // A new auth_info starts the domain's count of failed transfer requests again.
        alongside: [
          ...(written.authInfo === current.authInfo ? links.alongside : [...links.alongside, forgetDomainFailures(ctx.db, current.id)]),
          ...atRegistry.rows,
        ],
        // External name servers the change creates count as the account's hosts (the write routine's quota check).
        guards: [...contactAddressGuards(ctx.db, current.id, assigned), ...links.guards],
      };
    },
  })) as Response;
  // 1001: 202, the domain in pendingUpdate (its Idempotency-Key record is the answer as sent: src/http/idempotency.ts).
  return (pending ? new Response(updated.body, { status: 202, headers: updated.headers }) : updated) as never;
};
