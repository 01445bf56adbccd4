// Issue 24: every zone the API accepts exports within what an import takes, and imports
// back. A zone's records may take at most MAX_ZONE_RECORD_BYTES as its master file writes
// them (zones.record_bytes, kept by triggers: drizzle/0028), whatever write brings them:
// an import, a record create or update, a batch of changes. Without it, 25 000 records with
// long owner names exported to over 6 MB, which the 2 MiB import refused.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { recordLineBytes } from "../src/dns/master-file";
import { signingRoom } from "../src/db/zone-keys";
import { parseRdata } from "../src/dns/rdata";
import type { DnsKey } from "../src/dns/rdata/dnskey";
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS, MAX_ZONE_RECORD_BYTES, zoneTooLargeMessage } from "../src/resources/zones/master-file";
import { migratedBefore } from "./empty-database";
import { api, createRecord, expectProblem, recordLines } from "./helpers";
import { insertTestTokens } from "./tokens";

const TTL = 300;
const APEX_NS = { name: "@", ttl: TTL, type: "NS", content: "ns1.example.org." };
/** Long owner names, as the issue's zones had: two 60-character labels and a number. */
const owner = (i: number) => `${"a".repeat(60)}.${"b".repeat(60)}.n${i}`;
const txt = (i: number, length: number) => ({ name: owner(i), ttl: TTL, type: "TXT", content: `"${`${i}-`.padEnd(length, "x")}"` });

/**
 * A master file whose record lines take exactly `bytes` as the export writes them (TXT
 * records of up to 250 characters at long owner names), written as the export writes it.
 */
function zoneFileOf(zone: string, bytes: number): { text: string; records: number } {
  const lines = [APEX_NS];
  let total = recordLineBytes(APEX_NS);
  const full = recordLineBytes(txt(0, 250));
  let i = 0;
  while (bytes - total > 2 * full) {
    const record = txt(++i, 250);
    lines.push(record);
    total += recordLineBytes(record);
  }
  // The rest in two lines of about half of it each, the last padded to the exact byte.
  const rest = bytes - total;
  for (const want of [Math.floor(rest / 2), rest - Math.floor(rest / 2)]) {
    i++;
    // txt(i, n) pads `${i}-` to n characters: its line grows one byte a character from there.
    const record = txt(i, want - recordLineBytes(txt(i, 0)) + String(i).length + 1);
    lines.push(record);
    total += recordLineBytes(record);
  }
  expect(total).toBe(bytes);
  const text = `$ORIGIN ${zone}.\n$TTL ${TTL}\n${lines.map((r) => `${r.name} ${r.ttl} IN ${r.type} ${r.content}`).join("\n")}\n`;
  return { text, records: lines.length };
}

function importFile(text: string) {
  return api("POST", "/v1/zones", { body: text, headers: { "content-type": "text/dns" } });
}

async function exportZone(zone: string): Promise<string> {
  const response = await api("GET", `/v1/zones/${zone}`, { headers: { accept: "text/dns" } });
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  return response.text;
}

/** What the triggers keep, and what the zone's records sum to now. */
async function storedAndSummed(zone: string) {
  return env.DB.prepare(
    `select z.record_bytes as stored,
            (select coalesce(sum(length(cast(r.name as blob)) + length(cast(r.ttl as text)) + length(r.type) + length(cast(r.content as blob)) + 7), 0)
               from records r where r.zone_id = z.id) as summed
       from zones z where z.name = ?`,
  )
    .bind(zone)
    .first<{ stored: number; summed: number }>();
}

const utf8 = new TextEncoder();

/** The room the live keys of a DNSSEC state keep (signingRoom, at the zones' SOA minimum: 300). */
function roomOf(state: { keys: { dnskey: string }[] }) {
  const keys = state.keys.map((k) => {
    const parsed = parseRdata("DNSKEY", k.dnskey, null);
    if (!parsed.ok) throw new Error(parsed.error);
    return { dnskey: parsed.value as unknown as DnsKey };
  });
  return signingRoom(keys, 300);
}

