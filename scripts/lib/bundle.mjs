// The project's Node programs written in TypeScript (the local registry, the registry
// gateway) share code with the Worker (src/epp/); esbuild bundles each into one ES module
// under node_modules/.cache, where its imports of npm packages resolve, and Node runs it.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "./wrangler.mjs";

/**
 * Bundles a TypeScript entry of the project into an ES module Node runs; returns its path (the caller removes it once imported).
 * @param {string} entry the entry, relative to the repository's root
 * @param {string} name the bundle's name, in its file name
 * @returns {Promise<string>}
 */
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
    // import.meta.url names the entry's own folder (its data files): the bundle lives elsewhere.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(join(ROOT, entry)).href) },
  });
  return outfile;
}
