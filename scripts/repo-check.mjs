#!/usr/bin/env node
// Keeps the repository standing on its own, and its documents in step with the code
// (run by `npm test`, right after the linter; a few seconds):
//
//   1. no file of the repository names a place outside it: the shared design notes it
//      grew from, or this checkout's own absolute path;
//   2. every relative link of every Markdown file resolves: to a file inside the
//      repository and, for a `#fragment` into Markdown, to a heading of that file;
//   3. imports between the layers of src/ point one way (CONTRIBUTING.md, "The layout"):
//      no circle of imports joins the layers (in the table of what may import what or in
//      the code), no module of src/ imports itself back through others, src/resources/
//      holds collection folders only (no hub above them that they import), and collection
//      folders import each other one way;
//   4. the README's API table lists every route of the OpenAPI document exactly once (a
//      row `/v1/x/{a}/…` stands for every route under it), with its methods and query
//      parameters, and nothing the service does not serve;
//   5. the problem-code table of docs/conventions.md is the service's own (GET /v1/problems);
//   6. nothing under scripts/ imports bench/ (bench/ builds on scripts/lib/);
//   7. drizzle-kit generate writes nothing (drizzle/meta in step with src/db/schema.ts);
//   8. worker-configuration.d.ts, the Env types `wrangler types` generates from
//      wrangler.toml (`npm run types`), is up to date.
//
// Prints `ok - …` / `not ok - …` per check and `REPO-CHECK: N passed, M failed`; exits 1
// on any failure.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inProcessApp, openApiDocument } from "./lib/in-process-app.mjs";
import { ROOT } from "./lib/wrangler.mjs";

let passed = 0;
let failed = 0;
function check(name, problems) {
  if (problems.length === 0) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`not ok - ${name}`);
    for (const problem of problems) console.log(`  # ${problem}`);
  }
}

// ---- the files -------------------------------------------------------------------------

/** Tracked files and new files git does not ignore; without git, the tree minus the usual outputs. */
function repositoryFiles() {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    // A file deleted but not yet committed is listed, and skipped; so are symbolic links.
    return [...new Set(out.split("\0").filter(Boolean))].filter((file) => existsSync(path.join(ROOT, file)) && lstatSync(path.join(ROOT, file)).isFile());
  } catch {
    const skip = new Set([".git", "node_modules", ".wrangler", "dist", "test-results"]);
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const relative = path.posix.join(dir, entry.name);
        if (skip.has(entry.name)) continue;
        if (entry.isDirectory()) walk(relative);
        else if (entry.isFile()) files.push(relative);
      }
    };
    walk("");
    return files;
  }
}

const files = repositoryFiles().sort();
const texts = new Map();
for (const file of files) {
  const buffer = readFileSync(path.join(ROOT, file));
  if (!buffer.includes(0)) texts.set(file, buffer.toString("utf8"));
}

// ---- 1. nothing outside the repository -------------------------------------------------

// Spelled in pieces, so that this file does not name them itself. This checkout's own
// absolute path counts too, as a whole path, when it has two directories or more (a
// one-directory root such as `/src` occurs in relative paths by chance).
const OUTSIDE = [["..", "shared"].join("/"), ["", "work", "shared"].join("/")];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const outsidePattern = new RegExp(
  [...OUTSIDE.map(escapeRegExp), ...(ROOT.split("/").filter(Boolean).length >= 2 ? [`(?<![\\w.-])${escapeRegExp(ROOT)}(?![\\w.-])`] : [])].join("|"),
);
const outside = [];
for (const [file, text] of texts) {
  text.split("\n").forEach((line, index) => {
    const found = outsidePattern.exec(line);
    if (found) outside.push(`${file}:${index + 1} names ${found[0]}`);
  });
}
check(`no file names a place outside the repository (${texts.size} files read)`, outside);

// ---- 2. Markdown links -----------------------------------------------------------------

