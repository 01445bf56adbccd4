// POST /v1/domains (RFC 5731 §3.2.1): register a name under an extension of the catalog,
// with its contacts, name servers and client statuses. Under a connected repository the
// registry decides (docs/registries.md): the contacts and hosts are created there first,
// then the domain; D1 is written only after its 1000 (201, its dates) or 1001 (202,
// pendingCreate). The registry's ROID of the domain is stored in the same write when its
// answer gives it; otherwise (creData has none) one <domain:info> after the 201, outside the
// registration's round trips, stores it (docs/registries.md, "The ROID of a new registration").
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { catalog } from "../../db/catalog";
import { newId } from "../../db/ids";
import { adoptableHosts, domainsNamed, hostsNamed } from "../../db/links";
import { domains } from "../../db/schema";
import type { AppEnv } from "../../env";
import { copyFindings, newFindings, throwFindings, throwPriceErrors, validName } from "../../http/findings";
import { createResource } from "../../http/mutate";
import { isOperator, sponsorFor } from "../../http/caller";
import { ApiError } from "../../http/problem";
import { contactAddressErrors, unknownContactErrors } from "../../registry/contacts";
import { generateAuthInfo } from "../../registry/auth-info";
import { idnErrors, matchRegistrableName } from "../../registry/extensions";
import { normalizeHostName } from "../../registry/hosts";
import { nameserverCountErrors, nameserverNames, newNameserverHosts, superordinateCandidates } from "../../registry/nameservers";
import { expiryAfter, periodErrors, wholeYearsErrors } from "../../registry/periods";
import { canonicalDs, dsErrors, dsPolicyErrors } from "../../registry/ds";
import { earliestEnd, transferLockedUntil, withGracePeriod } from "../../registry/lifecycle";
import { namePricing, priceConfirmationErrors, priceOf, reservedNameErrors } from "../../registry/prices";
import { canonicalLockStatuses, canonicalStatuses, type ClientStatus, statusSettingErrors } from "../../registry/statuses";
import { contactIdsOf, domainCollection, domainExists } from "./collection";
import { adoptionWrites, contactAddressGuards, nameserverLinks } from "./links";
import { contactsById, type DomainWithLinks, accountZoneNamed } from "./queries";
import type * as routes from "./routes";
import { readTogether } from "../../db/write";
import { registryDomainUpsert } from "../../db/registry-state";
import { domainCreateCommand, dsData } from "../../connector/commands";
import { connectorClientId } from "../../connector/config";
import { clientTransactionId } from "../../connector/gateway";
import { safeErrorSummary } from "../../http/error-log";
import { askRegistry } from "./registry-follow";
import { apiTime, resDataOf } from "../../connector/answers";
import {
  contactsAtRegistry,
  type DomainRegistry,
  domainRegistry,
  holdings,
  hostsAtRegistry,
  type RegistryHoldings,
  registryContacts,
  registryHoldingReads,
  registryTransaction,
} from "./registry";
import type { WriteContext } from "../../db/write";

