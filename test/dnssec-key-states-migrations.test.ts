// Migration 0040 on a database that has signed zones (docs/dnssec-rollovers.md): every key
// made before the lifecycle becomes an active combined key, active since it was made, and
// its DS state says what the service knows of the parent: seen where the same-named domain
// of the zone's account publishes a DS of it here, absent otherwise; 0041 then makes such a
// DS wanted (submitted), as the zone's CDS has asked for it since it was signed.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { migratedBefore } from "./empty-database";
import { api } from "./helpers";
import { insertTestTokens } from "./tokens";

const AT = "2026-03-01T00:00:00.000Z";
const KEY_MADE = "2026-03-02T10:00:00.000Z";
const OTHER_ACCOUNT = "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8K00";
const CONTACT = "con_01JD3Q6Y4T8N0V4W5X6Y7Z8K01";
// 64 octets: an ECDSA P-256 public key's length (RFC 6605 §4).
const PUBLIC_KEY = btoa(String.fromCharCode(...Array.from({ length: 64 }, (_, i) => i + 1)));

interface Case {
  zone: string;
  account: string;
  key: string;
  /** The same-named domain, its sponsor and the DS it publishes (key tag, algorithm). */
  domain?: { account: string; ds: [number, number][] };
}

const CASES = {
  dsHere: {
    zone: "signed-here.com",
    account: OPERATOR_ACCOUNT_ID,
    key: "key_01JD3Q6Y4T8N0V4W5X6Y7Z8K11",
    domain: { account: OPERATOR_ACCOUNT_ID, ds: [[4242, 13]] },
  },
  noDomain: { zone: "signed-elsewhere.net", account: OPERATOR_ACCOUNT_ID, key: "key_01JD3Q6Y4T8N0V4W5X6Y7Z8K12" },
  otherAccountsDomain: {
    zone: "not-theirs.com",
    account: OTHER_ACCOUNT,
    key: "key_01JD3Q6Y4T8N0V4W5X6Y7Z8K13",
    domain: { account: OPERATOR_ACCOUNT_ID, ds: [[4242, 13]] },
  },
  dsOfAnotherKey: {
    zone: "other-ds.com",
    account: OPERATOR_ACCOUNT_ID,
    key: "key_01JD3Q6Y4T8N0V4W5X6Y7Z8K14",
    domain: {
      account: OPERATOR_ACCOUNT_ID,
      ds: [
        [4243, 13],
        [4242, 8],
      ],
    },
  },
} satisfies Record<string, Case>;

/** Rows as the schema before migration 0040 held them. */
function rowsOf(c: Case, n: number): string[] {
  const zoneId = `zon_01JD3Q6Y4T8N0V4W5X6Y7Z8Z${n}0`;
  const rows = [
    `INSERT INTO zones (id, account_id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, version, created_at, updated_at) VALUES ('${zoneId}', '${c.account}', '${c.zone}', '${c.zone.split(".").reverse().join(".")}', 3600, 'ns1.${c.zone}', 'hostmaster.${c.zone}', 2026030101, 7200, 900, 1209600, 300, 1, '${AT}', '${AT}')`,
    `INSERT INTO zone_keys (id, zone_id, key_tag, algorithm, flags, public_key, private_key_sealed, active, created_at) VALUES ('${c.key}', '${zoneId}', 4242, 13, 257, '${PUBLIC_KEY}', 'v1.sealed.elsewhere', 1, '${KEY_MADE}')`,
  ];
  if (c.domain) {
    const ds = JSON.stringify(c.domain.ds.map(([key_tag, algorithm]) => ({ key_tag, algorithm, digest_type: 2, digest: "AB".repeat(32) })));
    rows.push(
      `INSERT INTO domains (id, account_id, name, extension_id, repository_id, registrant_id, statuses, auth_info, auto_renew, expires_at, ds, version, created_at, updated_at) VALUES ('dom_01JD3Q6Y4T8N0V4W5X6Y7Z8D${n}0', '${c.domain.account}', '${c.zone}', '${c.zone.split(".").pop()}', 'verisign', '${CONTACT}', '[]', 'Auth-Info-${n}', 1, '2027-01-01T00:00:00.000Z', '${ds}', 1, '${AT}', '${AT}')`,
    );
  }
  return rows;
}

