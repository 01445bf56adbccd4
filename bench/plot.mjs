#!/usr/bin/env node
// Draws docs/performance/<phase>.svg from bench/history.json: one chart per benchmark
// phase, every run of it in order along x, each ratio a line, its target dashed. A ratio
// that moves ±10 % from run to run on 2 shared cores reads better as a line than as a
// table of twenty runs (docs/performance.md shows the charts).
//
//   node bench/plot.mjs        (npm run bench runs it after each phase it records)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const HISTORY_FILE = join(HERE, "history.json");
const OUT_DIR = join(HERE, "..", "docs", "performance");

/** Each phase's chart: its title, the figures it draws and their targets (the bench's own). */
export const CHARTS = {
  api: {
    title: "API against a bare Worker on the same workerd and D1",
    series: {
      get_by_id_vs_baseline: { label: "domain by id ÷ baseline (req/s)", target: 0.7 },
      create_vs_baseline_insert: { label: "create contact ÷ baseline insert (req/s)", target: 0.5 },
      list_deep_vs_first_page: { label: "deep page ÷ first page (p50, lower is better)", target: 1.3 },
      import_per_record_vs_baseline_insert: { label: "import per record ÷ baseline insert (lower is better)", target: 3 },
    },
  },
  dns: {
    title: "The tier's secondary against PowerDNS on SQLite (q/s, and CPU per answer)",
    series: {
      secondary_vs_sqlite_flood_qps: { label: "flood of missing names, q/s", target: 0.8 },
      secondary_vs_sqlite_mix_qps: { label: "realistic mix, q/s", target: 0.8 },
      sqlite_vs_secondary_flood_cpu_per_answer: { label: "flood, PowerDNS CPU ÷ ours per answer" },
      sqlite_vs_secondary_mix_cpu_per_answer: { label: "mix, PowerDNS CPU ÷ ours per answer" },
    },
    log: true,
  },
  webhooks: {
    title: "Write rate with webhooks subscribed ÷ without (paired rounds)",
    series: {
      write_rate_1_vs_0_webhooks: { label: "1 webhook", target: 0.95 },
      write_rate_10_vs_0_webhooks: { label: "10 webhooks", target: 0.95 },
    },
  },
  "webhooks-latency": {
    phase: "webhooks",
    title: "Commit to delivery, p99 (ms; one write at a time, 10 webhooks)",
    series: { commit_to_delivery_p99_ms: { label: "p99 ms", target: 2000 } },
  },
  peer: {
    title: "The API's DNS writes and reads against PowerDNS's own API (ours ÷ PowerDNS)",
    series: {
      record_create_c1: { label: "record create, 1 at a time" },
      record_create_c16: { label: "record create, 16 at a time" },
      zone_export: { label: "zone export" },
      zone_read: { label: "zone read" },
      zone_import: { label: "zone import" },
    },
    log: true,
  },
  registry: {
    title: "Registering through a connected registry (EPP, the local registry) ÷ the builtin registry, p50",
    series: { register_connected_vs_builtin_p50: { label: "connected ÷ builtin (lower is better)", target: 1.5 } },
  },
  "dns-update": {
    title: "DNS UPDATE through the update gateway (ms, median of the rounds)",
    series: {
      large_update_ms: { label: "a 1 000-record update, sent to committed", target: 2000 },
      concurrent_small_update_ms: { label: "another account's one-record update meanwhile", target: 1000 },
    },
  },
};

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const W = 720;
const PLOT_H = 200;
const M = { left: 56, right: 48, top: 40, labels: 78 };

/** The runs recorded so far. */
export function readHistory() {
  try {
    return JSON.parse(readFileSync(HISTORY_FILE, "utf8"));
  } catch {
    return { runs: [] };
  }
}

const escapeXml = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const label = (date) => (date.length > 10 ? `${date.slice(5, 10)} ${date.slice(11, 16)}` : date.slice(5, 10));

