// POST /v1/domains (RFC 5731 §3.2.1): register a name under an extension of the catalog,
// with its contacts, name servers and client statuses.
import type { RouteHandler } from "@hono/zod-openapi";
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
import { contactsById, type DomainWithLinks, zoneNamed } from "./queries";
import type * as routes from "./routes";
import { readTogether } from "../../db/write";

export const createDomain: RouteHandler<typeof routes.createDomain, AppEnv> = async (c) => {
  const input = c.req.valid("json");
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

  // The answer is the domain with `price` (the write routine's answer extra: PricedDomainSchema).
  return (await createResource(c, domainCollection, {
    async create(ctx) {
      const { db, allAccounts, now, at } = ctx;
      const accountId = await sponsorFor(c, input.account);
      // Names are one namespace across accounts, and name servers are names: the taken name
      // and the name servers' hosts and superordinate domains are looked up in every account.
      const [taken, contactRows, knownHosts, managed, zone, adopted] = await readTogether(db, [
        domainsNamed(allAccounts, name ? [name] : []),
        contactsById(db, contactIdsOf(assigned)),
        hostsNamed(allAccounts, nameservers),
        domainsNamed(allAccounts, superordinateCandidates(nameservers, cat.extensions)),
        zoneNamed(db, name, accountId),
        adoptableHosts(db, name, accountId),
      ]);

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
        statuses,
        serverStatuses,
        authInfo: input.auth_info ?? generateAuthInfo(),
        autoRenew: input.auto_renew ?? true,
        expiresAt: expiryAfter(now, period).toISOString(),
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
      };
      next.rgpEndsAt = earliestEnd(next.rgp);
      const { nameservers: _names, zoneId: _zone, pendingTransfer: _pending, transferLockedUntil: _lock, ...row } = next;
      const links = nameserverLinks(ctx, next, nameservers, external);
      return {
        next,
        write: db.insert(domains).values(row),
        alongside: [...links.alongside, ...adoptionWrites(ctx, next, adopted, nameservers)],
        // External name servers the registration creates count as the account's hosts.
        guards: [...contactAddressGuards(db, next.id, assigned), ...links.guards],
        answerExtras: { price },
      };
    },
    failure: (kind) => (kind === "unique" ? domainExists(name) : undefined),
  })) as never;
};
