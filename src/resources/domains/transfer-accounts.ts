// A transfer between two of our accounts at a connected repository (docs/registries.md,
// "Transfers between our accounts"): both accounts are this registrar's customers, so the
// registry keeps us as the sponsor (it would refuse a `<domain:transfer>` to its own
// sponsor, 2106) and stays the authority over the domain's auth_info and dates:
//
//   request   the auth_info given is checked against the registry's, with a `<domain:info>`
//             carrying it (RFC 5731 §3.1.2): a registry that checks it answers 2202 for a
//             wrong one; one that shows the sponsor its authInfo is compared with it. A
//             wrong one is counted as between builtin accounts (transfer-failures.ts).
//   approval  the registry first names the gaining account's copies of the contacts and holds a
//             new auth_info (`<contact:create>` of each copy, one `<domain:update>`), so the
//             losing account's password no longer moves the domain and reconciliation finds
//             the gaining account's contacts there; the domain then changes account here with
//             the registry's expiry: no year is added (transfers.ts). Its callers ask the
//             gaining account's room first (approvalQuotaPassed): nothing is sent without it.
//   price     nothing was transferred or renewed at the registry, so nothing is owed: the
//             transfer costs 0.00, and a premium name's fee is not asked to be confirmed.
import { accepted, resDataOf } from "../../connector/answers";
import { contactsAndAuthInfoUpdate } from "../../connector/commands";
import { connectorClientId, type ConnectorSettings } from "../../connector/config";
import { clientTransactionId, registryUnavailable } from "../../connector/gateway";
import { authInfoProblem } from "../../epp/values";
import type { Database } from "../../db/client";
import { registryObjectInsert } from "../../db/registry-objects";
import type { contacts } from "../../db/schema";
import type { Statement } from "../../db/write";
import { ApiError } from "../../http/problem";
import { contactCreatedAtRegistry, type DomainRegistry, registryContacts, registryWith } from "./registry";
import type { Price, YearlyPrices } from "../../registry/prices";
import type { AtRegistry } from "./transfers";

/** What such a transfer costs: nothing (no registry transfer, no year), in the catalog's currency. */
export function betweenOurAccountsPrice(yearly: YearlyPrices): Price {
  return { currency: yearly.currency, amount: "0.00" };
}

/** Compares the passwords in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Whether `given` is the domain's auth_info at its registry. A value EPP cannot carry is no
 * registry's password (wrong, nothing sent). 2202 is wrong; another refusal is its problem
 * (2303: `registry_mismatch`; out of reach: 503). A domain the registry shows as another
 * registrar's is not ours to move (409 `registry_mismatch`). The registry's answer shows the
 * sponsor its authInfo: that decides; a registry that shows none accepted the one given (or
 * does not check a sponsor's), and our copy decides.
 */
export async function registryAuthInfoMatches(
  registry: DomainRegistry,
  settings: ConnectorSettings,
  name: string,
  given: string,
  stored: string,
): Promise<boolean> {
  if (authInfoProblem(given) !== null) return false;
  const response = await registry.ask("domain:info:auth", { kind: "domain:info", name, hosts: "none", authInfo: given });
  if (response.code === 2202) return false;
  accepted(response, `Checking the auth_info of ${name} at the ${registry.repository} registry`);
  const info = resDataOf(response, "domain:infData");
  const us = connectorClientId(settings, registry.repository);
  if (info && us !== null && info.clID !== us) {
    throw new ApiError(
      "registry_mismatch",
      `The ${registry.repository} registry shows ${info.clID} as the sponsor of ${name}, not this registrar: it cannot move between accounts here.`,
    );
  }
  return sameSecret(given, info?.authInfo ?? stored);
}

/** What the approval needs of the domain: its name, repository and contacts by role (our ids). */
export interface ApprovedDomain {
  name: string;
  repositoryId: string;
  registrantId: string | null;
  adminId: string | null;
  techId: string | null;
  billingId: string | null;
}

