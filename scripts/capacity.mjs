#!/usr/bin/env node
// `npm run capacity`: what one D1 database (at most 10 GB) holds, measured on this
// project's own schema (docs/capacity.md).
//
//   node scripts/capacity.mjs [--rows N] [--quick] [--json]
//
// Loads the real migrations (drizzle/*.sql, as wrangler applies them) into D1's own
// engine, run locally by miniflare (the SQLite that workerd embeds, in memory), fills each
// table with N representative rows (the OpenAPI examples of the collections,
// src/resources/<collection>/examples.ts, which are taken from the service's answers, with
// ids and names made unique), and measures the database's size after each fill as D1
// reports it (`meta.size_after`: pages of tables and indexes alike; D1 does not offer
// SQLite's dbstat). From the bytes per row it prints how many domains, zones and records
// one database holds, and how long events last at 1, 10 and 50 writes a second: without
// the archive (until the database is full) and with it (the hot window, EVENT_HOT_DAYS
// days, is all D1 keeps). --quick: 200 rows a table, a few seconds (npm test checks the
// shape of its figures); the default, 3 000, takes about half a minute and gives figures
// within a few percent. --json prints the figures as JSON.
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { build } from "esbuild";
import { Miniflare } from "miniflare";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** D1's largest database: 10 GB, taken as 10^10 bytes (the smaller reading of "GB"). */
const DATABASE_LIMIT = 10_000_000_000;
const WRITE_RATES = [1, 10, 50];
const HOT_DAYS = 30;
const DAY_SECONDS = 86_400;
/** Rows a filling statement inserts (passed as one JSON array: D1 binds at most 100 parameters). */
const CHUNK = 250;