export const createDomain: RouteHandler<typeof routes.createDomain, AppEnv> = async (c) => {
  const input = c.req.valid("json");
  // One auth_info for every retry of the decision: the registry holds the one it was sent.
  const generatedAuthInfo = generateAuthInfo();
  const cat = await catalog(c.get("db"));

  // Parse: the name, its extension and the period, the statuses and name servers.
  const parsed = newFindings();
  const name = validName(normalizeHostName(input.name), input.name, "name", parsed) ?? "";
  const match = name ? matchRegistrableName(name, cat.extensions) : null;
  if (match && !match.ok) parsed.invalid.push({ field: "name", message: `${name} ${match.error}` });
  const extension = match?.ok ? match.match.extension : undefined;
  const period = input.period ?? extension?.periodMin ?? 1;
  parsed.invalid.push(...wholeYearsErrors(period));
  if (extension) parsed.policy.push(...idnErrors(name, extension), ...periodErrors(period, extension));
  // Client statuses; the registry lock too, from the operator (a customer: read_only_field).
  const statusErrors = statusSettingErrors(input.status ?? [], isOperator(c));
  parsed.invalid.push(...statusErrors.invalid);
  parsed.readOnly = statusErrors.readOnly;
  const statuses = canonicalStatuses((input.status ?? []) as ClientStatus[]);
  const serverStatuses = canonicalLockStatuses(input.status ?? []);
  // What it costs: a premium name's own prices or the extension's; a reserved name is refused.
  const pricing = extension ? namePricing(name, extension, cat.names) : null;
  if (pricing) parsed.policy.push(...reservedNameErrors(name, pricing));
  const price = pricing ? priceOf(pricing.yearly, "register", period) : null;
  const { names: nameservers, errors: nameserverErrors } = nameserverNames(input.nameservers ?? []);
  parsed.invalid.push(...nameserverErrors);
  if (extension) parsed.policy.push(...nameserverCountErrors((input.nameservers ?? []).length, extension));
  parsed.invalid.push(...dsErrors(input.ds ?? []));
  if (extension) parsed.policy.push(...dsPolicyErrors(input.ds ?? [], extension));
  const assigned = {
    registrant: input.registrant ?? null,
    admin: input.contacts?.admin ?? null,
    tech: input.contacts?.tech ?? null,
    billing: input.contacts?.billing ?? null,
  };

  // A connected repository's registry: its commands are sent once for this request, whatever the retries.
  const registry = extension ? domainRegistry(c, extension.repositoryId) : null;
  let pending = false;
  // A registration the registry took (1000) without naming its ROID: asked for after the answer.
  let roidToLearn: { id: string; repository: string } | null = null;

  // The answer is the domain with `price` (the write routine's answer extra: PricedDomainSchema).
  const created = (await createResource(c, domainCollection, {
    async create(ctx) {
      const { db, allAccounts, now, at } = ctx;
      const accountId = await sponsorFor(c, input.account);
      // Names are one namespace across accounts, and name servers are names: the taken name
      // and the name servers' hosts and superordinate domains are looked up in every account.
      const reads = [
        domainsNamed(allAccounts, name ? [name] : []),
        contactsById(db, contactIdsOf(assigned)),
        hostsNamed(allAccounts, nameservers),
        domainsNamed(allAccounts, superordinateCandidates(nameservers, cat.extensions)),
        accountZoneNamed(db, name, accountId),
        adoptableHosts(db, name, accountId),
      ] as const;
      // Under a connected repository, what its registry holds from us comes in the same
      // batch: the registration then costs the round trips of a builtin one.
      const [[taken, contactRows, knownHosts, managed, zone, adopted], held] = registry
        ? await readTogether(db, [...reads, ...registryHoldingReads(db, registry.repository, contactIdsOf(assigned), nameservers)]).then(
            ([a, b, c, d, e, f, ...rest]) => [[a, b, c, d, e, f], holdings(rest, contactIdsOf(assigned), nameservers)] as const,
          )
        : [await readTogether(db, reads), null];

      // Checks on what is stored: the contacts (the domain's account's own: another
      // account's contact is as unknown as a wrong id), and which name servers are new hosts.
      const findings = copyFindings(parsed);
      const contacts = new Map(contactRows.filter((r) => r.accountId === accountId).map((r) => [r.id, r]));
      findings.invalid.push(...unknownContactErrors(assigned, contacts));
      findings.policy.push(...contactAddressErrors(assigned, contacts));
      const managedNames = new Set([...managed.map((d) => d.name), name]);
      const { external, errors } = newNameserverHosts(nameservers, new Set(knownHosts.map((h) => h.name)), managedNames, cat.extensions);
      findings.invalid.push(...errors);
      throwFindings(findings);
      if (!extension) throw new ApiError("validation_failed", `${name} has no extension here.`); // reported above; narrows the type
      if (taken.length > 0) throw domainExists(name);
      throwPriceErrors(priceConfirmationErrors(price!, input.price, { name, operation: "register", years: period, premium: pricing!.premium }));
      const authInfo = input.auth_info ?? generatedAuthInfo;
      const atRegistry = registry
        ? await registerAtRegistry(registry, ctx, held!, {
            name,
            period,
            nameservers,
            assigned,
            authInfo,
            ds: input.ds ?? [],
            price: input.price === undefined ? null : price!,
          })
        : null;
      pending = atRegistry?.pending ?? false;
      roidToLearn = null;

      const next: DomainWithLinks = {
        id: newId("domain", now),
        accountId,
        name,
        extensionId: extension.id,
        repositoryId: extension.repositoryId,
        registrantId: assigned.registrant,
        adminId: assigned.admin,
        techId: assigned.tech,
        billingId: assigned.billing,
        // RFC 5731 §3.2.1: a create the registry has yet to act on shows pendingCreate.
        statuses: atRegistry?.pending ? [...statuses, "pendingCreate" as ClientStatus] : statuses,
        serverStatuses,
        authInfo,
        autoRenew: input.auto_renew ?? true,
        expiresAt: atRegistry?.expiresAt ?? expiryAfter(now, period).toISOString(),
        lastTransferAt: null,
        // RFC 3915 §3.1: a registration starts its add grace period.
        rgp: withGracePeriod([], now, { status: "addPeriod", days: extension.graceAdd }),
        rgpEndsAt: null,
        deletedAt: null,
        ds: canonicalDs(input.ds ?? []),
        version: 1,
        createdAt: at,
        updatedAt: at,
        nameservers,
        zoneId: zone[0]?.id ?? null,
        pendingTransfer: false,
        transferLockedUntil: transferLockedUntil(at, null, extension.transferLockDays),
        // The registry's ROID when its answer gave it: the domain's `registry` from its creation on.
        ...(atRegistry?.roid ? { registry: { roid: atRegistry.roid, sponsor: null, missingSince: null, reconciledAt: null } } : {}),
      };
      next.rgpEndsAt = earliestEnd(next.rgp);
      if (atRegistry && !atRegistry.pending && !atRegistry.roid) roidToLearn = { id: next.id, repository: extension.repositoryId };
      const { nameservers: _names, zoneId: _zone, pendingTransfer: _pending, transferLockedUntil: _lock, registry: _registry, ...row } = next;
      const links = nameserverLinks(ctx, next, nameservers, external);
      return {
        next,
        write: db.insert(domains).values(row),
        // With the rows that record the contacts and hosts the registry now holds from us.
        alongside: [
          ...links.alongside,
          ...adoptionWrites(ctx, next, adopted, nameservers),
          ...(atRegistry?.rows ?? []),
          ...(atRegistry?.roid ? [registryDomainUpsert(db, { domainId: next.id, repositoryId: extension.repositoryId, roid: atRegistry.roid })] : []),
        ],
        // External name servers the registration creates count as the account's hosts.
        guards: [...contactAddressGuards(db, next.id, assigned), ...links.guards],
        answerExtras: { price: atRegistry?.price ?? price },
        afterFromDatabase: registryTransaction(atRegistry?.svTRID),
        // A pending registration answers 202: read back last, its Idempotency-Key record is the answer as sent (src/http/idempotency.ts).
        ...(atRegistry?.pending ? { readBack: domainCollection.find(db, { kind: "id", id: next.id }) } : {}),
      };
    },
    failure: (kind) => (kind === "unique" ? domainExists(name) : undefined),
  })) as Response;
  // The ROID <domain:creData> lacks, asked for once the 201 is on its way: never a round trip of the registration's own.
  const learn = roidToLearn as { id: string; repository: string } | null;
  if (learn && created.status === 201) c.executionCtx.waitUntil(learnRoid(c, learn.id, learn.repository, name));
  // 1001: the registry has yet to act (RFC 5730 §3): 202, the domain in pendingCreate.
  return (pending ? new Response(created.body, { status: 202, headers: created.headers }) : created) as never;
};

