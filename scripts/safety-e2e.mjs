#!/usr/bin/env node
// Safety checks that only a running server can show, against the real `wrangler dev`
// (through `node scripts/start.mjs`, throwaway --persist-to dirs, free ports, own process
// groups, always torn down):
//   1. restart durability: acknowledged writes (and idempotency keys) survive a SIGTERM of
//      the whole server, with the same representations; writes work after the restart;
//   2. auth on a real server with tokens minted/revoked by `scripts/token.mjs`, and
//      fail-closed with no token configured; the token tool goes through the running
//      server (its local credential file, mode 0600, in the state dir) and opens the
//      database file only when no server runs on it (none, or one that died);
//   3. rate limiting (the [[ratelimits]] binding): 429 problem+json with Retry-After;
//   3b. a database another program holds locked (`sqlite3` in BEGIN IMMEDIATE on the file
//      the server serves): a short lock is waited out, a lasting one is 503 database_busy
//      with Retry-After, never a 500, and nothing is written;
//   4. idempotent POST retries (replay, 422 on another body).
// Prints `ok - …` / `not ok - …` per check and `SAFETY-E2E: N passed, M failed`; exits 1
// on failure.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { assert, createHarness, expectStatus, freePort, httpClient, runCommand, sleep, startDaemon, stopDaemon } from "./lib/harness.mjs";
import { d1PersistDir } from "./lib/local-d1.mjs";
import { localServerFile, readLocalServer } from "./lib/local-server.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const REQUEST_TIMEOUT_MS = 10_000;
const TOKEN_CLI_TIMEOUT_MS = 120_000; // a hang detector: a first run on a loaded machine has taken over 30 s
const RATE_LIMIT = { perPeriod: 600, maxRequests: 1200, maxMs: 40_000, concurrency: 8 };
const REVOCATION_BOUND_MS = 11_000; // the isolate caches a checked token for 10 s
const REALM = 'Bearer realm="domain-api"';
const MEDIA_DNS = "text/dns";
const PROBLEM_JSON = /^application\/problem\+json\b/;
const IN_FLIGHT = "In Flight "; // names of the contacts POSTed while the server stops
const TOKEN_LINE = /^tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]{20,128}$/m;

const harness = createHarness({ name: "safety-e2e", label: "SAFETY-E2E", readyTimeoutMs: 120_000, totalTimeoutMs: 600_000 });
const { ok, notOk, check } = harness;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
function expectProblem(res, status, code) {
  expectStatus(res, status);
  assert(PROBLEM_JSON.test(res.headers.get("content-type") ?? ""), `content-type is ${res.headers.get("content-type")}`);
  assert(res.json?.code === code, `code is ${res.json?.code}, want ${code}: ${res.text.slice(0, 300)}`);
}
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `offset ${i}: before …${JSON.stringify(a.slice(Math.max(0, i - 40), i + 60))}… after …${JSON.stringify(b.slice(Math.max(0, i - 40), i + 60))}…`;
}

/**
 * Runs `node scripts/token.mjs …` (asynchronously, so the run's deadline still works) in a
 * process group of its own: it starts wrangler, which starts workerd, and the whole tree
 * is ended when it overruns or the run is interrupted.
 */
async function tokenCli(args) {
  const result = await runCommand(process.execPath, [join(ROOT, "scripts", "token.mjs"), ...args], {
    env: { ...process.env, FORCE_COLOR: "0" },
    timeoutMs: TOKEN_CLI_TIMEOUT_MS,
  });
  const code = result.timedOut ? `timed out after ${TOKEN_CLI_TIMEOUT_MS / 1000} s` : result.signal ? `signal ${result.signal}` : result.code;
  return { ...result, code };
}
const cliFailure = (what, result) => `${what} exited ${result.code}: ${(result.stderr || result.stdout).trim().slice(-400)}`;

async function startOrFail(what, port, options) {
  const started = Date.now();
  const notReady = await harness.startServer(port, options);
  if (notReady) {
    notOk(what, notReady);
    return false;
  }
  ok(`${what} (${seconds(Date.now() - started)})`);
  return true;
}

async function stopAndCheck(what) {
  let stopped = null;
  const started = Date.now();
  await check(what, async () => {
    stopped = await harness.stopServer();
    assert(stopped, "no server was running");
    assert(!stopped.forced, `still running ${seconds(5_000)} after SIGTERM: had to SIGKILL it`);
    assert(!stopped.leftovers, "processes of its group outlived start.mjs (killed)");
  });
  return stopped ? Date.now() - started : null;
}