/** The text without fenced code blocks and code spans, line numbers kept. */
function proseOf(markdown) {
  let fence = null;
  return markdown
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
        return "";
      }
      if (marker) {
        fence = marker[1];
        return "";
      }
      return line.replace(/(`+)[^`]*?\1/g, "");
    })
    .join("\n");
}

/** GitHub's anchors for a Markdown file's headings (and explicit `id`/`name` anchors). */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of proseOfHeadings(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .toLowerCase();
    const base = text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of markdown.matchAll(/<[^>]+\s(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

/** Heading lines outside fenced code (code spans kept: GitHub keeps their text in the anchor). */
function proseOfHeadings(markdown) {
  let fence = null;
  const out = [];
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      continue;
    }
    if (marker) fence = marker[1];
    else if (line.startsWith("#")) out.push(line);
  }
  return out;
}

function linksOf(markdown) {
  const links = [];
  proseOf(markdown)
    .split("\n")
    .forEach((line, index) => {
      for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1], line: index + 1 });
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(line);
      if (definition) links.push({ target: definition[1], line: index + 1 });
    });
  return links;
}

const markdownFiles = files.filter((file) => file.endsWith(".md") && texts.has(file));
const anchorCache = new Map();
const anchorsFor = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(path.join(ROOT, file), "utf8")));
  return anchorCache.get(file);
};
const broken = [];
let linkCount = 0;
for (const file of markdownFiles) {
  for (const { target, line } of linksOf(texts.get(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, https:, mailto:
    linkCount++;
    const where = `${file}:${line} links to ${target}`;
    const [rawPath, fragment] = target.split("#", 2);
    let targetPath;
    try {
      targetPath = decodeURIComponent(rawPath);
    } catch {
      broken.push(`${where}: not a valid URL path`);
      continue;
    }
    const resolved =
      targetPath === "" ? path.join(ROOT, file) : targetPath.startsWith("/") ? path.join(ROOT, targetPath) : path.resolve(ROOT, path.dirname(file), targetPath);
    const relative = path.relative(ROOT, resolved);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      broken.push(`${where}: outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      broken.push(`${where}: no such file`);
      continue;
    }
    if (fragment !== undefined && statSync(resolved).isFile() && resolved.endsWith(".md")) {
      if (!anchorsFor(relative.split(path.sep).join("/")).has(fragment)) broken.push(`${where}: no heading with the anchor #${fragment}`);
    }
  }
}
check(`every relative link of the Markdown files resolves inside the repository (${linkCount} links in ${markdownFiles.length} files)`, broken);

// ---- 3. the layers of src/ -------------------------------------------------------------

// What each part of src/ may import (besides itself); CONTRIBUTING.md shows the same table.
const MAY_IMPORT = {
  index: ["app", "db", "delivery", "env", "http", "jobs"], // the Worker's entry: the app, and what the cron triggers and the queue run
  sender: ["delivery"], // the webhook sender's Worker: the sending code of the delivery engine, nothing else
  app: ["db", "delivery", "dns", "env", "http", "jobs", "rdap", "registry", "resources"],
  env: ["access", "db"], // types only: the principal, the request's database
  // Engines stand beside the collections, in homes of their own (CONTRIBUTING.md, "Layout"):
  // the collections answer HTTP and call the engines; an engine never imports a collection.
  jobs: ["access", "connector", "db", "delivery", "dns", "env", "http", "registry", "resources"], // scheduled work above the collections: the sweep, the events archive, signature renewal
  resources: ["access", "connector", "crypto", "db", "delivery", "dns", "env", "epp", "http", "rdap", "registry", "serving"], // epp: the commands a write sends and the answers it reads, as pure values
  delivery: ["crypto", "db", "dns", "env", "http"], // webhook delivery: dispatch, leases, sending, signing
  serving: ["access", "crypto", "db", "dns", "env", "http", "registry"], // the DNS tier's backend: what PowerDNS reads, the catalog zone, the NOTIFY bookkeeping
  connector: ["epp", "http", "registry", "dns"], // the Worker's side of connected registries (docs/registries.md)
  http: ["access", "crypto", "db", "dns", "env", "rdap", "registry"], // registry: pure rules, e.g. the quotas an account has
  access: ["dns", "registry"], // who may do what: pure rules over a caller's rights, and what each viewer sees
  db: ["crypto", "dns", "registry"], // the stored JSON shapes registry rules define, and the SQL mirrors of its rules
  registry: ["dns"],
  dns: ["crypto"],
  crypto: [], // sealing secrets at rest (AES-256-GCM) and base64: shared by DNSSEC keys, TSIG keys and webhook secrets
  rdap: [],
  epp: [], // EPP as pure knowledge: the Worker, the gateway and the local registry use it
  gateway: ["epp"], // the registry gateway, a Node program of its own (docs/registries.md)
};
const layerOf = (file) => file.split("/")[1].replace(/\.ts$/, "");
const sourceFiles = new Set([...texts.keys()].filter((file) => file.startsWith("src/") && file.endsWith(".ts")));
/** The module an import names: `x.ts`, or `x/index.ts` for a folder; null outside src/ or unknown. */
const moduleOf = (target) => [`${target}.ts`, `${target}/index.ts`, target].find((candidate) => sourceFiles.has(candidate)) ?? null;
/** Every relative import of every module of src/, with whether it is for types only (gone from the bundle). */
const imports = [];
for (const file of sourceFiles) {
  const text = texts.get(file);
  const pattern = /(?:^|\n)\s*(?:(import|export)(\s+type\b)?([^;]*?)\bfrom\s+|import\s+)"(\.{1,2}\/[^"]+)"/g;
  for (const match of text.matchAll(pattern)) {
    const [, , typeKeyword, clause = "", specifier] = match;
    const names =
      /\{([^}]*)\}/
        .exec(clause)?.[1]
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean) ?? [];
    const typeOnly =
      Boolean(typeKeyword) || (names.length > 0 && !/^\s*[\w$]+\s*,/.test(clause) && !clause.includes("*") && names.every((name) => name.startsWith("type ")));
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    imports.push({ file, specifier, target, module: moduleOf(target), typeOnly });
  }
}
const arrows = [];
for (const { file, specifier, target, module } of imports) {
  if (!target.startsWith("src/")) continue;
  const from = layerOf(file);
  const to = layerOf(target);
  if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) arrows.push(`${file} imports ${specifier}: ${from}/ may not import ${to}/`);
  if (from === "resources" && to === "resources") {
    // A resource may use another's representation, queries or examples, never its handlers or routes.
    const [, , own] = file.split("/");
    const [, , other, inner] = target.split("/");
    if (other !== own && inner !== undefined && /^(index|routes)(\.ts)?$/.test(inner)) arrows.push(`${file} imports ${specifier}: another resource's ${inner}`);
    // src/resources/ holds collection folders only: a module beside them is a hub above the
    // collections, importing them and imported back by them (the OpenAPI examples were one).
    if (module?.split("/").length === 3 && file.split("/").length > 3)
      arrows.push(
        `${file} imports ${specifier}: a module above the collection folders; what collections share goes a layer down (src/http/, src/db/ …), each collection's own stays in its folder`,
      );
    if (file.split("/").length === 3 && module !== null && module.split("/").length > 3)
      arrows.push(
        `${file} imports ${specifier}: a module beside the collection folders that imports one is a hub above them; move it into a folder, or a layer down`,
      );
  }
}
check("imports between the layers of src/ point one way, and no collection imports a hub above the collection folders", arrows);

