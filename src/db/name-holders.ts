// Who holds the names around a zone name (src/registry/zone-ownership.ts), read across
// accounts: the rules are about other accounts' zones and domains, which the caller does
// not see. Each read is index probes: zones and domains by their unique names (the name
// and its ancestors), and the zones below by one range of zones_reversed_name_idx.
import { and, eq, gt, inArray, lt, ne, sql, type SQL } from "drizzle-orm";
import { reversedName } from "../dns/name";
import { nameAndAncestors } from "../registry/zone-ownership";
import type { Database } from "./client";
import { accounts, domains, zones } from "./schema";

/** Zones strictly below `name`: one range of the reversed-name index. */
function zonesBelowCondition(name: string): SQL {
  const reversed = reversedName(name);
  return and(gt(zones.reversedName, `${reversed}.`), lt(zones.reversedName, `${reversed}/`))!;
}

/**
 * The reads a zone claim needs, as one batch: the role of the account that would hold
 * it, the zones at the name and above it, the first zone below it of another account
 * than `accountId`, and the domains at the name and above it.
 */
export function nameHolderReads(db: Database, name: string, accountId: string) {
  const names = nameAndAncestors(name);
  return [
    db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId)),
    db.select({ id: zones.id, name: zones.name, accountId: zones.accountId }).from(zones).where(inArray(zones.name, names)),
    db
      .select({ name: zones.name, accountId: zones.accountId })
      .from(zones)
      .where(and(zonesBelowCondition(name), ne(zones.accountId, accountId)))
      .limit(1),
    db.select({ name: domains.name, accountId: domains.accountId }).from(domains).where(inArray(domains.name, names)),
  ] as const;
}

/**
 * Guard condition (src/db/guards.ts): no zone of another account at, above or below
 * `name`, and no domain of another account at it or above it, at the guard's turn in the
 * batch. Two claims made at once (Bob's `org` while Alice's `alice.org`) cannot both
 * commit: the second batch sees the first's zone.
 */
export function noOtherHolder(name: string, accountId: string): SQL {
  const names = sql.join(
    nameAndAncestors(name).map((n) => sql`${n}`),
    sql`, `,
  );
  const reversed = reversedName(name);
  return sql`not exists (select 1 from zones z where z.name in (${names}) and z.account_id <> ${accountId})
    and not exists (select 1 from zones z where z.reversed_name > ${`${reversed}.`} and z.reversed_name < ${`${reversed}/`} and z.account_id <> ${accountId})
    and not exists (select 1 from domains d where d.name in (${names}) and d.account_id <> ${accountId})`;
}
