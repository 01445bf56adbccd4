// POST /v1/zones/{zone}/changes: several RRsets changed at once, all or nothing (issue 26).
// Each test works in a zone of its own (`<what>.chg.test`).
import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createRecord, createZone, errorFields, errorFor, expectProblem, readZone, recordLines } from "./helpers";
import { apiWithHooks, onceBeforeWriting } from "./interleave";
import { bearer } from "./tokens";

function changes(zone: string, list: unknown[], headers: Record<string, string> = {}) {
  return api("POST", `/v1/zones/${zone}/changes`, { json: { changes: list }, headers });
}

/** A new zone with name servers outside it, and the records given (`name type content [ttl=N]`). */
async function zoneWith(name: string, records: string[] = []) {
  const zone = await createZone(name, { nameservers: ["ns1.chg-dns.net", "ns2.chg-dns.net"] });
  for (const line of records) {
    const [owner, type, ...rest] = line.split(" ");
    const ttl = /^ttl=(\d+)$/.exec(rest.at(-1) ?? "")?.[1];
    const content = (ttl ? rest.slice(0, -1) : rest).join(" ");
    await createRecord(name, { name: owner, type, content, ...(ttl ? { ttl: Number(ttl) } : {}) });
  }
  return zone;
}

/** The zone's RRset TTL events, oldest first, as `name type before-ttl → after-ttl (records)`. */
async function rrsetEvents(zoneId: string, since: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "select before, after from events where resource_type = 'rrset' and resource_id = ? and operation = 'update' and at >= ? order by seq",
  )
    .bind(zoneId, since)
    .all<{ before: string; after: string }>();
  return results.map((e) => {
    const before = JSON.parse(e.before) as { name: string; type: string; ttl: number };
    const after = JSON.parse(e.after) as { name: string; type: string; ttl: number; records: number };
    return `${after.name} ${after.type} ${before.ttl} → ${after.ttl} (${after.records})`;
  });
}

/** The zone's record events, oldest first, as `operation name type content`. */
async function recordEvents(zoneId: string, since: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `select operation, coalesce(after, before) as record from events
     where resource_type = 'record' and json_extract(coalesce(after, before), '$.zone') = ? and at >= ? order by seq`,
  )
    .bind(zoneId, since)
    .all<{ operation: string; record: string }>();
  return results.map((e) => {
    const r = JSON.parse(e.record) as { name: string; type: string; content: string; ttl: number };
    return `${e.operation} ${r.name} ${r.type} ${r.content} ${r.ttl}`;
  });
}

