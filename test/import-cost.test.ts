// Issue 10 item 2: the rules the database keeps on records (drizzle/0003, 0007) are each an
// index lookup, so an import costs D1 the same per record whatever the owner names. The
// CNAME rule used to read `NEW.type = 'CNAME' OR r.type = 'CNAME'`, which no index can
// serve: every insert walked all records at its name, and N records at one name read
// N²/2 rows (20 000 records: 2·10⁸ rows, minutes of D1 time; one RRset now holds at most about 4 000 A records, src/dns/rrset-rules.ts). Cost is observed as the
// rows read that D1 reports (result meta), not as time.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { costOf } from "./d1-cost";

/** A master file of `count` A records, the owner of record i given by `owner(i)`. */
function masterFile(zone: string, count: number, owner: (i: number) => string): string {
  const lines = [`$ORIGIN ${zone}.`, "$TTL 300", "@ NS ns1.example.org."];
  for (let i = 0; i < count; i++) lines.push(`${owner(i)} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  return `${lines.join("\n")}\n`;
}

async function importCost(zone: string, count: number, owner: (i: number) => string) {
  const response = await costOf("POST", "/v1/zones", { body: masterFile(zone, count, owner), headers: { "content-type": "text/dns" } });
  expect(response.status, response.text.slice(0, 300)).toBe(201);
  expect(response.body.record_count).toBe(count + 1);
  return response.cost.rowsRead;
}

describe("an import costs D1 the same per record whatever the owner names", () => {
  it("4 000 records at one owner name (as many as one RRset holds) read no more rows than 4 000 at distinct names, and twice the records read twice the rows", async () => {
    const distinct = await importCost("distinct-names.test", 4_000, (i) => `h${i}`);
    const oneName2k = await importCost("one-name-2k.test", 2_000, () => "www");
    const oneName4k = await importCost("one-name-4k.test", 4_000, () => "www");
    // A handful of index steps per record (the old trigger: 2 000 rows per record here).
    expect(distinct / 4_000).toBeLessThan(10);
    expect(oneName4k).toBeLessThanOrEqual(distinct * 1.1);
    // Linear: doubling the records at one name doubles the rows read (quadratic would quadruple).
    expect(oneName4k / oneName2k).toBeLessThan(2.2);
  }, 300_000);
});

describe("the database itself keeps a CNAME alone at its name (RFC 1034 §3.6.2), one index probe per write", () => {
  let zoneId = "";
  let next = 0;
  const insert = (name: string, type: string, content: string) =>
    env.DB.prepare(
      // One-label names: the owner order (drizzle/0013) is the name itself.
      "INSERT INTO records (id, zone_id, name, owner_order, type, content, ttl, comment, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 300, NULL, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    )
      .bind(`rec_TRIGGER${String(++next).padStart(15, "0")}`, zoneId, name, name, type, content)
      .run();
  const refused = async (write: Promise<unknown>) => {
    await expect(write).rejects.toThrow(/rrset_conflict/);
  };

  beforeAll(async () => {
    const zone = await costOf("POST", "/v1/zones", { body: JSON.stringify({ name: "triggers.test" }), headers: { "content-type": "application/json" } });
    expect(zone.status, zone.text).toBe(201);
    zoneId = zone.body.id;
  });

  it("refuses data beside a CNAME, a CNAME beside data, and a second CNAME", async () => {
    await insert("alias", "CNAME", "example.org.");
    await refused(insert("alias", "A", "192.0.2.1"));
    await refused(insert("alias", "CNAME", "example.net."));
    await insert("host", "A", "192.0.2.1");
    await refused(insert("host", "CNAME", "example.org."));
    // Other names are not concerned.
    await insert("other", "A", "192.0.2.1");
  });

  it("refuses an update that moves data onto a CNAME's name or turns a record into a CNAME beside others", async () => {
    await insert("target", "CNAME", "example.org.");
    await insert("mover", "TXT", '"x"');
    await refused(env.DB.prepare("UPDATE records SET name = 'target', owner_order = 'target' WHERE zone_id = ? AND name = 'mover'").bind(zoneId).run());
    await insert("pair", "A", "192.0.2.1");
    await insert("pair", "AAAA", "2001:db8::1");
    await refused(
      env.DB.prepare("UPDATE records SET type = 'CNAME', content = 'example.org.' WHERE zone_id = ? AND name = 'pair' AND type = 'A'").bind(zoneId).run(),
    );
  });

  it("lets a CNAME move to an empty name, and a lone record become a CNAME", async () => {
    await insert("lone", "A", "192.0.2.9");
    await env.DB.prepare("UPDATE records SET type = 'CNAME', content = 'example.org.' WHERE zone_id = ? AND name = 'lone'").bind(zoneId).run();
    await env.DB.prepare("UPDATE records SET name = 'lone-moved', owner_order = 'lone-moved' WHERE zone_id = ? AND name = 'lone'").bind(zoneId).run();
    const { results } = await env.DB.prepare("SELECT name, type FROM records WHERE zone_id = ? AND name LIKE 'lone%'").bind(zoneId).all();
    expect(results).toEqual([{ name: "lone-moved", type: "CNAME" }]);
  });
});
