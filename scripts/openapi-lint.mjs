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
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      FORCE_COLOR: process.stderr.isTTY ? "1" : "0",
    },
  });
  if (lint.error) throw lint.error;
  process.stderr.write(withoutNodeNotice(lint.stderr));
  console.log(lint.status === 0 ? "OpenAPI lint: 0 errors" : "OpenAPI lint: FAILED");
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Redocly CLI prints a boxed "Node.js 20 support is ending" notice on every run under
 * Node 20, with no setting to turn it off. This project supports Node 20 on purpose
 * (wrangler 4.86, which the project pins, is the newest that runs on it), so the box is
 * dropped; every other line is kept.
 */
function withoutNodeNotice(text) {
  return text.replace(/\n?[^\n]*╔[\s\S]*?╝[^\n]*\n/g, (box) => (/Node\.js 20 support is ending/.test(box) ? "" : box));
}