/** One TXT record at `fill` that takes the zone's records to exactly `bytes` as the export writes them. */
async function fillTo(zone: string, bytes: number) {
  const { stored } = (await storedAndSummed(zone))!;
  let need = bytes - stored - recordLineBytes({ name: "fill", ttl: TTL, type: "TXT", content: "" });
  const strings: string[] = [];
  while (need > 0) {
    // A string of n characters takes n + 2 (its quotes), and one more for the space before the next.
    const n = Math.min(250, need - 2 - (strings.length > 0 ? 1 : 0));
    strings.push(`"${"f".repeat(n)}"`);
    need -= n + 2 + (strings.length > 1 ? 1 : 0);
  }
  expect(need).toBe(0);
  const record = await api("POST", "/v1/records", { json: { zone, name: "fill", type: "TXT", ttl: TTL, content: strings.join(" ") } });
  expect(record.status, record.text).toBe(201);
  expect((await storedAndSummed(zone))!.stored).toBe(bytes);
}
const AT = "2026-01-01T00:00:00.000Z";
const OLD_ZONE = "zon_01JD3Q6Y4T8N0V4W5X6Y7Z8M04";

beforeAll(async () => {
  // Migration 0028 on a database that has a zone: its size is counted from its records.
  await migratedBefore("0028");
  await env.DB.batch(
    [
      `INSERT INTO zones (id, account_id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, record_count, version, created_at, updated_at) VALUES ('${OLD_ZONE}', '${OPERATOR_ACCOUNT_ID}', 'before-sizes.test', 'test.before-sizes', 3600, 'ns1.example.org', 'hostmaster.before-sizes.test', 2026010101, 7200, 900, 1209600, 300, 0, 1, '${AT}', '${AT}')`,
      `INSERT INTO records (id, zone_id, name, type, content, ttl, owner_order, version, created_at, updated_at) VALUES ('rec_01JD3Q6Y4T8N0V4W5X6Y7Z8M05', '${OLD_ZONE}', '@', 'NS', 'ns1.example.org.', 3600, '', 1, '${AT}', '${AT}')`,
      `INSERT INTO records (id, zone_id, name, type, content, ttl, owner_order, version, created_at, updated_at) VALUES ('rec_01JD3Q6Y4T8N0V4W5X6Y7Z8M06', '${OLD_ZONE}', 'www', 'A', '192.0.2.1', 60, 'www', 1, '${AT}', '${AT}')`,
    ].map((sql) => env.DB.prepare(sql)),
  );
  await insertTestTokens(env.DB);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}, 120_000);

describe("migration 0028 counts the size of the zones it finds", () => {
  it("a zone from before the migration has its records' bytes as the export writes them", async () => {
    const sizes = await storedAndSummed("before-sizes.test");
    // "@ 3600 IN NS ns1.example.org.\n" (30) and "www 60 IN A 192.0.2.1\n" (22)
    expect(sizes).toEqual({ stored: 52, summed: 52 });
  });
});

