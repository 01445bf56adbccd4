// Issue 10 item 3: an import is one D1 batch, so a whole master file passes through one
// isolate (128 MB). Its size is bounded in bytes and in records (src/resources/zones/
// master-file.ts: the figures behind the numbers are in the README), and the largest
// file the limits admit is written by a batch that respects D1's documented limits.
import { describe, expect, it } from "vitest";
import { parseMasterFile, recordLineBytes } from "../src/dns/master-file";
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS, MAX_ZONE_RECORD_BYTES } from "../src/resources/zones/master-file";
import { costOf, expectWithinD1Limits } from "./d1-cost";
import { api, expectProblem } from "./helpers";

/** A master file of `count` records: the apex NS and A records at distinct names. */
function recordsFile(zone: string, count: number): string {
  const lines = [`$ORIGIN ${zone}.`, "$TTL 300", "@ NS ns1.example.org."];
  for (let i = 1; i < count; i++) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  return `${lines.join("\n")}\n`;
}

/**
 * The most bytes per record: TXT records of two 250-character strings, up to `bytes` of
 * file and `zoneBytes` of the zone's records as its export writes them (the zone size limit).
 */
function longRecordsFile(zone: string, bytes: number, zoneBytes: number): { text: string; records: number; recordBytes: number } {
  let text = `$ORIGIN ${zone}.\n$TTL 300\n@ NS ns1.example.org.\n`;
  let records = 1;
  let recordBytes = recordLineBytes({ name: "@", ttl: 300, type: "NS", content: "ns1.example.org." });
  for (let i = 0; ; i++) {
    const string = `${i}-`.padEnd(250, "k");
    const record = { name: `t${i}`, ttl: 300, type: "TXT", content: `"${string}" "${string.replace(/k/g, "v")}"` };
    const line = `${record.name} ${record.type} ${record.content}\n`;
    if (text.length + line.length > bytes || recordBytes + recordLineBytes(record) > zoneBytes) break;
    text += line;
    recordBytes += recordLineBytes(record);
    records++;
  }
  return { text, records, recordBytes };
}

function importFile(text: string) {
  return costOf("POST", "/v1/zones", { body: text, headers: { "content-type": "text/dns" } });
}

describe("the record limit of a master file", () => {
  it(`${MAX_MASTER_FILE_RECORDS} records are imported in one batch within D1's limits`, async () => {
    const response = await importFile(recordsFile("most-records.test", MAX_MASTER_FILE_RECORDS));
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(response.body.record_count).toBe(MAX_MASTER_FILE_RECORDS);
    const writes = response.cost.batches.filter((batch) => batch.some((s) => /^insert into "records"/i.test(s.sql)));
    expect(writes).toHaveLength(1);
    expectWithinD1Limits(response.cost);
  }, 120_000);

  it("one record more answers 413 payload_too_large naming the limit and the line, and creates nothing", async () => {
    const text = recordsFile("too-many-records.test", MAX_MASTER_FILE_RECORDS + 1);
    const response = await importFile(text);
    expect(response.status, response.text.slice(0, 300)).toBe(413);
    expect(response.body.code).toBe("payload_too_large");
    const lastLine = text.trimEnd().split("\n").length;
    expect(response.body.detail).toContain(`${MAX_MASTER_FILE_RECORDS} records`);
    expect(response.body.detail).toContain(`line ${lastLine}`);
    expectProblem(await api("GET", "/v1/zones/too-many-records.test"), 404, "not_found");
  }, 120_000);

  it("is counted as the file is read: the reader stops at the first record over it", () => {
    const parsed = parseMasterFile("$ORIGIN stop.test.\n$TTL 300\n@ NS ns1.example.org.\na A 192.0.2.1\nb A 192.0.2.2\nnot a record at all\n", {
      maxRecords: 2,
    });
    expect(parsed).toEqual({ ok: false, tooManyRecords: true, errors: [{ line: 5, message: "more than 2 records; stopped reading here" }] });
    expect(parseMasterFile("$ORIGIN stop.test.\n$TTL 300\n@ NS ns1.example.org.\na A 192.0.2.1\n", { maxRecords: 2 }).ok).toBe(true);
  });
});

describe("a zone holds at most as many records as an import takes", () => {
  it(`a zone of ${MAX_MASTER_FILE_RECORDS} records takes no more (422 policy_violation naming the zone); one record fewer takes exactly one`, async () => {
    const full = await importFile(recordsFile("full-zone.test", MAX_MASTER_FILE_RECORDS));
    expect(full.status, full.text.slice(0, 300)).toBe(201);
    const refused = expectProblem(
      await api("POST", "/v1/records", { json: { zone: "full-zone.test", name: "one-more", type: "A", content: "192.0.2.1" } }),
      422,
      "policy_violation",
    );
    expect(refused.errors).toEqual([
      {
        field: "zone",
        message: `full-zone.test holds ${MAX_MASTER_FILE_RECORDS} records, the most a zone may hold (the import limit, so that every zone can be exported and imported back): delete records first`,
      },
    ]);
    expect((await api("GET", "/v1/zones/full-zone.test")).body.record_count).toBe(MAX_MASTER_FILE_RECORDS);

    const almost = await importFile(recordsFile("almost-full.test", MAX_MASTER_FILE_RECORDS - 1));
    expect(almost.status, almost.text.slice(0, 300)).toBe(201);
    const record = (name: string) => api("POST", "/v1/records", { json: { zone: "almost-full.test", name, type: "A", content: "192.0.2.1" } });
    expect((await record("last")).status).toBe(201);
    expectProblem(await record("past-last"), 422, "policy_violation");
    expect((await api("GET", "/v1/zones/almost-full.test")).body.record_count).toBe(MAX_MASTER_FILE_RECORDS);
  }, 120_000);

  it("two creates racing for the last place: one 201, one 422, and the zone at the limit", async () => {
    const almost = await importFile(recordsFile("race-full.test", MAX_MASTER_FILE_RECORDS - 1));
    expect(almost.status, almost.text.slice(0, 300)).toBe(201);
    const record = (name: string) => api("POST", "/v1/records", { json: { zone: "race-full.test", name, type: "A", content: "192.0.2.1" } });
    const statuses = (await Promise.all([record("racer-a"), record("racer-b")])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422]);
    expect((await api("GET", "/v1/zones/race-full.test")).body.record_count).toBe(MAX_MASTER_FILE_RECORDS);
  }, 120_000);
});

describe("the byte limit of a master file", () => {
  it("a file of long records up to the byte limits (the file's, and the zone's as its export writes it) is imported in one batch within D1's limits", async () => {
    const { text, records, recordBytes } = longRecordsFile("most-bytes.test", MAX_MASTER_FILE_BYTES, MAX_ZONE_RECORD_BYTES);
    expect(recordBytes).toBeGreaterThan(MAX_ZONE_RECORD_BYTES - 600);
    const response = await importFile(text);
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(response.body.record_count).toBe(records);
    expectWithinD1Limits(response.cost);
  }, 120_000);
});
