import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { tsigKeys, zones } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";

export type TsigKeyRow = typeof tsigKeys.$inferSelect;

/** Keys are found by id only (names are DNS names with dots, but ids are what paths carry). */
export function findTsigKey(db: Database, ref: ResourceRef) {
  return db
    .select()
    .from(tsigKeys)
    .where(eq(tsigKeys.id, ref.kind === "id" ? ref.id : ""));
}

export function listTsigKeys(db: Database, filters: { account?: string | undefined; zone?: string | undefined }, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(tsigKeys.accountId, filters.account));
  if (filters.zone !== undefined) conditions.push(sql`exists (select 1 from json_each(${tsigKeys.zones}) where value = ${filters.zone})`);
  if (page.after) conditions.push(gt(tsigKeys.id, page.after.id));
  return db
    .select()
    .from(tsigKeys)
    .where(and(...conditions))
    .orderBy(asc(tsigKeys.id))
    .limit(page.limit + 1);
}

/** Which of `names` are zones of the account (a customer's token sees only its own account's anyway). */
export function accountZones(db: Database, accountId: string, names: readonly string[]) {
  return db
    .select({ name: zones.name })
    .from(zones)
    .where(and(eq(zones.accountId, accountId), inArray(zones.name, names.length > 0 ? [...names] : [""])));
}

// The two reads below name the tables `main."…"` (src/access/visibility.ts): they are about
// the key's account, whatever the caller's token sees (a token narrowed to some zones must
// not pull a key from under the declared secondaries of the others), and they find that
// account through the key's id alone, so that they go in the key's own read batch.

/** The account of key `keyId`, as a scalar subquery. */
const accountOfKey = (keyId: string) => sql`(select account_id from main."tsig_keys" where id = ${keyId})`;

/** The zones of the key's account whose declared secondaries transfer with the key. */
export function zonesUsingKey(db: Database, keyId: string) {
  return db
    .select({ name: sql<string>`z.name` })
    .from(sql`main."zones" z`)
    .where(sql`z.account_id = ${accountOfKey(keyId)} and exists (select 1 from json_each(z.secondaries) where json_extract(value, '$.tsig_key') = ${keyId})`);
}

/** Which of `names` are zones of the key's account (a PATCH's `zones`). */
export function keyAccountZones(db: Database, keyId: string, names: readonly string[]) {
  return db
    .select({ name: sql<string>`z.name` })
    .from(sql`main."zones" z`)
    .where(sql`z.account_id = ${accountOfKey(keyId)} and z.name in ${names.length > 0 ? [...names] : [""]}`);
}