// ---------------------------------------------------------------------------------------
// 1 + 4. Restart durability, idempotency across a restart, then rate limiting (last: it
// uses up the address's budget on this server).
// ---------------------------------------------------------------------------------------
async function durability() {
  const stateDir = harness.tempDir("domain-api-safety-durable-");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  if (!(await startOrFail(`start.mjs (auth off) comes up on ${base} with a fresh --persist-to dir`, port, { persistTo: stateDir }))) return;
  const request = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });

  const tag = randomBytes(4).toString("hex");
  const domain = `safety-${tag}.com`;
  const ext1 = `ns1.ext-${tag}.net`;
  const ext2 = `ns2.ext-${tag}.net`;
  const sub = `ns1.${domain}`;
  const ids = {}; // name → id
  const gone = []; // paths deleted with a 204
  const writes = [];
  /** One acknowledged write: method, path, body, the status that acknowledges it. */
  async function write(what, method, path, body, status, headers) {
    let res = null;
    const passed = await check(`write: ${what} → ${status}`, async () => {
      res = await request(method, path, body, headers);
      expectStatus(res, status);
    });
    if (passed) writes.push(what);
    return passed ? res : null;
  }
  const address = { street: ["1 Safety Street"], city: "Leeds", postal_code: "LS1 1AA", country_code: "GB" };

  // --- acknowledged writes before the restart --------------------------------------------
  for (const n of [1, 2, 3]) {
    const res = await write(
      `POST /v1/contacts #${n}`,
      "POST",
      "/v1/contacts",
      { name: `Safety Contact ${n}`, email: `safety-${tag}-${n}@example.org`, phone: "+44.1131234567", address },
      201,
    );
    if (res) ids[`contact${n}`] = res.json.id;
  }
  if (!ids.contact1 || !ids.contact2 || !ids.contact3) return notOk("durability writes", "contacts could not be created");
  await write("PATCH contact #2 (organization)", "PATCH", `/v1/contacts/${ids.contact2}`, { organization: "Safety Ltd" }, 200);
  if (await write("DELETE contact #3", "DELETE", `/v1/contacts/${ids.contact3}`, undefined, 204)) gone.push(`/v1/contacts/${ids.contact3}`);
  const dom = await write(
    `POST /v1/domains ${domain} with external nameservers`,
    "POST",
    "/v1/domains",
    {
      name: domain,
      registrant: ids.contact1,
      contacts: { admin: ids.contact1, tech: ids.contact2 },
      nameservers: [ext1, ext2],
    },
    201,
  );
  if (!dom) return;
  ids.domain = dom.json.id;
  const host = await write(`POST /v1/hosts ${sub} (subordinate, glue)`, "POST", "/v1/hosts", { name: sub, addresses: ["192.0.2.53", "2001:db8::53"] }, 201);
  if (host) ids.host = host.json.id;
  await write(`PATCH domain nameservers → [${sub}, ${ext1}]`, "PATCH", `/v1/domains/${ids.domain}`, { nameservers: [sub, ext1] }, 200);
  if (await write(`DELETE host ${ext2} (now unlinked)`, "DELETE", `/v1/hosts/${ext2}`, undefined, 204)) gone.push(`/v1/hosts/${ext2}`);
  // A zone starts with name servers outside it; the in-zone one follows its address record.
  const zone = await write(`POST /v1/zones ${domain}`, "POST", "/v1/zones", { name: domain, nameservers: [ext1], default_ttl: 1800 }, 201);
  if (!zone) return;
  ids.zone = zone.json.id;
  const records = [
    [sub.slice(0, -(domain.length + 1)), "A", "192.0.2.53"],
    ["@", "NS", sub],
    ["www", "A", "192.0.2.10"],
    ["mail", "A", "192.0.2.25"],
    ["@", "MX", `10 mail.${domain}`],
    ["@", "TXT", '"v=spf1 mx -all"'],
    ["old", "CNAME", `www.${domain}`],
  ];
  for (const [name, type, content] of records) {
    const res = await write(`POST /v1/records ${type} at ${name}`, "POST", "/v1/records", { zone: domain, name, type, content }, 201);
    if (res) ids[`${type}:${name}`] = res.json.id;
  }
  if (ids["A:www"]) await write("PATCH record www A (content, ttl)", "PATCH", `/v1/records/${ids["A:www"]}`, { content: "192.0.2.11", ttl: 600 }, 200);
  if (ids["CNAME:old"] && (await write("DELETE record old CNAME", "DELETE", `/v1/records/${ids["CNAME:old"]}`, undefined, 204)))
    gone.push(`/v1/records/${ids["CNAME:old"]}`);
  await write("PATCH zone (soa.refresh)", "PATCH", `/v1/zones/${ids.zone}`, { soa: { refresh: 3600 } }, 200);

  // An idempotent POST acknowledged before the restart, retried after it.
  const idemKey = `safety-restart-${tag}`;
  const idemBody = { name: "Idempotent Across Restart", email: `idem-restart-${tag}@example.org` };
  const idemFirst = await write("POST /v1/contacts with Idempotency-Key (retried after the restart)", "POST", "/v1/contacts", idemBody, 201, {
    "idempotency-key": idemKey,
  });

  // --- what every acknowledged write looks like now ---------------------------------------
  const paths = [
    `/v1/contacts/${ids.contact1}`,
    `/v1/contacts/${ids.contact2}`,
    `/v1/domains/${ids.domain}`,
    `/v1/domains/${domain}`,
    `/v1/hosts/${ext1}`,
    ...(ids.host ? [`/v1/hosts/${ids.host}`] : []),
    `/v1/zones/${ids.zone}`,
    ...Object.entries(ids)
      .filter(([k]) => k.includes(":") && k !== "CNAME:old")
      .map(([, id]) => `/v1/records/${id}`),
    "/v1/contacts?limit=200",
    "/v1/domains?limit=200",
    "/v1/hosts?limit=200",
    `/v1/zones/${domain}/records?limit=200`,
    "/v1/zones?limit=200",
  ];
  const before = new Map();
  let zoneBefore = null;
  await check(`snapshot: GET ${paths.length} resources/lists (200) + the zone's text/dns export`, async () => {
    for (const path of paths) {
      const res = await request("GET", path);
      expectStatus(res, 200);
      before.set(path, { text: res.text, etag: res.headers.get("etag") });
    }
    const exported = await request("GET", `/v1/zones/${ids.zone}`, undefined, { accept: MEDIA_DNS });
    expectStatus(exported, 200);
    before.set(`${MEDIA_DNS} export`, { text: exported.text, etag: exported.headers.get("etag") });
    zoneBefore = JSON.parse(before.get(`/v1/zones/${ids.zone}`).text);
    for (const path of gone) {
      const res = await request("GET", path);
      expectStatus(res, 404);
    }
  });

  // --- writes in flight while the server is stopped ---------------------------------------
  const acknowledged = []; // 201 responses received around the SIGTERM
  let stopping = false;
  let attempts = 0;
  const burst = async (worker) => {
    for (let i = 0; i < 500; i++) {
      attempts++;
      try {
        const res = await request("POST", "/v1/contacts", { name: `${IN_FLIGHT}${worker}-${i}`, email: `inflight-${tag}-${worker}-${i}@example.org` });
        if (res.status === 201) acknowledged.push({ id: res.json.id, text: res.text, etag: res.headers.get("etag") });
      } catch {
        if (stopping) return; // the server is gone: nothing more to acknowledge
        await sleep(20);
      }
    }
  };
  const workers = [1, 2, 3].map((w) => burst(w));
  for (let i = 0; i < 100 && acknowledged.length < 6; i++) await sleep(20);
  stopping = true;
  const stopMs = await stopAndCheck(`SIGTERM to the whole process group (with ${acknowledged.length}+ writes in flight) stops the server, none of it left`);
  await Promise.all(workers);
  if (stopMs !== null) console.log(`# stopped in ${seconds(stopMs)}; ${acknowledged.length} in-flight POSTs were acknowledged (201) of ${attempts} attempted`);

  // --- restart on the same state ----------------------------------------------------------
  if (!(await startOrFail(`start.mjs comes up again on the same --persist-to dir and port`, port, { persistTo: stateDir }))) return;

  for (const [path, old] of before) {
    const exported = path === `${MEDIA_DNS} export`;
    const contactsList = path.startsWith("/v1/contacts?");
    await check(
      `after restart: ${exported ? `GET /v1/zones/${domain} (Accept: text/dns)` : `GET ${path}`} is identical (body${old.etag ? " and ETag" : ""}${contactsList ? ", plus the acknowledged in-flight POSTs" : ""})`,
      async () => {
        const res = exported ? await request("GET", `/v1/zones/${ids.zone}`, undefined, { accept: MEDIA_DNS }) : await request("GET", path);
        expectStatus(res, 200);
        let text = res.text;
        if (path.startsWith("/v1/contacts?")) {
          // The contacts POSTed around the SIGTERM came after the snapshot: leave them out
          // here (they are checked below), and the list must be the snapshot's, item for item.
          const all = res.json.data;
          const late = all.filter((c) => c.name.startsWith(IN_FLIGHT));
          const missing = acknowledged.filter((ack) => !late.some((c) => c.id === ack.id));
          assert(missing.length === 0, `acknowledged contacts not listed: ${missing.map((m) => m.id).join(", ")}`);
          text = JSON.stringify({ ...res.json, data: all.filter((c) => !c.name.startsWith(IN_FLIGHT)) });
          assert(text === JSON.stringify(JSON.parse(old.text)), `body differs at ${firstDifference(JSON.stringify(JSON.parse(old.text)), text)}`);
          console.log(`# the contacts list holds ${late.length} in-flight contacts (${acknowledged.length} acknowledged)`);
        } else {
          assert(text === old.text, `body differs at ${firstDifference(old.text, text)}`);
          assert(res.headers.get("etag") === old.etag, `ETag ${res.headers.get("etag")}, was ${old.etag}`);
        }
      },
    );
  }
  await check(`after restart: the zone serial is unchanged (${zoneBefore?.soa?.serial}) and the record count too`, async () => {
    const res = await request("GET", `/v1/zones/${ids.zone}`);
    expectStatus(res, 200);
    assert(res.json.soa.serial === zoneBefore.soa.serial, `serial ${res.json.soa.serial}, was ${zoneBefore.soa.serial}`);
    assert(res.json.record_count === zoneBefore.record_count, `record_count ${res.json.record_count}, was ${zoneBefore.record_count}`);
  });
  await check(`after restart: the ${gone.length} deleted objects are still gone (404)`, async () => {
    for (const path of gone) expectStatus(await request("GET", path), 404);
  });
  await check(`after restart: all ${acknowledged.length} POSTs acknowledged around the SIGTERM exist, unchanged`, async () => {
    const bad = [];
    for (const ack of acknowledged) {
      const res = await request("GET", `/v1/contacts/${ack.id}`);
      if (res.status !== 200) bad.push(`${ack.id}: ${res.status}`);
      else if (res.text !== ack.text) bad.push(`${ack.id}: body differs at ${firstDifference(ack.text, res.text)}`);
      else if (res.headers.get("etag") !== ack.etag) bad.push(`${ack.id}: ETag ${res.headers.get("etag")}, was ${ack.etag}`);
    }
    assert(bad.length === 0, bad.slice(0, 5).join(" | "));
  });
  if (idemFirst) {
    await check("after restart: the Idempotency-Key retry replays the first response (Idempotent-Replayed: true)", async () => {
      const res = await request("POST", "/v1/contacts", idemBody, { "idempotency-key": idemKey });
      expectStatus(res, 201);
      assert(res.headers.get("idempotent-replayed") === "true", `Idempotent-Replayed is ${res.headers.get("idempotent-replayed")}`);
      assert(res.text === idemFirst.text, `body differs at ${firstDifference(idemFirst.text, res.text)}`);
      assert(
        res.headers.get("location") === idemFirst.headers.get("location"),
        `Location ${res.headers.get("location")}, was ${idemFirst.headers.get("location")}`,
      );
    });
  }

  // --- more writes after the restart ------------------------------------------------------
  const wwwV6 = await write(
    "after restart: POST /v1/records AAAA at www",
    "POST",
    "/v1/records",
    { zone: ids.zone, name: "www", type: "AAAA", content: "2001:db8::10" },
    201,
  );
  await write("after restart: PATCH contact #1 (organization)", "PATCH", `/v1/contacts/${ids.contact1}`, { organization: "After Restart Ltd" }, 200);
  const newContact = await write("after restart: POST /v1/contacts", "POST", "/v1/contacts", { name: "After Restart", email: `after-${tag}@example.org` }, 201);
  if (ids["TXT:@"]) await write("after restart: DELETE record TXT at @", "DELETE", `/v1/records/${ids["TXT:@"]}`, undefined, 204);
  await check("after restart: the new writes read back, and the zone serial rose", async () => {
    const zoneNow = await request("GET", `/v1/zones/${ids.zone}`);
    expectStatus(zoneNow, 200);
    assert(zoneNow.json.soa.serial > zoneBefore.soa.serial, `serial ${zoneNow.json.soa.serial}, was ${zoneBefore.soa.serial}`);
    assert(zoneNow.json.record_count === zoneBefore.record_count + (wwwV6 ? 1 : 0) - (ids["TXT:@"] ? 1 : 0), `record_count ${zoneNow.json.record_count}`);
    const contact = await request("GET", `/v1/contacts/${ids.contact1}`);
    assert(contact.json?.organization === "After Restart Ltd", `organization ${contact.json?.organization}`);
    if (newContact) expectStatus(await request("GET", `/v1/contacts/${newContact.json.id}`), 200);
    if (wwwV6) expectStatus(await request("GET", `/v1/records/${wwwV6.json.id}`), 200);
    if (ids["TXT:@"]) expectStatus(await request("GET", `/v1/records/${ids["TXT:@"]}`), 404);
  });
  console.log(`# ${writes.length} writes acknowledged in all`);

  await idempotency(request, tag);
  await rateLimit(request);
  await stopAndCheck("the auth-off server stops on SIGTERM");
}