/** One chart as SVG text, or null when no run has any of its figures. */
export function chartSvg(chart, runs) {
  const names = Object.keys(chart.series);
  const points = runs.filter((run) => names.some((name) => typeof run.ratios?.[name] === "number"));
  if (points.length === 0) return null;
  const values = points.flatMap((run) => names.map((name) => run.ratios[name]).filter((v) => typeof v === "number"));
  const targets = names.map((name) => chart.series[name].target).filter((v) => typeof v === "number");
  let lo = Math.min(...values, ...targets);
  let hi = Math.max(...values, ...targets);
  const log = chart.log && lo > 0;
  const f = log ? Math.log10 : (v) => v;
  if (!log) {
    const pad = (hi - lo || Math.abs(hi) || 1) * 0.1;
    lo = Math.max(0, lo - pad);
    hi += pad;
  } else {
    lo /= 1.3;
    hi *= 1.3;
  }
  const H = M.top + PLOT_H + M.labels + 16 * names.length + 8;
  const plotW = W - M.left - M.right;
  const plotH = PLOT_H;
  const x = (i) => M.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (v) => M.top + plotH - ((f(v) - f(lo)) / (f(hi) - f(lo))) * plotH;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${M.left}" y="18" font-size="13" font-weight="bold">${escapeXml(chart.title)}</text>`);
  // y ticks
  const ticks = log ? logTicks(lo, hi) : linearTicks(lo, hi);
  for (const t of ticks) {
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#eee"/>`);
    out.push(`<text x="${M.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t}</text>`);
  }
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + plotH}" stroke="#333"/>`);
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#333"/>`);
  // x labels: each run's date, rotated
  points.forEach((run, i) => {
    const tx = x(i).toFixed(1);
    const ty = M.top + plotH + 8;
    const text = `${label(run.date)}${run.mode === "quick" ? " q" : ""}`;
    out.push(`<text x="${tx}" y="${ty}" transform="rotate(60 ${tx} ${ty})" font-size="9">${escapeXml(text)}</text>`);
  });
  names.forEach((name, k) => {
    const { target } = chart.series[name];
    const colour = COLOURS[k % COLOURS.length];
    if (typeof target === "number") {
      out.push(
        `<line x1="${M.left}" x2="${W - M.right}" y1="${y(target).toFixed(1)}" y2="${y(target).toFixed(1)}" stroke="${colour}" stroke-dasharray="5 4" stroke-width="1"/>`,
      );
    }
    const mine = points.map((run, i) => [i, run.ratios[name]]).filter(([, v]) => typeof v === "number");
    if (mine.length > 1)
      out.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${mine.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`,
      );
    for (const [i, v] of mine)
      out.push(
        `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${colour}"><title>${escapeXml(`${points[i].date}: ${v}`)}</title></circle>`,
      );
  });
  // legend, under the x labels
  names.forEach((name, k) => {
    const { label: text, target } = chart.series[name];
    const lx = M.left;
    const ly = M.top + plotH + M.labels + 16 * k + 8;
    out.push(`<rect x="${lx}" y="${ly - 8}" width="10" height="10" fill="${COLOURS[k % COLOURS.length]}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly + 1}">${escapeXml(text)}${typeof target === "number" ? ` (target ${target}, dashed)` : ""}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

function linearTicks(lo, hi) {
  const span = hi - lo;
  const step = 10 ** Math.floor(Math.log10(span / 4));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= 6) ?? step * 10;
  const ticks = [];
  for (let t = Math.ceil(lo / nice) * nice; t <= hi + 1e-9; t += nice) ticks.push(Number(t.toPrecision(6)));
  return ticks;
}

function logTicks(lo, hi) {
  const ticks = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** e;
      if (t >= lo && t <= hi) ticks.push(Number(t.toPrecision(6)));
    }
  return ticks;
}

/** Writes every chart that has runs; returns the files written. */
export function plotAll(history = readHistory()) {
  mkdirSync(OUT_DIR, { recursive: true });
  const written = [];
  for (const [name, chart] of Object.entries(CHARTS)) {
    const runs = history.runs.filter((run) => run.phase === (chart.phase ?? name));
    const svg = chartSvg(chart, runs);
    if (!svg) continue;
    const file = join(OUT_DIR, `${name}.svg`);
    writeFileSync(file, svg);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of plotAll()) console.log(`wrote ${file}`);
}