// A new part of src/ (a folder, or a module beside app.ts) states its arrows before it is
// used: one more row of MAY_IMPORT, and of the table in CONTRIBUTING.md.
const undeclared = [...new Set([...sourceFiles].map(layerOf))]
  .filter((layer) => !(layer in MAY_IMPORT) && !["env"].includes(layer))
  .map((layer) => `src/${layer} has no row in the layer table (MAY_IMPORT)`);
// CONTRIBUTING.md's table says the same as MAY_IMPORT: each row's layers (a cell may name
// several, `crypto/`, `rdap/`); "everything below" for the app, "nothing of the app" for [].
const contributing = texts.get("CONTRIBUTING.md") ?? "";
const tableRows = new Map();
for (const line of contributing.split("\n")) {
  const cells = line.split("|").map((cell) => cell.trim());
  if (cells.length < 4 || !cells[1]?.startsWith("`")) continue;
  const layers = [...cells[1].matchAll(/`(?:src\/)?([\w-]+)(?:\.ts|\/)`/g)].map((m) => m[1]);
  const allowed = [...cells[2].matchAll(/`([\w-]+)`/g)].map((m) => m[1]).filter((name) => name in MAY_IMPORT);
  for (const layer of layers) tableRows.set(layer, { allowed, everything: cells[2].startsWith("everything below") });
}
for (const [layer, allowed] of Object.entries(MAY_IMPORT)) {
  const row = tableRows.get(layer);
  if (!row) {
    undeclared.push(`CONTRIBUTING.md's layer table has no row for ${layer}`);
    continue;
  }
  if (row.everything) continue;
  const said = [...row.allowed].sort().join(", ");
  const held = [...allowed].sort().join(", ");
  if (said !== held) undeclared.push(`CONTRIBUTING.md says ${layer} may import [${said}]; repo-check holds it to [${held}]`);
}
// An index.ts of a collection wires routes to handlers that live in files of their own.
for (const file of sourceFiles) {
  if (!/^src\/resources\/[^/]+\/index\.ts$/.test(file)) continue;
  if (/\(c\)\s*=>|async\s*\(c[,)]|function\s+\w+\s*\(\s*c\s*:/.test(texts.get(file)))
    undeclared.push(`${file} holds a handler: index.ts only wires routes (one file per operation)`);
}
check("every part of src/ has its row in the layer table, CONTRIBUTING.md's table says the same, and collections' index.ts files only wire routes", undeclared);

/** The strongly connected parts of a graph (Map node → Set of nodes) of more than one node: its circles. */
function circles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const part = stack.splice(stack.indexOf(node));
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One way round a circle, `a → b → … → a`, through the graph's edges inside it. */
function wayRound(graph, part) {
  const inside = new Set(part);
  const [start] = part;
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const way = [start];
        for (let at = node; at !== start; at = previous.get(at)) way.splice(1, 0, at);
        return [...way, start].join(" → ");
      }
      if (inside.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return part.join(", ");
}

// No module imports itself back through others: the bundle evaluates a circle in an order
// one of its modules does not expect (a constant still undefined). Imports of types only
// vanish from the bundle and do not count (src/env.ts's AppEnv and the http/ modules whose
// types it names import each other so).
const moduleGraph = new Map();
for (const { file, module, typeOnly } of imports) {
  if (module === null || typeOnly) continue;
  if (!moduleGraph.has(file)) moduleGraph.set(file, new Set());
  moduleGraph.get(file).add(module);
}
check(
  "no import cycle among the modules of src/ (a module never imports itself back through others; imports of types only aside)",
  circles(moduleGraph).map((part) => `import cycle: ${wayRound(moduleGraph, part)}`),
);

// No circle between the parts of src/, neither in the table above (a mistake there would
// allow one) nor in the imports as they are, types included (a circle of type imports is
// still two layers that each need the other to be read).
{
  const layerGraph = new Map();
  const firstImport = new Map();
  for (const [from, targets] of Object.entries(MAY_IMPORT)) layerGraph.set(`table:${from}`, new Set(targets.map((to) => `table:${to}`)));
  const codeGraph = new Map();
  for (const { file, specifier, target } of imports) {
    if (!target.startsWith("src/")) continue;
    const from = layerOf(file);
    const to = layerOf(target);
    if (from === to) continue;
    if (!codeGraph.has(from)) codeGraph.set(from, new Set());
    codeGraph.get(from).add(to);
    if (!firstImport.has(`${from} → ${to}`)) firstImport.set(`${from} → ${to}`, `${file} imports ${specifier}`);
  }
  const problems = circles(layerGraph).map((part) => `MAY_IMPORT allows a circle: ${wayRound(layerGraph, part).replaceAll("table:", "")}`);
  for (const part of circles(codeGraph)) {
    const steps = wayRound(codeGraph, part).split(" → ");
    problems.push(
      `the parts of src/ import each other in a circle: ${steps
        .slice(1)
        .map((to, i) => `${steps[i]} → ${to} (${firstImport.get(`${steps[i]} → ${to}`)})`)
        .join("; ")}`,
    );
  }
  check(`no circle of imports between the parts of src/ (${firstImport.size} arrows between ${Object.keys(MAY_IMPORT).length} parts)`, problems);
}

// The tools import one way too: bench/ builds on scripts/lib/ (daemons, the harness), and
// nothing under scripts/ imports bench/ (a script that needs a bench helper moves it down
// into scripts/lib/).
const toolArrows = [];
for (const [file, text] of texts) {
  if (!file.startsWith("scripts/") || !/\.(mjs|js|ts)$/.test(file)) continue;
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
    if (match[1].startsWith(".") && target.startsWith("bench/"))
      toolArrows.push(`${file} imports ${match[1]} (bench/ may import scripts/lib/, not the other way)`);
  }
}
check("scripts/ imports nothing of bench/ (the tools' arrow runs bench -> scripts)", toolArrows);