// ---------------------------------------------------------------------------------------
// 4. Idempotency on the running server.
// ---------------------------------------------------------------------------------------
async function idempotency(request, tag) {
  const key = `safety-${tag}-${randomBytes(6).toString("hex")}`;
  const body = { name: "Idempotent Contact", email: `idem-${tag}@example.org` };
  let first = null;
  await check("idempotency: first POST /v1/contacts with Idempotency-Key is 201, not replayed", async () => {
    first = await request("POST", "/v1/contacts", body, { "idempotency-key": key });
    expectStatus(first, 201);
    assert(first.headers.get("idempotent-replayed") === null, `Idempotent-Replayed is ${first.headers.get("idempotent-replayed")}`);
  });
  if (first?.status !== 201) return;
  await check("idempotency: the same key and body replays it (201, Idempotent-Replayed: true, same body, Location, ETag)", async () => {
    const again = await request("POST", "/v1/contacts", body, { "idempotency-key": key });
    expectStatus(again, 201);
    assert(again.headers.get("idempotent-replayed") === "true", `Idempotent-Replayed is ${again.headers.get("idempotent-replayed")}`);
    assert(again.text === first.text, `body differs at ${firstDifference(first.text, again.text)}`);
    assert(again.headers.get("location") === first.headers.get("location"), `Location ${again.headers.get("location")}, was ${first.headers.get("location")}`);
    assert(again.headers.get("etag") === first.headers.get("etag"), `ETag ${again.headers.get("etag")}, was ${first.headers.get("etag")}`);
  });
  await check("idempotency: only one contact was created", async () => {
    const list = await request("GET", `/v1/contacts?email=${encodeURIComponent(body.email)}`);
    expectStatus(list, 200);
    assert(list.json.data.length === 1, `${list.json.data.length} contacts with ${body.email}`);
  });
  await check("idempotency: the same key with another body is 422", async () => {
    const other = await request("POST", "/v1/contacts", { ...body, name: "Someone Else" }, { "idempotency-key": key });
    expectProblem(other, 422, "validation_failed");
  });
}