describe("every zone the API accepts exports within what an import takes, and imports back", () => {
  it(`the largest zone (its records ${MAX_ZONE_RECORD_BYTES} bytes as the export writes them) takes no more record, cannot be signed, exports within ${MAX_MASTER_FILE_BYTES} bytes and imports back`, async () => {
    const { text, records } = zoneFileOf("largest.size.test", MAX_ZONE_RECORD_BYTES);
    const imported = await importFile(text);
    expect(imported.status, imported.text.slice(0, 300)).toBe(201);
    expect(imported.body.record_count).toBe(records);
    expect(await storedAndSummed("largest.size.test")).toEqual({ stored: MAX_ZONE_RECORD_BYTES, summed: MAX_ZONE_RECORD_BYTES });

    const refused = expectProblem(
      await api("POST", "/v1/records", { json: { zone: "largest.size.test", name: "one-more", type: "A", content: "192.0.2.1" } }),
      422,
      "policy_violation",
    );
    expect(refused.errors).toEqual([{ field: "zone", message: zoneTooLargeMessage() }]);
    expect(refused.detail).toContain("limit zone_record_bytes");
    expect((await api("GET", "/v1/zones/largest.size.test")).body.record_count).toBe(records);
    const unsigned = expectProblem(await api("POST", "/v1/zones/largest.size.test/dnssec"), 422, "policy_violation");
    expect(unsigned.errors).toEqual([
      {
        field: "zone",
        message: expect.stringMatching(
          new RegExp(
            `^largest\\.size\\.test has no room for the DNSKEY, CDS and CDNSKEY signing adds to its export: its records take ${MAX_ZONE_RECORD_BYTES} bytes as its master file writes them, and beside its keys' (\\d+) at most \\d+ \\(limit zone_record_bytes\\); delete records first$`,
          ),
        ),
      },
    ]);
    expect((await api("GET", "/v1/zones/largest.size.test/dnssec")).body.enabled).toBe(false);

    const exported = await exportZone("largest.size.test");
    expect(utf8.encode(exported).byteLength).toBeLessThanOrEqual(MAX_MASTER_FILE_BYTES);
    const before = await recordLines("largest.size.test");
    expect((await api("DELETE", "/v1/zones/largest.size.test")).status).toBe(204);
    const back = await importFile(exported);
    expect(back.status, back.text.slice(0, 300)).toBe(201);
    expect(await recordLines("largest.size.test")).toEqual(before);
  }, 120_000);

  it("the largest signed zone (its records and its keys' lines the limit) takes no more record, and its export (with DNSKEY, CDS and CDNSKEY) imports back", async () => {
    const imported = await importFile(zoneFileOf("signed.size.test", MAX_ZONE_RECORD_BYTES - 1000).text);
    expect(imported.status, imported.text.slice(0, 300)).toBe(201);
    const on = await api("POST", "/v1/zones/signed.size.test/dnssec");
    expect(on.status).toBe(201);
    await fillTo("signed.size.test", MAX_ZONE_RECORD_BYTES - roomOf(on.body).bytes);
    const refused = expectProblem(
      await api("POST", "/v1/records", { json: { zone: "signed.size.test", name: "x", type: "A", content: "192.0.2.1" } }),
      422,
      "policy_violation",
    );
    expect(refused.errors).toEqual([{ field: "zone", message: zoneTooLargeMessage() }]);

    const exported = await exportZone("signed.size.test");
    expect(utf8.encode(exported).byteLength).toBeLessThanOrEqual(MAX_MASTER_FILE_BYTES);
    const keys = (await api("GET", "/v1/zones/signed.size.test")).body.dnssec.records.map(
      (r: { name: string; ttl: number; type: string; content: string }) => `${r.name} ${r.ttl} ${r.type} ${r.content}`,
    );
    expect(keys).toHaveLength(3);
    const before = await recordLines("signed.size.test");
    expect((await api("DELETE", "/v1/zones/signed.size.test")).status).toBe(204);
    const back = await importFile(exported);
    expect(back.status, back.text.slice(0, 300)).toBe(201);
    // The keys come back as records of an unsigned zone (docs/dnssec.md).
    expect(await recordLines("signed.size.test")).toEqual([...before, ...keys].sort());
  }, 120_000);

  it(`a zone signed with one combined key holds at most ${MAX_MASTER_FILE_RECORDS - 3} records (its DNSKEY, CDS and CDNSKEY), so that its export's ${MAX_MASTER_FILE_RECORDS} records import back`, async () => {
    const lines = ["$ORIGIN counted.size.test.", "$TTL 300", "@ NS ns1.example.org."];
    for (let i = 1; i < MAX_MASTER_FILE_RECORDS - 3; i++) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect((await importFile(`${lines.join("\n")}\n`)).status).toBe(201);
    expect((await api("POST", "/v1/zones/counted.size.test/dnssec")).status).toBe(201);
    const refused = expectProblem(
      await api("POST", "/v1/records", { json: { zone: "counted.size.test", name: "one-more", type: "A", content: "192.0.2.1" } }),
      422,
      "policy_violation",
    );
    expect(refused.errors[0].message).toContain(
      `holds ${MAX_MASTER_FILE_RECORDS - 3} records, the most a zone may hold (the import limit less the 3 records its keys add`,
    );
    const back = await importFile((await exportZone("counted.size.test")).replace(/counted\.size\.test/g, "counted-copy.size.test"));
    expect(back.status, back.text.slice(0, 300)).toBe(201);
    expect(back.body.record_count).toBe(MAX_MASTER_FILE_RECORDS);
  }, 120_000);

  it("an import whose records would take more than the limit as the export writes them answers 422 naming the limit, and writes nothing", async () => {
    // Within the import's 2 MiB: owners and TTLs left to $ORIGIN and $TTL, which the export writes out.
    let text = `$ORIGIN short-file.size.test.\n$TTL ${TTL}\n@ NS ns1.example.org.\n`;
    for (let i = 0; ; i++) {
      const line = `t${i} TXT "${`${i}-`.padEnd(250, "k")}"\n`;
      if (text.length + line.length > MAX_MASTER_FILE_BYTES) break;
      text += line;
    }
    const response = expectProblem(await importFile(text), 422, "policy_violation");
    expect(response.errors).toEqual([{ field: "file", message: expect.stringContaining("limit zone_record_bytes") }]);
    expect(response.errors[0].message).toMatch(/this one would take \d+/);
    expectProblem(await api("GET", "/v1/zones/short-file.size.test"), 404, "not_found");
  }, 120_000);
});

