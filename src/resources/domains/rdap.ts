// The domain's RDAP view (RFC 9083 §5.3) needs the objects it names: its name server hosts,
// its contacts, its sponsoring account (the registrar entity), and its repository's ROID
// suffix for the handle.
import { eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import { accounts } from "../../db/schema";
import { toUnicodeName } from "../../dns/name";
import { type HostView, type NameserverNameView, rdapDomainResponse, type RdapContext } from "../../rdap/views";
import { contactsWithIds } from "../contacts/queries";
import { presentContact } from "../contacts/present";
import { hostsWithNames, presentHost } from "../../db/hosts";
import { delegationPublished } from "../../registry/statuses";
import type { Domain } from "./schemas";
import { readTogether } from "../../db/write";

/**
 * Every name server of the domain: the host objects the viewer sees (its own account's),
 * and the bare names of the others (another account's host shows nothing but the name the
 * domain already shows).
 */
function nameserverViews(names: readonly string[], visible: readonly HostView[]): (HostView | NameserverNameView)[] {
  const seen = new Set(visible.map((host) => host.name));
  return [...visible, ...names.filter((name) => !seen.has(name)).map((name) => ({ name, unicode_name: toUnicodeName(name) }))];
}

export async function domainRdapView(db: Database, domain: Domain, context: RdapContext, lastTransferAt: string | null = null) {
  const contactIds = [domain.registrant, domain.contacts.admin, domain.contacts.tech, domain.contacts.billing].filter((id): id is string => id !== null);
  const [cat, [hostRows, contactRows, sponsorRows]] = await Promise.all([
    catalog(db),
    readTogether(db, [
      hostsWithNames(db, domain.nameservers),
      contactsWithIds(db, [...new Set(contactIds)]),
      db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, domain.account)),
    ]),
  ]);
  return rdapDomainResponse(
    domain,
    {
      roidSuffix: cat.repositories.get(domain.repository)?.roidSuffix ?? "",
      hosts: nameserverViews(domain.nameservers, hostRows.map(presentHost)),
      contacts: contactRows.map(presentContact),
      lastTransferAt,
      sponsor: sponsorRows[0] ?? null,
      delegationPublished: delegationPublished(domain.status),
    },
    context,
  );
}