const USAGE = "usage: node scripts/capacity.mjs [--rows N] [--quick] [--json]";
let options;
try {
  options = parseArgs({
    options: { rows: { type: "string" }, quick: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  }).values;
} catch (error) {
  console.error(`[capacity] ${error.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const ROWS = options.rows !== undefined ? Number(options.rows) : options.quick ? 200 : 3000;
if (!Number.isInteger(ROWS) || ROWS < 10 || ROWS > 1_000_000) {
  console.error(`[capacity] --rows must be a whole number from 10 to 1000000\n${USAGE}`);
  process.exit(2);
}

/** The collections whose OpenAPI examples fill the tables. */
const EXAMPLES_OF = ["contacts", "domains", "hosts", "zones", "records"];

/** The OpenAPI examples: real representations, bundled from TypeScript on the fly. */
async function examples() {
  const bundle = await build({
    stdin: { contents: EXAMPLES_OF.map((collection) => `export * from "./${collection}/examples";`).join("\n"), resolveDir: join(ROOT, "src/resources") },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`);
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
let clock = Date.parse("2026-01-01T00:00:00.000Z");
/** A ULID-shaped id of the kind (`dom_…`): its time part grows, as the service's do. */
function id(prefix) {
  clock += 37;
  let time = "";
  for (let t = clock, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const random = [...randomBytes(16)].map((b) => CROCKFORD[b % 32]).join("");
  return `${prefix}${time}${random}`;
}
const stamp = () => new Date(clock).toISOString();

const mf = new Miniflare({
  modules: true,
  script: "export default { fetch() { return new Response(null, { status: 404 }) } }",
  d1Databases: { DB: "capacity" },
});
const db = await mf.getD1Database("DB");

async function size() {
  return (await db.prepare("select 1").run()).meta.size_after;
}

/** A row to insert into a table (`fill` writes them a chunk per statement, in order). */
function insert(table, row) {
  return { table, row };
}

/** Inserts the rows, a chunk per statement (json_each over one JSON array); returns the database's growth in bytes. */
async function fill(rows) {
  const before = await size();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const { table } = chunk[0];
    const columns = Object.keys(chunk[0].row);
    const values = columns.map((column) => `json_extract(value, '$.${column}')`).join(", ");
    await db
      .prepare(`insert into "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) select ${values} from json_each(?) order by key`)
      .bind(JSON.stringify(chunk.map((r) => r.row)))
      .run();
  }
  return (await size()) - before;
}

const json = (value) => (value === null || value === undefined ? null : JSON.stringify(value));

try {
  for (const migration of await readD1Migrations(join(ROOT, "drizzle"))) await db.batch(migration.queries.map((q) => db.prepare(q)));
  const emptySize = await size();
  const ex = await examples();
  const accountId = id("acc_");
  await fill([insert("accounts", { id: accountId, name: "Capacity Reseller", role: "customer", status: "active", created_at: stamp(), updated_at: stamp() })]);

  const tables = {};
  const measure = async (table, rows) => {
    const bytes = await fill(rows);
    tables[table] = { table, rows: rows.length, bytes, bytes_per_row: bytes / rows.length };
    return tables[table];
  };
  const range = (n = ROWS) => Array.from({ length: n }, (_, i) => i);

  // Accounts and tokens: a handful per customer, but measured like the rest.
  await measure(
    "accounts",
    range().map((i) =>
      insert("accounts", { id: id("acc_"), name: `Customer ${i} Ltd`, role: "customer", status: "active", created_at: stamp(), updated_at: stamp() }),
    ),
  );
  const contactIds = [];
  const c = ex.CONTACT_EXAMPLE;
  await measure(
    "contacts",
    range().map((i) => {
      const contact = id("con_");
      contactIds.push(contact);
      return insert("contacts", {
        id: contact,
        account_id: accountId,
        name: `${c.name} ${i}`,
        name_key: `${c.name} ${i}`.toLowerCase(),
        organization: c.organization,
        email: `person${i}@example.org`,
        email_key: `person${i}@example.org`,
        phone: c.phone,
        fax: c.fax,
        street: json(c.address.street),
        city: c.address.city,
        state: c.address.state,
        postal_code: c.address.postal_code,
        country_code: c.address.country_code,
        privacy: 0,
        created_at: stamp(),
        updated_at: stamp(),
      });
    }),
  );
  const hostIds = [];
  const hostRows = range().map((i) => {
    const host = id("hst_");
    hostIds.push(host);
    const name = `ns${i % 2}.dns${i}.example.net`;
    return insert("hosts", {
      id: host,
      account_id: accountId,
      name,
      reversed_name: name.split(".").reverse().join("."),
      addresses: json([]),
      created_at: stamp(),
      updated_at: stamp(),
    });
  });
  await measure("hosts", hostRows);
  const domainIds = [];
  const d = ex.DOMAIN_EXAMPLE;
  await measure(
    "domains",
    range().map((i) => {
      const domain = id("dom_");
      domainIds.push(domain);
      const contact = contactIds[i];
      return insert("domains", {
        id: domain,
        account_id: accountId,
        name: `customer-${i}-example.com`,
        extension_id: "com",
        repository_id: "verisign",
        registrant_id: contact,
        admin_id: contact,
        tech_id: contact,
        statuses: json(d.status.filter((s) => s !== "ok")),
        auth_info: d.auth_info,
        auto_renew: 1,
        expires_at: d.expires_at,
        created_at: stamp(),
        updated_at: stamp(),
      });
    }),
  );
  await measure(
    "domain_nameservers",
    range(ROWS * 2).map((i) =>
      insert("domain_nameservers", { domain_id: domainIds[i >> 1], host_id: hostIds[(i >> 1) ^ (i & 1)] ?? hostIds[0], position: i & 1 }),
    ),
  );
  const zoneIds = [];
  const z = ex.ZONE_EXAMPLE;
  await measure(
    "zones",
    range().map((i) => {
      const zone = id("zon_");
      zoneIds.push(zone);
      return insert("zones", {
        id: zone,
        account_id: accountId,
        name: `customer-${i}-example.com`,
        // The labels in reverse order (drizzle/0015's trigger refuses a zone row without them).
        reversed_name: `com.customer-${i}-example`,
        default_ttl: z.default_ttl,
        soa_mname: z.soa.mname,
        soa_rname: z.soa.rname,
        soa_serial: z.soa.serial,
        soa_refresh: z.soa.refresh,
        soa_retry: z.soa.retry,
        soa_expire: z.soa.expire,
        soa_minimum: z.soa.minimum,
        created_at: stamp(),
        updated_at: stamp(),
      });
    }),
  );
  // Ten records a zone (names and addresses varied as zones vary them).
  const r = ex.RECORD_EXAMPLE;
  const names = ["www", "mail", "api", "shop", "blog", "cdn", "vpn", "dev", "app", "status"];
  await measure(
    "records",
    range().map((i) =>
      insert("records", {
        id: id("rec_"),
        zone_id: zoneIds[Math.floor(i / 10)],
        // Owner names are kept relative to the zone; owner_order is their labels reversed.
        name: names[i % 10],
        owner_order: names[i % 10],
        type: r.type,
        content: `192.0.2.${i % 250}`,
        ttl: r.ttl,
        comment: i % 4 === 0 ? r.comment : null,
        created_at: stamp(),
        updated_at: stamp(),
      }),
    ),
  );
  // Idempotency keys: kept 24 hours, one per POST that sends the header.
  await measure(
    "idempotency_keys",
    range().map(() =>
      insert("idempotency_keys", {
        id: randomBytes(32).toString("hex"),
        request_hash: randomBytes(32).toString("hex"),
        state: "done",
        status: 201,
        headers: json({ "Content-Type": "application/json", Location: `/v1/records/${id("rec_")}`, ETag: '"1-3f2a9c"' }),
        body: json({ ...r, id: id("rec_") }),
        created_at: stamp(),
        expires_at: stamp(),
      }),
    ),
  );

  // Events: one per resource a write changes, each kind's representation before and after.
  const { auth_info: _secret, ...domainShown } = d;
  const EVENT_KINDS = [
    // [kind, share of writes, type, operation, before, after]
    ["record create", 0.3, "record", "create", null, r],
    ["record update", 0.2, "record", "update", r, { ...r, content: "192.0.2.11" }],
    ["record delete", 0.1, "record", "delete", r, null],
    ["domain create", 0.1, "domain", "create", null, domainShown],
    ["domain update", 0.15, "domain", "update", domainShown, { ...domainShown, auto_renew: false }],
    ["contact update", 0.05, "contact", "update", c, { ...c, phone: "+44.2079460000" }],
    ["zone update", 0.05, "zone", "update", z, { ...z, default_ttl: 1800 }],
    ["host create", 0.05, "host", "create", null, ex.HOST_EXAMPLE],
  ];
  let seq = 0;
  const eventRow = (type, operation, before, after) =>
    insert("events", {
      seq: ++seq,
      id: id("evt_"),
      account_id: accountId,
      at: stamp(),
      actor: "tok_01M8188N0B8ZK1C9M4WQ5T7Y3D",
      resource_type: type,
      resource_id: id(`${type.slice(0, 3)}_`),
      operation,
      before: json(before),
      after: json(after),
    });
  const kinds = [];
  for (const [kind, share, type, operation, before, after] of EVENT_KINDS) {
    const bytes = await fill(range().map(() => eventRow(type, operation, before, after)));
    kinds.push({ kind, share, bytes_per_event: bytes / ROWS });
  }
  const eventsMeasured = { table: "events", rows: ROWS * kinds.length, bytes: kinds.reduce((sum, k) => sum + k.bytes_per_event * ROWS, 0) };
  tables.events = { ...eventsMeasured, bytes_per_row: eventsMeasured.bytes / eventsMeasured.rows };
  const eventBytes = kinds.reduce((sum, k) => sum + k.share * k.bytes_per_event, 0);

  await measure(
    "event_archives",
    range().map((i) =>
      insert("event_archives", {
        id: id("arc_"),
        account_id: accountId,
        day: "2026-01-01",
        key: `events/${accountId}/2026-01-01/${id("evt_")}.ndjson.gz`,
        first_event: id("evt_"),
        last_event: id("evt_"),
        first_seq: 1_000_000 + i * 400,
        last_seq: 1_000_000 + i * 400 + 399,
        count: 400,
        bytes: 48_213,
        created_at: stamp(),
      }),
    ),
  );

  const per = (table) => tables[table].bytes_per_row;
  const entities = {
    domain: {
      bytes: per("domains") + 2 * per("domain_nameservers") + per("contacts"),
      made_of: "a domains row, its 2 name server links and its registrant contact",
    },
    zone: { bytes: per("zones") + 2 * per("records"), made_of: "a zones row (with its SOA) and its 2 apex NS records" },
    record: { bytes: per("records"), made_of: "a records row" },
  };
  const customer = entities.domain.bytes + entities.zone.bytes + 10 * per("records");
  const room = DATABASE_LIMIT - emptySize;
  const capacity = {
    domains: Math.floor(room / entities.domain.bytes),
    zones: Math.floor(room / entities.zone.bytes),
    records: Math.floor(room / entities.record.bytes),
    domains_with_zone_of_10_records: Math.floor(room / customer),
  };
  const eventDays = WRITE_RATES.map((rate) => {
    const perDay = rate * DAY_SECONDS * eventBytes;
    const hotWindow = HOT_DAYS * perDay;
    return {
      writes_per_second: rate,
      event_bytes_per_day: Math.round(perDay),
      days_until_full_without_archive: room / perDay,
      hot_window_days: HOT_DAYS,
      hot_window_bytes: Math.round(hotWindow),
      fits_with_archive: hotWindow <= room,
      largest_hot_window_days: Math.floor(room / perDay),
    };
  });
  const report = {
    database_limit_bytes: DATABASE_LIMIT,
    empty_database_bytes: emptySize,
    rows_per_table: ROWS,
    tables: Object.values(tables).map((t) => ({ ...t, bytes_per_row: Math.round(t.bytes_per_row) })),
    entities: Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, { ...v, bytes: Math.round(v.bytes) }])),
    events: { kinds: kinds.map((k) => ({ ...k, bytes_per_event: Math.round(k.bytes_per_event) })), mix_bytes_per_event: Math.round(eventBytes) },
    capacity,
    event_days: eventDays,
  };
  if (options.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    printReport(report);
  }
} finally {
  await mf.dispose();
}