describe("the limit holds for every write, and the size follows every change", () => {
  const zone = "near-full.size.test";
  beforeAll(async () => {
    const imported = await importFile(zoneFileOf(zone, MAX_ZONE_RECORD_BYTES - 100).text);
    expect(imported.status, imported.text.slice(0, 300)).toBe(201);
  }, 120_000);

  it("a record update that would lengthen the zone past the limit answers 422 and changes nothing", async () => {
    const record = await createRecord(zone, { name: "grow", type: "TXT", content: '"short"', ttl: TTL });
    const refused = expectProblem(await api("PATCH", `/v1/records/${record.id}`, { json: { content: `"${"y".repeat(200)}"` } }), 422, "policy_violation");
    expect(refused.errors).toEqual([{ field: "zone", message: zoneTooLargeMessage() }]);
    expect((await api("GET", `/v1/records/${record.id}`)).body.content).toBe('"short"');
    // Shorter is always allowed.
    expect((await api("PATCH", `/v1/records/${record.id}`, { json: { content: '"s"' } })).status).toBe(200);
  });

  it("a batch of changes that would pass the limit answers 422 and writes nothing; deleting records makes room again", async () => {
    const batch = (list: unknown[]) => api("POST", `/v1/zones/${zone}/changes`, { json: { changes: list } });
    const grow = [{ action: "add", name: "batch", type: "TXT", ttl: TTL, contents: ['"one"', `"${"z".repeat(120)}"`] }];
    const refused = expectProblem(await batch(grow), 422, "policy_violation");
    expect(refused.errors).toEqual([{ field: "zone", message: zoneTooLargeMessage() }]);
    expect((await api("GET", `/v1/zones/${zone}/records?name=batch`)).body.data).toEqual([]);
    expect((await batch([{ action: "delete", name: owner(1), type: "TXT" }])).status).toBe(200);
    expect((await batch(grow)).status).toBe(200);
  });

  it("the stored size is the records' as the export writes them after creates, updates, TTL changes and deletes", async () => {
    const record = await createRecord(zone, { name: "moving", type: "A", content: "192.0.2.7", ttl: 60 });
    expect((await api("PATCH", `/v1/records/${record.id}`, { json: { ttl: 86400, name: "moved" } })).status).toBe(200);
    expect(
      (await api("POST", `/v1/zones/${zone}/changes`, { json: { changes: [{ action: "replace", name: "batch", type: "TXT", ttl: 7, contents: ['"x"'] }] } }))
        .status,
    ).toBe(200);
    expect((await api("DELETE", `/v1/records/${record.id}`)).status).toBe(204);
    const sizes = await storedAndSummed(zone);
    expect(sizes!.stored).toBe(sizes!.summed);
    const exported = await exportZone(zone);
    const recordLinesBytes = exported
      .split("\n")
      .slice(3, -1)
      .reduce((sum, line) => sum + utf8.encode(line).byteLength + 1, 0);
    expect(sizes!.stored).toBe(recordLinesBytes);
  });
});

