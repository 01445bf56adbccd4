// A webhook's delivery attempts are stored a record per row (src/db/schema.ts,
// webhookDeliveryRecords; drizzle/0030): the attempts one pass made at the webhook, or a
// ping. The listing shows them one by one, newest first, its cursor able to stop inside a
// record; the attempts stored a row each before 0030 move over and list as before.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { claimAll, RECORD_ATTEMPTS, recordAll, releaseAll } from "../src/delivery/lease";
import { deliveryRecordsPage } from "../src/resources/webhooks/queries";
import type { Attempt } from "../src/delivery/rows";
import { migratedBefore } from "./empty-database";
import { api, type ApiResponse } from "./helpers";
import { insertTestTokens } from "./tokens";

const AT = "2026-01-01T00:00:00.000Z";
const OLD_WEBHOOK = "whk_01JD3Q6Y4T8N0V4W5X6Y7Z8W01";

/** Rows as migration 0020's table held them: one attempt each, in the order recorded. */
const OLD_ATTEMPTS = [
  ["dlv_01JD3Q6Y4T8N0V4W5X6Y7Z8D01", "event", "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8E01", 1, 503, 40, "HTTP 503: busy", "retrying", "2026-01-01T00:00:05.000Z"],
  ["dlv_01JD3Q6Y4T8N0V4W5X6Y7Z8D02", "event", "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8E01", 2, 204, 12, null, "succeeded", null],
  ["dlv_01JD3Q6Y4T8N0V4W5X6Y7Z8D03", "ping", "png_01JD3Q6Y4T8N0V4W5X6Y7Z8P01", 1, null, 10000, "No answer within 10 s.", "failed", null],
] as const;

beforeAll(async () => {
  await migratedBefore("0030");
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO webhooks (id, account_id, url, enabled, secret_sealed, loopback, api_host, cursor_seq, attempts, version, created_at, updated_at)
       VALUES (?, ?, 'https://93.184.215.14/hooks', 0, 'sealed', 0, 'api.test', 0, 0, 1, ?, ?)`,
    ).bind(OLD_WEBHOOK, OPERATOR_ACCOUNT_ID, AT, AT),
    ...OLD_ATTEMPTS.map(([id, kind, messageId, attempt, status, duration, error, outcome, next]) =>
      env.DB.prepare(
        `INSERT INTO webhook_deliveries (id, webhook_id, kind, message_id, attempt, at, status_code, duration_ms, error, outcome, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(id, OLD_WEBHOOK, kind, messageId, attempt, AT, status, duration, error, outcome, next),
    ),
  ]);
  await insertTestTokens(env.DB);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}, 120_000);

/** The listing's pages of `limit`, followed through their cursors. */
async function pages(webhook: string, limit: number): Promise<{ id: string; event: string | null }[][]> {
  const found: { id: string; event: string | null }[][] = [];
  let path: string | null = `/v1/webhooks/${webhook}/deliveries?limit=${limit}`;
  while (path) {
    const page: ApiResponse = await api("GET", path);
    expect(page.status, page.text).toBe(200);
    found.push(page.body.data);
    path = page.body.next_cursor ? `/v1/webhooks/${webhook}/deliveries?limit=${limit}&cursor=${encodeURIComponent(page.body.next_cursor)}` : null;
  }
  return found;
}

describe("migration 0030 moves every attempt stored a row each into a record of its own, in order", () => {
  it("the attempts from before it list as they did, newest first with every field, over two pages", async () => {
    const stored = await env.DB.prepare("select kind, at, count, attempts from webhook_delivery_records where webhook_id = ? order by seq")
      .bind(OLD_WEBHOOK)
      .all();
    expect(stored.results).toEqual(
      OLD_ATTEMPTS.map(([id, kind, messageId, attempt, status, duration, error, outcome, next]) => ({
        kind,
        at: AT,
        count: 1,
        attempts: JSON.stringify([[id, messageId, attempt, status, duration, error, outcome, next]]),
      })),
    );
    const [first, second] = await pages(OLD_WEBHOOK, 2);
    expect([...first!, ...second!]).toEqual(
      [...OLD_ATTEMPTS].reverse().map(([id, kind, messageId, attempt, status, duration, error, outcome, next]) => ({
        id,
        kind,
        event: kind === "event" ? messageId : null,
        message_id: messageId,
        attempt,
        at: AT,
        status_code: status,
        duration_ms: duration,
        error,
        outcome,
        next_attempt_at: next,
      })),
    );
    expect(second).toHaveLength(1);
  });

  it("the old table is gone", async () => {
    const tables = await env.DB.prepare("select name from sqlite_master where type = 'table' and name like 'webhook_deliver%' order by name").all();
    expect(tables.results).toEqual([{ name: "webhook_delivery_records" }]);
  });
});

