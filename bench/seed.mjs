// Seed data for the benchmark, as SQL for `wrangler d1 execute --file` (never through HTTP).
//
//   node bench/seed.mjs [--quick] [--out DIR]     writes DIR/seed-NNN.sql and DIR/seed.json
//
// quick: 10,000 domains and a 2,000-record zone; full: 100,000 domains and a 10,000-record
// zone. Rows are what the API itself would write: prefixed ULID ids whose time part
// matches created_at (so id order is creation order), lowercase names, JSON columns as
// JSON text, version 1, RFC 3339 millisecond timestamps, contacts with city and country
// (valid registrant/admin/tech), external name server hosts shared by many domains and a
// subordinate (glue) host under every 20th domain, and zones whose record_count the
// migration's triggers keep. The data set:
//   contacts   one per two domains
//   domains    bench-NNNNNN.<ext> over 10 extensions, 2 name servers each
//   hosts      ns1/ns2.hosting-K.net (one pair per 50 domains) + ns1.<domain> for 1 in 20
//   zones      bigzone-bench.com (the big zone), records-bench.com (for record creates),
//              baseline-bench.com (for the baseline's batch inserts)
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CROCKFORD, encodeTime } from "../src/db/ulid.js";

export const SIZES = {
  quick: { domains: 10_000, zoneRecords: 2_000 },
  full: { domains: 100_000, zoneRecords: 10_000 },
};

const EXTENSIONS = [
  ["com", "verisign"],
  ["net", "verisign"],
  ["org", "pir"],
  ["info", "identity-digital"],
  ["io", "identity-digital"],
  ["dev", "google"],
  ["app", "google"],
  ["co.uk", "nominet"],
  ["eu", "eurid"],
  ["xyz", "xyz"],
];
const COUNTRIES = [
  ["London", "GB"],
  ["Berlin", "DE"],
  ["Amsterdam", "NL"],
  ["Paris", "FR"],
  ["Zurich", "CH"],
  ["New York", "US"],
];
const SOA = { mname: "ns1.example.net", rname: "hostmaster.example.com", serial: 2026010101, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 };

/** A ULID at `time` (the service's own encoding, src/db/ulid.js), with a fresh random part: seeded rows take the times they are given. */
function ulid(time) {
  return encodeTime(time) + Array.from(randomBytes(16), (byte) => CROCKFORD[byte % 32]).join("");
}

