#!/usr/bin/env node
// End-to-end check of the README's start command: runs `node scripts/start.mjs` on a free
// port with a throwaway D1 state dir, drives it over real HTTP, then tears everything down.
// Prints `ok - …` / `not ok - …` per check and `E2E: N passed, M failed`; exits 1 on failure.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, stripAnsi } from "./lib/wrangler.mjs";

const READY_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const TOTAL_TIMEOUT_MS = 90_000;

let passed = 0;
let failed = 0;
let server = null; // the start.mjs child, leader of its own process group
let serverExited = null; // resolves when it has exited
let serverClosed = null; // resolves when its output pipes have closed (all output read)
let stateDir = null;
let output = ""; // everything the server printed
let cleanupPromise = null;
let aborting = false;

function ok(name) {
  if (aborting) return;
  passed++;
  console.log(`ok - ${name}`);
}
function notOk(name, why) {
  if (aborting) return; // the server is being torn down under the check: not its fault
  failed++;
  console.log(`not ok - ${name}${why ? ` (${why})` : ""}`);
}

// Runs one named check; a thrown error (or failed assertion) marks it failed.
async function check(name, fn) {
  try {
    await fn();
    ok(name);
  } catch (error) {
    notOk(name, error?.message ?? String(error));
  }
}
function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function printServerOutput() {
  const lines = stripAnsi(output).trimEnd().split("\n");
  console.log(`# server output (last ${Math.min(lines.length, 80)} lines):`);
  for (const line of lines.slice(-80)) console.log(`#   ${line}`);
}

function killGroup(signal) {
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone (ESRCH)
  }
}

// Stops the server's whole process tree and removes the state dir. Idempotent.
function cleanup() {
  cleanupPromise ??= stopServer();
  return cleanupPromise;
}
async function stopServer() {
  if (server) {
    if (server.exitCode === null && server.signalCode === null) {
      killGroup("SIGTERM");
      const timer = new Promise((resolve) => setTimeout(resolve, 5_000).unref());
      if ((await Promise.race([serverExited.then(() => "exited"), timer])) !== "exited") {
        killGroup("SIGKILL");
        await Promise.race([serverExited, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      }
    }
    killGroup("SIGKILL"); // stragglers (workerd) that outlived their parent
    await Promise.race([serverClosed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}

async function abort(message, status, showOutput = false) {
  if (aborting) return;
  console.log(`not ok - e2e run (${message})`);
  failed++;
  aborting = true;
  if (showOutput && output) printServerOutput();
  await cleanup();
  console.log(`E2E: ${passed} passed, ${failed} failed`);
  process.exit(status);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void abort(`interrupted by ${signal}`, 130));
const deadline = setTimeout(() => void abort(`timed out after ${TOTAL_TIMEOUT_MS / 1000} s`, 1, true), TOTAL_TIMEOUT_MS);

async function startServer(port) {
  stateDir = mkdtempSync(join(tmpdir(), "domain-api-e2e-"));
  server = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs"), "--port", String(port), "--persist-to", stateDir], {
    cwd: ROOT,
    detached: true, // own process group: process.kill(-pid) reaches wrangler and workerd too
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  serverExited = new Promise((resolve) => server.on("exit", (code, signal) => resolve({ code, signal })));
  serverClosed = new Promise((resolve) => server.on("close", resolve));
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`no "Ready on" line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = stripAnsi(output).match(/Ready on (http:\/\/[^\s]+)/);
      if (match) {
        clearTimeout(timer);
        resolve(null);
      }
    };
    server.stdout.on("data", onData);
    server.stderr.on("data", onData);
    server.on("error", (error) => resolve(`could not start: ${error.message}`));
    serverExited.then(({ code, signal }) => {
      clearTimeout(timer);
      resolve(`server exited before it was ready (code ${code}, signal ${signal})`);
    });
  });
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const notReady = await startServer(port);
  if (notReady) {
    notOk(`npm start comes up on ${base}`, notReady);
    return;
  }
  ok(`npm start comes up on ${base} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  async function request(method, path, body) {
    const response = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      redirect: "manual",
    });
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }
  const expectStatus = (res, status) =>
    assert(res.status === status, `expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
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
}

try {
  await main();
} catch (error) {
  notOk("e2e run", error?.stack ?? String(error));
} finally {
  await cleanup();
  clearTimeout(deadline);
}
if (!aborting) {
  if (failed > 0 && output) printServerOutput(); // after the stop, so every line is in
  console.log(`E2E: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
