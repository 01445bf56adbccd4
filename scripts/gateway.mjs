#!/usr/bin/env node
// `npm run gateway`: the registry gateway (src/gateway/, docs/registries.md), bundled for
// Node and run. Options: see src/gateway/main.ts.
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bundleForNode } from "./lib/bundle.mjs";

const bundled = await bundleForNode("src/gateway/main.ts", "registry-gateway");
const { main } = await import(pathToFileURL(bundled).href);
rmSync(bundled, { force: true });
await main(process.argv.slice(2));
