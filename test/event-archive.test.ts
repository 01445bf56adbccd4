// The audit trail's archive (docs/capacity.md): events older than the hot window move from
// D1 to R2 as gzip'd newline-delimited JSON objects per account and day, by the cron trigger
// and by POST /v1/events/archive/run. Events are written through the API on days the test
// chooses (vitest's fake Date: the Worker runs in this isolate and stamps its writes with
// it), then archived "a month later" with `as_of` from a loopback host with CLOCK_OVERRIDE,
// as `npm start` serves it. Every test checks the whole trail: each event is in exactly
// one place, D1 or one archive object.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "../src/db/client";
import worker from "../src/index";
import { archiveCutoff, archiveEvents, hotDaysOf } from "../src/jobs/event-archive";
import { api, expectProblem } from "./helpers";
import { bearer } from "./tokens";

const LOCAL = "http://127.0.0.1:8787";
const DAY_MS = 86_400_000;

/** POST /v1/events/archive/run from a loopback host of a server with CLOCK_OVERRIDE (npm start). */
async function archiveRequest(body: unknown, options: { auth?: string; host?: string; clockOverride?: boolean; hotDays?: string } = {}) {
  const headers: Record<string, string> = { authorization: options.auth ?? bearer("write") };
  if (body !== undefined) headers["content-type"] = "application/json";
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${options.host ?? LOCAL}/v1/events/archive/run`, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { ...env, CLOCK_OVERRIDE: options.clockOverride === false ? undefined : "true", EVENT_HOT_DAYS: options.hotDays ?? env.EVENT_HOT_DAYS },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** Archives as of `asOf` until nothing due is left; the reports of every run. */
async function archiveAll(asOf: string) {
  const reports = [];
  for (;;) {
    const response = await archiveRequest({ as_of: asOf });
    expect(response.status, response.text).toBe(200);
    reports.push(response.body);
    if (!response.body.more) return reports;
    if (reports.length > 50) throw new Error("the archive does not end");
  }
}

/** Runs `write` with the Worker's clock at `at` (vitest fakes Date in this isolate, which the Worker shares). */
async function at<T>(when: string, write: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(when));
  try {
    return await write();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A customer account and its write token; opened on `day` (at 10:00 UTC) when given, so that
 * its first events (the account's and the token's `create`) are as old as its writes.
 */
async function customer(name: string, day?: string) {
  const open = async () => {
    const account = await api("POST", "/v1/accounts", { json: { name } });
    expect(account.status, account.text).toBe(201);
    const token = await api("POST", "/v1/tokens", { json: { name: `${name}-token`, scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    return { id: account.body.id as string, auth: `Bearer ${token.body.secret}` };
  };
  return day === undefined ? open() : at(`${day}T10:00:00.000Z`, open);
}

/**
 * A zone of `owner` and one record a day on `days` (each at noon UTC): a create event each;
 * then one event now, so that none of these is the newest of the database (never archived).
 */
async function writeDays(owner: { auth: string }, zone: string, days: string[]) {
  await at(`${days[0]}T11:00:00.000Z`, async () => {
    const created = await api("POST", "/v1/zones", { json: { name: zone }, headers: { authorization: owner.auth } });
    expect(created.status, created.text).toBe(201);
  });
  for (const [i, day] of days.entries()) {
    await at(`${day}T12:00:00.000Z`, async () => {
      const record = await api("POST", "/v1/records", {
        json: { zone, name: `d${i}`, type: "TXT", content: `"day ${day}"` },
        headers: { authorization: owner.auth },
      });
      expect(record.status, record.text).toBe(201);
    });
  }
  const now = await api("POST", "/v1/contacts", { json: { name: `After ${zone}`, email: "after@example.org" } });
  expect(now.status, now.text).toBe(201);
}

function daysFrom(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(`${first}T00:00:00.000Z`) + i * DAY_MS).toISOString().slice(0, 10));
}

/** Every page of a list, as `auth` sees it. */
async function everything(path: string, auth = bearer("write")): Promise<any[]> {
  const items: any[] = [];
  let url: string | null = path;
  while (url) {
    const response: any = await api("GET", url, { headers: { authorization: auth } });
    expect(response.status, response.text).toBe(200);
    items.push(...response.body.data);
    url = response.body.next_cursor ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(response.body.next_cursor)}` : null;
  }
  return items;
}

