// A domain's API representation: the list item, and the full domain with its `auth_info`.
import { toUnicodeName } from "../../dns/name";
import { domainStatus, serverStatusesOf } from "../../registry/statuses";
import type { DomainWithLinks } from "./queries";
import type { Domain, DomainListItem } from "./schemas";

export function presentDomainListItem(row: DomainWithLinks): DomainListItem {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    extension: row.extensionId,
    repository: row.repositoryId,
    status: domainStatus(row.statuses, row.nameservers.length, serverStatusesOf(row)),
    registrant: row.registrantId,
    contacts: { admin: row.adminId, tech: row.techId, billing: row.billingId },
    nameservers: row.nameservers,
    auto_renew: row.autoRenew,
    expires_at: row.expiresAt,
    rgp_status: row.rgp,
    transfer_locked_until: row.transferLockedUntil,
    ds: row.ds,
    registry: row.registry
      ? { roid: row.registry.roid, registrar: row.registry.sponsor, missing_since: row.registry.missingSince, reconciled_at: row.registry.reconciledAt }
      : null,
    zone: row.zoneId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function presentDomain(row: DomainWithLinks): Domain {
  const { zone, created_at, updated_at, ...rest } = presentDomainListItem(row);
  return { ...rest, auth_info: row.authInfo, zone, created_at, updated_at };
}
