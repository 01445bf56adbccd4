// bench/results.json: one file, one key per part of the benchmark (the main run's figures,
// "scaling", "memory", "cost", "peer", "dns"), each part with its own date. A part writes
// its keys and keeps everything else as the last run of the other parts left it.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), "results.json");

/** The results so far ({} when there are none, or they do not parse). */
export function readResults() {
  try {
    return JSON.parse(readFileSync(RESULTS_FILE, "utf8"));
  } catch {
    return {};
  }
}

/** Writes `parts` (top-level keys) over the results so far; returns the whole. */
export function writeResults(parts) {
  const out = { ...readResults(), ...parts };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
  return out;
}
