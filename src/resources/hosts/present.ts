import { toUnicodeName } from "../../dns/name";
import { objectStatus } from "../../registry/statuses";
import type { HostWithLinks } from "./queries";
import type { Host } from "./schemas";

/**
 * A host's API representation. Its own module, apart from the handlers, because a domain
 * write that creates or adopts hosts records their representation in the audit trail.
 */
export function presentHost(row: HostWithLinks): Host {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    addresses: row.addresses,
    domain: row.domainId,
    status: objectStatus(row.linked) as Host["status"],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