function printReport(report) {
  const n = (value) => Math.round(value).toLocaleString("en-US");
  const gb = (bytes) => `${(bytes / 1e9).toFixed(bytes < 1e10 ? 2 : 1)} GB`;
  const pad = (rows) => {
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
    return rows.map((row) => row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join("  ")).join("\n");
  };
  console.log(
    `Bytes per row, indexes included (D1's engine, ${n(report.rows_per_table)} rows a table; empty database ${n(report.empty_database_bytes)} bytes):\n`,
  );
  console.log(pad([["table", "bytes/row"], ...report.tables.map((t) => [t.table, n(t.bytes_per_row)])]));
  console.log(`\nEvents by kind (the mix is weighted by each kind's share of writes): ${n(report.events.mix_bytes_per_event)} bytes on average\n`);
  console.log(pad([["kind", "share", "bytes/event"], ...report.events.kinds.map((k) => [k.kind, `${Math.round(k.share * 100)} %`, n(k.bytes_per_event)])]));
  console.log(`\nOne D1 database (${gb(report.database_limit_bytes)}) holds, with no events:\n`);
  console.log(
    pad([
      ["what", "bytes each", "how many"],
      ["domains (row, 2 NS links, registrant)", n(report.entities.domain.bytes), n(report.capacity.domains)],
      ["zones (row with SOA, 2 apex NS)", n(report.entities.zone.bytes), n(report.capacity.zones)],
      ["records", n(report.entities.record.bytes), n(report.capacity.records)],
      ["a domain with its zone of 10 records", "", n(report.capacity.domains_with_zone_of_10_records)],
    ]),
  );
  console.log(`\nEvents (${n(report.events.mix_bytes_per_event)} bytes each) at a sustained write rate:\n`);
  console.log(
    pad([
      ["writes/s", "events a day", "full without archive", `hot window (${HOT_DAYS} days)`, "with archive", "largest hot window"],
      ...report.event_days.map((e) => [
        e.writes_per_second,
        gb(e.event_bytes_per_day),
        `${e.days_until_full_without_archive.toFixed(1)} days`,
        gb(e.hot_window_bytes),
        e.fits_with_archive ? "stays under the limit" : "does not fit",
        `${n(e.largest_hot_window_days)} days`,
      ]),
    ]),
  );
}