beforeAll(async () => {
  await migratedBefore("0040");
  await env.DB.batch(
    [
      `INSERT INTO accounts (id, name, role, status, version, created_at, updated_at) VALUES ('${OTHER_ACCOUNT}', 'Other', 'customer', 'active', 1, '${AT}', '${AT}')`,
      `INSERT INTO contacts (id, name, name_key, email, email_key, street, city, country_code, privacy, version, created_at, updated_at) VALUES ('${CONTACT}', 'Pre Lifecycle', 'pre lifecycle', 'pre@example.org', 'pre@example.org', '[]', 'London', 'GB', 0, 1, '${AT}', '${AT}')`,
      ...Object.values(CASES).flatMap((c, n) => rowsOf(c, n)),
    ].map((sql) => env.DB.prepare(sql)),
  );
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await insertTestTokens(env.DB);
});

async function keyRow(id: string) {
  return env.DB.prepare(
    "SELECT role, state, pre_published_at, published_at, ready_at, active_at, retired_at, removed_at, ds_state, ds_since, next_step_at, active FROM zone_keys WHERE id = ?",
  )
    .bind(id)
    .first();
}

describe("keys made before the lifecycle (migration 0040)", () => {
  it("every key is an active combined key, published, ready and active since it was made, with no step due", async () => {
    for (const c of Object.values(CASES)) {
      expect(await keyRow(c.key), c.zone).toMatchObject({
        role: "csk",
        state: "active",
        pre_published_at: null,
        published_at: KEY_MADE,
        ready_at: KEY_MADE,
        active_at: KEY_MADE,
        retired_at: null,
        removed_at: null,
        next_step_at: null,
        active: 1,
      });
    }
  });

  it("a key's DS is seen where the same-named domain of the zone's account publishes a DS of it", async () => {
    expect(await keyRow(CASES.dsHere.key)).toMatchObject({ ds_state: "seen", ds_since: KEY_MADE });
  });

  it("a key's DS no domain here publishes (no domain, another account's domain, a DS of another key) is absent for 0040, and submitted since the key was made after 0041: its CDS has asked for it", async () => {
    for (const c of [CASES.noDomain, CASES.otherAccountsDomain, CASES.dsOfAnotherKey]) {
      expect(await keyRow(c.key), c.zone).toMatchObject({ ds_state: "submitted", ds_since: KEY_MADE });
    }
  });

  it("every zone keeps the default policy (null), runs no roll and has no step due", async () => {
    const { results } = await env.DB.prepare("SELECT name, dnssec_policy, dnssec_rollover, dnssec_next_step_at FROM zones ORDER BY name").all();
    expect(results).toEqual(
      Object.values(CASES)
        .map((c) => ({ name: c.zone, dnssec_policy: null, dnssec_rollover: null, dnssec_next_step_at: null }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it("the zones with a DNSSEC step due are read by their index, not by a scan of every zone", async () => {
    const { results } = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT id FROM zones WHERE dnssec_next_step_at IS NOT NULL AND dnssec_next_step_at <= ? ORDER BY dnssec_next_step_at LIMIT 50",
    )
      .bind(AT)
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH zones USING INDEX zones_dnssec_due_idx \(/)]);
  });

  it("a key the migration moved reads as before through GET /zones/{zone}/dnssec", async () => {
    const res = await api("GET", `/v1/zones/${CASES.dsHere.zone}/dnssec`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      enabled: true,
      keys: [{ id: CASES.dsHere.key, key_tag: 4242, algorithm: 13, flags: 257, active: true, created_at: KEY_MADE }],
    });
  });
});

describe("the lifecycle's columns refuse what the engine never writes", () => {
  it("a key's role, state and DS state outside the engine's names are refused by the database", async () => {
    for (const [column, value] of [
      ["role", "kzk"],
      ["state", "revoked"],
      ["ds_state", "pending"],
    ]) {
      await expect(env.DB.prepare(`UPDATE zone_keys SET ${column} = ? WHERE id = ?`).bind(value, CASES.dsHere.key).run(), column).rejects.toThrow(
        /CHECK constraint failed/,
      );
    }
  });
});
