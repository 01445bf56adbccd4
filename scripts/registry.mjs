#!/usr/bin/env node
// `npm run registry`: the local registry (scripts/local-registry/, TypeScript that shares
// the EPP codec of src/epp/ with the service), bundled for Node and run. Options: see
// scripts/local-registry/main.ts, or docs/registries.md#the-local-registry.
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bundleForNode } from "./lib/bundle.mjs";

const bundled = await bundleForNode("scripts/local-registry/main.ts", "local-registry");
const { main } = await import(pathToFileURL(bundled).href);
rmSync(bundled, { force: true });
await main(process.argv.slice(2));
