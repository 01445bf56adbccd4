// Migrations 0009–0010 on a database that has data (docs/accounts.md): an installation made
// before accounts existed keeps every object, now sponsored by the operator account, and
// its existing tokens keep working as the operator's. The migrations run in two steps
// with rows written between them, as the schema before 0009 held them.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { api } from "./helpers";
import { migratedBefore } from "./empty-database";
import { insertTestTokens } from "./tokens";

const AT = "2026-01-01T00:00:00.000Z";
const IDS = {
  contact: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8M01",
  domain: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8M02",
  host: "hst_01JD3Q6Y4T8N0V4W5X6Y7Z8M03",
  zone: "zon_01JD3Q6Y4T8N0V4W5X6Y7Z8M04",
  ns: "rec_01JD3Q6Y4T8N0V4W5X6Y7Z8M05",
  www: "rec_01JD3Q6Y4T8N0V4W5X6Y7Z8M06",
};

/** Rows as the schema before migration 0009 held them (no account_id anywhere). */
const BEFORE_ACCOUNTS = [
  `INSERT INTO contacts (id, name, name_key, email, email_key, street, city, country_code, privacy, version, created_at, updated_at) VALUES ('${IDS.contact}', 'Pre Migration', 'pre migration', 'pre@example.org', 'pre@example.org', '[]', 'London', 'GB', 0, 1, '${AT}', '${AT}')`,
  `INSERT INTO domains (id, name, extension_id, repository_id, registrant_id, statuses, auth_info, auto_renew, expires_at, version, created_at, updated_at) VALUES ('${IDS.domain}', 'premigration.com', 'com', 'verisign', '${IDS.contact}', '[]', 'Old-Auth-Info-1', 1, '2027-01-01T00:00:00.000Z', 1, '${AT}', '${AT}')`,
  `INSERT INTO hosts (id, name, reversed_name, domain_id, addresses, version, created_at, updated_at) VALUES ('${IDS.host}', 'ns1.premigration.com', 'com.premigration.ns1', '${IDS.domain}', '["192.0.2.53"]', 1, '${AT}', '${AT}')`,
  `INSERT INTO host_addresses (host_id, address) VALUES ('${IDS.host}', '192.0.2.53')`,
  `INSERT INTO domain_nameservers (domain_id, host_id, position) VALUES ('${IDS.domain}', '${IDS.host}', 0)`,
  `INSERT INTO zones (id, name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, record_count, version, created_at, updated_at) VALUES ('${IDS.zone}', 'premigration.com', 3600, 'ns1.premigration.com', 'hostmaster.premigration.com', 2026010101, 7200, 900, 1209600, 300, 0, 1, '${AT}', '${AT}')`,
  `INSERT INTO records (id, zone_id, name, type, content, ttl, version, created_at, updated_at) VALUES ('${IDS.ns}', '${IDS.zone}', '@', 'NS', 'ns1.premigration.com.', 3600, 1, '${AT}', '${AT}')`,
  `INSERT INTO records (id, zone_id, name, type, content, ttl, version, created_at, updated_at) VALUES ('${IDS.www}', '${IDS.zone}', 'www', 'A', '192.0.2.10', 300, 1, '${AT}', '${AT}')`,
];

beforeAll(async () => {
  await migratedBefore("0009");
  await env.DB.batch(BEFORE_ACCOUNTS.map((sql) => env.DB.prepare(sql)));
  // The test tokens, written as a token was before accounts: no account named.
  await insertTestTokens(env.DB);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe("an installation from before accounts keeps every object, now the operator account's", () => {
  it("every object row is kept and sponsored by the operator account", async () => {
    for (const [table, id] of [
      ["contacts", IDS.contact],
      ["domains", IDS.domain],
      ["hosts", IDS.host],
      ["zones", IDS.zone],
    ] as const) {
      const row = await env.DB.prepare(`SELECT id, account_id FROM ${table} WHERE id = ?`).bind(id).first();
      expect(row, table).toEqual({ id, account_id: OPERATOR_ACCOUNT_ID });
    }
    const { results } = await env.DB.prepare("SELECT id FROM records ORDER BY id").all();
    expect(results).toEqual([{ id: IDS.ns }, { id: IDS.www }]);
  });

  it("a token made before accounts is the operator account's and reads every object through the API", async () => {
    const me = await api("GET", "/v1/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body.account).toMatchObject({ id: OPERATOR_ACCOUNT_ID, role: "operator", status: "active" });
    const contact = await api("GET", `/v1/contacts/${IDS.contact}`);
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body).toMatchObject({ id: IDS.contact, account: OPERATOR_ACCOUNT_ID, name: "Pre Migration", email: "pre@example.org" });
    const domain = await api("GET", "/v1/domains/premigration.com");
    expect(domain.status, domain.text).toBe(200);
    expect(domain.body).toMatchObject({
      id: IDS.domain,
      account: OPERATOR_ACCOUNT_ID,
      registrant: IDS.contact,
      nameservers: ["ns1.premigration.com"],
      auth_info: "Old-Auth-Info-1",
      expires_at: "2027-01-01T00:00:00.000Z",
    });
    const host = await api("GET", `/v1/hosts/${IDS.host}`);
    expect(host.body).toMatchObject({ id: IDS.host, account: OPERATOR_ACCOUNT_ID, domain: IDS.domain, addresses: ["192.0.2.53"] });
    const zone = await api("GET", "/v1/zones/premigration.com");
    expect(zone.body).toMatchObject({ id: IDS.zone, account: OPERATOR_ACCOUNT_ID, record_count: 2 });
    const records = await api("GET", "/v1/zones/premigration.com/records");
    expect(records.body.data.map((r: { name: string; type: string; content: string }) => `${r.name} ${r.type} ${r.content}`)).toEqual([
      "@ NS ns1.premigration.com.",
      "www A 192.0.2.10",
    ]);
  });

  it("the migrated objects can still be changed: a PATCH of the old domain works", async () => {
    const patched = await api("PATCH", "/v1/domains/premigration.com", { json: { auto_renew: false } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ auto_renew: false, account: OPERATOR_ACCOUNT_ID });
  });
});
