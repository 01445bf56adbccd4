#!/usr/bin/env node
// Regenerates src/dns/public-suffix-list.ts, the Public Suffix List the service ships as
// data (docs/accounts.md, "Names no customer may hold"): a customer's zone may not be AT a
// public suffix (`ac.uk`, `github.io`), which would squat every name under it.
//
// The list comes from one pinned npm package, `tldts` (the npm registry is the one source
// these machines reach), whose releases follow the list's own. Its data is a compact trie
// (dist/es6/src/data/trie.js: nodeFlags, edgeStart, edgeLength, edgeChild, labelText,
// rulesRoot, exceptionsRoot); this script walks it back into the list's rules, each with
// its section (ICANN or PRIVATE), keeps every rule in A-label form (the list writes IDN
// rules in Unicode; tldts holds both forms), and writes them grouped by parent name, which
// the Worker turns into a lookup on first use (src/dns/public-suffixes.ts).
//
//   node scripts/public-suffixes.mjs                 # the pinned version below
//   node scripts/public-suffixes.mjs --version 7.7.0 # another; then pin it here
//
// To update the list: run it with the newest version (`npm view tldts version`), check
// `git diff --stat src/dns/public-suffix-list.ts`, run test/unit/public-suffixes.test.ts,
// pin the version below, and commit the three together. Needs npm and tar; writes nothing
// but the one file (and a temporary directory it removes).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { domainToASCII, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const PINNED = "7.6.0";
const ROOT = path.resolve(import.meta.dirname, "..");
const OUTPUT = path.join(ROOT, "src", "dns", "public-suffix-list.ts");

const { values } = parseArgs({ args: process.argv.slice(2), strict: true, options: { version: { type: "string", default: PINNED } } });
const version = values.version;
if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`--version ${version}: give an exact version, such as ${PINNED}`);

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

const work = mkdtempSync(path.join(tmpdir(), "public-suffixes-"));
try {
  const published = JSON.parse(npm(["view", `tldts@${version}`, "time", "--json"], work))[version];
  if (!published) throw new Error(`tldts ${version}: no publication date in the registry`);
  const tarball = npm(["pack", `tldts@${version}`, "--silent"], work)
    .split("\n")
    .at(-1);
  execFileSync("tar", ["xzf", tarball], { cwd: work });
  // The package declares no module type: a copy named .mjs imports as the ES module it is.
  const trieFile = path.join(work, "trie.mjs");
  copyFileSync(path.join(work, "package", "dist", "es6", "src", "data", "trie.js"), trieFile);
  const trie = await import(pathToFileURL(trieFile).href);
  for (const field of ["nodeFlags", "edgeStart", "edgeLength", "edgeChild", "labelText", "rulesRoot", "exceptionsRoot"]) {
    if (!(field in trie)) throw new Error(`tldts ${version}: its trie has no ${field}; the data format changed, read its src/suffix-trie.ts`);
  }
  const rules = walk(trie, trie.rulesRoot);
  const exceptions = walk(trie, trie.exceptionsRoot);
  const output = render({ version, published: published.slice(0, 10), rules, exceptions });
  writeFileSync(OUTPUT, output);
  const count = (section) => [...rules.values()].filter((s) => s === section).length;
  console.log(
    `[public-suffixes] tldts ${version} (published ${published.slice(0, 10)}): ${count(1)} ICANN rules, ${count(2)} PRIVATE rules, ${exceptions.size} exceptions → ${path.relative(ROOT, OUTPUT)} (${output.length} bytes)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * Every rule under `root`: its name (labels joined, `*` for a wildcard label) → its section
 * (1 ICANN, 2 PRIVATE), each in A-label form. A node with a flag ends a rule; its edges
 * lead, label by label from the top-level label down, to longer rules.
 */
function walk({ nodeFlags, edgeStart, edgeLength, edgeChild, labelText }, root) {
  const offsets = new Uint32Array(edgeLength.length);
  for (let edge = 0, offset = 0; edge < edgeLength.length; edge++) {
    offsets[edge] = offset;
    offset += edgeLength[edge];
  }
  const found = new Map();
  const stack = [[root, []]];
  while (stack.length > 0) {
    const [node, below] = stack.pop();
    for (let edge = edgeStart[node]; edge < edgeStart[node + 1]; edge++) {
      const labels = [labelText.slice(offsets[edge], offsets[edge] + edgeLength[edge]), ...below];
      const child = edgeChild[edge];
      if (nodeFlags[child] !== 0) {
        const name = aLabels(labels.join("."));
        if (nodeFlags[child] !== 1 && nodeFlags[child] !== 2)
          throw new Error(`${name}: a section flag of ${nodeFlags[child]}, neither ICANN (1) nor PRIVATE (2)`);
        if (found.has(name) && found.get(name) !== nodeFlags[child]) throw new Error(`${name} is in both sections`);
        found.set(name, nodeFlags[child]);
      }
      stack.push([child, labels]);
    }
  }
  return found;
}

/** A rule in the form stored names have: lowercase A-labels (a wildcard label kept). */
function aLabels(rule) {
  const labels = rule.split(".").map((label) => {
    if (label === "*") return label;
    const ascii = /^[a-z0-9-]+$/.test(label) ? label : domainToASCII(label);
    if (!/^[a-z0-9-]{1,63}$/.test(ascii)) throw new Error(`${rule}: the label ${label} has no A-label form`);
    return ascii;
  });
  return labels.join(".");
}

/**
 * The rules grouped by parent (the rule without its first label; "" for top-level
 * rules): `parent=label,label;…`, one string per section, in the order of the names.
 */
function grouped(rules) {
  const byParent = new Map();
  for (const rule of [...rules].sort()) {
    const dot = rule.indexOf(".");
    const parent = dot < 0 ? "" : rule.slice(dot + 1);
    const label = dot < 0 ? rule : rule.slice(0, dot);
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(label);
  }
  return [...byParent.keys()]
    .sort()
    .map((parent) => `${parent}=${byParent.get(parent).join(",")}`)
    .join(";");
}

function render({ version, published, rules, exceptions }) {
  const section = (flag) => [...rules].filter(([, s]) => s === flag).map(([name]) => name);
  const icann = section(1);
  const privates = section(2);
  return `// GENERATED by scripts/public-suffixes.mjs: do not edit; run the script to update it.
// The Public Suffix List, from the npm package tldts ${version} (published ${published}):
// ${icann.length} rules of its ICANN section, ${privates.length} of its PRIVATE section and ${exceptions.size} exception
// rules, in A-label form, each string \`parent=label,label;…\` (parent "" for top-level
// rules; \`*\` a wildcard label). src/dns/public-suffixes.ts reads them.

/** Where these rules come from, and when that was published. */
export const PUBLIC_SUFFIX_LIST_SOURCE = { package: "tldts", version: "${version}", published: "${published}" } as const;

/** The ICANN section: suffixes the registries of the top-level names run. */
export const ICANN_RULES =
  "${grouped(icann)}";

/** The PRIVATE section: suffixes companies run under their own domains (\`github.io\`, \`uk.com\`). */
export const PRIVATE_RULES =
  "${grouped(privates)}";

/** The exception rules (\`!city.kobe.jp\`), without their \`!\`: names that are not suffixes although a wildcard covers them. */
export const EXCEPTION_RULES = "${grouped([...exceptions.keys()])}";
`;
}