// Collection folders import each other one way: what two collections both need moves down
// a layer (the host's representation, which hosts and the domains' writes both record in
// events, is src/db/hosts.ts), or into the one below.
const folderGraph = new Map();
for (const { file, module } of imports) {
  const [, fromLayer, own] = file.split("/");
  const [, toLayer, other] = module?.split("/") ?? [];
  if (fromLayer !== "resources" || toLayer !== "resources" || file.split("/").length < 4 || module.split("/").length < 4 || own === other) continue;
  if (!folderGraph.has(own)) folderGraph.set(own, new Set());
  folderGraph.get(own).add(other);
}
check(
  "collection folders of src/resources/ import each other one way (no circle between collections)",
  circles(folderGraph).map((part) => `collections importing each other round a circle: ${wayRound(folderGraph, part)}; move what they share a layer down`),
);

// ---- drizzle-kit's bookkeeping in step with the schema ------------------------------------
// CONTRIBUTING's recipe for a schema change is `npm run db:generate`: it diffs
// src/db/schema.ts against drizzle/meta's last snapshot. If the snapshots lag behind the
// migrations, it writes a migration that creates what already exists. So on this tree it
// must write nothing: run in a copy of drizzle/, it may add no file.

{
  const copy = mkdtempSync(path.join(tmpdir(), "domain-api-drizzle-"));
  const problems = [];
  try {
    cpSync(path.join(ROOT, "drizzle"), path.join(copy, "drizzle"), { recursive: true });
    const schema = JSON.stringify(path.join(ROOT, "src", "db", "schema.ts"));
    // drizzle-kit resolves `out` against its working directory, and reads a config of plain data.
    writeFileSync(path.join(copy, "drizzle.config.ts"), `export default { dialect: "sqlite", schema: ${schema}, out: "./drizzle" };\n`);
    const before = new Set(readdirSync(path.join(copy, "drizzle"), { recursive: true }).map(String));
    let output = "";
    try {
      output = execFileSync(path.join(ROOT, "node_modules", ".bin", "drizzle-kit"), ["generate", "--config", "drizzle.config.ts"], {
        cwd: copy,
        stdio: "pipe",
        encoding: "utf8",
      });
    } catch (error) {
      problems.push(
        `drizzle-kit generate failed: ${String(error.stderr ?? error.message)
          .trim()
          .split("\n")
          .slice(-3)
          .join(" | ")}`,
      );
    }
    const added = readdirSync(path.join(copy, "drizzle"), { recursive: true })
      .map(String)
      .filter((file) => !before.has(file));
    if (added.length > 0)
      problems.push(
        `drizzle-kit generate would write ${added.join(", ")}: drizzle/meta lags behind src/db/schema.ts (${output.trim().split("\n").at(-1) ?? ""}); after a migration written by hand, \`npm run db:snapshot\` brings drizzle/meta in step (CONTRIBUTING.md, "Adding a migration")`,
      );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  check("drizzle-kit generate writes nothing: drizzle/meta is in step with src/db/schema.ts", problems);
}

// ---- 6: the generated Env types ----------------------------------------------------------

{
  const { WRANGLER_TYPES_ARGS } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).config ?? {};
  let stale = [];
  try {
    execFileSync(path.join(ROOT, "node_modules", ".bin", "wrangler"), ["types", ...WRANGLER_TYPES_ARGS.split(" "), "--check"], { cwd: ROOT, stdio: "pipe" });
  } catch {
    stale = ["worker-configuration.d.ts does not match wrangler.toml: run `npm run types` and commit it"];
  }
  check("worker-configuration.d.ts is what `wrangler types` makes of wrangler.toml", stale);
}

