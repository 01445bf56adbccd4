// The SQL mirrors of the registry's domain rules, for the reads that compute or filter in
// D1 rather than after it. The rules themselves are pure functions in src/registry/; each
// mirror here names the rule it mirrors, and test/registry-rules-sql.test.ts runs it
// against D1 over a grid of dates and statuses and compares it with that rule. (The
// lifecycle sweep's due queries hold three more, in src/jobs/sweep.ts, held
// to their rules by test/registry-lock.test.ts.)
import { and, eq, type SQL, sql } from "drizzle-orm";
import { isLockStatus } from "../registry/statuses";
import { domains } from "./schema";

/**
 * transferLockedUntil (src/registry/lifecycle.ts) of SQL operands: `lockDays` days after
 * the last transfer, or after the registration when there was none; null without a lock.
 */
export function transferLockedUntilSql(createdAt: SQL, lastTransferAt: SQL, lockDays: SQL): SQL<string | null> {
  return sql<
    string | null
  >`(case when ${lockDays} > 0 then strftime('%Y-%m-%dT%H:%M:%fZ', coalesce(${lastTransferAt}, ${createdAt}), '+' || ${lockDays} || ' days') end)`;
}

/** A domain row's transfer lock: transferLockedUntil with its extension's `transfer_lock_days`. */
export const domainTransferLockedUntil = sql<string | null>`(select ${transferLockedUntilSql(
  sql`"domains"."created_at"`,
  sql`"domains"."last_transfer_at"`,
  sql`e.transfer_lock_days`,
)} from extensions e where e.id = "domains"."extension_id")`;

/**
 * DomainState.pendingTransfer (src/registry/statuses.ts): a transfer of the domain waits for
 * the losing account: between two accounts here, or asked by another registrar at a
 * connected registry (registry_transfers, drizzle/0042).
 */
export const domainPendingTransfer = sql<boolean>`(exists (select 1 from main.transfers t where t.domain_id = "domains"."id" and t.status = 'pending') or exists (select 1 from main.registry_transfers rt where rt.domain_id = "domains"."id" and rt.status = 'pending'))`;

/** pendingDelete (serverStatusesOf): the domain is deleted, in redemption. */
const domainPendingDelete = sql`"domains"."deleted_at" is not null`;

const hasNameservers = sql`exists (select 1 from domain_nameservers dn where dn.domain_id = "domains"."id")`;

/**
 * The domains showing `status`: domainStatus of the client statuses, the name servers and
 * serverStatusesOf (src/registry/statuses.ts), for every status a list filter may name
 * (DOMAIN_STATUS_FILTERS).
 */
export function domainStatusCondition(status: string): SQL {
  if (status === "inactive") return sql`not ${hasNameservers}`;
  if (status === "pendingDelete") return domainPendingDelete;
  if (status === "pendingTransfer") return domainPendingTransfer;
  if (status === "ok") {
    return and(eq(domains.statuses, []), eq(domains.serverStatuses, []), hasNameservers, sql`not ${domainPendingDelete}`, sql`not ${domainPendingTransfer}`)!;
  }
  if (isLockStatus(status)) return sql`exists (select 1 from json_each("domains"."server_statuses") where value = ${status})`;
  return sql`exists (select 1 from json_each("domains"."statuses") where value = ${status})`;
}

/** lockedAgainstUpdate (src/registry/statuses.ts) of a domains row: it has serverUpdateProhibited. */
export const domainLockedAgainstUpdate = domainStatusCondition("serverUpdateProhibited");

/**
 * Guard condition: none of these domains is lockedAgainstUpdate (the registry lock as it
 * binds hosts, src/registry/host-lock.ts), so a lock the operator sets between a host
 * write's read and its batch still refuses the write.
 */
export function noneLockedAgainstUpdate(domainIds: readonly string[]): SQL {
  const ids = sql.join(
    domainIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql`not exists (select 1 from main.domains where "domains"."id" in (${ids}) and ${domainLockedAgainstUpdate})`;
}
