// Who sees what (docs/accounts.md), enforced in one place: the D1 binding a request's queries
// go through. For a customer's token, every SELECT the app prepares is prefixed with
// common table expressions that shadow the owned tables by their own names —
//
//   WITH "contacts" AS NOT MATERIALIZED (SELECT * FROM main."contacts" WHERE account_id = 'acc_…'), …
//   SELECT … FROM "contacts" …
//
// — so a query, however it is written and whatever it joins or nests, reads only the
// viewer's rows: another account's contact, domain, host, zone, record, event, token, TSIG
// key, webhook (with its deliveries) or account does not exist for it (404, absent from every
// list and sub-listing, never 403).
// NOT MATERIALIZED lets SQLite flatten each expression into the query, so the indexes are
// used as before, with `account_id` leading (schema: `*_account_idx`). Writes (INSERT,
// UPDATE, DELETE, INSERT … SELECT) are not rewritten: they act on rows a scoped read
// found, and their guards run in the batch. A query that must see across accounts —
// name uniqueness, a nameserver named by another account's host — says so by naming the
// table `main."hosts"`, which no expression shadows; each such place is commented.
// Operators' requests are not rewritten: they see every account.
import { isNarrow, type TokenRights, visibleDomainNames, visibleZoneNames } from "./token-rights";

/** What a token that does not see everything sees (visibilityOf decides it from its rights). */
export interface Visibility {
  /** The viewer's account; null for an operator's narrowed token (any account's named zones/domains). */
  accountId: string | null;
  /** Zone names the token is narrowed to: null = every zone of the account. */
  zones: readonly string[] | null;
  /** Domain names the token is narrowed to: null = every domain of the account. */
  domains: readonly string[] | null;
}

/**
 * What a caller with these rights sees of D1, or null when it sees everything: an operator's
 * unrestricted token. A customer's token sees its account's objects; any token narrowed to
 * zones or domains (an operator's too) only those, by name.
 */
export function visibilityOf(rights: TokenRights): Visibility | null {
  const operator = rights.role === "operator";
  if (operator && !isNarrow(rights)) return null;
  return { accountId: operator ? null : rights.accountId, zones: visibleZoneNames(rights), domains: visibleDomainNames(rights) };
}

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function nameIn(names: readonly string[] | null): string {
  if (names === null) return "";
  return names.length === 0 ? " AND 0" : ` AND name IN (${names.map(literal).join(", ")})`;
}

/** The shadowing expressions for one viewer, in dependency order (records after zones). */
export function visibilityPrefix(v: Visibility): string {
  const ofAccount = v.accountId === null ? "1" : `account_id = ${literal(v.accountId)}`;
  const owned = (table: string, extra = "") => `"${table}" AS NOT MATERIALIZED (SELECT * FROM main."${table}" WHERE ${ofAccount}${extra})`;
  const narrow = v.zones !== null || v.domains !== null;
  const expressions = [
    `"accounts" AS NOT MATERIALIZED (SELECT * FROM main."accounts" WHERE ${v.accountId === null ? "1" : `id = ${literal(v.accountId)}`})`,
    owned("contacts", narrow ? " AND 0" : ""),
    owned("domains", nameIn(v.domains)),
    owned("hosts", narrow ? " AND 0" : ""),
    owned("zones", nameIn(v.zones)),
    `"records" AS NOT MATERIALIZED (SELECT * FROM main."records" WHERE zone_id IN (SELECT id FROM "zones"))`,
    owned(
      "events",
      narrow ? ` AND (resource_id IN (SELECT id FROM "zones") OR resource_id IN (SELECT id FROM "domains") OR resource_id IN (SELECT id FROM "records"))` : "",
    ),
    // The archive's index: the account's objects, whatever names a token is narrowed to (the
    // archive routes refuse such tokens; the events list's 410 check looks account-wide).
    owned("event_archives"),
    owned("api_tokens"),
    // TSIG keys: their account's only, and none for a token narrowed to zones or domains.
    owned("tsig_keys", narrow ? " AND 0" : ""),
    owned("webhooks", narrow ? " AND 0" : ""),
    `"webhook_delivery_records" AS NOT MATERIALIZED (SELECT * FROM main."webhook_delivery_records" WHERE webhook_id IN (SELECT id FROM "webhooks"))`,
  ];
  return expressions.join(",\n  ");
}

const SELECT = /^\s*select\b/i;
const WITH = /^\s*with\b(\s+recursive\b)?/i;

/** The statement with the viewer's expressions in front, when it is a read. */
export function scopeStatement(sql: string, prefix: string): string {
  if (SELECT.test(sql)) return `WITH ${prefix}\n${sql}`;
  const withClause = WITH.exec(sql);
  if (withClause) {
    // The statement's own expressions come after ours and may use them.
    return `${withClause[0]} ${prefix},\n${sql.slice(withClause[0].length)}`;
  }
  return sql;
}

/** The D1 database (or session) as the viewer sees it. */
export function visibleDatabase<T extends D1Database | D1DatabaseSession>(db: T, v: Visibility): T {
  const prefix = visibilityPrefix(v);
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare") return (sql: string) => (value as (s: string) => D1PreparedStatement).call(target, scopeStatement(sql, prefix));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