// ---- 4 and 5: the documents against the service ----------------------------------------

let app;
let document;
try {
  app = await inProcessApp();
  document = await openApiDocument(app);
} catch (error) {
  check("the app builds and serves its OpenAPI document (to check the README and docs against it)", [String(error?.message ?? error).split("\n")[0]]);
  console.log(`REPO-CHECK: ${passed} passed, ${failed} failed`);
  process.exit(1);
}

/** The table rows (cells, trimmed) of the first table after `heading` in `markdown`. */
function tableAfter(markdown, heading) {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return null;
  let i = start + 1;
  while (i < lines.length && !lines[i].startsWith("|") && !/^#{1,2} /.test(lines[i])) i++;
  const rows = [];
  for (; i < lines.length && lines[i].startsWith("|"); i++) {
    const cells = lines[i]
      .slice(1, lines[i].lastIndexOf("|"))
      .split("|")
      .map((cell) => cell.trim());
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    rows.push({ cells, line: i + 1 });
  }
  return rows.slice(1); // the header
}

const codeSpans = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const show = (set) => [...set].sort().join(", ") || "none";

const PAGE_CONTROLS = new Set(["limit", "cursor"]);
const routes = new Map();
for (const [pathKey, item] of Object.entries(document.paths)) {
  const route = pathKey === "/" ? "/v1" : `/v1${pathKey}`;
  const methods = new Set();
  const query = new Set();
  for (const [method, operation] of Object.entries(item)) {
    if (!operation?.operationId) continue;
    methods.add(method.toUpperCase());
    for (const parameter of operation.parameters ?? []) if (parameter.in === "query" && !PAGE_CONTROLS.has(parameter.name)) query.add(parameter.name);
  }
  routes.set(route, { methods, query });
}

const README = "README.md";
const API_HEADING = "## The API in brief";
const table = tableAfter(texts.get(README) ?? "", API_HEADING);
const tableProblems = [];
if (!table) tableProblems.push(`${README} has no "${API_HEADING}" table`);
else {
  const listed = new Map();
  for (const { cells, line } of table) {
    const route = codeSpans(cells[0] ?? "")[0];
    if (!route) {
      tableProblems.push(`${README}:${line}: the first cell names no route in backticks`);
      continue;
    }
    if (listed.has(route)) tableProblems.push(`${README}:${line}: ${route} is listed again (first on line ${listed.get(route).line})`);
    else listed.set(route, { cells, line });
  }
  // A row may stand for a family of routes: `/v1/x/{a}/…` lists every route under that
  // prefix, with the union of their methods and query parameters.
  const covered = new Set();
  const familyOf = (route) => (route.endsWith("/…") ? [...routes.keys()].filter((known) => known.startsWith(route.slice(0, -1))) : null);
  for (const [route, { cells, line }] of listed) {
    const methods = new Set(cells[1]?.match(/\b(GET|HEAD|POST|PUT|PATCH|DELETE)\b/g) ?? []);
    const family = familyOf(route);
    if (family?.length === 0) tableProblems.push(`${README}:${line}: no route of the OpenAPI document starts with ${route.slice(0, -1)}`);
    for (const member of family ?? []) covered.add(member);
    const known = family
      ? { methods: new Set(family.flatMap((m) => [...routes.get(m).methods])), query: new Set(family.flatMap((m) => [...routes.get(m).query])) }
      : routes.get(route);
    if (!known) {
      // Not in the OpenAPI document: it must still be served (the document itself, the docs page).
      const response = await app.get(route);
      if (response.status !== 200)
        tableProblems.push(`${README}:${line}: ${route} is neither in the OpenAPI document nor served (GET answers ${response.status})`);
      else if (!sameSet(methods, new Set(["GET"])))
        tableProblems.push(`${README}:${line}: ${route} is served outside the OpenAPI document with GET only, the table says ${show(methods)}`);
      continue;
    }
    if (!sameSet(methods, known.methods)) tableProblems.push(`${README}:${line}: ${route} takes ${show(known.methods)}; the table says ${show(methods)}`);
    const query = new Set();
    for (const span of codeSpans(cells[2] ?? "")) {
      if (span.startsWith("/v1")) for (const name of routes.get(span)?.query ?? [`(unknown route ${span})`]) query.add(name);
      else query.add(span);
    }
    if (!sameSet(query, known.query))
      tableProblems.push(`${README}:${line}: ${route} takes the query parameters ${show(known.query)}; the table says ${show(query)}`);
  }
  for (const route of routes.keys()) {
    if (listed.has(route) && covered.has(route)) tableProblems.push(`${README}: ${route} is listed on its own and in a family of routes`);
    else if (!listed.has(route) && !covered.has(route)) tableProblems.push(`${README}: the API table does not list ${route}`);
  }
}
check(`the README's API table lists the ${routes.size} routes of the OpenAPI document once each, with their methods and query parameters`, tableProblems);

const CONVENTIONS = "docs/conventions.md";
const problemTypes = await (await app.get("/v1/problems")).json();
const documented = new Map();
const codeProblems = [];
for (const line of (texts.get(CONVENTIONS) ?? "").split("\n")) {
  const row = /^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/.exec(line);
  if (!row) continue;
  if (documented.has(row[2])) codeProblems.push(`${CONVENTIONS} lists ${row[2]} twice`);
  documented.set(row[2], Number(row[1]));
}
for (const { code, status } of problemTypes.data) {
  if (!documented.has(code)) codeProblems.push(`${CONVENTIONS} does not list ${status} ${code}`);
  else if (documented.get(code) !== status) codeProblems.push(`${CONVENTIONS} gives ${code} the status ${documented.get(code)}; the service answers ${status}`);
}
for (const code of documented.keys())
  if (!problemTypes.data.some((type) => type.code === code)) codeProblems.push(`${CONVENTIONS} lists ${code}, which the service does not have`);
check(`${CONVENTIONS} lists the ${problemTypes.data.length} problem codes of GET /v1/problems with their statuses`, codeProblems);

console.log(`REPO-CHECK: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
