// Types of capacity-report.mjs for the TypeScript tests: the report scripts/capacity.mjs
// prints with --json.
export interface CapacityReport {
  database_limit_bytes: number;
  empty_database_bytes: number;
  rows_per_table: number;
  tables: { table: string; rows: number; bytes: number; bytes_per_row: number }[];
  entities: Record<"domain" | "zone" | "record", { bytes: number; made_of: string }>;
  events: { kinds: { kind: string; share: number; bytes_per_event: number }[]; mix_bytes_per_event: number };
  capacity: { domains: number; zones: number; records: number; domains_with_zone_of_10_records: number };
  event_days: {
    writes_per_second: number;
    event_bytes_per_day: number;
    days_until_full_without_archive: number;
    hot_window_days: number;
    hot_window_bytes: number;
    fits_with_archive: boolean;
    largest_hot_window_days: number;
  }[];
}
export function capacityReport(args?: string[], timeoutMs?: number): Promise<CapacityReport>;