const q = (value) => (value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
const iso = (ms) => new Date(ms).toISOString();
const reversed = (name) => name.split(".").reverse().join(".");
/** records.owner_order (src/dns/name-order.ts): the owner's labels reversed, space-joined; the apex's is empty. */
const ownerOrder = (owner) => (owner === "@" ? "" : owner.split(".").reverse().join(" "));

/** The big zone's records (apex NS first), as stored rows and as master-file lines. */
export function zoneRecords(count) {
  const out = [
    { name: "@", type: "NS", content: "ns1.example.net." },
    { name: "@", type: "NS", content: "ns2.example.net." },
  ];
  for (let i = 0; out.length < count; i++) {
    const kind = i % 10;
    if (kind < 6) out.push({ name: `h${i}`, type: "A", content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    else if (kind < 8) out.push({ name: `h${i}`, type: "AAAA", content: `2001:db8::${i.toString(16)}` });
    else out.push({ name: `t${i}`, type: "TXT", content: `"v=bench ${i}"` });
  }
  return out;
}

/** A master file of `count` records (the big zone's shape) for the zone `origin`. */
export function masterFile(origin, count) {
  const lines = [
    `$ORIGIN ${origin}.`,
    "$TTL 3600",
    `@ 3600 IN SOA ${SOA.mname}. ${SOA.rname}. ${SOA.serial} ${SOA.refresh} ${SOA.retry} ${SOA.expire} ${SOA.minimum}`,
  ];
  for (const r of zoneRecords(count)) lines.push(`${r.name} 3600 IN ${r.type} ${r.content}`);
  return lines.join("\n") + "\n";
}

class SqlWriter {
  constructor(dir, chunkBytes) {
    this.dir = dir;
    this.chunkBytes = chunkBytes;
    this.files = [];
    this.parts = [];
    this.size = 0;
  }
  push(sql) {
    this.parts.push(sql);
    this.size += sql.length;
    if (this.size >= this.chunkBytes) this.flush();
  }
  /** Multi-row INSERTs of at most 200 rows (well under SQLite's and D1's statement limits). */
  insert(table, columns, rows) {
    for (let i = 0; i < rows.length; i += 200) {
      const values = rows
        .slice(i, i + 200)
        .map((row) => `(${row.map(q).join(",")})`)
        .join(",\n");
      this.push(`INSERT INTO ${table} (${columns.join(",")}) VALUES\n${values};\n`);
    }
  }
  flush() {
    if (this.parts.length === 0) return;
    const file = join(this.dir, `seed-${String(this.files.length).padStart(3, "0")}.sql`);
    writeFileSync(file, this.parts.join(""));
    this.files.push(file);
    this.parts = [];
    this.size = 0;
  }
}

/**
 * Writes the seed SQL into `dir` (files of about `chunkBytes`) and returns
 * { files, meta }: meta holds what the benchmark needs to address the rows.
 */
export function generateSeed({ domains: domainCount, zoneRecords: recordCount, dir, chunkBytes = 4 * 1024 * 1024 }) {
  mkdirSync(dir, { recursive: true });
  const sql = new SqlWriter(dir, chunkBytes);
  const start = Date.parse("2026-01-02T00:00:00.000Z");
  let clock = start;
  const tick = () => (clock += 7); // ms between rows: distinct, increasing timestamps

  // Contacts.
  const contactIds = [];
  const contactRows = [];
  for (let i = 0; i < Math.ceil(domainCount / 2); i++) {
    const t = tick();
    const id = `con_${ulid(t)}`;
    const [city, cc] = COUNTRIES[i % COUNTRIES.length];
    const name = `Bench Contact ${i}`;
    const email = `contact${i}@bench.example.org`;
    contactIds.push(id);
    contactRows.push([
      id,
      name,
      name.toLowerCase(),
      i % 3 === 0 ? `Bench Org ${i % 97}` : null,
      email,
      email,
      `+44.20${String(7000000 + i).slice(-7)}`,
      null,
      JSON.stringify([`${i} Bench Street`]),
      city,
      null,
      `B${i % 1000}`,
      cc,
      i % 5 === 0 ? 1 : 0,
      1,
      iso(t),
      iso(t),
    ]);
  }
  sql.insert(
    "contacts",
    [
      "id",
      "name",
      "name_key",
      "organization",
      "email",
      "email_key",
      "phone",
      "fax",
      "street",
      "city",
      "state",
      "postal_code",
      "country_code",
      "privacy",
      "version",
      "created_at",
      "updated_at",
    ],
    contactRows,
  );

  // External name server hosts, one pair per 50 domains.
  const hostRows = [];
  const addressRows = [];
  const externalPairs = [];
  for (let k = 0; k < Math.max(1, Math.ceil(domainCount / 50)); k++) {
    const pair = [];
    for (const label of ["ns1", "ns2"]) {
      const t = tick();
      const id = `hst_${ulid(t)}`;
      const name = `${label}.hosting-${k}.net`;
      hostRows.push([id, name, reversed(name), null, "[]", 1, iso(t), iso(t)]);
      pair.push({ id, name });
    }
    externalPairs.push(pair);
  }

  // Domains, their name server links, and a glue host under every 20th domain.
  const domainRows = [];
  const linkRows = [];
  const sample = []; // { id, name } of every domain: the scenarios rotate through them
  for (let i = 0; i < domainCount; i++) {
    const t = tick();
    const id = `dom_${ulid(t)}`;
    const [ext, repository] = EXTENSIONS[i % EXTENSIONS.length];
    const name = `bench-${String(i).padStart(6, "0")}.${ext}`;
    const registrant = contactIds[i % contactIds.length];
    const admin = contactIds[(i + 1) % contactIds.length];
    const statuses = i % 4 === 0 ? '["clientTransferProhibited"]' : "[]";
    const authInfo = `bench-auth-${randomBytes(8).toString("hex")}`;
    const expires = t + (1 + (i % 10)) * 365 * 86_400_000;
    domainRows.push([id, name, ext, repository, registrant, admin, admin, null, statuses, authInfo, 1, iso(expires), 1, iso(t), iso(t)]);
    const pair = externalPairs[Math.floor(i / 50) % externalPairs.length];
    let first = pair[0];
    if (i % 20 === 0) {
      const ht = tick();
      const hostId = `hst_${ulid(ht)}`;
      const hostName = `ns1.${name}`;
      const address = `198.51.${(i >> 8) & 255}.${i & 255 || 1}`;
      hostRows.push([hostId, hostName, reversed(hostName), id, JSON.stringify([address]), 1, iso(ht), iso(ht)]);
      addressRows.push([hostId, address]);
      first = { id: hostId, name: hostName };
    }
    linkRows.push([id, first.id, 0], [id, pair[1].id, 1]);
    sample.push({ id, name });
  }
  // Domains before hosts that point at them (foreign keys), hosts before links.
  sql.insert(
    "domains",
    [
      "id",
      "name",
      "extension_id",
      "repository_id",
      "registrant_id",
      "admin_id",
      "tech_id",
      "billing_id",
      "statuses",
      "auth_info",
      "auto_renew",
      "expires_at",
      "version",
      "created_at",
      "updated_at",
    ],
    domainRows,
  );
  sql.insert("hosts", ["id", "name", "reversed_name", "domain_id", "addresses", "version", "created_at", "updated_at"], hostRows);
  sql.insert("host_addresses", ["host_id", "address"], addressRows);
  sql.insert("domain_nameservers", ["domain_id", "host_id", "position"], linkRows);

  // Zones: the big one, one for record creates, one for the baseline's batch inserts.
  const zones = {};
  for (const [key, name, count] of [
    ["big", "bigzone-bench.com", recordCount],
    ["records", "records-bench.com", 2],
    ["baseline", "baseline-bench.com", 2],
  ]) {
    const t = tick();
    const id = `zon_${ulid(t)}`;
    zones[key] = { id, name, records: count };
    sql.push(
      `INSERT INTO zones (id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, record_count, version, created_at, updated_at) VALUES (${[id, name, name.split(".").reverse().join("."), 3600, SOA.mname, SOA.rname, SOA.serial, SOA.refresh, SOA.retry, SOA.expire, SOA.minimum, 0, 1, iso(t), iso(t)].map(q).join(",")});\n`,
    );
    const rows = zoneRecords(count).map((r) => {
      const rt = tick();
      return [`rec_${ulid(rt)}`, id, r.name, ownerOrder(r.name), r.type, r.content, 3600, null, 1, iso(rt), iso(rt)];
    });
    sql.insert("records", ["id", "zone_id", "name", "owner_order", "type", "content", "ttl", "comment", "version", "created_at", "updated_at"], rows);
  }
  sql.flush();

  const meta = {
    domains: domainCount,
    contacts: contactIds.length,
    hosts: hostRows.length,
    zoneRecords: recordCount,
    zones,
    contactSample: contactIds.slice(0, 100),
    domainSample: sample,
  };
  writeFileSync(join(dir, "seed.json"), JSON.stringify(meta));
  return { files: sql.files, meta };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf("--out");
  const dir = resolve(outIndex >= 0 ? args[outIndex + 1] : "bench/.seed");
  const { files, meta } = generateSeed({ ...SIZES[args.includes("--quick") ? "quick" : "full"], dir });
  console.log(
    `wrote ${files.length} file(s) to ${dir}: ${meta.domains} domains, ${meta.contacts} contacts, ${meta.hosts} hosts, a ${meta.zoneRecords}-record zone`,
  );
  console.log(`apply: for f in ${dir}/seed-*.sql; do npx wrangler d1 execute domain-api --local --persist-to DIR --file "$f"; done`);
}
