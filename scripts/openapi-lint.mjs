#!/usr/bin/env node
// Lints the OpenAPI document with Redocly's recommended ruleset (redocly.yaml); exits 1
// on any error. The document is the one the Worker serves at GET /v1/openapi.json, built
// without a server (scripts/lib/in-process-app.mjs: esbuild bundles src/app.ts for Node
// and the app answers the request in-process).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inProcessApp, openApiDocument } from "./lib/in-process-app.mjs";
import { ROOT as root } from "./lib/wrangler.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
try {
  const document = path.join(dir, "openapi.json");
  writeFileSync(document, JSON.stringify(await openApiDocument(await inProcessApp()), null, 2));

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