// ---------------------------------------------------------------------------------------
// 3. Rate limiting (auth off: keyed by client address).
// ---------------------------------------------------------------------------------------
async function rateLimit(request) {
  // The local limiter (miniflare) counts in fixed 60-s windows aligned to the clock: when
  // the window is about to end, wait for the next one, so ~600 requests suffice (the
  // bound of 1200 covers a reset mid-loop anyway).
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 6_000) await sleep(left + 100);
  const started = Date.now();
  let sent = 0;
  let limited = null;
  const other = new Map(); // unexpected statuses → count
  let transportErrors = 0;
  const worker = async () => {
    while (!limited && sent < RATE_LIMIT.maxRequests && Date.now() - started < RATE_LIMIT.maxMs && !harness.aborting) {
      sent++;
      try {
        const res = await request("GET", "/v1/extensions?limit=1");
        if (res.status === 429) limited ??= { res, at: sent };
        else if (res.status !== 200) other.set(res.status, (other.get(res.status) ?? 0) + 1);
      } catch {
        transportErrors++;
        if (transportErrors > 20) return;
      }
    }
  };
  await Promise.all(Array.from({ length: RATE_LIMIT.concurrency }, worker));
  const took = Date.now() - started;
  console.log(
    `# rate limit: ${sent} requests in ${seconds(took)}; first 429 at request ${limited?.at ?? "—"}${other.size ? `; other statuses ${JSON.stringify(Object.fromEntries(other))}` : ""}`,
  );
  await check(
    `rate limit: a 429 arrives within ${RATE_LIMIT.maxRequests} requests (limit ${RATE_LIMIT.perPeriod}/60 s per address${limited ? `; came at request ${limited.at}` : ""})`,
    async () => {
      assert(
        limited,
        `no 429 after ${sent} requests in ${seconds(took)} (transport errors: ${transportErrors}); the [[ratelimits]] binding does not seem to limit`,
      );
      assert(other.size === 0, `unexpected statuses before the 429: ${JSON.stringify(Object.fromEntries(other))}`);
    },
  );
  if (!limited) return;
  await check('rate limit: the 429 is problem+json with code "rate_limited" and a numeric Retry-After', async () => {
    expectProblem(limited.res, 429, "rate_limited");
    const retryAfter = limited.res.headers.get("retry-after");
    assert(retryAfter !== null, "no Retry-After header");
    assert(/^[0-9]+$/.test(retryAfter) && Number(retryAfter) > 0 && Number(retryAfter) <= 60, `Retry-After is ${JSON.stringify(retryAfter)}`);
    assert(limited.res.headers.get("x-request-id"), "no X-Request-Id");
  });
  await check("rate limit: the next request is still 429", async () => {
    const res = await request("GET", "/v1/extensions?limit=1");
    expectProblem(res, 429, "rate_limited");
  });
}

