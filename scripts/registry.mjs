#!/usr/bin/env node
// `npm run registry`: the local registry (scripts/local-registry/, TypeScript that shares
// the EPP codec of src/epp/ with the service), bundled by esbuild into node_modules/.cache
// (so that its imports of saxes and miniflare resolve) and run. Options: see
// scripts/local-registry/main.ts, or docs/registries.md.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "./lib/wrangler.mjs";

/** Bundles a TypeScript entry of the project into an ES module Node runs; returns its path. */
export async function bundleForNode(entry, name) {
  const outdir = join(ROOT, "node_modules", ".cache", "domain-api");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${name}-${process.pid}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
    // import.meta.url must name the source's folder (catalog.json, the schemas): the bundle lives elsewhere.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(join(ROOT, entry)).href) },
  });
  return outfile;
}

const bundled = await bundleForNode("scripts/local-registry/main.ts", "local-registry");
const { main } = await import(pathToFileURL(bundled).href);
rmSync(bundled, { force: true });
await main(process.argv.slice(2));