describe("a pass's attempts at a webhook are one stored record; the listing shows them one by one", () => {
  const attempts = (from: number, n: number): Attempt[] =>
    Array.from({ length: n }, (_, i) => [`evt_01JD3Q6Y4T8N0V4W5X6Y7Z${String(from + i).padStart(4, "0")}`, 1, 204, 5, null, "succeeded", null] as const);

  async function webhookWith(records: Attempt[][]): Promise<string> {
    const created = await api("POST", "/v1/webhooks", { json: { url: "https://93.184.215.14/hooks/records", enabled: false } });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;
    const db = database(env.DB);
    await claimAll(db, [id], "lease-P1");
    // Enabled only for the lease: a disabled webhook is not claimed.
    await env.DB.prepare("update webhooks set enabled = 1 where id = ?").bind(id).run();
    expect((await claimAll(db, [id], "lease-P1")).map((w) => w.id)).toEqual([id]);
    // One call, a record each (as a pass's coalesced records are).
    const state = { cursorSeq: 0, attempts: 0, nextAttemptAt: null, failingSince: null };
    const answers = await recordAll(
      db,
      "lease-P1",
      records.map((list) => ({ webhookId: id, at: AT, attempts: list, state })),
    );
    expect(answers).toEqual(records.map(() => true));
    await releaseAll(db, [id], "lease-P1", new Date());
    await env.DB.prepare("update webhooks set enabled = 0 where id = ?").bind(id).run();
    return id;
  }

  it("two records of 5 and 3 attempts are two rows; pages of 3 stop inside a record and go on from there, newest first", async () => {
    const id = await webhookWith([attempts(1, 5), attempts(6, 3)]);
    const rows = await env.DB.prepare("select count from webhook_delivery_records where webhook_id = ? order by seq").bind(id).all();
    expect(rows.results).toEqual([{ count: 5 }, { count: 3 }]);
    const listed = await pages(id, 3);
    expect(listed.map((page) => page.length)).toEqual([3, 3, 2]);
    const events = listed.flat().map((d) => d.event);
    expect(events).toEqual(
      attempts(1, 8)
        .map((a) => a[0])
        .reverse(),
    );
    const ids = listed.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(8);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("a page that starts inside a record of 200 goes on into the older records: pages of 100 over 5 then 200 attempts are 100, 100 and 5", async () => {
    const id = await webhookWith([attempts(500, 5), attempts(600, 200)]);
    const listed = await pages(id, 100);
    expect(listed.map((page) => page.length)).toEqual([100, 100, 5]);
    expect(listed.flat().map((d) => d.event)).toEqual([...attempts(500, 5), ...attempts(600, 200)].map((a) => a[0]).reverse());
  });

  it(`a record holds RECORD_ATTEMPTS (${RECORD_ATTEMPTS}) attempts at most: more in one call are stored in several`, async () => {
    const id = await webhookWith([attempts(100, RECORD_ATTEMPTS * 2 + 1)]);
    const rows = await env.DB.prepare("select count from webhook_delivery_records where webhook_id = ? order by seq").bind(id).all();
    expect(rows.results).toEqual([{ count: RECORD_ATTEMPTS }, { count: RECORD_ATTEMPTS }, { count: 1 }]);
  });

  it("a page reads only the records it needs: a page of 10 or of 100 attempts, of records of 200, reads one", async () => {
    const id = await webhookWith([attempts(1000, 200), attempts(1200, 200), attempts(1400, 200)]);
    const db = database(env.DB);
    expect((await deliveryRecordsPage(db, id, { limit: 10, after: null })).length).toBe(1);
    expect((await deliveryRecordsPage(db, id, { limit: 100, after: null })).length).toBe(1);
    // 101 wanted (a page and one to know there is more): 200 in the first record.
    const page = await api("GET", `/v1/webhooks/${id}/deliveries?limit=100`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toHaveLength(100);
    expect(page.body.data[0].event).toBe(attempts(1400, 200).at(-1)![0]);
    expect(page.body.next_cursor).toEqual(expect.any(String));
  });

  it("a page's rows read do not grow with the webhook's history: 10 attempts read as many rows among 300 records as among 20", async () => {
    const rowsRead = async (id: string) => {
      const { sql, params } = deliveryRecordsPage(database(env.DB), id, { limit: 10, after: null }).toSQL();
      const result = await env.DB.prepare(sql)
        .bind(...params)
        .all();
      // A page and one to know there is more: 11 records of one attempt.
      expect(result.results).toHaveLength(11);
      return result.meta.rows_read;
    };
    const short = await webhookWith(Array.from({ length: 20 }, (_, i) => attempts(3000 + i, 1)));
    const long = await webhookWith(Array.from({ length: 300 }, (_, i) => attempts(4000 + i, 1)));
    const [few, many] = [await rowsRead(short), await rowsRead(long)];
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(4 * 11);
  });
});
