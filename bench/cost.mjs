// `npm run bench -- --cost`: the D1 cost of every operation of the OpenAPI document (round
// trips, rows read, rows written), as test/cost.test.ts measures and bounds it through the
// Worker in workerd on a database it seeds through the API. One measurement, two readers:
// this runs that test file (vitest, about 20 s), reads the table it logs, prints it and
// stores it under "cost" in bench/results.json, beside the per-record memory and CPU of the
// last memory phase (bench/memory.mjs) when results.json holds one. Deterministic: the same
// code gives the same figures on any machine.
import { spawnSync } from "node:child_process";
import { readResults, writeResults } from "./results.mjs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const MARKER = "D1_COST_TABLE ";
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, ""); // eslint-disable-line no-control-regex

/** Runs test/cost.test.ts and returns the rows it logged. */
function measure() {
  const result = spawnSync(join(ROOT, "node_modules", ".bin", "vitest"), ["run", "test/cost.test.ts"], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: "0", CI: "true", PRINT_COST_TABLE: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  const line = output.split("\n").find((l) => l.includes(MARKER));
  if (!line) throw new Error(`test/cost.test.ts logged no cost table (exit ${result.status}):\n${output.split("\n").slice(-40).join("\n")}`);
  return { rows: JSON.parse(line.slice(line.indexOf(MARKER) + MARKER.length)), passed: result.status === 0, output };
}

/** The floor the issue sets: 1 round trip per single read, 2 per single write, a page of limit + a constant. */
function floorMet(row) {
  const method = row.request.split(" ")[0];
  if (method === "GET") return row.round_trips <= 1 && (row.page_rows === undefined || row.rows_read <= row.page_rows + 5);
  return row.round_trips <= 2;
}

/** The memory phase's per-record figures for the import and the export rows (one shape: typical if measured). */
function perRecordCell(row, memory) {
  const op = row.operation === "createZone text/dns" ? "import" : row.operation === "getZone text/dns" ? "export" : null;
  if (!op || !memory) return "";
  const entries = Object.entries(memory.per_record);
  const [, f] = entries.find(([what]) => what === `${op} (typical)`) ?? entries.find(([what]) => what.startsWith(op)) ?? [];
  return f ? `${f.isolate_heap_bytes ?? "-"} B / ${f.process_bytes} B / ${f.cpu_us} µs` : "";
}

function printTable(rows, memory) {
  const table = [["operation", "round trips", "rows read", "rows written", "floor", "per record: heap / process / CPU", "why"]];
  for (const r of rows)
    table.push([
      r.operation,
      String(r.round_trips),
      String(r.rows_read),
      String(r.rows_written),
      floorMet(r) ? "yes" : "no",
      perRecordCell(r, memory),
      r.bound?.why ?? "",
    ]);
  const last = table[0].length - 1;
  const widths = table[0].map((_, i) => (i === last ? 0 : Math.max(...table.map((r) => r[i].length))));
  for (const [i, row] of table.entries()) {
    console.log(`| ${row.map((cell, j) => (j === 0 || j === last ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w, j) => (j === 0 || j === last ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`);
  }
}

/** Per imported and exported record, from the last memory phase stored in results.json. */
function perRecordFigures(previous) {
  const perRecord = previous?.memory?.per_record;
  if (!perRecord) return null;
  const out = {};
  for (const [shape, ops] of Object.entries(perRecord)) {
    for (const op of ["import", "export"]) {
      const f = ops[op];
      if (f) out[`${op} (${shape})`] = { isolate_heap_bytes: f.isolate_heap_bytes_per_record, process_bytes: f.bytes_per_record, cpu_us: f.cpu_us_per_record };
    }
  }
  return { date: previous.memory.date, per_record: out };
}

export async function costBench() {
  const started = Date.now();
  console.log("[bench] cost: running test/cost.test.ts (the Worker in workerd, a D1 seeded through the API)");
  const { rows, passed, output } = measure();
  const memory = perRecordFigures(readResults());
  console.log("");
  printTable(rows, memory);
  if (memory) {
    console.log(
      `\nper record, from the memory phase of ${memory.date} (isolate heap / workerd process bytes, CPU µs; an export's is its first, rendered one):`,
    );
    for (const [what, f] of Object.entries(memory.per_record))
      console.log(`- ${what}: ${f.isolate_heap_bytes ?? "-"} / ${f.process_bytes} bytes, ${f.cpu_us} µs`);
  } else console.log("\nper-record memory and CPU: no memory phase in bench/results.json yet (npm run bench -- --memory-only)");
  const below = rows.filter((r) => !floorMet(r)).length;
  console.log(
    `\n${rows.length} operations, ${rows.length - below} at their floor, ${below} above it (see why); bounds ${passed ? "all held" : "NOT all held"}`,
  );
  writeResults({ cost: { date: new Date().toISOString(), operations: rows, memory_per_record: memory } });
  console.log(`[bench] wrote "cost" into bench/results.json in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (!passed)
    console.log(
      stripAnsi(output)
        .split("\n")
        .filter((l) => /FAIL|AssertionError/.test(l))
        .slice(0, 20)
        .join("\n"),
    );
  return passed ? 0 : 1;
}
