// A record write reads once (docs/dns.md#records): the zone or the record, the records at
// the owner, and what the zone integrity check (integrity.ts) looks at go in one read
// batch, before the write knows the zone's name, the record's owner or the apex name
// servers. So the names the check's lookups pass through are worked out in SQL from what
// the same statement reads: the owners written, the in-zone targets of the written record
// and of the apex NS records, each with its ancestors up to the apex and the wildcards
// beside them (`neighbourhood` of src/dns/zone-integrity.ts, in SQL). The check then takes
// its rows from what the batch brought; a name it needs that the batch did not cover (none
// on any path the tests know) is read on its own, so the check never decides on less than
// it would have read. The write batch then asserts that none of it changed (its guard).
//
// Rows read stay linear in what the request names: each name is one seek of
// records_identity_unique (zone_id, name, …), each "is anything below" one seek of
// records_owner_order_idx, whatever the depth of the name (a name of n labels is 2n + 2
// names, as the check itself reads).
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { Statement } from "../../db/write";
import { normalizeName } from "../../dns/name";
import { rdataNames, recordTypeOf } from "../../dns/rdata";
import { ALIAS_TYPES, TARGET_CHECKED_TYPES } from "../../dns/zone-integrity";
import { databaseSource, type IntegritySource, type ReadRecord } from "./integrity";

/**
 * What a record write's read batch reads for its integrity check. Each SQL expression may
 * use `z` (the zone's row: `z.id`, `z.name`) and `c` (the record written, for an update
 * or a delete: `c.name`, `c.type`, `c.content`, `c.zone_id`; null columns for a create).
 */
export interface IntegrityReadPlan {
  /** A query of one row, (id, name): the zone written (`zoneOfBody`, `zoneOfRecord`). */
  zone: SQL;
  /** The id of the record written, when it exists (an update, a delete). */
  record?: string;
  /** Absolute names (lower case, no trailing dot; null for none) whose lookups the check follows: owners and targets written. */
  seeds: SQL[];
  /** Whether the check reads the zone whole: known from the request, or a condition in SQL that holds whenever it may. */
  whole: boolean | SQL;
}

/** The zone a record body names, by id or by name. */
export function zoneOfBody(ref: { kind: "id"; id: string } | { kind: "name"; name: string }): SQL {
  return ref.kind === "id" ? sql`select id, name from zones where id = ${ref.id}` : sql`select id, name from zones where name = ${ref.name}`;
}

/** The zone of the record written (`c`). */
export const zoneOfRecord = sql`select id, name from zones where id = (select zone_id from cur)`;

/** The record's own owner, absolute. */
export const currentOwner = sql`case when c.name = '@' then z.name else c.name || '.' || z.name end`;

/**
 * The owner a body's `name` gives (src/dns/name.ts resolveOwnerName): absolute with a
 * trailing dot; a name already inside the zone; else relative to the zone. Null when the
 * name is not one (the write answers 422 on what it read).
 */
export function ownerSeed(input: string | undefined): SQL {
  if (input === undefined || input === "@" || input === "") return sql`z.name`;
  const normalized = normalizeName(input, { underscore: true, wildcard: true, relative: !input.endsWith(".") });
  if (!normalized.ok) return sql`null`;
  const name = normalized.name;
  if (input.endsWith(".")) return sql`${name}`;
  return sql`(case when ${name} = z.name or substr(${name}, -length(z.name) - 1) = '.' || z.name then ${name} else ${name} || '.' || z.name end)`;
}

/** The names `content` points at, read as each of `types` (those it parses as). */
export function targetSeeds(types: readonly string[], content: string): SQL[] {
  const names = new Set<string>();
  for (const input of types) {
    const type = recordTypeOf(input);
    if (!type.ok || !TARGET_CHECKED_TYPES.includes(type.type)) continue;
    for (const name of rdataNames(type.type, content)) names.add(name.toLowerCase());
  }
  return [...names].map((name) => sql`${name}`);
}

