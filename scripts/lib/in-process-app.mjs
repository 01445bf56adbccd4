// The Worker's app, bundled for Node by esbuild and answering requests in-process, for the
// scripts that need the documents it serves (the OpenAPI document, the problem types)
// without starting a server. Serving those touches no data, so the D1 binding is a stub
// that fails loudly if anything ever queries it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "./wrangler.mjs";

const noDatabase = () => {
  throw new Error("serving the service's documents must not query the database");
};
const DB = { withSession: () => ({ getBookmark: () => null, prepare: noDatabase, batch: noDatabase, exec: noDatabase }) };

/** @typedef {{ get: (pathname: string) => Promise<Response> }} InProcessApp */

/**
 * `get(path)` answers a GET of `path` (e.g. `/v1/openapi.json`) as the Worker would.
 * @returns {Promise<InProcessApp>}
 */
export async function inProcessApp() {
  const dir = mkdtempSync(path.join(tmpdir(), "domain-api-app-"));
  try {
    const bundle = path.join(dir, "app.mjs");
    await build({ entryPoints: [path.join(ROOT, "src/app.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "warning" });
    const { app } = await import(pathToFileURL(bundle).href);
    return { get: (/** @type {string} */ pathname) => app.request(`http://localhost${pathname}`, {}, { DB }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The OpenAPI document the Worker serves at GET /v1/openapi.json.
 * @param {InProcessApp} app
 * @returns {Promise<any>}
 */
export async function openApiDocument(app) {
  const response = await app.get("/v1/openapi.json");
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}: ${await response.text()}`);
  return response.json();
}