describe("each action changes its RRset, and the answer shows every touched RRset as it now stands", () => {
  it("add, replace, remove and delete in one request: 200 with the serial one step up and each RRset, the records stored, one event per record written", async () => {
    const zone = await zoneWith("actions.chg.test", [
      "www A 192.0.2.50",
      "old A 192.0.2.8",
      "old A 192.0.2.9",
      "legacy MX 10 mail.example.net.",
      "legacy MX 20 mail2.example.net.",
    ]);
    const before = await readZone(zone.id);
    const since = new Date().toISOString();
    const response = await changes("actions.chg.test", [
      { action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"token-1"'] },
      { action: "replace", name: "www", type: "A", ttl: 300, contents: ["192.0.2.1", "192.0.2.2"] },
      { action: "remove", name: "old", type: "A", contents: ["192.0.2.9"] },
      { action: "delete", name: "legacy", type: "MX" },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.serial).not.toBe(before.soa.serial);
    const shape = response.body.rrsets.map((s: any) => ({
      name: s.name,
      fqdn: s.fqdn,
      type: s.type,
      ttl: s.ttl,
      contents: s.records.map((r: any) => r.content),
    }));
    expect(shape).toEqual([
      { name: "_acme-challenge", fqdn: "_acme-challenge.actions.chg.test", type: "TXT", ttl: 60, contents: ['"token-1"'] },
      { name: "www", fqdn: "www.actions.chg.test", type: "A", ttl: 300, contents: ["192.0.2.1", "192.0.2.2"] },
      { name: "old", fqdn: "old.actions.chg.test", type: "A", ttl: 3600, contents: ["192.0.2.8"] },
      { name: "legacy", fqdn: "legacy.actions.chg.test", type: "MX", ttl: null, contents: [] },
    ]);
    // The records in the answer are the records as GET returns them.
    const txt = response.body.rrsets[0].records[0];
    expect((await api("GET", `/v1/records/${txt.id}`)).body).toEqual(txt);
    expect(await recordLines("actions.chg.test")).toEqual([
      "@ 3600 NS ns1.chg-dns.net.",
      "@ 3600 NS ns2.chg-dns.net.",
      '_acme-challenge 60 TXT "token-1"',
      "old 3600 A 192.0.2.8",
      "www 300 A 192.0.2.1",
      "www 300 A 192.0.2.2",
    ]);
    const after = await readZone(zone.id);
    expect(after.soa.serial).toBe(response.body.serial);
    expect(after.record_count).toBe(6);
    expect(response.headers.get("etag")).toBe((await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag"));
    expect((await recordEvents(zone.id, since)).sort()).toEqual(
      [
        "delete www A 192.0.2.50 3600",
        "delete old A 192.0.2.9 3600",
        "delete legacy MX 10 mail.example.net. 3600",
        "delete legacy MX 20 mail2.example.net. 3600",
        'create _acme-challenge TXT "token-1" 60',
        "create www A 192.0.2.1 300",
        "create www A 192.0.2.2 300",
      ].sort(),
    );
  });

  it("add keeps the contents already there (not doubled); with a ttl the whole RRset takes it, in one rrset event (RFC 2181 §5.2)", async () => {
    const zone = await zoneWith("add.chg.test", ['_acme-challenge TXT "a" ttl=120', '_acme-challenge TXT "b" ttl=120']);
    const since = new Date().toISOString();
    const response = await changes("add.chg.test", [{ action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"b"', '"c"', '"c"'] }]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets).toHaveLength(1);
    expect(response.body.rrsets[0].records.map((r: any) => `${r.content} ${r.ttl}`)).toEqual(['"a" 60', '"b" 60', '"c" 60']);
    expect(await recordEvents(zone.id, since)).toEqual(['create _acme-challenge TXT "c" 60']);
    expect(await rrsetEvents(zone.id, since)).toEqual(["_acme-challenge TXT 120 → 60 (2)"]);
    const [event] = (await api("GET", `/v1/events?resource=${zone.id}&type=rrset`)).body.data;
    expect(event).toMatchObject({
      type: "rrset",
      resource: zone.id,
      operation: "update",
      before: { zone: zone.id, name: "_acme-challenge", fqdn: "_acme-challenge.add.chg.test", type: "TXT", ttl: 120, records: 2 },
      after: { zone: zone.id, name: "_acme-challenge", fqdn: "_acme-challenge.add.chg.test", type: "TXT", ttl: 60, records: 2 },
    });
  });

  it("add without a ttl joins the RRset at its TTL; a new RRset takes the zone's default_ttl", async () => {
    await zoneWith("addttl.chg.test", ["www A 192.0.2.1 ttl=600"]);
    const response = await changes("addttl.chg.test", [
      { action: "add", name: "www", type: "A", contents: ["192.0.2.2"] },
      { action: "add", name: "api", type: "AAAA", contents: ["2001:db8:0:0::1"] },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets.map((s: any) => `${s.name} ${s.ttl} ${s.records.map((r: any) => r.content).join(",")}`)).toEqual([
      "www 600 192.0.2.1,192.0.2.2",
      "api 3600 2001:db8::1",
    ]);
  });

  it("remove ignores contents that are not there; replace with [] and delete remove the RRset; the same RRset changed twice in one request ends as the changes say in order", async () => {
    await zoneWith("order.chg.test", ["a A 192.0.2.1", "b A 192.0.2.2", "c A 192.0.2.3"]);
    const response = await changes("order.chg.test", [
      { action: "remove", name: "a", type: "A", contents: ["192.0.2.99", "192.0.2.1"] },
      { action: "replace", name: "b", type: "A", contents: [] },
      { action: "delete", name: "c", type: "A" },
      { action: "add", name: "c", type: "A", contents: ["192.0.2.33"] },
      { action: "remove", name: "c", type: "A", contents: ["192.0.2.33"] },
      { action: "add", name: "c", type: "A", contents: ["192.0.2.34"] },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets.map((s: any) => `${s.name} ${s.ttl} ${s.records.map((r: any) => r.content).join(",")}`)).toEqual([
      "a null ",
      "b null ",
      "c 3600 192.0.2.34",
    ]);
    expect(await recordLines("order.chg.test")).toEqual(["@ 3600 NS ns1.chg-dns.net.", "@ 3600 NS ns2.chg-dns.net.", "c 3600 A 192.0.2.34"]);
  });

  it("changes that change nothing write nothing: 200 with the serial and the zone's ETag unchanged, no event", async () => {
    const zone = await zoneWith("noop.chg.test", ["www A 192.0.2.1"]);
    const read = await api("GET", `/v1/zones/${zone.id}`);
    const since = new Date().toISOString();
    const response = await changes("noop.chg.test", [
      { action: "add", name: "www", type: "A", contents: ["192.0.2.1"] },
      { action: "remove", name: "www", type: "A", contents: ["192.0.2.7"] },
      { action: "delete", name: "nothing", type: "TXT" },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.serial).toBe(read.body.soa.serial);
    expect(response.headers.get("etag")).toBe(read.headers.get("etag"));
    expect((await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag")).toBe(read.headers.get("etag"));
    expect(await recordEvents(zone.id, since)).toEqual([]);
  });

  it("names may be @, relative or absolute inside the zone; contents come back canonical", async () => {
    await zoneWith("names.chg.test");
    const response = await changes("names.chg.test", [
      { action: "add", name: "@", type: "mx", contents: ["10 Mail.Example.NET"] },
      { action: "add", name: "host.names.chg.test.", type: "AAAA", contents: ["2001:DB8::0:1"] },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets.map((s: any) => `${s.name} ${s.type} ${s.records[0].content}`)).toEqual(["@ MX 10 mail.example.net.", "host AAAA 2001:db8::1"]);
  });
});

describe("all or nothing", () => {
  it("a bad change in the middle: 422 naming it, nothing applied, the serial unchanged", async () => {
    const zone = await zoneWith("atomic.chg.test", ["www A 192.0.2.1"]);
    const before = await readZone(zone.id);
    const lines = await recordLines("atomic.chg.test");
    const response = await changes("atomic.chg.test", [
      { action: "add", name: "a", type: "A", contents: ["192.0.2.10"] },
      { action: "replace", name: "www", type: "A", contents: ["192.0.2.2", "not-an-address"] },
      { action: "add", name: "b", type: "A", contents: ["192.0.2.11"] },
    ]);
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["changes[1].contents[1]"]);
    expect(problem.detail).toMatch(/^changes\[1\]\.contents\[1\]: /);
    expect(await recordLines("atomic.chg.test")).toEqual(lines);
    expect((await readZone(zone.id)).soa.serial).toBe(before.soa.serial);
  });

  it("a change in the middle breaking a DNS rule (a CNAME beside other data): 409 rrset_conflict naming it, nothing applied", async () => {
    const zone = await zoneWith("atomic-cname.chg.test", ["www A 192.0.2.1"]);
    const before = await readZone(zone.id);
    const response = await changes("atomic-cname.chg.test", [
      { action: "add", name: "a", type: "A", contents: ["192.0.2.10"] },
      { action: "add", name: "www", type: "CNAME", contents: ["a.atomic-cname.chg.test."] },
      { action: "add", name: "b", type: "A", contents: ["192.0.2.11"] },
    ]);
    const problem = expectProblem(response, 409, "rrset_conflict");
    expect(problem.detail).toBe("changes[1]: www: a CNAME cannot share its name with other records (here A) (RFC 1034 §3.6.2).");
    expect(problem.errors).toEqual([{ field: "changes[1]", message: "www: a CNAME cannot share its name with other records (here A) (RFC 1034 §3.6.2)" }]);
    expect(await recordLines("atomic-cname.chg.test")).toEqual(["@ 3600 NS ns1.chg-dns.net.", "@ 3600 NS ns2.chg-dns.net.", "www 3600 A 192.0.2.1"]);
    expect((await readZone(zone.id)).soa.serial).toBe(before.soa.serial);
  });

  it("a batch that fails at a statement in its middle writes nothing: the records it deleted stay, no event, the serial unchanged", async () => {
    const zone = await zoneWith("rollback.chg.test", ["www A 192.0.2.1"]);
    const before = await readZone(zone.id);
    const since = new Date().toISOString();
    // Behind the service's back (no zone version moved, so no guard notices), the record the batch
    // inserts appears first: the insert, after the batch's zone step and deletion, fails on the unique index.
    const response = await apiWithHooks(
      "POST",
      "/v1/zones/rollback.chg.test/changes",
      onceBeforeWriting("records", async () => {
        await env.DB.prepare(
          "insert into records (id, zone_id, name, type, content, ttl, version, owner_order, created_at, updated_at) values ('rec_01M818AH2Q0000000000000000', ?, 'a', 'A', '192.0.2.10', 3600, 1, 'a', ?, ?)",
        )
          .bind(zone.id, since, since)
          .run();
      }),
      {
        json: {
          changes: [
            { action: "delete", name: "www", type: "A" },
            { action: "add", name: "a", type: "A", contents: ["192.0.2.10"] },
          ],
        },
      },
    );
    expectProblem(response, 409, "already_exists");
    expect(await recordLines("rollback.chg.test")).toEqual([
      "@ 3600 NS ns1.chg-dns.net.",
      "@ 3600 NS ns2.chg-dns.net.",
      "a 3600 A 192.0.2.10",
      "www 3600 A 192.0.2.1",
    ]);
    expect(await recordEvents(zone.id, since)).toEqual([]);
    expect((await readZone(zone.id)).soa.serial).toBe(before.soa.serial);
  });

  it("1 000 changes in one request apply together: one serial step, an event per record, the write one batch within D1's limits", async () => {
    const zone = await zoneWith("thousand.chg.test");
    const before = await readZone(zone.id);
    const since = new Date().toISOString();
    const list = Array.from({ length: 1000 }, (_, i) => ({ action: "add", name: `h${i}`, type: "A", contents: [`10.0.${i >> 8}.${i & 255}`] }));
    const batches: string[][] = [];
    const response = await apiWithHooks(
      "POST",
      "/v1/zones/thousand.chg.test/changes",
      { beforeBatch: (sql) => void batches.push(sql) },
      { json: { changes: list } },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets).toHaveLength(1000);
    const after = await readZone(zone.id);
    expect(after.record_count).toBe(1002);
    expect(after.soa.serial).toBe(response.body.serial);
    expect(response.body.serial).not.toBe(before.soa.serial);
    expect(await recordEvents(zone.id, since)).toHaveLength(1000);
    // One read batch and one write batch, the write a handful of statements.
    expect(batches).toHaveLength(2);
    expect(batches[1]!.length).toBeLessThanOrEqual(10);
  }, 60_000);

  it("replacing a 3 000-record RRset: one write batch within D1's limits, an event for each record deleted and created, one for the TTL", async () => {
    const lines = ["$ORIGIN big.chg.test.", "$TTL 300", "@ NS ns1.chg-dns.net."];
    for (let i = 0; i < 3000; i++) lines.push(`big A 10.0.${i >> 8}.${i & 255}`);
    const imported = await api("POST", "/v1/zones", { body: `${lines.join("\n")}\n`, headers: { "content-type": "text/dns" } });
    expect(imported.status, imported.text).toBe(201);
    const since = new Date().toISOString();
    const batches: string[][] = [];
    const response = await apiWithHooks(
      "POST",
      "/v1/zones/big.chg.test/changes",
      { beforeBatch: (sql) => void batches.push(sql) },
      { json: { changes: [{ action: "replace", name: "big", type: "A", ttl: 60, contents: ["10.0.0.1", "192.0.2.1"] }] } },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets[0].records.map((r: any) => `${r.content} ${r.ttl}`)).toEqual(["10.0.0.1 60", "192.0.2.1 60"]);
    expect(batches).toHaveLength(2);
    expect(batches[1]!.length).toBeLessThanOrEqual(12);
    const events = await recordEvents(imported.body.id, since);
    expect(events.filter((e) => e.startsWith("delete "))).toHaveLength(2999);
    expect(events.filter((e) => !e.startsWith("delete "))).toEqual(["create big A 192.0.2.1 60"]);
    expect(await rrsetEvents(imported.body.id, since)).toEqual(["big A 300 → 60 (1)"]);
    expect((await readZone(imported.body.id)).record_count).toBe(3);
  }, 120_000);

  it("1 001 changes answer 422 naming changes, and nothing is applied", async () => {
    const zone = await zoneWith("toomany.chg.test");
    const list = Array.from({ length: 1001 }, (_, i) => ({ action: "add", name: `h${i}`, type: "A", contents: ["192.0.2.1"] }));
    const problem = expectProblem(await changes("toomany.chg.test", list), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "changes", message: "must hold at most 1000 changes: send more in further requests" }]);
    expect((await readZone(zone.id)).record_count).toBe(2);
  });
});

describe("the rules every record write obeys", () => {
  it("every problem is listed, each naming its change: contents, names outside the zone, unknown types, fields an action does not take", async () => {
    await zoneWith("errors.chg.test");
    const first = await changes("errors.chg.test", [
      { action: "add", name: "www", type: "A", contents: ["192.0.2.1"] },
      { action: "frobnicate", name: "www", type: "A", contents: ["192.0.2.1"] },
      { action: "delete", name: "www", type: "A", contents: ["192.0.2.1"] },
      { action: "remove", name: "www", type: "A", ttl: 60, contents: ["192.0.2.1"] },
      { action: "add", name: "www", type: "SOA", contents: ["x"] },
      { action: "add", name: "www", type: "A" },
      { action: "add", name: "www", type: "A", contents: ["192.0.2.1"], surprise: true },
    ]);
    const shape = expectProblem(first, 422, "validation_failed");
    expect(errorFields(shape).sort()).toEqual(
      ["changes[1].action", "changes[2].contents", "changes[3].ttl", "changes[4].type", "changes[5].contents", "changes[6].surprise"].sort(),
    );
    expect(errorFor(shape, "changes[2].contents").message).toContain("is not taken by delete");
    expect(errorFor(shape, "changes[3].ttl").message).toBe("is not taken by remove: only add and replace set an RRset's TTL");

    const second = await changes("errors.chg.test", [
      { action: "add", name: "www", type: "A", contents: ["192.0.2.1", "192.0.2.256"] },
      { action: "add", name: "www.elsewhere.test.", type: "A", contents: ["192.0.2.1"] },
      { action: "replace", name: "mail", type: "MX", contents: ["10 mail.example.net.", "mx-without-preference"] },
      { action: "add", name: "@", type: "CNAME", contents: ["www.example.net."] },
      { action: "add", name: "_x", type: "A", contents: ["192.0.2.1"] },
    ]);
    const problem = expectProblem(second, 422, "validation_failed");
    expect(problem.detail).toBe("5 fields are invalid");
    expect(errorFields(problem)).toEqual(["changes[0].contents[1]", "changes[1].name", "changes[2].contents[1]", "changes[3].type", "changes[4].name"]);
    expect(errorFor(problem, "changes[1].name").message).toBe('"www.elsewhere.test." www.elsewhere.test is outside the zone errors.chg.test');
    expect((await readZone("errors.chg.test")).record_count).toBe(2);
  });

  it("a CNAME may replace what was at its name in the same request; two CNAMEs at a name are 409", async () => {
    await zoneWith("cname.chg.test", ["www A 192.0.2.1", 'www TXT "x"']);
    const replaced = await changes("cname.chg.test", [
      { action: "delete", name: "www", type: "A" },
      { action: "delete", name: "www", type: "TXT" },
      { action: "add", name: "www", type: "CNAME", contents: ["web.example.net."] },
    ]);
    expect(replaced.status, replaced.text).toBe(200);
    expect(await recordLines("cname.chg.test")).toEqual(["@ 3600 NS ns1.chg-dns.net.", "@ 3600 NS ns2.chg-dns.net.", "www 3600 CNAME web.example.net."]);
    const two = await changes("cname.chg.test", [{ action: "replace", name: "alias", type: "CNAME", contents: ["a.example.net.", "b.example.net."] }]);
    expect(expectProblem(two, 409, "rrset_conflict").errors).toEqual([
      { field: "changes[0]", message: "alias: a name has at most one CNAME record (RFC 2181 §10.1)" },
    ]);
  });

  it("the apex keeps an NS record: deleting its NS RRset is 409; replacing it is fine", async () => {
    await zoneWith("apex.chg.test");
    const deleted = await changes("apex.chg.test", [{ action: "delete", name: "@", type: "NS" }]);
    expect(expectProblem(deleted, 409, "rrset_conflict").errors).toEqual([
      { field: "changes[0]", message: "the zone apex must keep at least one NS record (RFC 1034 §4.2.1)" },
    ]);
    const replaced = await changes("apex.chg.test", [{ action: "replace", name: "@", type: "NS", contents: ["ns9.chg-dns.net."] }]);
    expect(replaced.status, replaced.text).toBe(200);
    expect(await recordLines("apex.chg.test")).toEqual(["@ 3600 NS ns9.chg-dns.net."]);
  });

  it("the zone stays loadable: a name server inside the zone needs its address, given in the same request or before", async () => {
    await zoneWith("glue.chg.test");
    const without = await changes("glue.chg.test", [{ action: "add", name: "@", type: "NS", contents: ["ns1.glue.chg.test."] }]);
    const problem = expectProblem(without, 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["changes[0].contents[0]"]);
    expect(errorFor(problem, "changes[0].contents[0]").message).toContain("has no address record");
    const withAddress = await changes("glue.chg.test", [
      { action: "add", name: "@", type: "NS", contents: ["ns1.glue.chg.test."] },
      { action: "add", name: "ns1", type: "A", contents: ["192.0.2.53"] },
    ]);
    expect(withAddress.status, withAddress.text).toBe(200);
    // Now the address cannot go while the name server names it.
    const orphan = await changes("glue.chg.test", [{ action: "delete", name: "ns1", type: "A" }]);
    expect(expectProblem(orphan, 409, "rrset_conflict").errors[0].field).toBe("changes");
  });

  it("an RRset fits one DNS message: changes that take it past 65 011 octets answer 422 policy_violation naming the change", async () => {
    const zone = await zoneWith("huge.chg.test");
    const contents = Array.from({ length: 4200 }, (_, i) => `10.2.${i >> 8}.${i & 255}`);
    const response = await changes("huge.chg.test", [
      { action: "add", name: "ok", type: "A", contents: ["192.0.2.1"] },
      { action: "add", name: "many", type: "A", contents },
    ]);
    const problem = expectProblem(response, 422, "policy_violation");
    expect(problem.errors).toEqual([
      { field: "changes[1].contents", message: expect.stringMatching(/^the A RRset at many would take \d+ octets on the wire/) },
    ]);
    expect((await readZone(zone.id)).record_count).toBe(2);
    const fits = await changes("huge.chg.test", [{ action: "add", name: "many", type: "A", contents: contents.slice(0, 4000) }]);
    expect(fits.status, fits.text.slice(0, 300)).toBe(200);
  }, 60_000);

  it("a zone holds at most 25 000 records: changes that would pass it answer 422 policy_violation, and nothing is applied", async () => {
    const zone = await zoneWith("full.chg.test");
    // The count kept by triggers, moved to just under the limit (25 000 real rows would take minutes here).
    await env.DB.prepare("update zones set record_count = 24999 where id = ?").bind(zone.id).run();
    const response = await changes("full.chg.test", [{ action: "add", name: "a", type: "A", contents: ["192.0.2.1", "192.0.2.2"] }]);
    const problem = expectProblem(response, 422, "policy_violation");
    expect(problem.errors[0]).toEqual({ field: "changes", message: expect.stringContaining("would hold 25001 records") });
    const one = await changes("full.chg.test", [{ action: "add", name: "a", type: "A", contents: ["192.0.2.1"] }]);
    expect(one.status, one.text).toBe(200);
  });
});

describe("concurrent writers", () => {
  it("two clients adding TXT contents at one name at the same moment both keep theirs", async () => {
    await zoneWith("race.chg.test");
    const [a, b] = await Promise.all([
      changes("race.chg.test", [{ action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"client-a"'] }]),
      changes("race.chg.test", [{ action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"client-b"'] }]),
    ]);
    expect([a.status, b.status], `${a.text} ${b.text}`).toEqual([200, 200]);
    expect((await recordLines("race.chg.test")).filter((l) => l.startsWith("_acme"))).toEqual([
      '_acme-challenge 60 TXT "client-a"',
      '_acme-challenge 60 TXT "client-b"',
    ]);
  });

  it("an add committed between a request's read and its write is kept: the request reads again and adds its own beside it", async () => {
    await zoneWith("interleave.chg.test");
    const response = await apiWithHooks(
      "POST",
      "/v1/zones/interleave.chg.test/changes",
      onceBeforeWriting("records", async () => {
        const other = await changes("interleave.chg.test", [{ action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"first"'] }]);
        expect(other.status, other.text).toBe(200);
      }),
      { json: { changes: [{ action: "add", name: "_acme-challenge", type: "TXT", contents: ['"second"'] }] } },
    );
    expect(response.status, response.text).toBe(200);
    // Decided again on what the other client wrote: it joins that RRset at its TTL (one TTL per RRset, RFC 2181 §5.2).
    expect(response.body.rrsets[0].records.map((r: any) => `${r.content} ${r.ttl}`)).toEqual(['"first" 60', '"second" 60']);
    expect((await recordLines("interleave.chg.test")).filter((l) => l.startsWith("_acme"))).toEqual([
      '_acme-challenge 60 TXT "first"',
      '_acme-challenge 60 TXT "second"',
    ]);
  });

  it("a replace decided before another client's add commits still leaves the RRset exactly as it says", async () => {
    await zoneWith("interleave-replace.chg.test", ["www A 192.0.2.1"]);
    const response = await apiWithHooks(
      "POST",
      "/v1/zones/interleave-replace.chg.test/changes",
      onceBeforeWriting("records", async () => {
        const other = await changes("interleave-replace.chg.test", [{ action: "add", name: "www", type: "A", contents: ["192.0.2.2"] }]);
        expect(other.status, other.text).toBe(200);
      }),
      { json: { changes: [{ action: "replace", name: "www", type: "A", contents: ["192.0.2.3"] }] } },
    );
    expect(response.status, response.text).toBe(200);
    expect((await recordLines("interleave-replace.chg.test")).filter((l) => l.startsWith("www"))).toEqual(["www 3600 A 192.0.2.3"]);
  });
});

describe("If-Match and Idempotency-Key", () => {
  it("If-Match with the zone's current ETag applies the changes; with an older one, 412 and nothing applied", async () => {
    const zone = await zoneWith("ifmatch.chg.test");
    const etag = (await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag")!;
    const applied = await changes("ifmatch.chg.test", [{ action: "add", name: "a", type: "A", contents: ["192.0.2.1"] }], { "if-match": etag });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.headers.get("etag")).not.toBe(etag);
    const stale = await changes("ifmatch.chg.test", [{ action: "add", name: "b", type: "A", contents: ["192.0.2.2"] }], { "if-match": etag });
    expect(expectProblem(stale, 412, "precondition_failed").detail).toContain(`If-Match ${etag} does not match`);
    expect((await recordLines("ifmatch.chg.test")).filter((l) => !l.startsWith("@"))).toEqual(["a 3600 A 192.0.2.1"]);
    // The answer's ETag is the zone's: it makes the next conditional change.
    const chained = await changes("ifmatch.chg.test", [{ action: "add", name: "b", type: "A", contents: ["192.0.2.2"] }], {
      "if-match": applied.headers.get("etag")!,
    });
    expect(chained.status, chained.text).toBe(200);
  });

  it("a retry with the same Idempotency-Key replays the first answer without applying the changes again; another body with that key is 422", async () => {
    const zone = await zoneWith("idem.chg.test");
    const list = [{ action: "add", name: "a", type: "A", contents: ["192.0.2.1"] }];
    const first = await changes("idem.chg.test", list, { "idempotency-key": "chg-idem-1" });
    expect(first.status, first.text).toBe(200);
    // Meanwhile someone else removes the record: a replay must not add it back.
    expect((await changes("idem.chg.test", [{ action: "delete", name: "a", type: "A" }])).status).toBe(200);
    const serial = (await readZone(zone.id)).soa.serial;
    const retry = await changes("idem.chg.test", list, { "idempotency-key": "chg-idem-1" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
    expect((await readZone(zone.id)).soa.serial).toBe(serial);
    expect((await recordLines("idem.chg.test")).filter((l) => !l.startsWith("@"))).toEqual([]);
    const other = await changes("idem.chg.test", [{ action: "add", name: "b", type: "A", contents: ["192.0.2.2"] }], { "idempotency-key": "chg-idem-1" });
    expect(errorFor(expectProblem(other, 422, "validation_failed"), "Idempotency-Key").message).toBe("was used with a different request body");
  });
});

describe("who may change a zone", () => {
  let acme = "";
  let other = "";

  beforeAll(async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "Changes Customer" } });
    expect(account.status, account.text).toBe(201);
    const mint = async (authorization: string, body: Record<string, unknown>) => {
      const response = await api("POST", "/v1/tokens", { headers: { authorization }, json: body });
      expect(response.status, response.text).toBe(201);
      return `Bearer ${response.body.secret}`;
    };
    const customer = await mint(bearer("write"), { name: "chg-customer", scope: "write", account: account.body.id });
    const created = await api("POST", "/v1/zones", { headers: { authorization: customer }, json: { name: "acme.chg.test", nameservers: ["ns1.chg-dns.net"] } });
    expect(created.status, created.text).toBe(201);
    acme = await mint(customer, { name: "chg-acme", scope: "write", zones: ["acme.chg.test"], records: [{ name: "_acme-challenge", types: ["TXT"] }] });
    const bob = await api("POST", "/v1/accounts", { json: { name: "Changes Other" } });
    other = await mint(bearer("write"), { name: "chg-other", scope: "write", account: bob.body.id });
  });

  it("a token whose records rules allow every change makes them", async () => {
    const response = await changes("acme.chg.test", [{ action: "add", name: "_acme-challenge", type: "TXT", contents: ['"allowed"'] }], {
      authorization: acme,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.rrsets[0].records.map((r: any) => r.content)).toEqual(['"allowed"']);
  });

  it("a token whose rules refuse one change: 403 naming the change and the rule, nothing applied", async () => {
    const response = await changes(
      "acme.chg.test",
      [
        { action: "add", name: "_acme-challenge", type: "TXT", contents: ['"second"'] },
        { action: "add", name: "www", type: "A", contents: ["192.0.2.1"] },
        { action: "delete", name: "@", type: "NS" },
      ],
      { authorization: acme },
    );
    const problem = expectProblem(response, 403, "forbidden");
    expect(problem.detail).toBe(
      "changes[1]: This token may write records only for _acme-challenge TXT; A at www is not among them. (2 changes are refused; errors lists them)",
    );
    expect(problem.errors).toEqual([
      { field: "changes[1]", message: "This token may write records only for _acme-challenge TXT; A at www is not among them." },
      { field: "changes[2]", message: "This token may write records only for _acme-challenge TXT; NS at @ is not among them." },
    ]);
    const { results } = await env.DB.prepare(
      "select content from records where zone_id = (select id from zones where name = 'acme.chg.test') and type = 'TXT'",
    ).all();
    expect(results).toEqual([{ content: '"allowed"' }]);
  });

  it("another account's zone is 404, by name and by id, and is not changed", async () => {
    const zone = await zoneWith("private.chg.test");
    const list = [{ action: "add", name: "a", type: "A", contents: ["192.0.2.1"] }];
    const byName = await changes("private.chg.test", list, { authorization: other });
    expect(expectProblem(byName, 404, "not_found").detail).toContain("private.chg.test");
    expectProblem(await changes(zone.id, list, { authorization: other }), 404, "not_found");
    expect((await readZone(zone.id)).record_count).toBe(2);
  });

  it("a read token is 403; an unknown zone is 404", async () => {
    expectProblem(await changes("private.chg.test", [{ action: "delete", name: "a", type: "A" }], { authorization: bearer("read") }), 403, "forbidden");
    expectProblem(await changes("nowhere.chg.test", [{ action: "delete", name: "a", type: "A" }]), 404, "not_found");
  });
});

describe("hostile changes", () => {
  it("generated change lists (odd actions, names, types, contents and TTLs) never answer 5xx; a refusal is problem+json and changes nothing", async () => {
    const zone = await zoneWith("hostile.chg.test", ["www A 192.0.2.1", "mail MX 10 mx.example.net."]);
    const text = fc.oneof(
      fc.constantFrom("@", "www", "*", "*.x", "a..b", "_acme-challenge", "hostile.chg.test.", "other.test.", "", " ", "\u0000", "💥", "xn--", "x".repeat(300)),
      fc.string({ maxLength: 40 }),
    );
    const change = fc.record(
      {
        action: fc.oneof(fc.constantFrom("add", "replace", "remove", "delete"), fc.string({ maxLength: 8 })),
        name: text,
        type: fc.oneof(
          fc.constantFrom("A", "AAAA", "CNAME", "NS", "MX", "TXT", "DNAME", "SOA", "TYPE1", "TYPE65280", "RRSIG", "OPT", "a"),
          fc.string({ maxLength: 6 }),
        ),
        ttl: fc.oneof(fc.integer(), fc.constantFrom(-1, 0, 2147483648), fc.double()),
        contents: fc.array(
          fc.oneof(fc.constantFrom("192.0.2.1", "10 mx.example.net.", "ns1.hostile.chg.test.", '"txt"', "\\# 4 0A000001", "x.hostile.chg.test."), text),
          { maxLength: 4 },
        ),
      },
      { requiredKeys: ["action"] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 6 }), async (list) => {
        const before = await recordLines("hostile.chg.test");
        const response = await changes("hostile.chg.test", list);
        expect(response.status, response.text.slice(0, 300)).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
          expect(await recordLines("hostile.chg.test")).toEqual(before);
        } else {
          expect(response.status).toBe(200);
          expect((await readZone(zone.id)).soa.serial).toBe(response.body.serial);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
