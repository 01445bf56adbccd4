// bench/results.json: one file, one key per part of the benchmark (the main run's figures,
// "scaling", "memory", "cost", "peer", "dns", "webhooks", "update"), each part with its
// own date. A part writes its keys and keeps everything else as the last run of the other
// parts left it. results.json is the last run (gitignored); each run's ratios are also
// appended to bench/history.json (committed), from which bench/plot.mjs draws the charts
// of docs/performance.md.
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HISTORY_FILE, plotAll, readHistory } from "./plot.mjs";

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), "results.json");

/** The results so far ({} when there are none, or they do not parse). */
export function readResults() {
  try {
    return JSON.parse(readFileSync(RESULTS_FILE, "utf8"));
  } catch {
    return {};
  }
}

/** The runs of history a write of `parts` records: one per phase that carries ratios. */
export function historyRuns(parts, date = new Date().toISOString()) {
  const load = loadavg().map((l) => Number(l.toFixed(2)));
  const run = (phase, ratios, mode) => ({ phase, date, ...(mode ? { mode } : {}), load, ratios: numbersOf(ratios) });
  const runs = [];
  if (parts.ratios && parts.figures) runs.push(run("api", parts.ratios, parts.mode));
  if (parts.webhooks?.ratios) runs.push(run("webhooks", parts.webhooks.ratios, parts.webhooks.mode));
  if (parts.dns?.ratios) runs.push(run("dns", parts.dns.ratios, parts.dns.mode));
  if (parts.peer_ratios) runs.push(run("peer", parts.peer_ratios, parts.peer?.mode));
  if (parts.registry?.ratios) runs.push(run("registry", parts.registry.ratios, parts.registry.mode));
  if (parts.update) {
    const { large_update_ms, concurrent_small_update_ms, records_per_second } = parts.update;
    runs.push(run("dns-update", { large_update_ms, concurrent_small_update_ms, records_per_second }, parts.update.mode));
  }
  return runs.filter((r) => Object.keys(r.ratios).length > 0);
}

const numbersOf = (object) => Object.fromEntries(Object.entries(object ?? {}).filter(([, v]) => typeof v === "number" && Number.isFinite(v)));

/** Writes `parts` (top-level keys) over the results so far, records their ratios in the history and redraws the charts; returns the whole. */
export function writeResults(parts) {
  const out = { ...readResults(), ...parts };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
  const runs = historyRuns(parts);
  if (runs.length > 0) {
    const history = readHistory();
    history.runs.push(...runs);
    writeFileSync(HISTORY_FILE, `${JSON.stringify(history, null, 2)}\n`);
    plotAll(history);
  }
  return out;
}
