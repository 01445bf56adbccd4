#!/usr/bin/env node
// Lints the OpenAPI document with Redocly's recommended ruleset (redocly.yaml); exits 1
// on any error. The document is the one the Worker serves at GET /v1/openapi.json, built
// without a server: esbuild bundles src/app.ts for Node and the app answers the request
// in-process. Serving the document touches no data, so the D1 binding is a stub that
// fails loudly if anything ever queries it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
try {
  const bundle = path.join(dir, "app.mjs");
  await build({ entryPoints: [path.join(root, "src/app.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "warning" });
  const { app } = await import(pathToFileURL(bundle).href);
  const noDatabase = () => {
    throw new Error("serving the OpenAPI document must not query the database");
  };
  const DB = { withSession: () => ({ getBookmark: () => null, prepare: noDatabase, batch: noDatabase, exec: noDatabase }) };
  const response = await app.request("http://localhost/v1/openapi.json", {}, { DB });
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}: ${await response.text()}`);
  const document = path.join(dir, "openapi.json");
  writeFileSync(document, JSON.stringify(await response.json(), null, 2));

  const redocly = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "redocly.cmd" : "redocly");
  const lint = spawnSync(redocly, ["lint", document, "--config", path.join(root, "redocly.yaml"), "--format", "stylish"], {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (lint.error) throw lint.error;
  console.log(lint.status === 0 ? "OpenAPI lint: 0 errors" : "OpenAPI lint: FAILED");
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