/** Whether a record of `type` has targets the check follows. */
export function isTargeted(type: string): boolean {
  const checked = recordTypeOf(type);
  return checked.ok && TARGET_CHECKED_TYPES.includes(checked.type);
}

/** Whether a record of `type` changes the zone's structure when added: an alias or a DNAME (src/dns/zone-integrity.ts changesStructure). */
export function isAlias(type: string): boolean {
  const checked = recordTypeOf(type);
  return checked.ok && ALIAS_TYPES.includes(checked.type);
}

/** The target of the stored record's content, as an NS, MX or SRV holds it: its last field. */
export const currentTarget = sql`lower(rtrim(substr(c.content, length(rtrim(c.content, replace(c.content, ' ', ''))) + 1), '.'))`;

/**
 * The one statement: the common table expressions (the zone, the record, the seeds and
 * the apex name servers' targets; those inside the zone relative to it, `starts`; the
 * names their lookups pass through, `walk`: from each start up to the apex, a label at a
 * time, each with the wildcard below it, gathering on the way the start's key in
 * records_owner_order_idx, its labels reversed and space-joined: src/dns/name-order.ts),
 * then its rows, each
 * tagged: `record` (at a name read: the name is read), `name` (a name read where no record
 * is; `below` for a start: whether anything lies below it) and `whole` (every record of
 * the zone, when `whole` holds).
 */
function lookupStatement(plan: IntegrityReadPlan): SQL {
  const current =
    plan.record === undefined ? sql`select null, null, null, null where 0` : sql`select name, type, content, zone_id from records where id = ${plan.record}`;
  const seeds = plan.seeds.map((seed) => sql`select ${seed} from zone_ref z left join cur c on 1`);
  // The apex name servers' targets: NS content is one absolute name.
  seeds.push(sql`select lower(rtrim(r.content, '.')) from zone_ref z cross join records r on r.zone_id = z.id and r.name = '@' and r.type = 'NS'`);
  // Whether the zone is read whole: a literal when the request says, else its condition, worked out once.
  const whole = plan.whole === true ? sql`1` : plan.whole === false ? sql`0` : sql`(select w from reads_whole)`;
  const decided =
    typeof plan.whole === "boolean"
      ? sql``
      : sql`,
  reads_whole(w) as materialized (select coalesce((${plan.whole}), 0))`;
  const columns = sql`id, version, name, type, content, ttl, null as below`;
  // The names (read even when the zone is read whole on a condition: the check then takes every row from the whole).
  const byName = sql`
  union all
  select case when r.id is null then 'name' else 'record' end, r.id, r.version, x.n, r.type, r.content, r.ttl, null
  from (select at as n from walk union all select case when at = '@' then '*' else '*.' || at end from walk) x
  left join records r on r.zone_id = (select id from zone_ref) and r.name = x.n
  union all
  select 'name', null, null, start, null, null, null,
    exists(select 1 from records r where r.zone_id = (select id from zone_ref) and r.owner_order > key || ' ' and r.owner_order < key || '!')
  from walk where at = '@' and key <> ''`;
  return sql`with recursive
  cur(name, type, content, zone_id) as materialized (${current}),
  zone_ref(id, name) as materialized (${plan.zone}),
  seeds(fqdn) as (${sql.join(seeds, sql` union all `)}),
  starts(n) as materialized (
    select case when s.fqdn = z.name then '@' else substr(s.fqdn, 1, length(s.fqdn) - length(z.name) - 1) end
    from seeds s join zone_ref z on s.fqdn = z.name or substr(s.fqdn, -length(z.name) - 1) = '.' || z.name
  ),
  walk(start, at, key) as (
    select n, n, '' from starts
    union all
    select start,
      case when instr(at, '.') > 0 then substr(at, instr(at, '.') + 1) else '@' end,
      (case when instr(at, '.') > 0 then substr(at, 1, instr(at, '.') - 1) else at end) || (case when key = '' then '' else ' ' || key end)
    from walk where at <> '@'
  )${decided}
  select 'whole' as kind, ${columns} from records where zone_id = (case when ${whole} then (select id from zone_ref) end)${plan.whole === true ? sql`` : byName}`;
}

