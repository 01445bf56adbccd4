// The records' examples in the OpenAPI document: www.example.com's address in the example
// world's zone (src/http/example-world.ts), and a set of RRset changes with their answer.
import type { z } from "@hono/zod-openapi";
import { CREATED, RECORD_ID, UPDATED, ZONE_ID } from "../../http/example-world";
import type { RecordCreateSchema, RecordPatchSchema, RecordSchema, ZoneChangesResultSchema, ZoneChangesSchema } from "./schemas";

export const RECORD_CREATE_EXAMPLE = {
  zone: "example.com",
  name: "www",
  type: "A",
  content: "192.0.2.10",
  ttl: 3600,
  comment: "the web server",
} satisfies z.input<typeof RecordCreateSchema>;

export const RECORD_PATCH_EXAMPLE = { content: "192.0.2.11", comment: null } satisfies z.input<typeof RecordPatchSchema>;

export const RECORD_EXAMPLE = {
  id: RECORD_ID,
  zone: ZONE_ID,
  name: "www",
  fqdn: "www.example.com",
  type: "A",
  content: "192.0.2.10",
  ttl: 3600,
  comment: "the web server",
  created_at: UPDATED,
  updated_at: UPDATED,
} satisfies z.output<typeof RecordSchema>;

// POST /zones/{zone}/changes: an ACME challenge added, www set to two addresses, an old
// address taken out, a legacy MX set deleted; the answer shows each RRset as it now stands.
export const ZONE_CHANGES_EXAMPLE = {
  changes: [
    { action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"token-1"'] },
    { action: "replace", name: "www", type: "A", ttl: 300, contents: ["192.0.2.1", "192.0.2.2"] },
    { action: "remove", name: "old", type: "A", contents: ["192.0.2.9"] },
    { action: "delete", name: "legacy", type: "MX" },
  ],
} satisfies z.input<typeof ZoneChangesSchema>;

const CHANGED = "2026-11-22T09:12:40.107Z";
const changedRecord = (id: string, name: string, type: string, content: string, ttl: number, createdAt: string) => ({
  id,
  zone: ZONE_ID,
  name,
  fqdn: `${name}.example.com`,
  type,
  content,
  ttl,
  comment: null,
  created_at: createdAt,
  updated_at: CHANGED,
});

export const ZONE_CHANGES_RESULT_EXAMPLE = {
  serial: 2026112203,
  rrsets: [
    {
      name: "_acme-challenge",
      fqdn: "_acme-challenge.example.com",
      type: "TXT",
      ttl: 60,
      records: [changedRecord("rec_01M818AH2Q4ZG4W7N3B5V0XK8C", "_acme-challenge", "TXT", '"token-1"', 60, CHANGED)],
    },
    {
      name: "www",
      fqdn: "www.example.com",
      type: "A",
      ttl: 300,
      records: [
        changedRecord("rec_01M818AH2QK1N6F3D9RZB7TQ4M", "www", "A", "192.0.2.1", 300, CHANGED),
        changedRecord("rec_01M818AH2QWV8C2H5J0MXE3S6P", "www", "A", "192.0.2.2", 300, CHANGED),
      ],
    },
    {
      name: "old",
      fqdn: "old.example.com",
      type: "A",
      ttl: 3600,
      records: [{ ...changedRecord("rec_01M8188PQ9ZB5E7W2CX4K6N0TD", "old", "A", "192.0.2.8", 3600, CREATED), updated_at: UPDATED }],
    },
    { name: "legacy", fqdn: "legacy.example.com", type: "MX", ttl: null, records: [] },
  ],
} satisfies z.output<typeof ZoneChangesResultSchema>;
