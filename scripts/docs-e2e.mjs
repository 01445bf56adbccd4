#!/usr/bin/env node
// Browser end-to-end check of the API reference page (GET /v1/docs, Swagger UI served by
// the Worker): starts `node scripts/start.mjs --auth` on a free port with a throwaway D1
// state dir, opens the page in headless Debian Chromium driven by playwright-core, and
// checks that every operation of /v1/openapi.json is listed, that no request leaves
// 127.0.0.1 and that the console shows no errors. Saves test-results/docs.png.
// Installs nothing: needs /usr/bin/chromium (`apt-get install chromium`; .ci/run does).
// Prints `ok - …` / `not ok - …` per check and `DOCS-E2E: N passed, M failed`; exits 1 on failure.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { assert, createHarness, httpClient } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];
const RENDER_TIMEOUT_MS = 60_000;
// Hang detectors, not speed limits: a click is answered in well under a second on an idle
// machine, and took over 5 s (the limit then) with two CI runs side by side (load 10).
const ACTION_TIMEOUT_MS = 60_000;
const SCREENSHOT = join(ROOT, "test-results", "docs.png");
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const harness = createHarness({ name: "docs-e2e", label: "DOCS-E2E", startArgs: ["--auth"], readyTimeoutMs: 120_000, totalTimeoutMs: 300_000 });
const { notOk, check, startReported, tempDir, run } = harness;

let browser = null; // the persistent context: closing it ends Chromium
let context = null;
// Closes the browser (and with it Chromium's processes) at most once, whatever happens.
async function closeBrowser() {
  const b = browser;
  browser = null;
  if (!b) return;
  await Promise.race([b.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.prependListener(signal, () => void closeBrowser());

async function main() {
  if (!existsSync(CHROMIUM)) {
    notOk(`Chromium is installed at ${CHROMIUM}`, "install it with: apt-get install -y --no-install-recommends chromium");
    return;
  }
  const base = await startReported("npm start --auth");
  if (!base) return;

  // What the docs must cover: every operation (METHOD /path) of the OpenAPI document.
  const request = httpClient(base);
  const expected = [];
  await check("GET /v1/openapi.json (no token) lists the operations", async () => {
    const res = await request("GET", "/v1/openapi.json");
    assert(res.status === 200 && res.json?.paths, `expected 200 with paths, got ${res.status}`);
    for (const [path, item] of Object.entries(res.json.paths)) {
      for (const method of Object.keys(item)) if (METHODS.includes(method)) expected.push(`${method.toUpperCase()} ${path}`);
    }
    assert(expected.length > 0, "no operations in the document");
  });
  if (expected.length === 0) return;

  try {
    // A persistent context is how Playwright takes a user-data-dir: a fresh empty one.
    context = await chromium.launchPersistentContext(tempDir("domain-api-docs-chromium-"), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      viewport: { width: 1280, height: 900 },
    });
    browser = context;
    const page = context.pages()[0] ?? (await context.newPage());

    const requests = [];
    const consoleErrors = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => consoleErrors.push(`pageerror: ${error.message}`));

    let response = null;
    await check(`GET ${base}/v1/docs loads in Chromium (200 HTML, strict CSP)`, async () => {
      response = await page.goto(`${base}/v1/docs`, { waitUntil: "load", timeout: RENDER_TIMEOUT_MS });
      assert(response, "no response");
      assert(response.status() === 200, `status ${response.status()}`);
      const headers = response.headers();
      assert((headers["content-type"] ?? "").startsWith("text/html"), `content-type ${headers["content-type"]}`);
      const csp = headers["content-security-policy"] ?? "";
      assert(csp.includes("script-src 'self'") && csp.includes("style-src 'self'") && !csp.includes("unsafe"), `CSP: ${csp}`);
    });

    let listed = [];
    await check(`Swagger UI renders all ${expected.length} operations`, async () => {
      await page.waitForFunction((count) => document.querySelectorAll(".swagger-ui .opblock").length >= count, expected.length, { timeout: RENDER_TIMEOUT_MS });
      listed = await page.$$eval(".swagger-ui .opblock", (blocks) =>
        blocks.map((block) => {
          const method = block.querySelector(".opblock-summary-method")?.textContent?.trim().toUpperCase() ?? "?";
          const path = block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "?";
          return `${method} ${path}`;
        }),
      );
    });
    await check("every operation of /v1/openapi.json (method + path) is listed on the page", async () => {
      const onPage = new Set(listed);
      const missing = expected.filter((op) => !onPage.has(op));
      assert(missing.length === 0, `missing ${missing.length}: ${missing.slice(0, 10).join(", ")}`);
    });
    await check("the page shows the API title from the document", async () => {
      const title = await page.textContent(".swagger-ui .info .title", { timeout: ACTION_TIMEOUT_MS });
      assert(/Domain name management API/.test(title ?? ""), `title: ${title}`);
    });
    await check("an operation expands to show its parameters and responses", async () => {
      const first = page.locator(".swagger-ui .opblock").first();
      await first.locator(".opblock-summary-control").click({ timeout: ACTION_TIMEOUT_MS });
      await first.locator(".responses-wrapper").waitFor({ timeout: ACTION_TIMEOUT_MS });
    });
    await check("POST /v1/contacts shows its request example and its 422 problem examples", async () => {
      const block = page.locator(".swagger-ui .opblock-post", { has: page.locator('.opblock-summary-path[data-path="/contacts"]') });
      await block.locator(".opblock-summary-control").click({ timeout: ACTION_TIMEOUT_MS });
      const body = block.locator(".opblock-section-request-body");
      await body.waitFor({ timeout: ACTION_TIMEOUT_MS });
      await page.waitForFunction((el) => el && /Analytical Engines Ltd/.test(el.textContent ?? ""), await body.elementHandle(), { timeout: ACTION_TIMEOUT_MS });
      const responses = (await block.locator(".responses-wrapper").textContent({ timeout: ACTION_TIMEOUT_MS })) ?? "";
      assert(/validation_failed/.test(responses) || /Validation failed/.test(responses), "the 422 response shows no validation_failed example");
    });
    // Let late requests (fonts, images, lazy chunks) happen before the verdicts.
    await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});

    await check(`no request leaves 127.0.0.1 (${requests.length} requests)`, async () => {
      const outside = requests.filter((url) => {
        if (/^(data|blob|about):/.test(url)) return false; // never leaves the browser
        try {
          return new URL(url).hostname !== "127.0.0.1";
        } catch {
          return true;
        }
      });
      assert(outside.length === 0, `requests elsewhere: ${outside.slice(0, 10).join(", ")}`);
    });
    await check("the console shows no errors", async () => {
      assert(consoleErrors.length === 0, consoleErrors.slice(0, 10).join(" | "));
    });
    await check("screenshot saved to test-results/docs.png", async () => {
      mkdirSync(join(ROOT, "test-results"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false, timeout: ACTION_TIMEOUT_MS });
    });
  } finally {
    await closeBrowser();
  }
}

await run(main);
