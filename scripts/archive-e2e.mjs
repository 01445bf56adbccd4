#!/usr/bin/env node
// End-to-end check of the events archive (docs/capacity.md) against `npm start`: events
// written over HTTP are archived "a month later" (POST /v1/events/archive/run with `as_of`,
// which npm start's CLOCK_OVERRIDE allows), each object is downloaded over HTTP and read
// by a reader outside the service (node:zlib's gunzip, then one JSON document a line),
// every event is in exactly one place (the database or one object), a customer sees only
// its own objects, a resume_cursor of before the archive answers 410, and the objects are
// kept in the local R2 under the state directory: after a restart they are still there,
// byte for byte. Prints `ok - …` / `not ok - …` and `ARCHIVE-E2E: N passed, M failed`.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { assert, createHarness, expectStatus, freePort, httpClient, runCommand } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const REQUEST_TIMEOUT_MS = 15_000;
const { check, startReported, startServer, stopServer, tempDir, notOk, ok, run } = createHarness({
  name: "archive-e2e",
  label: "ARCHIVE-E2E",
  // Hang detectors with room for a loaded machine (two starts of wrangler dev).
  readyTimeoutMs: 120_000,
  totalTimeoutMs: 420_000,
});

const DAY_MS = 86_400_000;
const TOKEN_LINE = /^tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]{20,128}$/m;