interface LookupRow extends ReadRecord {
  kind: "whole" | "record" | "name";
  below: number | null;
}

/** The statement of the read batch that `prefetchedSource` takes the result of. */
export function integrityReads(db: Database, plan: IntegrityReadPlan): Statement[] {
  return [
    db
      .select({
        kind: sql<LookupRow["kind"]>`t.kind`,
        id: sql<string>`t.id`,
        version: sql<number>`t.version`,
        name: sql<string>`t.name`,
        type: sql<string>`t.type`,
        content: sql<string>`t.content`,
        ttl: sql<number>`t.ttl`,
        below: sql<number | null>`t.below`,
      })
      .from(sql`(${lookupStatement(plan)}) as t`),
  ];
}

/** The SQL condition under which a write may read the zone whole: a wildcard alias the check's lookups pass. */
export const wildcardAliasNear = sql`exists(select 1 from walk x cross join records r on r.zone_id = (select id from zone_ref) and r.name = (case when x.at = '@' then '*' else '*.' || x.at end) and r.type = 'CNAME')`;

/**
 * The check's source: what the batch brought (`results`: those of `integrityReads`, in
 * order), and the database for anything it did not.
 */
export function prefetchedSource(db: Database, zoneId: string, results: readonly unknown[]): IntegritySource {
  const fallback = databaseSource(db, zoneId);
  const rows: ReadRecord[] = [];
  const wholeRows: ReadRecord[] = [];
  const covered = new Set<string>();
  const ids = new Set<string>();
  const below = new Map<string, boolean>();
  for (const { kind, below: under, ...row } of results[0] as LookupRow[]) {
    if (kind === "whole") wholeRows.push(row);
    else if (kind === "record") {
      // A name can come twice (a start at a wildcard name is also the wildcard of its parent): its records once.
      if (!ids.has(row.id)) rows.push(row);
      ids.add(row.id);
      covered.add(row.name);
    } else {
      covered.add(row.name);
      if (under !== null) below.set(row.name, under === 1);
    }
  }
  // No row read whole: the condition did not hold (a write that reads the zone whole has a record in it).
  const whole = wholeRows.length > 0 ? wholeRows : null;
  return {
    async recordsAt(names) {
      const wanted = new Set(names);
      if (whole) return whole.filter((r) => wanted.has(r.name));
      const missing = names.filter((name) => !covered.has(name));
      const found = rows.filter((r) => wanted.has(r.name));
      return missing.length === 0 ? found : [...found, ...(await fallback.recordsAt(missing))];
    },
    async hasDescendants(name) {
      if (whole) return whole.some((r) => (name === "@" ? r.name !== "@" : r.name.endsWith(`.${name}`)));
      return below.get(name) ?? fallback.hasDescendants(name);
    },
    wholeZone: async () => whole ?? fallback.wholeZone(),
  };
}

/**
 * When removing the record `c` (a delete; a PATCH that moves it) may need the zone whole
 * (src/dns/zone-integrity.ts changesStructure, and integrity.ts for a name left empty): a
 * DNAME or a delegation removed, an alias or a DNAME written in its place (`addsAlias`:
 * when the new type is the stored one), or its name left empty near a wildcard alias
 * (`leavesName`: the write may move it off its name).
 */
export function removalReadsWhole(id: string, options: { addsAlias: boolean; leavesName: boolean }): SQL {
  const structure = sql`exists(select 1 from cur c where c.type = 'DNAME' or (c.type = 'NS' and c.name <> '@')${options.addsAlias ? sql` or c.type in ('CNAME', 'DNAME')` : sql``})`;
  if (!options.leavesName) return structure;
  const emptied = sql`not exists(select 1 from records o where o.zone_id = (select id from zone_ref) and o.name = (select name from cur) and o.id <> ${id})`;
  return sql`${structure} or (${emptied} and ${wildcardAliasNear})`;
}
