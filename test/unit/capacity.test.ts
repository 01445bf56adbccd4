// `npm run capacity` (scripts/capacity.mjs) on a small fill: it loads the real migrations
// into D1's engine, fills every table it models, and its figures have the shape the README
// and docs/capacity.md quote: positive bytes per row for each table, more records than
// zones than domains in one database, and event days that shrink as the write rate grows
// and that the archive's hot window bounds.
import { beforeAll, describe, expect, it } from "vitest";
import { type CapacityReport, capacityReport } from "../../scripts/lib/capacity-report.mjs";

let report: CapacityReport;

beforeAll(async () => {
  report = await capacityReport(["--quick"]);
}, 120_000);

describe("npm run capacity measures the real schema", () => {
  it("bytes per row, indexes included, for every table it fills", () => {
    const tables: Record<string, CapacityReport["tables"][number]> = Object.fromEntries(report.tables.map((t) => [t.table, t]));
    const of = (table: string) => tables[table]!;
    for (const table of [
      "accounts",
      "contacts",
      "hosts",
      "domains",
      "domain_nameservers",
      "zones",
      "records",
      "events",
      "idempotency_keys",
      "event_archives",
    ]) {
      expect(tables[table], table).toBeDefined();
      expect(of(table).rows, table).toBeGreaterThanOrEqual(200);
      // More than the row's own text: a page-granular measure with the indexes in it, and far under D1's 2 MB row.
      expect(of(table).bytes_per_row, table).toBeGreaterThan(100);
      expect(of(table).bytes_per_row, table).toBeLessThan(10_000);
    }
    // An event keeps whole representations: more than the record it describes.
    expect(of("events").bytes_per_row).toBeGreaterThan(of("records").bytes_per_row);
    expect(report.database_limit_bytes).toBe(10_000_000_000);
    expect(report.empty_database_bytes).toBeGreaterThan(0);
  });

  it("event kinds and their weighted mix", () => {
    const shares = report.events.kinds.reduce((sum, k) => sum + k.share, 0);
    expect(shares).toBeCloseTo(1, 6);
    const sizes = report.events.kinds.map((k) => k.bytes_per_event);
    expect(report.events.mix_bytes_per_event).toBeGreaterThanOrEqual(Math.min(...sizes));
    expect(report.events.mix_bytes_per_event).toBeLessThanOrEqual(Math.max(...sizes));
  });

  it("how many domains, zones and records one 10 GB database holds", () => {
    const { domains, zones, records, domains_with_zone_of_10_records } = report.capacity;
    for (const count of [domains, zones, records, domains_with_zone_of_10_records]) expect(Number.isInteger(count) && count > 100_000).toBe(true);
    expect(records).toBeGreaterThan(zones);
    expect(domains_with_zone_of_10_records).toBeLessThan(domains);
    expect(domains * report.entities.domain.bytes).toBeLessThanOrEqual(report.database_limit_bytes);
  });

  it("days of events at 1, 10 and 50 writes/s, without the archive and with it", () => {
    expect(report.event_days.map((e) => e.writes_per_second)).toEqual([1, 10, 50]);
    const [one, ten, fifty] = report.event_days as [
      CapacityReport["event_days"][number],
      CapacityReport["event_days"][number],
      CapacityReport["event_days"][number],
    ];
    expect(one.days_until_full_without_archive).toBeGreaterThan(ten.days_until_full_without_archive);
    expect(ten.days_until_full_without_archive).toBeGreaterThan(fifty.days_until_full_without_archive);
    // Ten times the rate, a tenth of the days.
    expect(ten.days_until_full_without_archive * 10).toBeCloseTo(one.days_until_full_without_archive, 3);
    for (const e of report.event_days) {
      const perDay = e.writes_per_second * 86_400 * report.events.mix_bytes_per_event;
      expect(Math.abs(e.event_bytes_per_day - perDay) / perDay).toBeLessThan(0.001);
      expect(e.hot_window_days).toBe(30);
      expect(e.fits_with_archive).toBe(e.hot_window_bytes <= report.database_limit_bytes - report.empty_database_bytes);
      expect(e.largest_hot_window_days).toBe(Math.floor(e.days_until_full_without_archive));
    }
  });
});