describe("a signed zone keeps room for what its keys add to its export, computed from the keys (no fixed 3 records and 400 bytes)", () => {
  const zone = "rsa-room.size.test";
  const splitRsa = { policy: { algorithm: 8, single_key: false } };
  let room: { records: number; bytes: number };

  beforeAll(async () => {
    const imported = await importFile(zoneFileOf(zone, MAX_ZONE_RECORD_BYTES - 2500).text);
    expect(imported.status, imported.text.slice(0, 300)).toBe(201);
    expect((await api("PATCH", `/v1/zones/${zone}/dnssec`, { json: splitRsa })).status).toBe(200);
    const on = await api("POST", `/v1/zones/${zone}/dnssec`);
    expect(on.status, on.text).toBe(201);
    room = roomOf(on.body);
  }, 120_000);

  it("a KSK and a ZSK of RSA keep 4 records (two DNSKEY, the KSK's CDS and CDNSKEY) and over 1000 bytes: exactly the export's apex lines", async () => {
    expect(room.records).toBe(4);
    expect(room.bytes).toBeGreaterThan(1000);
    const exported = await exportZone(zone);
    const apex = exported.split("\n").filter((line) => /^@ \d+ IN (DNSKEY|CDS|CDNSKEY) /.test(line));
    expect(apex).toHaveLength(4);
    expect(apex.reduce((sum, line) => sum + utf8.encode(line).byteLength + 1, 0)).toBe(room.bytes);
  });

  it("a record write that would take the zone's lines into that room is 422 (drizzle/0044's trigger counts the keys as signingRoom does); one that leaves it is taken", async () => {
    await fillTo(zone, MAX_ZONE_RECORD_BYTES - room.bytes - 21);
    // "x 300 IN A 192.0.2.1": 21 bytes as the export writes it, exactly what is left.
    expect((await api("POST", "/v1/records", { json: { zone, name: "x", type: "A", ttl: TTL, content: "192.0.2.1" } })).status).toBe(201);
    const refused = expectProblem(
      await api("POST", "/v1/records", { json: { zone, name: "y", type: "A", ttl: TTL, content: "192.0.2.1" } }),
      422,
      "policy_violation",
    );
    expect(refused.errors).toEqual([{ field: "zone", message: zoneTooLargeMessage() }]);
  });

  it("a KSK roll, which adds a KSK's DNSKEY, CDS and CDNSKEY, is 422 policy_violation naming the zone when the zone has no room for them, and nothing changes", async () => {
    const before = (await api("GET", `/v1/zones/${zone}/dnssec`)).body;
    const refused = expectProblem(await api("POST", `/v1/zones/${zone}/dnssec/rollover`, { json: { kind: "ksk" } }), 422, "policy_violation");
    expect(refused.errors).toEqual([
      {
        field: "zone",
        message: expect.stringMatching(
          new RegExp(`^${zone.replaceAll(".", "\\.")} has no room for the DNSKEY, CDS and CDNSKEY this roll adds to its export: its records take \\d+ bytes`),
        ),
      },
    ]);
    expect((await api("GET", `/v1/zones/${zone}/dnssec`)).body).toEqual(before);
  });

  it("with room made, the roll starts and the zone keeps room for its three keys while it runs", async () => {
    const fill = (await api("GET", `/v1/zones/${zone}/records?name=fill`)).body.data[0];
    expect((await api("DELETE", `/v1/records/${fill.id}`)).status).toBe(204);
    const started = await api("POST", `/v1/zones/${zone}/dnssec/rollover`, { json: { kind: "ksk" } });
    expect(started.status, started.text).toBe(200);
    const during = roomOf(started.body);
    expect(during).toEqual({ records: 7, bytes: expect.any(Number) });
    expect(during.bytes).toBeGreaterThan(room.bytes + 700);
  });
});
