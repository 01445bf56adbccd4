#!/usr/bin/env node
// npm run db:snapshot: brings drizzle/meta in step with a migration written by hand
// (CONTRIBUTING.md, "Adding a migration"): drizzle-kit's journal lists every migration
// file of drizzle/ (a placeholder entry for a number no file has, so that the next
// generated file takes the next free number), and the last migration's snapshot is what
// drizzle-kit makes of src/db/schema.ts now. Then `npm run db:generate` writes nothing
// until the schema changes again, which scripts/repo-check.mjs checks.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dir = path.join(ROOT, "drizzle");
const files = readdirSync(dir)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();
const last = Number(files.at(-1).slice(0, 4));
const byNumber = new Map(files.map((f) => [Number(f.slice(0, 4)), f.replace(/\.sql$/, "")]));
const journal = JSON.parse(readFileSync(path.join(dir, "meta", "_journal.json"), "utf8"));
const known = new Map(journal.entries.map((e) => [e.idx, e]));
const entries = [];
for (let idx = 0; idx <= last; idx++) {
  const tag = byNumber.get(idx) ?? `${String(idx).padStart(4, "0")}_unused`;
  entries.push(known.get(idx) ?? { idx, version: "6", when: Date.UTC(2026, 10, 29) + idx, tag, breakpoints: true });
}
// The snapshot of the schema now, from drizzle-kit itself, in a copy whose journal ends at the last known snapshot.
const copy = mkdtempSync(path.join(tmpdir(), "drizzle-sync-"));
cpSync(dir, path.join(copy, "drizzle"), { recursive: true });
writeFileSync(
  path.join(copy, "drizzle.config.ts"),
  `export default { dialect: "sqlite", schema: ${JSON.stringify(path.join(ROOT, "src/db/schema.ts"))}, out: "./drizzle" };\n`,
);
execFileSync(path.join(ROOT, "node_modules/.bin/drizzle-kit"), ["generate", "--config", "drizzle.config.ts"], { cwd: copy, stdio: "pipe" });
const copyJournal = JSON.parse(readFileSync(path.join(copy, "drizzle/meta/_journal.json"), "utf8"));
const generated = copyJournal.entries.at(-1);
const snapshot = JSON.parse(readFileSync(path.join(copy, "drizzle/meta", `${String(generated.idx).padStart(4, "0")}_snapshot.json`), "utf8"));
const previous = JSON.parse(readFileSync(path.join(dir, "meta", `${String(journal.entries.at(-1).idx).padStart(4, "0")}_snapshot.json`), "utf8"));
snapshot.prevId = previous.id;
writeFileSync(path.join(dir, "meta", `${String(last).padStart(4, "0")}_snapshot.json`), `${JSON.stringify(snapshot, null, 2)}\n`);
writeFileSync(path.join(dir, "meta", "_journal.json"), `${JSON.stringify({ ...journal, entries }, null, 2)}\n`);
rmSync(copy, { recursive: true, force: true });
console.log(`journal: ${entries.length} entries; snapshot ${String(last).padStart(4, "0")} written`);