async function gunzipText(bytes: ArrayBuffer): Promise<string> {
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

/** One archive object as GET /v1/events/archive/{object} serves it, decompressed and parsed. */
async function download(id: string, auth = bearer("write")) {
  const response = await worker.fetch(
    new Request(`http://api.test/v1/events/archive/${id}`, { headers: { authorization: auth } }),
    env,
    createExecutionContext(),
  );
  expect(response.status).toBe(200);
  const bytes = await response.arrayBuffer();
  const text = await gunzipText(bytes);
  return {
    response,
    bytes,
    text,
    events: text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  };
}

/** Where each event of the trail is: D1 (GET /v1/events) or the archive (each object's lines). */
async function wholeTrail() {
  const hot = await everything("/v1/events?limit=200");
  const objects = await everything("/v1/events/archive?limit=200");
  const archived: any[] = [];
  for (const object of objects) archived.push(...(await download(object.id)).events);
  return { hot, objects, archived };
}

/** Every event there is, D1's and the archive's (of earlier tests too). */
async function allEvents(): Promise<any[]> {
  const { hot, archived } = await wholeTrail();
  return [...archived, ...hot];
}

/** Every id of `before` is in exactly one place; nothing else is anywhere. */
function expectEachOnce(before: any[], trail: { hot: any[]; archived: any[] }) {
  const places = [...trail.hot, ...trail.archived].map((event) => event.id);
  expect(places.length).toBe(new Set(places).size);
  expect(new Set(places)).toEqual(new Set(before.map((event) => event.id)));
}

describe("a month of events moves to the archive: every event in exactly one place", () => {
  it("days before the hot window leave D1 for gzip'd NDJSON objects per account and day; the rest stays", async () => {
    const alice = await customer("archive-month-alice", "2026-01-01");
    const bob = await customer("archive-month-bob", "2026-01-01");
    const days = daysFrom("2026-01-01", 30);
    await writeDays(alice, "month-alice.test", days);
    await writeDays(
      bob,
      "month-bob.test",
      days.filter((_, i) => i % 3 === 0),
    );
    const before = await allEvents();

    // 30 days after 2026-02-15: events stamped before 2026-01-16T00:00Z are due.
    const reports = await archiveAll("2026-02-15T08:00:00.000Z");
    expect(reports[0]).toMatchObject({ as_of: "2026-02-15T08:00:00.000Z", archived_before: "2026-01-16T00:00:00.000Z" });
    const trail = await wholeTrail();
    expectEachOnce(before, trail);
    expect(reports.reduce((sum, r) => sum + r.archived, 0)).toBe(trail.archived.length);
    expect(reports.reduce((sum, r) => sum + r.objects, 0)).toBe(trail.objects.length);

    // Due: alice's zone, her 15 first records; bob's zone and his records of days 1, 4, …, 13.
    expect(trail.archived.every((event) => event.at < "2026-01-16T00:00:00.000Z")).toBe(true);
    expect(trail.hot.filter((event) => event.at < "2026-01-16T00:00:00.000Z")).toEqual([]);
    const aliceObjects = trail.objects.filter((object) => object.account === alice.id);
    expect(aliceObjects.map((object) => object.day)).toEqual(days.slice(0, 15));
    expect(trail.objects.filter((object) => object.account === bob.id).map((object) => object.day)).toEqual([
      "2026-01-01",
      "2026-01-04",
      "2026-01-07",
      "2026-01-10",
      "2026-01-13",
    ]);
    // The first object holds the account's, its token's and the zone's create and the day's record, in commit order.
    const first = await download(aliceObjects[0].id);
    expect(first.events.map((event) => [event.type, event.operation])).toEqual([
      ["account", "create"],
      ["token", "create"],
      ["zone", "create"],
      ["record", "create"],
    ]);
    // Each line is the event exactly as GET /v1/events listed it before.
    const listed = new Map(before.map((event) => [event.id, event]));
    for (const event of trail.archived) expect(event).toEqual(listed.get(event.id));
    // The listing describes its objects truly.
    for (const object of trail.objects) {
      const got = await download(object.id);
      expect(object).toEqual({
        id: `arc_${got.events[0].id.slice(4)}`,
        account: object.account,
        day: got.events[0].at.slice(0, 10),
        first_event: got.events[0].id,
        last_event: got.events.at(-1).id,
        count: got.events.length,
        bytes: got.bytes.byteLength,
        created_at: expect.any(String),
      });
      expect(got.text.endsWith("\n")).toBe(true);
      expect(got.events.every((event) => event.at.slice(0, 10) === object.day)).toBe(true);
    }
    // An archived event is no longer in D1: 404 by id.
    expectProblem(await api("GET", `/v1/events/${trail.archived[0].id}`), 404, "not_found");
  });

  it("a second run with nothing due archives nothing (200, more false)", async () => {
    const response = await archiveRequest({ as_of: "2026-02-15T08:00:00.000Z" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ as_of: "2026-02-15T08:00:00.000Z", archived_before: "2026-01-16T00:00:00.000Z", archived: 0, objects: 0, more: false });
  });
});

describe("GET /v1/events/archive/{object} serves the object as stored: a gzip file of NDJSON", () => {
  it("Content-Type application/gzip, attachment, Content-Length the listing's bytes, an ETag that answers 304", async () => {
    const owner = await customer("archive-file", "2025-06-01");
    await writeDays(owner, "archive-file.test", ["2025-06-01"]);
    await archiveAll("2025-08-01T00:00:00.000Z");
    const [object] = await everything("/v1/events/archive", owner.auth);
    const got = await download(object.id, owner.auth);
    expect(got.response.headers.get("content-type")).toBe("application/gzip");
    expect(got.response.headers.get("content-encoding")).toBeNull();
    expect(got.response.headers.get("content-disposition")).toBe(`attachment; filename="${object.id}.ndjson.gz"`);
    expect(got.response.headers.get("content-length")).toBe(String(object.bytes));
    // gzip's magic number: the bytes are the file itself, not a transfer encoding.
    expect([...new Uint8Array(got.bytes).slice(0, 2)]).toEqual([0x1f, 0x8b]);
    const etag = got.response.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await api("GET", `/v1/events/archive/${object.id}`, { headers: { authorization: owner.auth, "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });
  it("an unknown object answers 404 not_found", async () => {
    expectProblem(await api("GET", "/v1/events/archive/arc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"), 404, "not_found");
  });
});

describe("the archive is visible as events are", () => {
  let alice: { id: string; auth: string };
  let bob: { id: string; auth: string };
  let aliceObject: string;
  let bobObject: string;
  beforeAll(async () => {
    alice = await customer("archive-seen-alice", "2025-03-01");
    bob = await customer("archive-seen-bob", "2025-03-02");
    await writeDays(alice, "seen-alice.test", ["2025-03-01"]);
    await writeDays(bob, "seen-bob.test", ["2025-03-02"]);
    await archiveAll("2025-05-01T00:00:00.000Z");
    aliceObject = (await everything("/v1/events/archive", alice.auth))[0].id;
    bobObject = (await everything("/v1/events/archive", bob.auth))[0].id;
  });
  it("a customer lists only its own account's objects; an operator every account's, `account` narrowing", async () => {
    const own = await everything("/v1/events/archive", alice.auth);
    expect(own.map((object) => object.account)).toEqual([alice.id]);
    const all = await everything("/v1/events/archive?limit=200");
    expect(all.map((object) => object.id)).toEqual(expect.arrayContaining([aliceObject, bobObject]));
    expect((await everything(`/v1/events/archive?account=${bob.id}`)).map((object) => object.id)).toEqual([bobObject]);
    // A customer's `account` filter cannot reach past its own account.
    expect(await everything(`/v1/events/archive?account=${bob.id}`, alice.auth)).toEqual([]);
  });
  it("another account's object answers 404 not_found, never 403", async () => {
    const problem = expectProblem(await api("GET", `/v1/events/archive/${bobObject}`, { headers: { authorization: alice.auth } }), 404, "not_found");
    expect(problem.detail).toContain(bobObject);
    expect((await download(bobObject, bob.auth)).events.length).toBe(4);
  });
  it("a read token of the account reads its objects", async () => {
    const read = await api("POST", "/v1/tokens", { json: { name: "archive-seen-read", scope: "read" }, headers: { authorization: alice.auth } });
    expect(read.status, read.text).toBe(201);
    expect((await download(aliceObject, `Bearer ${read.body.secret}`)).events.length).toBe(4);
  });
  it("a token restricted to zones answers 403 forbidden: an object holds the whole account's day", async () => {
    const narrow = await api("POST", "/v1/tokens", {
      json: { name: "archive-seen-narrow", scope: "read", zones: ["seen-alice.test"] },
      headers: { authorization: alice.auth },
    });
    expect(narrow.status, narrow.text).toBe(201);
    const auth = { authorization: `Bearer ${narrow.body.secret}` };
    expect(expectProblem(await api("GET", "/v1/events/archive", { headers: auth }), 403, "forbidden").detail).toMatch(/restricted to named zones/);
    expectProblem(await api("GET", `/v1/events/archive/${aliceObject}`, { headers: auth }), 403, "forbidden");
  });
  it("a page is keyset-paginated like every list: limit 1 walks the objects in order, each once", async () => {
    const pages = await everything("/v1/events/archive?limit=1");
    const all = await everything("/v1/events/archive?limit=200");
    expect(pages.map((object) => object.id)).toEqual(all.map((object) => object.id));
    expectProblem(await api("GET", "/v1/events/archive?cursor=forged.cursor"), 400, "invalid_cursor");
    expectProblem(await api("GET", "/v1/events/archive?day=2025-03-01"), 400, "invalid_query");
  });
});

describe("a run killed midway is resumed by the next without loss or duplicates", () => {
  it("an object written and not read back (the run failed between put and delete) is completed by the next run", async () => {
    const owner = await customer("archive-killed", "2024-02-01");
    await writeDays(owner, "archive-killed.test", ["2024-02-01", "2024-02-02"]);
    const before = await allEvents();
    const db = database(env.DB);
    // The run dies after its first put: R2 has the object, D1 still has its events.
    const dying = new Proxy(env.ARCHIVE, {
      get(target, key) {
        if (key === "get") return () => Promise.reject(new Error("killed after the put"));
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(archiveEvents(db, dying, { now: new Date("2024-04-01T00:00:00.000Z"), hotDays: 30 })).rejects.toThrow("killed after the put");
    const stranded = await env.ARCHIVE.list({ prefix: `events/${owner.id}/` });
    expect(stranded.objects.map((object) => object.key.split("/")[2])).toEqual(["2024-02-01"]);
    expect(await everything("/v1/events/archive", owner.auth)).toEqual([]);
    const afterKill = await wholeTrail();
    expectEachOnce(before, { hot: afterKill.hot, archived: afterKill.archived });
    expect(afterKill.hot.filter((event) => event.at.startsWith("2024-02-0"))).toHaveLength(5);

    // The next run, with smaller passes than the first (another first event would name
    // another object): it finds the object, reads it, and deletes exactly what it holds.
    const report = await archiveEvents(db, env.ARCHIVE, { now: new Date("2024-04-01T00:00:00.000Z"), hotDays: 30, maxEvents: 1 });
    expect(report).toMatchObject({ more: false });
    const trail = await wholeTrail();
    expectEachOnce(before, trail);
    const objects = await everything("/v1/events/archive", owner.auth);
    expect(objects.map((object) => [object.day, object.count])).toEqual([
      ["2024-02-01", 4],
      ["2024-02-02", 1],
    ]);
    expect((await env.ARCHIVE.list({ prefix: `events/${owner.id}/` })).objects.length).toBe(2);
  });

  it("bounded runs (one object each) say more until the last, and together archive each event once", async () => {
    const owner = await customer("archive-bounded", "2023-05-01");
    await writeDays(owner, "archive-bounded.test", daysFrom("2023-05-01", 4));
    const before = await allEvents();
    const db = database(env.DB);
    const reports = [];
    for (let run = 0; run < 10; run++) {
      const report = await archiveEvents(db, env.ARCHIVE, { now: new Date("2023-07-01T00:00:00.000Z"), hotDays: 30, maxObjects: 1 });
      reports.push(report);
      if (!report.more) break;
    }
    expect(reports.map((r) => [r.objects, r.more])).toEqual([
      [1, true],
      [1, true],
      [1, true],
      [1, false],
    ]);
    expect(reports.map((r) => r.archived)).toEqual([4, 1, 1, 1]);
    expectEachOnce(before, await wholeTrail());
  });

  it("two runs at once lose and double nothing", async () => {
    const owners = [await customer("archive-race-a", "2022-09-01"), await customer("archive-race-b", "2022-09-01")];
    for (const [i, owner] of owners.entries()) await writeDays(owner, `archive-race-${i}.test`, daysFrom("2022-09-01", 6));
    const before = await allEvents();
    const db = database(env.DB);
    const options = { now: new Date("2022-12-01T00:00:00.000Z"), hotDays: 30, maxEvents: 3 };
    const [one, two] = await Promise.all([archiveEvents(db, env.ARCHIVE, options), archiveEvents(db, env.ARCHIVE, options)]);
    expect(one.more || two.more).toBe(false);
    const trail = await wholeTrail();
    expectEachOnce(before, trail);
    // Each event deleted once, however the two runs shared the work.
    expect(one.archived + two.archived).toBe(owners.length * 9);
    // Each R2 object of theirs is listed once.
    const keys = [];
    for (const owner of owners) keys.push(...(await env.ARCHIVE.list({ prefix: `events/${owner.id}/` })).objects.map((object) => object.key));
    expect(keys.length).toBe(trail.objects.filter((object) => owners.some((owner) => owner.id === object.account)).length);
  });
});

describe("a cursor of GET /v1/events that stands before an archived event answers 410 gone", () => {
  it("a resume_cursor kept from before the archive: 410 naming the archive; one taken after: 200", async () => {
    const owner = await customer("archive-cursor", "2021-01-10");
    const auth = { authorization: owner.auth };
    // An empty trail for this account: the resume_cursor stands where it started.
    const start = await api("GET", "/v1/events", { headers: auth });
    expect(start.status, start.text).toBe(200);
    await writeDays(owner, "archive-cursor.test", ["2021-01-10", "2021-01-11", "2021-03-01"]);
    const first = await api("GET", "/v1/events?limit=1", { headers: auth });
    expect(first.status, first.text).toBe(200);
    await archiveAll("2021-02-20T00:00:00.000Z");

    for (const cursor of [start.body.resume_cursor, first.body.resume_cursor, first.body.next_cursor]) {
      const problem = expectProblem(
        await api("GET", `/v1/events?${first.body.next_cursor === cursor ? "limit=1&" : ""}cursor=${encodeURIComponent(cursor)}`, { headers: auth }),
        410,
        "gone",
      );
      expect(problem.detail).toContain("GET /v1/events/archive");
    }
    // Read from the start again: what is left, and a resume_cursor that stands after the archive.
    const fresh = await api("GET", "/v1/events", { headers: auth });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.map((event: any) => event.at.slice(0, 10))).toEqual(["2021-03-01"]);
    const resumed = await api("GET", `/v1/events?cursor=${encodeURIComponent(fresh.body.resume_cursor)}`, { headers: auth });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.data).toEqual([]);
  });

  it("another account's archive does not make a customer's cursor gone", async () => {
    const quiet = await customer("archive-cursor-quiet");
    const auth = { authorization: quiet.auth };
    const start = await api("GET", "/v1/events", { headers: auth });
    expect(start.status, start.text).toBe(200);
    const busy = await customer("archive-cursor-busy", "2020-06-01");
    await writeDays(busy, "archive-cursor-busy.test", ["2020-06-01"]);
    await archiveAll("2020-08-01T00:00:00.000Z");
    expect(await everything("/v1/events/archive", busy.auth)).toHaveLength(1);
    const later = await api("GET", `/v1/events?cursor=${encodeURIComponent(start.body.resume_cursor)}`, { headers: auth });
    expect(later.status, later.text).toBe(200);
  });
});

describe("the newest event of the database is never archived", () => {
  it("so that its sequence number is never given to the next event", async () => {
    const owner = await customer("archive-newest", "2019-04-01");
    await writeDays(owner, "archive-newest.test", ["2019-04-01"]);
    // Far in the future: every event is due, but the newest stays.
    await archiveAll("2099-01-01T00:00:00.000Z");
    const hot = await everything("/v1/events?limit=200");
    expect(hot).toHaveLength(1);
    const newest = hot[0];
    const record = await api("POST", "/v1/records", {
      json: { zone: "archive-newest.test", name: "later", type: "TXT", content: '"x"' },
      headers: { authorization: owner.auth },
    });
    expect(record.status, record.text).toBe(201);
    const after = await api("GET", "/v1/events?limit=200");
    expect(after.body.data.map((event: any) => event.id)).toEqual([newest.id, expect.any(String)]);
  });
});

describe("POST /v1/events/archive/run is for operators, and as_of only where CLOCK_OVERRIDE allows it", () => {
  it("a customer's token answers 403 forbidden", async () => {
    const stranger = await customer("archive-stranger");
    expect(expectProblem(await archiveRequest(undefined, { auth: stranger.auth }), 403, "forbidden").detail).toMatch(/operator/);
  });
  it("without a body it runs at the present time (200), due before midnight EVENT_HOT_DAYS days ago", async () => {
    const before = Date.now();
    const response = await archiveRequest(undefined);
    expect(response.status, response.text).toBe(200);
    expect(Date.parse(response.body.as_of)).toBeGreaterThanOrEqual(before);
    expect(response.body.archived_before).toBe(archiveCutoff(new Date(response.body.as_of), 30));
  });
  it("EVENT_HOT_DAYS sets the window", async () => {
    const response = await archiveRequest({ as_of: "2030-01-10T15:00:00.000Z" }, { hotDays: "7" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.archived_before).toBe("2030-01-03T00:00:00.000Z");
  });
  it("as_of from a host that is not loopback, or on a server without CLOCK_OVERRIDE, answers 422 policy_violation naming as_of", async () => {
    const remote = expectProblem(await archiveRequest({ as_of: "2030-01-01T00:00:00Z" }, { host: "https://api.example.com" }), 422, "policy_violation");
    expect(remote.errors).toEqual([{ field: "as_of", message: expect.stringContaining("CLOCK_OVERRIDE") }]);
    const off = expectProblem(await archiveRequest({ as_of: "2030-01-01T00:00:00Z" }, { clockOverride: false }), 422, "policy_violation");
    expect(off.errors).toEqual([{ field: "as_of", message: expect.stringContaining("the archive") }]);
  });
  it("an as_of that is not a time answers 422 validation_failed naming as_of; an unknown field 422 unknown_field", async () => {
    expect(expectProblem(await archiveRequest({ as_of: "next tuesday" }), 422, "validation_failed").errors).toEqual([
      { field: "as_of", message: expect.stringContaining("RFC 3339") },
    ]);
    expect(expectProblem(await archiveRequest({ when: "2030-01-01T00:00:00Z" }), 422, "unknown_field").errors).toEqual([
      { field: "when", message: expect.any(String) },
    ]);
  });
});

describe("the cron trigger archives, and keeps removing expired idempotency keys", () => {
  it("at the scheduled time: due events move; an expired idempotency key is forgotten", async () => {
    const owner = await customer("archive-cron", "2018-01-01");
    await writeDays(owner, "archive-cron.test", ["2018-01-01"]);
    await env.DB.prepare(
      "insert into idempotency_keys (id, request_hash, state, status, headers, body, created_at, expires_at) values ('archive-cron-key', 'h', 'done', 201, '{}', '{}', '2018-01-01T00:00:00.000Z', '2018-01-02T00:00:00.000Z')",
    ).run();
    const before = await allEvents();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const objects = await everything("/v1/events/archive", owner.auth);
    expect(objects.map((object) => [object.day, object.count])).toEqual([["2018-01-01", 4]]);
    expectEachOnce(before, await wholeTrail());
    expect(await env.DB.prepare("select count(*) as n from idempotency_keys where id = 'archive-cron-key'").first("n")).toBe(0);
  });
});

describe("EVENT_HOT_DAYS is a positive whole number of days, else 30", () => {
  it.each([
    ["30", 30],
    ["7", 7],
    [" 90 ", 90],
    [undefined, 30],
    ["", 30],
    ["0", 30],
    ["-5", 30],
    ["1.5", 30],
    ["thirty", 30],
  ] as const)("%j → %i", (value, days) => {
    expect(hotDaysOf(value)).toBe(days);
  });
  it("the cutoff is UTC midnight, whole days before the run", () => {
    expect(archiveCutoff(new Date("2026-03-31T23:59:59.999Z"), 30)).toBe("2026-03-01T00:00:00.000Z");
    expect(archiveCutoff(new Date("2026-03-31T00:00:00.000Z"), 1)).toBe("2026-03-30T00:00:00.000Z");
  });
});