/**
 * After a registration the registry took (1000), its ROID (docs/registries.md, "The ROID of a
 * new registration"): one `<domain:info>` through the gateway, under the request's clTRID,
 * and one small write of the domain's registry row (no event: nothing of the domain changed,
 * the registry named it). Runs after the answer (waitUntil); a failure leaves the ROID to the
 * first poll message or reconciliation about the domain, as before, and is logged.
 */
async function learnRoid(c: Context<AppEnv>, domainId: string, repository: string, name: string): Promise<void> {
  try {
    const us = connectorClientId(c.env, repository);
    if (us === null) return;
    const asked = await askRegistry(c.env, repository, us, name, clientTransactionId(c.get("requestId")));
    if (asked.found !== "ours" || !asked.view.roid) return;
    await registryDomainUpsert(c.get("db"), { domainId, repositoryId: repository, roid: asked.view.roid });
  } catch (error) {
    // A registry out of reach is no failure here: reconciliation brings the ROID.
    const summary = error instanceof ApiError ? { kind: error.code, message: error.message } : safeErrorSummary(error);
    console.log(
      JSON.stringify({ level: "warn", service: "domain-api", request_id: c.get("requestId"), registry_roid: "not learned", domain: domainId, error: summary }),
    );
  }
}

/**
 * The registration at the repository's registry: the contacts it uses and its name servers'
 * hosts created there first when the registry does not hold them from us, then
 * `<domain:create>` with the period, hosts, contacts, authInfo, DS records and, when a price
 * was confirmed, that fee; hosts subordinate to the new name once it exists, then added to
 * it. Throws the registry's refusal as its problem; answers the registry's dates.
 */