async function main() {
  const state = tempDir("domain-api-archive-e2e-");
  // Authentication on (a customer's token must act as the customer): an operator's token first.
  let operator = null;
  await check("npm run token -- create mints an operator's write token in the state directory", async () => {
    const minted = await runCommand(
      process.execPath,
      [join(ROOT, "scripts", "token.mjs"), "create", "--name", "archive-e2e", "--scope", "write", "--persist-to", state],
      { timeoutMs: 300_000 },
    ); // a hang detector: a fresh state dir is migrated first, slow on a loaded machine
    const token = TOKEN_LINE.exec(minted.output)?.[0];
    assert(minted.code === 0 && token, `exit ${minted.code}: ${minted.output.slice(-300)}`);
    operator = { authorization: `Bearer ${token}` };
  });
  if (!operator) return;
  const base = await startReported("npm start -- --auth", { persistTo: state, args: ["--auth"] });
  if (!base) return;
  const client = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });
  const request = (method, path, body, headers = {}) => client(method, path, body, { ...operator, ...headers });

  /** Every page of a list. */
  async function everything(path, headers = {}) {
    const items = [];
    let url = path;
    while (url) {
      const res = await request("GET", url, undefined, headers);
      expectStatus(res, 200);
      items.push(...res.json.data);
      url = res.json.next_cursor ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(res.json.next_cursor)}` : null;
    }
    return items;
  }

  /** An archive object as served: its bytes and headers, and its lines as a reader outside the service parses them. */
  async function download(id, headers = operator) {
    const response = await fetch(`${base}/v1/events/archive/${id}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) return { status: response.status, headers: response.headers, bytes, text: bytes.toString("utf8") };
    const text = gunzipSync(bytes).toString("utf8");
    assert(text.endsWith("\n"), "the last line is not ended by \\n");
    const events = text
      .slice(0, -1)
      .split("\n")
      .map((line) => JSON.parse(line));
    return { status: 200, headers: response.headers, bytes, text: "", events };
  }

  // A customer and the operator write.
  let customer = null;
  await check("a customer account and its token (POST /v1/accounts, /v1/tokens)", async () => {
    const account = await request("POST", "/v1/accounts", { name: "Archive E2E Customer" });
    expectStatus(account, 201);
    const token = await request("POST", "/v1/tokens", { name: "archive-e2e", scope: "write", account: account.json.id });
    expectStatus(token, 201);
    customer = { id: account.json.id, headers: { authorization: `Bearer ${token.json.secret}` } };
  });
  if (!customer) return;

  let startCursor = null;
  await check("40 writes through the API, the operator's and the customer's", async () => {
    const start = await request("GET", "/v1/events");
    expectStatus(start, 200);
    startCursor = start.json.resume_cursor;
    expectStatus(await request("POST", "/v1/zones", { name: "archive-e2e-operator.test" }), 201);
    expectStatus(await request("POST", "/v1/zones", { name: "archive-e2e-customer.test" }, customer.headers), 201);
    for (let i = 0; i < 19; i++) {
      expectStatus(await request("POST", "/v1/records", { zone: "archive-e2e-operator.test", name: `op${i}`, type: "TXT", content: `"operator ${i}"` }), 201);
      expectStatus(
        await request("POST", "/v1/records", { zone: "archive-e2e-customer.test", name: `c${i}`, type: "A", content: `192.0.2.${i + 1}` }, customer.headers),
        201,
      );
    }
  });

  const before = [];
  await check("GET /v1/events lists them all (the trail before the archive)", async () => {
    before.push(...(await everything("/v1/events?limit=200")));
    assert(before.length >= 42, `only ${before.length} events`);
    // One more write: the newest event of the database is never archived.
    expectStatus(await request("POST", "/v1/contacts", { name: "Newest", email: "newest@example.org" }), 201);
  });

  // A month and more later: every event written so far is older than the hot window.
  const asOf = new Date(Date.now() + 40 * DAY_MS).toISOString();
  await check("POST /v1/events/archive/run as_of 40 days later archives every event but the newest", async () => {
    let archived = 0;
    for (let runs = 0; ; runs++) {
      assert(runs < 20, "the archive does not end");
      const res = await request("POST", "/v1/events/archive/run", { as_of: asOf });
      expectStatus(res, 200);
      assert(res.json.as_of === asOf, `as_of ${res.json.as_of}`);
      archived += res.json.archived;
      if (!res.json.more) break;
    }
    assert(archived === before.length, `archived ${archived} of ${before.length}`);
  });

  const objects = [];
  const files = new Map();
  await check("each object downloads as a gzip file (application/gzip, attachment, Content-Length = bytes) that node:zlib reads as NDJSON", async () => {
    objects.push(...(await everything("/v1/events/archive?limit=1")));
    assert(objects.length >= 2, `${objects.length} objects`);
    for (const object of objects) {
      const got = await download(object.id);
      expectStatus(got, 200);
      assert(got.headers.get("content-type") === "application/gzip", `content-type ${got.headers.get("content-type")}`);
      assert(got.headers.get("content-encoding") === null, `content-encoding ${got.headers.get("content-encoding")}`);
      assert(got.headers.get("content-disposition") === `attachment; filename="${object.id}.ndjson.gz"`, got.headers.get("content-disposition"));
      assert(got.bytes.length === object.bytes, `${got.bytes.length} bytes, the listing says ${object.bytes}`);
      assert(got.events.length === object.count, `${got.events.length} lines, the listing says ${object.count}`);
      assert(got.events[0].id === object.first_event && got.events.at(-1).id === object.last_event, "first or last event differs from the listing");
      assert(
        got.events.every((event) => event.at.slice(0, 10) === object.day),
        "an event of another day",
      );
      files.set(object.id, { sha256: createHash("sha256").update(got.bytes).digest("hex"), events: got.events });
    }
  });

  await check("every event is in exactly one place, D1 or one object, as it was listed", async () => {
    const hot = await everything("/v1/events?limit=200");
    const archived = [...files.values()].flatMap((file) => file.events);
    const ids = [...hot, ...archived].map((event) => event.id);
    assert(ids.length === new Set(ids).size, "an event is in two places");
    const listed = new Map(before.map((event) => [event.id, event]));
    for (const event of archived) {
      assert(JSON.stringify(event) === JSON.stringify(listed.get(event.id)), `event ${event.id} differs from its listing`);
    }
    assert(archived.length === before.length, `${archived.length} archived of ${before.length}`);
    assert(hot.length === 1 && !listed.has(hot[0].id), "the newest event is not the one left");
  });

  await check("a customer lists only its own objects; the operator's object is 404 to it", async () => {
    const own = await everything("/v1/events/archive", customer.headers);
    assert(own.length > 0 && own.every((object) => object.account === customer.id), `customer sees ${JSON.stringify(own.map((o) => o.account))}`);
    const foreign = objects.find((object) => object.account !== customer.id);
    assert(foreign, "no object of another account");
    const got = await download(foreign.id, customer.headers);
    expectStatus(got, 404);
    // The customer's own events, complete: the zone and its 19 records.
    const events = [];
    for (const object of own) events.push(...(await download(object.id, customer.headers)).events);
    assert(events.filter((event) => event.type === "record").length === 19, `${events.length} events`);
  });

  await check("a resume_cursor of before the archive answers 410 gone naming the archive", async () => {
    const res = await request("GET", `/v1/events?cursor=${encodeURIComponent(startCursor)}`);
    expectStatus(res, 410);
    assert(res.json?.code === "gone" && res.json.detail.includes("/v1/events/archive"), res.text.slice(0, 300));
  });

  await check("the cron trigger (GET /__scheduled) runs with the archive in it", async () => {
    const res = await request("GET", "/__scheduled?cron=17+*+*+*+*");
    expectStatus(res, 200);
  });

  // The local R2 lives in the state directory, beside the local D1.
  const stopped = await stopServer();
  if (!stopped || stopped.forced) notOk("the server stops on SIGTERM", JSON.stringify(stopped));
  else ok("the server stops on SIGTERM");
  const port = await freePort();
  const notReady = await startServer(port, { persistTo: state, args: ["--auth"] });
  if (notReady) {
    notOk("npm start comes up again on the same state directory", notReady);
    return;
  }
  ok("npm start comes up again on the same state directory");
  const againClient = httpClient(`http://127.0.0.1:${port}`, { timeoutMs: REQUEST_TIMEOUT_MS });
  const again = (method, path) => againClient(method, path, undefined, operator);
  await check("after the restart the objects are still there, byte for byte (local R2 under the state directory)", async () => {
    assert(existsSync(join(state, "v3", "r2")), `no ${join(state, "v3", "r2")}`);
    const listed = await again("GET", "/v1/events/archive?limit=200");
    expectStatus(listed, 200);
    assert(listed.json.data.length === objects.length, `${listed.json.data.length} objects after the restart`);
    for (const object of listed.json.data) {
      const response = await fetch(`http://127.0.0.1:${port}/v1/events/archive/${object.id}`, {
        headers: operator,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      assert(createHash("sha256").update(bytes).digest("hex") === files.get(object.id)?.sha256, `${object.id} differs after the restart`);
    }
  });
}

await run(main);