/** GET with the path sent exactly as written (no URL parser removes its dot segments). */
function rawGet(port, path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET", timeout: REQUEST_TIMEOUT_MS }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${path.slice(0, 20)}… timed out`)));
    req.on("error", reject);
    req.end();
  });
}

// ---------------------------------------------------------------------------------------
// 2. Auth on a real server, tokens through the CLI.
// ---------------------------------------------------------------------------------------
async function auth() {
  const stateDir = harness.tempDir("domain-api-safety-auth-");
  const tokens = {};
  for (const [name, scope] of [
    ["e2e", "write"],
    ["e2e-read", "read"],
  ]) {
    await check(`token.mjs create --name ${name} --scope ${scope} --persist-to DIR prints a token`, async () => {
      const result = await tokenCli(["create", "--name", name, "--scope", scope, "--persist-to", stateDir]);
      assert(result.code === 0, cliFailure("token.mjs create", result));
      const token = TOKEN_LINE.exec(result.stdout)?.[0];
      assert(token, `no tok_… line in: ${result.stdout.slice(0, 300)}`);
      tokens[scope] = token;
    });
  }
  if (!tokens.write || !tokens.read) return;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  if (!(await startOrFail(`start.mjs --auth comes up on ${base} with those tokens`, port, { persistTo: stateDir, args: ["--auth"] }))) return;
  const request = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });
  const bearer = (token) => ({ authorization: `Bearer ${token}` });
  const tag = randomBytes(4).toString("hex");
  const contact = (n) => ({ name: `Auth Contact ${n}`, email: `auth-${tag}-${n}@example.org` });

  // The token tool beside the running server: through its API, never its database file.
  await check("while the server runs, its state dir holds its local credential file: mode 0600, naming its port", async () => {
    const file = localServerFile(stateDir);
    const mode = statSync(file).mode & 0o777;
    assert(mode === 0o600, `${file} has mode ${mode.toString(8)}`);
    assert(readLocalServer(stateDir)?.url === base, `it names ${readLocalServer(stateDir)?.url}, not ${base}`);
  });
  await check(
    "token.mjs create while the server runs goes through it: the API records the token's creation (the database path records none), and the token works",
    async () => {
      const result = await tokenCli(["create", "--name", "e2e-live", "--scope", "write", "--persist-to", stateDir]);
      assert(result.code === 0, cliFailure("token.mjs create", result));
      const token = TOKEN_LINE.exec(result.stdout)?.[0];
      assert(token, `no tok_… line in: ${result.stdout.slice(0, 300)}`);
      tokens.live = token;
      const history = (id) => request("GET", `/v1/events?resource=${id}`, undefined, bearer(tokens.write));
      const live = await history(token.split(".")[0]);
      expectStatus(live, 200);
      assert(
        live.json.data.some((event) => event.operation === "create" && event.token === "local"),
        `no create event of ${token.split(".")[0]}: ${live.text.slice(0, 300)}`,
      );
      const fromFile = await history(tokens.write.split(".")[0]);
      assert(fromFile.json.data.length === 0, `the token minted from the file has events: ${fromFile.text.slice(0, 300)}`);
      expectStatus(await request("POST", "/v1/contacts", contact(9), bearer(token)), 201);
    },
  );

  await check("auth: GET /v1 without a token is 200 (public)", async () => {
    expectStatus(await request("GET", "/v1"), 200);
    expectStatus(await request("GET", "/v1/openapi.json"), 200);
  });
  await check(`auth: GET /v1/contacts without a token is 401 with WWW-Authenticate: ${REALM}`, async () => {
    const res = await request("GET", "/v1/contacts");
    expectProblem(res, 401, "unauthorized");
    assert(res.headers.get("www-authenticate") === REALM, `WWW-Authenticate is ${res.headers.get("www-authenticate")}`);
  });
  await check('auth: an unknown (well-formed) token is 401 error="invalid_token"', async () => {
    const fake = `tok_${"0".repeat(26)}.${"x".repeat(43)}`;
    const res = await request("GET", "/v1/contacts", undefined, bearer(fake));
    expectProblem(res, 401, "unauthorized");
    assert(/error="invalid_token"/.test(res.headers.get("www-authenticate") ?? ""), `WWW-Authenticate is ${res.headers.get("www-authenticate")}`);
  });
  await check("auth: the write token's id with a wrong secret is 401", async () => {
    const forged = `${tokens.write.split(".")[0]}.${"A".repeat(43)}`;
    expectProblem(await request("GET", "/v1/contacts", undefined, bearer(forged)), 401, "unauthorized");
  });
  await check("auth: GET /v1/contacts with the read token is 200", async () => {
    expectStatus(await request("GET", "/v1/contacts", undefined, bearer(tokens.read)), 200);
  });
  await check("auth: POST /v1/contacts with the read token is 403 forbidden", async () => {
    expectProblem(await request("POST", "/v1/contacts", contact(1), bearer(tokens.read)), 403, "forbidden");
  });
  await check("auth: POST /v1/contacts with the write token is 201", async () => {
    expectStatus(await request("POST", "/v1/contacts", contact(2), bearer(tokens.write)), 201);
  });
  await check("logs: the server's output never holds a token secret or a domain's auth_info, even in a DNS backend path spelt otherwise", async () => {
    const created = await request("POST", "/v1/domains", { name: `logcheck-${Date.now()}.com`, auth_info: "Never-Log-This-7q" }, bearer(tokens.write));
    expectStatus(created, 201);
    expectStatus(await request("GET", `/v1/domains/${created.json.id}`, undefined, bearer(tokens.write)), 200);
    // A token in the path of the DNS backend, written as a client may write it: sent as is
    // (fetch would remove the dot segments), answered without the token, and never printed.
    for (const path of [
      `/v1/pdns/${tokens.read}/getAllDomains`,
      `/v1//pdns/${tokens.read}/getAllDomains`,
      `/v1/pdns/./${tokens.read}/getAllDomains`,
      `/v1/pdns/%2e/${tokens.read}/getAllDomains`,
      `/v1/%70dns/${tokens.read}/getAllDomains`,
      `/v1/PDNS/${tokens.read}/getAllDomains`,
    ]) {
      const answer = await rawGet(port, path);
      assert(answer.status === 401 || answer.status === 404, `GET ${path.replace(tokens.read, "<token>")} answered ${answer.status}`);
      assert(!answer.body.includes(tokens.read.split(".")[1]), `GET ${path.replace(tokens.read, "<token>")} echoed the token: ${answer.body.slice(0, 200)}`);
    }
    await sleep(300); // let the request log lines arrive
    const printed = harness.serverOutput;
    for (const [what, secret] of [
      ["write token", tokens.write.split(".")[1]],
      ["read token", tokens.read.split(".")[1]],
      ["auth_info", "Never-Log-This-7q"],
    ]) {
      assert(!printed.includes(secret), `the server printed the ${what}`);
    }
  });

  // Revocation: the isolate trusts a checked token for 10 s, so it must flip within ~11 s.
  await check("auth: token.mjs revoke --name e2e; the write token is refused (401) within 11 s", async () => {
    expectStatus(await request("GET", "/v1/contacts", undefined, bearer(tokens.write)), 200); // warm the cache
    const result = await tokenCli(["revoke", "--name", "e2e", "--persist-to", stateDir]);
    assert(result.code === 0, cliFailure("token.mjs revoke", result));
    assert(/Revoked token "e2e"/.test(result.stdout), `unexpected output: ${result.stdout.slice(0, 200)}`);
    const revokedAt = Date.now();
    let res = null;
    while (Date.now() - revokedAt < REVOCATION_BOUND_MS + 1_000) {
      res = await request("GET", "/v1/contacts", undefined, bearer(tokens.write));
      if (res.status !== 200) break;
      await sleep(250);
    }
    const took = Date.now() - revokedAt;
    expectProblem(res, 401, "unauthorized");
    assert(took <= REVOCATION_BOUND_MS, `took ${seconds(took)}`);
    assert(/revoked/i.test(res.json?.detail ?? ""), `detail: ${res.json?.detail}`);
    console.log(`# the revoked token was refused ${seconds(took)} after token.mjs revoke returned`);
  });
  await check("auth: POST with the revoked write token is 401; the read token still works", async () => {
    expectProblem(await request("POST", "/v1/contacts", contact(3), bearer(tokens.write)), 401, "unauthorized");
    expectStatus(await request("GET", "/v1/contacts", undefined, bearer(tokens.read)), 200);
  });
  await check("auth: token.mjs list shows e2e REVOKED and e2e-read active", async () => {
    const result = await tokenCli(["list", "--persist-to", stateDir]);
    assert(result.code === 0, cliFailure("token.mjs list", result));
    const line = (name) => result.stdout.split("\n").find((l) => new RegExp(`^tok_\\S+\\s+${name.replace(/[.-]/g, "\\$&")}\\s`).test(l));
    assert(/\bREVOKED\b/.test(line("e2e") ?? ""), `e2e line: ${line("e2e")}`);
    assert(/\bactive\b/.test(line("e2e-read") ?? "") && !/REVOKED/.test(line("e2e-read")), `e2e-read line: ${line("e2e-read")}`);
    assert(!result.stdout.includes(tokens.write.split(".")[1]), "list prints a secret");
  });
  await stopAndCheck("the --auth server stops on SIGTERM");

  // No server: the tool opens the database file, as before.
  await check("the local credential file goes with the server", async () => {
    assert(!existsSync(localServerFile(stateDir)), `${localServerFile(stateDir)} is still there`);
  });
  const listsFromTheFile = async () => {
    const result = await tokenCli(["list", "--persist-to", stateDir]);
    assert(result.code === 0, cliFailure("token.mjs list", result));
    for (const name of ["e2e", "e2e-read", "e2e-live"])
      assert(new RegExp(`^tok_\\S+\\s+${name}\\s`, "m").test(result.stdout), `no ${name} line: ${result.stdout.slice(0, 400)}`);
  };
  await check("with the server stopped, token.mjs list works from the database file, the token minted through the server included", listsFromTheFile);
  await check("a credential file left by a server that died (its npm start gone) is passed over: token.mjs list works from the database file", async () => {
    const gone = await runCommand(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { timeoutMs: 30_000 });
    const port = await freePort();
    writeFileSync(
      localServerFile(stateDir),
      `${JSON.stringify({ url: `http://127.0.0.1:${port}`, credential: `local_${"x".repeat(43)}`, pid: Number(gone.stdout) })}\n`,
      {
        mode: 0o600,
      },
    );
    await listsFromTheFile();
  });
}

