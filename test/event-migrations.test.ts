// Migration 0008 on a database that has data: events written the way the Worker wrote them
// before it (keyed by id, a domain's auth_info in before/after, committed out of id order)
// come out numbered in commit order and without any auth_info, and the list reads them so.
import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createContact } from "./helpers";
import { migratedBefore } from "./empty-database";
import { insertTestTokens } from "./tokens";

const DOMAIN = { id: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", name: "migrated.com", auto_renew: true, nameservers: ["ns1.example.net"] };

/** Rows as migration 0005's table held them, in the order they were committed. */
const OLD_EVENTS = [
  {
    id: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A01",
    type: "contact",
    resource: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
    operation: "create",
    before: null,
    after: { name: "Ada" },
  },
  {
    id: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A05",
    type: "domain",
    resource: DOMAIN.id,
    operation: "create",
    before: null,
    after: { ...DOMAIN, auth_info: "Old-Secret-1" },
  },
  // Minted before the previous event, committed after it (another isolate).
  {
    id: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A03",
    type: "domain",
    resource: DOMAIN.id,
    operation: "update",
    before: { ...DOMAIN, auth_info: "Old-Secret-1" },
    after: { ...DOMAIN, auth_info: "Rotated-Secret-2" },
  },
  {
    id: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A07",
    type: "domain",
    resource: DOMAIN.id,
    operation: "delete",
    before: { ...DOMAIN, auth_info: "Rotated-Secret-2" },
    after: null,
  },
] as const;

beforeAll(async () => {
  await migratedBefore("0008");
  await env.DB.batch(
    OLD_EVENTS.map((e) =>
      env.DB.prepare(
        "INSERT INTO events (id, at, actor, resource_type, resource_id, operation, before, after) VALUES (?, '2026-01-01T00:00:00.000Z', 'ci', ?, ?, ?, ?, ?)",
      ).bind(e.id, e.type, e.resource, e.operation, e.before && JSON.stringify(e.before), e.after && JSON.stringify(e.after)),
    ),
  );
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await insertTestTokens(env.DB);
});

function withoutAuthInfo(value: Record<string, unknown> | null) {
  if (value === null) return null;
  const { auth_info: _secret, ...rest } = value;
  return rest;
}

describe("migration 0008 numbers the existing events in commit order and removes every auth_info", () => {
  it("existing events get seq 1, 2, … in the order they were committed, not in id order", async () => {
    const { results } = await env.DB.prepare("SELECT seq, id FROM events ORDER BY seq").all<{ seq: number; id: string }>();
    expect(results).toEqual(OLD_EVENTS.map((e, i) => ({ seq: i + 1, id: e.id })));
  });

  it("no row holds auth_info any more; everything else is kept", async () => {
    const { results } = await env.DB.prepare("SELECT id, actor, resource_type, resource_id, operation, before, after FROM events ORDER BY seq").all<{
      id: string;
      actor: string;
      resource_type: string;
      resource_id: string;
      operation: string;
      before: string | null;
      after: string | null;
    }>();
    expect(results.map((r) => [r.before, r.after].join(" "))).not.toEqual(expect.arrayContaining([expect.stringContaining("auth_info")]));
    expect(
      results.map((r) => ({
        id: r.id,
        type: r.resource_type,
        resource: r.resource_id,
        operation: r.operation,
        before: r.before && JSON.parse(r.before),
        after: r.after && JSON.parse(r.after),
      })),
    ).toEqual(OLD_EVENTS.map((e) => ({ ...e, before: withoutAuthInfo(e.before), after: withoutAuthInfo(e.after) })));
  });

  it("/v1/events lists them in commit order without auth_info, and a new write continues the sequence", async () => {
    const contact = await createContact({ name: "After The Migration" });
    const response = await api("GET", "/v1/events?limit=200");
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((e: { id: string }) => e.id)).toEqual([...OLD_EVENTS.map((e) => e.id), expect.stringMatching(/^evt_/)]);
    expect(response.body.data.at(-1)).toMatchObject({ resource: contact.id, operation: "create" });
    expect(response.text).not.toContain("auth_info");
    expect(response.text).not.toContain("Secret");
    const { results } = await env.DB.prepare("SELECT seq FROM events WHERE resource_id = ?").bind(contact.id).all<{ seq: number }>();
    expect(results).toEqual([{ seq: OLD_EVENTS.length + 1 }]);
  });
});
