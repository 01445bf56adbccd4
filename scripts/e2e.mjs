#!/usr/bin/env node
// End-to-end check of the README's start command: runs `node scripts/start.mjs` on a free
// port with a throwaway D1 state dir, drives it over real HTTP, then tears everything down.
// Prints `ok - …` / `not ok - …` per check and `E2E: N passed, M failed`; exits 1 on failure.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processTable } from "./lib/daemons.mjs";
import { assert, createHarness, expectStatus, httpClient, sleep } from "./lib/harness.mjs";
import { ROOT, WRANGLER, wranglerEnv } from "./lib/wrangler.mjs";

const REQUEST_TIMEOUT_MS = 10_000;

const harness = createHarness({ name: "e2e", label: "E2E", readyTimeoutMs: 120_000, totalTimeoutMs: 300_000 });
const { check, startReported, run } = harness;

async function main() {
  const base = await startReported("npm start");
  if (!base) return;

  const request = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });
  const expectJson = (res) =>
    assert(/^application\/json\b/.test(res.headers.get("content-type") ?? "") && res.json !== undefined, `not JSON: ${res.headers.get("content-type")}`);

  await check("GET /v1 is 200 JSON with links", async () => {
    const res = await request("GET", "/v1");
    expectStatus(res, 200);
    expectJson(res);
    assert(res.json.links && typeof res.json.links === "object", "no links object");
    assert(res.json.links.contacts && res.json.links.domains, "links lack contacts/domains");
  });

  await check("GET /v1/extensions lists the catalog (com, co.uk)", async () => {
    const ids = new Set();
    let path = "/v1/extensions?limit=200";
    for (let page = 0; path && page < 10; page++) {
      const res = await request("GET", path);
      expectStatus(res, 200);
      expectJson(res);
      assert(Array.isArray(res.json.data), "no data array");
      for (const extension of res.json.data) ids.add(extension.id);
      path = res.json.next_cursor ? `/v1/extensions?limit=200&cursor=${encodeURIComponent(res.json.next_cursor)}` : null;
    }
    assert(ids.has("com") && ids.has("co.uk"), `catalog lacks com or co.uk: ${[...ids].join(", ") || "empty"}`);
  });

  const tag = randomBytes(4).toString("hex");
  const contacts = [];
  let location = null;
  await check("POST /v1/contacts is 201 with Location", async () => {
    for (const n of [1, 2]) {
      const res = await request("POST", "/v1/contacts", {
        name: `E2E Contact ${n}`,
        email: `e2e-${tag}-${n}@example.org`,
        phone: "+44.2071234567",
        address: { street: ["12 Example Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" },
      });
      expectStatus(res, 201);
      expectJson(res);
      assert(typeof res.json.id === "string" && res.json.id.startsWith("con_"), `bad id ${res.json.id}`);
      assert(res.headers.get("location") === `/v1/contacts/${res.json.id}`, `Location is ${res.headers.get("location")}`);
      location ??= res.headers.get("location");
      contacts.push(res.json.id);
    }
  });

  await check("GET the contact by its Location is 200 with ETag", async () => {
    assert(location, "no contact was created");
    const res = await request("GET", location);
    expectStatus(res, 200);
    expectJson(res);
    assert(res.json.id === contacts[0], `got ${res.json.id}, want ${contacts[0]}`);
    assert(res.headers.get("etag"), "no ETag");
  });

  await check("GET /v1/contacts?limit=1 pages with next_cursor", async () => {
    assert(contacts.length === 2, "contacts were not created");
    const first = await request("GET", "/v1/contacts?limit=1");
    expectStatus(first, 200);
    expectJson(first);
    assert(first.json.data?.length === 1, `page 1 has ${first.json.data?.length} items`);
    assert(first.json.data[0].id === contacts[0], `page 1 holds ${first.json.data[0].id}, want ${contacts[0]}`);
    assert(typeof first.json.next_cursor === "string" && first.json.next_cursor, "page 1 has no next_cursor");
    assert(/rel="?next"?/.test(first.headers.get("link") ?? ""), `no Link rel="next": ${first.headers.get("link")}`);
    const second = await request("GET", `/v1/contacts?limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    expectStatus(second, 200);
    assert(second.json.data?.length === 1, `page 2 has ${second.json.data?.length} items`);
    assert(second.json.data[0].id === contacts[1], `page 2 holds ${second.json.data[0].id}, want ${contacts[1]}`);
  });

  const domain = `e2e-${tag}.com`;
  await check(`POST /v1/domains ${domain} is 201`, async () => {
    assert(contacts.length > 0, "no contact was created");
    const res = await request("POST", "/v1/domains", { name: domain, registrant: contacts[0] });
    expectStatus(res, 201);
    expectJson(res);
    assert(res.json.name === domain, `name is ${res.json.name}`);
    assert(res.json.registrant === contacts[0], `registrant is ${res.json.registrant}`);
  });

  await check(`GET /v1/domains/${domain} is 200`, async () => {
    const res = await request("GET", `/v1/domains/${domain}`);
    expectStatus(res, 200);
    expectJson(res);
    assert(res.json.name === domain, `name is ${res.json.name}`);
  });

  await check("unknown route is 404 problem+json with X-Request-Id", async () => {
    const res = await request("GET", `/v1/no-such-route-${tag}`);
    expectStatus(res, 404);
    assert(/^application\/problem\+json\b/.test(res.headers.get("content-type") ?? ""), `content-type ${res.headers.get("content-type")}`);
    assert(res.json?.status === 404 && res.json?.code === "not_found", `body ${res.text.slice(0, 200)}`);
    assert(res.headers.get("x-request-id"), "no X-Request-Id");
  });

  // The README's deploy starts with this command; it builds the Worker exactly as
  // `wrangler deploy` would (bindings, text rules for the docs assets) without the network.
  await check("npx wrangler deploy --dry-run builds the Worker for Cloudflare", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "domain-api-dry-run-"));
    try {
      const result = spawnSync(WRANGLER, ["deploy", "--dry-run", "--outdir", outdir], {
        cwd: ROOT,
        env: wranglerEnv(),
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      });
      assert(result.status === 0, `exit ${result.status}: ${(result.stderr || result.stdout).slice(-500)}`);
      assert(/--dry-run: exiting now/.test(result.stdout + result.stderr), "wrangler did not report a dry run");
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  // `npm start -- --no-inspector` (scripts/dev-worker.mjs): the same service (on a fresh
  // state dir), with no inspector in any of its processes.
  await harness.stopServer();
  const lean = await startReported("npm start -- --no-inspector", { args: ["--no-inspector"] });
  if (!lean) return;
  const leanRequest = httpClient(lean, { timeoutMs: REQUEST_TIMEOUT_MS });
  await check("with --no-inspector: GET /v1 is 200 and POST /v1/contacts is 201, and no workerd of the server has an inspector", async () => {
    expectStatus(await leanRequest("GET", "/v1"), 200);
    const created = await leanRequest("POST", "/v1/contacts", { name: "E2E Lean", email: `e2e-${tag}-lean@example.org` });
    expectStatus(created, 201);
    assert(created.json.id?.startsWith("con_"), `bad id ${created.json.id}`);
    const workerds = processTable().filter((proc) => proc.pgrp === harness.serverPid && proc.name === "workerd");
    assert(workerds.length > 0, "no workerd in the server's process group");
    const inspected = workerds.filter((proc) => readFileSync(`/proc/${proc.pid}/cmdline`, "utf8").includes("--inspector-addr"));
    assert(inspected.length === 0, `workerd ${inspected.map((proc) => proc.pid).join(", ")} runs with an inspector`);
  });
  await check("with --no-inspector: the Worker's console.log lines reach the terminal (the hourly cron's sweep report)", async () => {
    const before = harness.serverOutput.length;
    expectStatus(await leanRequest("GET", "/__scheduled?cron=17+*+*+*+*"), 200);
    const reported = () => /"service":"domain-api","sweep":/.test(harness.serverOutput.slice(before));
    for (let waited = 0; waited < 15_000 && !reported(); waited += 250) await sleep(250);
    assert(reported(), `no sweep report in the server's output after the cron ran: ${harness.serverOutput.slice(before).slice(-500)}`);
  });
}

await run(main);