// ---------------------------------------------------------------------------------------
// 3b. A database another program holds locked.
// ---------------------------------------------------------------------------------------
/**
 * `sqlite3` holding the write lock of the SQLite file the server's D1 keeps (BEGIN
 * IMMEDIATE, then a sleep inside the transaction): resolves once it holds it; stopping it
 * (stopDaemon) ends the transaction and frees the file.
 */
async function holdWriteLock(file) {
  return startDaemon("sqlite3", [file, "BEGIN IMMEDIATE;", ".shell echo holding-the-lock", ".shell sleep 600"], {
    name: "sqlite3 (a write lock)",
    ready: /holding-the-lock/,
    timeoutMs: 30_000,
    graceMs: 2_000,
  });
}

async function lockedDatabase() {
  const stateDir = harness.tempDir("domain-api-safety-locked-");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  if (!(await startOrFail(`start.mjs comes up on ${base} for the locked-database checks`, port, { persistTo: stateDir }))) return;
  const request = httpClient(base, { timeoutMs: 60_000 });
  const dir = join(d1PersistDir(stateDir), "miniflare-D1DatabaseObject");
  // The database object's own file is named by a hash; metadata.sqlite is workerd's.
  const files = readdirSync(dir).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
  if (files.length !== 1) {
    notOk("the server's D1 is one SQLite file", `${dir} holds ${files.join(", ") || "none"}`);
    return;
  }
  const file = join(dir, files[0]);
  const zone = (name) => ({ name, nameservers: ["ns1.example.net"] });

  await check("a write while sqlite3 holds the database's write lock for 0.4 s is waited out: 201, the zone written once", async () => {
    const lock = await holdWriteLock(file);
    assert(!lock.notReady, `sqlite3 did not take the lock: ${lock.notReady}`);
    const logged = harness.serverOutput.length;
    const started = Date.now();
    const answer = request("POST", "/v1/zones", zone("locked-briefly.test"));
    await sleep(400);
    await stopDaemon(lock);
    const created = await answer;
    // workerd logs each statement that met the lock; on a loaded machine the request may reach D1 after it went.
    const met = (harness.serverOutput.slice(logged).match(/database is locked/g) ?? []).length;
    console.log(`# answered in ${seconds(Date.now() - started)}; the server met the lock ${met} time(s)`);
    expectStatus(created, 201);
    expectStatus(await request("GET", "/v1/zones/locked-briefly.test"), 200);
  });
  await check(
    "a write while the lock is held through every retry: 503 database_busy with Retry-After 1, never 500, nothing written; once the lock goes, 201",
    async () => {
      const lock = await holdWriteLock(file);
      assert(!lock.notReady, `sqlite3 did not take the lock: ${lock.notReady}`);
      let refused;
      try {
        refused = await request("POST", "/v1/zones", zone("locked-long.test"));
      } finally {
        await stopDaemon(lock);
      }
      expectProblem(refused, 503, "database_busy");
      assert(refused.headers.get("retry-after") === "1", `Retry-After: ${refused.headers.get("retry-after")}`);
      expectStatus(await request("GET", "/v1/zones/locked-long.test"), 404);
      expectStatus(await request("POST", "/v1/zones", zone("locked-long.test")), 201);
    },
  );
  await stopAndCheck("the locked-database server stops on SIGTERM");
}