/**
 * The approval at the registry (docs/registries.md, "Transfers between our accounts"): the
 * registry ends naming the gaining account's copies of the domain's contacts, and holding a
 * new auth_info, before anything moves here. In the order that is safe whatever answer is lost:
 *
 *   1. `<domain:info>`: the registry still sponsors it for us (else 409 registry_mismatch),
 *      and the contacts it names now (the update is built from these, not from our copy);
 *   2. `<contact:create>` of each copy, under an id derived from the transfer and the contact
 *      copied (the same whenever the approval is tried again, so a create whose answer was lost
 *      is asked after by the gateway, and one made by an earlier attempt is found by its 2302
 *      and its email); a copy is unlinked at the registry until step 3;
 *   3. one `<domain:update>`: `chg` registrant, `add`/`rem` contacts, `chg` authInfo. Its
 *      answer lost, the gateway asks `<domain:info>` (src/epp/outcome.ts) and answers for it
 *      when the info shows each change, the authInfo included; else 503, and the approval tried
 *      again starts from step 1 with what the registry then holds.
 *
 * Nothing is written here until all three succeeded: a refusal at any step (or 503) leaves the
 * domain with the losing account, as the registry still has it (a copy created in step 2 and
 * not named is the registrar's unlinked contact there, found again by the next attempt).
 * `copies`: our contact id → its copy's id (approvalChange writes the copies under these).
 * Answers the new auth_info, the update's svTRID and the registry_objects rows of the copies.
 */
export async function approvalAtRegistry(
  registry: DomainRegistry,
  settings: ConnectorSettings,
  db: Database,
  domain: ApprovedDomain,
  contactRows: readonly (typeof contacts.$inferSelect)[],
  copies: ReadonlyMap<string, string>,
  transferId: string,
  authInfo: string,
  at: string,
): Promise<AtRegistry> {
  const name = domain.name;
  const info = await registry.ask("domain:info:approval", { kind: "domain:info", name, hosts: "none" });
  if (info.code === 2303)
    throw new ApiError("registry_mismatch", `The ${registry.repository} registry holds no domain ${name}: it cannot move between accounts here.`);
  accepted(info, `Reading ${name} at the ${registry.repository} registry`);
  const held = resDataOf(info, "domain:infData");
  if (!held) throw registryUnavailable(`the ${registry.repository} registry's answer to <domain:info> of ${name} holds no domain`);
  const us = connectorClientId(settings, registry.repository);
  if (us !== null && held.clID !== us) {
    throw new ApiError(
      "registry_mismatch",
      `The ${registry.repository} registry shows ${held.clID} as the sponsor of ${name}, not this registrar: it cannot move between accounts here.`,
    );
  }
  const registryIds = new Map<string, string>();
  const rows: Statement[] = [];
  for (const original of [...new Set([domain.registrantId, domain.adminId, domain.techId, domain.billingId])]) {
    if (original === null) continue;
    const row = contactRows.find((r) => r.id === original);
    const copy = copies.get(original);
    if (!row || !copy) continue;
    const { registryId, roid } = await contactCreatedAtRegistry(registry, row, copy, `${transferId}/${original}`);
    registryIds.set(original, registryId);
    rows.push(registryObjectInsert(db, { repositoryId: registry.repository, objectType: "contact", objectId: copy, registryId, roid, createdAt: at }));
  }
  const wanted = registryContacts({ registrant: domain.registrantId, admin: domain.adminId, tech: domain.techId, billing: domain.billingId }, registryIds);
  const command = contactsAndAuthInfoUpdate(name, { registrant: held.registrant, contacts: held.contacts }, wanted, authInfo);
  const done = await registry.send(
    "domain:update:transfer",
    command,
    `Giving ${name} the gaining account's contacts and a new auth_info at the ${registry.repository} registry`,
  );
  // Held for review (1001): not a pending approval; what its settlement leaves is in
  // docs/decisions.md ("Such an approval's <domain:update> held for review").
  if (done.outcome === "pending") {
    throw new ApiError(
      "status_prohibits",
      `The ${registry.repository} registry holds the change of ${name}'s contacts and auth_info for review (pendingUpdate): nothing moved here and the transfer stays pending.`,
    );
  }
  return { authInfo, svTRID: done.svTRID, rows };
}

/**
 * The same for the sweep's automatic approval (no request: the transfer's id as the clTRID);
 * null when the registry did not take it now (out of reach, a refusal, held for review): the
 * transfer stays pending and a later run tries again.
 */
export async function approvalAtRegistryForSweep(
  settings: ConnectorSettings,
  db: Database,
  domain: ApprovedDomain,
  contactRows: readonly (typeof contacts.$inferSelect)[],
  copies: ReadonlyMap<string, string>,
  transferId: string,
  authInfo: string,
  at: string,
): Promise<AtRegistry | null> {
  try {
    const registry = registryWith(settings, domain.repositoryId, clientTransactionId(transferId));
    return await approvalAtRegistry(registry, settings, db, domain, contactRows, copies, transferId, authInfo, at);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