async function registerAtRegistry(
  registry: DomainRegistry,
  ctx: WriteContext,
  held: RegistryHoldings,
  input: {
    name: string;
    period: number;
    nameservers: string[];
    assigned: { registrant: string | null; admin: string | null; tech: string | null; billing: string | null };
    authInfo: string;
    ds: { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
    price: { amount: string; currency: string } | null;
  },
) {
  const { name } = input;
  const contacts = await contactsAtRegistry(registry, ctx.db, contactIdsOf(input.assigned), ctx.at, held.contacts);
  const within = (ns: string) => ns.endsWith(`.${name}`);
  const outside = input.nameservers.filter((ns) => !within(ns));
  const inside = input.nameservers.filter(within);
  const hostRows = await hostsAtRegistry(registry, ctx.db, ctx.allAccounts, outside, ctx.at, held.hosts);
  const command = domainCreateCommand({
    name,
    years: input.period,
    nameservers: outside,
    contacts: registryContacts(input.assigned, contacts.registryIds),
    authInfo: input.authInfo,
    ds: dsData(input.ds),
    fee: input.price,
  });
  const done = await registry.send("domain:create", command, `Registering ${name} at the ${registry.repository} registry`);
  const creData = resDataOf(done.response, "domain:creData");
  // <domain:creData> has no ROID (RFC 5731 §3.2.1); an answer made from the registry's <domain:info> (the gateway's, after a
  // lost answer or our own earlier create's 2302) has it beside.
  const roid = resDataOf(done.response, "domain:infData")?.roid || null;
  const fee = done.response.extensions.find((e) => e.kind === "fee:creData");
  const charged = fee?.kind === "fee:creData" && fee.fees.length > 0 ? fee.fees.reduce((sum, f) => sum + Math.round(Number(f.amount) * 100), 0) : null;
  const rows = [...contacts.rows, ...hostRows];
  if (inside.length > 0 && done.outcome === "done") {
    rows.push(...(await hostsAtRegistry(registry, ctx.db, ctx.allAccounts, inside, ctx.at, held.hosts)));
    await registry.send(
      "domain:update:subordinate-hosts",
      { kind: "domain:update", name, add: { nameservers: inside } },
      `Adding ${name}'s own name servers at the registry`,
    );
  }
  return {
    pending: done.outcome === "pending",
    svTRID: done.svTRID,
    roid,
    expiresAt: apiTime(creData?.exDate) ?? undefined,
    price:
      charged !== null && fee?.kind === "fee:creData"
        ? { currency: fee.currency ?? input.price?.currency ?? "USD", amount: (charged / 100).toFixed(2) }
        : undefined,
    rows,
  };
}