// Fail closed: --auth with no token at all refuses every non-public request.
async function failClosed() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  if (!(await startOrFail(`start.mjs --auth comes up on ${base} with a fresh dir and no token`, port, { args: ["--auth"] }))) return;
  const request = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });
  await check("fail closed: GET /v1 and /v1/openapi.json are still 200 (public)", async () => {
    expectStatus(await request("GET", "/v1"), 200);
    expectStatus(await request("GET", "/v1/openapi.json"), 200);
  });
  const fake = `tok_${"0".repeat(26)}.${"x".repeat(43)}`;
  const attempts = [
    ["GET", "/v1/contacts"],
    ["GET", "/v1/extensions"],
    ["GET", "/v1/domains/example.com"],
    ["POST", "/v1/contacts", { name: "X", email: "x@example.org" }],
    ["PATCH", "/v1/zones/example.com", { default_ttl: 60 }],
    ["DELETE", "/v1/records/rec_01ARZ3NDEKTSV4RRFFQ69G5FAV"],
  ];
  for (const [label, headers] of [
    ["without a token", {}],
    ["with an unknown token", { authorization: `Bearer ${fake}` }],
  ]) {
    await check(`fail closed: ${attempts.length} non-public requests ${label} are 401 saying no token is configured`, async () => {
      const bad = [];
      for (const [method, path, body] of attempts) {
        const res = await request(method, path, body, headers);
        if (res.status !== 401 || res.json?.code !== "unauthorized") bad.push(`${method} ${path}: ${res.status} ${res.text.slice(0, 120)}`);
        else if (!/no API token configured/i.test(res.json?.detail ?? "")) bad.push(`${method} ${path}: detail ${JSON.stringify(res.json?.detail)}`);
        else if (!(res.headers.get("www-authenticate") ?? "").startsWith(REALM))
          bad.push(`${method} ${path}: WWW-Authenticate ${res.headers.get("www-authenticate")}`);
      }
      assert(bad.length === 0, bad.join(" | "));
    });
  }
  await check("fail closed: a malformed Authorization header is 401 too", async () => {
    expectProblem(await request("GET", "/v1/contacts", undefined, { authorization: "Basic dXNlcjpwYXNz" }), 401, "unauthorized");
  });
  await stopAndCheck("the fail-closed server stops on SIGTERM");
}

async function main() {
  const started = Date.now();
  // Each phase stops its server; stopServer() here only catches one left by an early return.
  for (const phase of [durability, auth, lockedDatabase, failClosed]) {
    await phase();
    await harness.stopServer();
  }
  console.log(`# total ${seconds(Date.now() - started)}`);
}

await harness.run(main);
