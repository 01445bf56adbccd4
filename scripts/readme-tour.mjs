#!/usr/bin/env node
// Runs the README's newcomer tour as written: every ```bash block between the headings
// "## A short tour" and "## The API in brief", then every ```bash block under
// "## DNS: zones and records" (up to the next "## " heading), joined in that order into one
// bash script. Which blocks run is decided by these headings alone: a ```bash block added
// there is run too, so keep only commands that work against a fresh server in them.
//
// The script runs under `set -euo pipefail` (and inherit_errexit), with cwd a throwaway
// directory (the tour writes zone files), against `node scripts/start.mjs --auth` started
// through scripts/lib/harness.mjs on a free port with a throwaway --persist-to dir. Its env
// has BASE=http://127.0.0.1:PORT and PERSIST_TO=<that dir>, so the README's
// `npm run -s token -- create …` mints a token in the server's database; `npm` is wrapped to
// run in the project root. `curl` is wrapped in a bash function that passes the README's
// arguments through unchanged, prints the response as curl would, and fails on HTTP ≥ 400
// (or no answer), like --fail-with-body, so the README's commands stay as readable as
// a reader types them.
//
// Prints `ok - …` / `not ok - …` per curl call and per block, and
// `README-TOUR: N passed, M failed`; exits 1 on any failure.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHarness } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const BASH_TIMEOUT_MS = 120_000;

const { ok, notOk, tempDir, startReported, run } = createHarness({
  name: "readme-tour",
  label: "README-TOUR",
  startArgs: ["--auth"],
  readyTimeoutMs: 60_000,
  totalTimeoutMs: 240_000,
});

/** The ```bash blocks of the README section starting at `from` and ending at `to` (a heading). */
function bashBlocks(lines, from, to) {
  const start = lines.findIndex((line) => line.trim() === from);
  if (start < 0) throw new Error(`README has no "${from}" heading`);
  let end = to ? lines.findIndex((line, i) => i > start && line.trim() === to) : -1;
  if (end < 0) end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  if (end < 0) end = lines.length;
  const blocks = [];
  for (let i = start + 1; i < end; i++) {
    if (lines[i].trim() !== "```bash") continue;
    const body = [];
    const first = i + 2; // 1-based README line of the block's first command line
    for (i++; i < end && lines[i].trim() !== "```"; i++) body.push(lines[i]);
    blocks.push({ first, body });
  }
  if (blocks.length === 0) throw new Error(`no \`\`\`bash block under "${from}"`);
  return blocks;
}

// Prelude: strict mode, reporting on fd 3, and the curl / npm wrappers. Bash's ${…} is
// written $\{…} here (not a template expression) and restored by the replaceAll.
const PRELUDE = String.raw`set -euo pipefail
shopt -s inherit_errexit
report() { printf '%s\n' "$*" >&3; }
curl() {
  local method=GET url="" arg prev="" body code
  for arg in "$@"; do
    case "$prev" in -X|--request) method=$arg ;; esac
    case "$arg" in http://*|https://*) url=$arg ;; esac
    case "$arg" in -d|--data|--data-binary|--data-raw) [ "$method" = GET ] && method=POST ;; esac
    prev=$arg
  done
  body=$(mktemp)
  code=$(command curl "$@" -o "$body" -w '%{http_code}') || true
  cat "$body"
  if [ -z "$code" ] || [ "$code" = 000 ] || [ "$code" -ge 400 ]; then
    report "not ok - $method $\{url#"$BASE"} -> HTTP $\{code:-none} ($(head -c 300 "$body" | tr '\n\r' '  '))"
    rm -f "$body"
    return 22
  fi
  rm -f "$body"
  report "ok - $method $\{url#"$BASE"} -> $code"
}
npm() { (cd "$README_TOUR_ROOT" && command npm "$@"); }
# A failed curl call has reported itself already: then only where the tour stopped.
trap 'rc=$?; if [ "$BASH_COMMAND" = "return 22" ]; then report "stopped - line $LINENO"; else report "stopped - line $LINENO: $BASH_COMMAND (exit $rc)"; fi' ERR
`.replaceAll("$\\{", "${"); // (`$\{` keeps bash's ${…} out of the template)

// After the README's blocks: what the tour's captures and effects should be. An empty
// $ETAG, say, would not fail by itself (curl drops a header with an empty value).
const EPILOGUE = String.raw`# ---- checks after the tour
trap - ERR
set +e
check() { if eval "$2"; then report "ok - $1"; else report "not ok - $1"; fi; }
get() { command curl -sf "$BASE$1" -H "Authorization: Bearer $TOKEN"; }
check "TOKEN is a token (tok_…)" '[[ "$\{TOKEN:-}" == tok_*.* ]]'
check "CONTACT is a contact id (con_…)" '[[ "$\{CONTACT:-}" == con_* ]]'
check "ETAG was captured (a quoted version-hash)" '[[ "$\{ETAG:-}" =~ ^\"[0-9]+-.+\"$ ]]'
check "CURSOR was a next_cursor (not null)" '[ -n "$\{CURSOR:-}" ] && [ "$CURSOR" != null ] && [ "$CURSOR" != undefined ]'
check "the PATCH took effect (auto_renew false)" '[ "$(get /v1/domains/example.co.uk | field auto_renew)" = false ]'
check "the IDN domain reads back as xn--mnchen-3ya.de" '[ "$(get /v1/domains/münchen.de | field name)" = xn--mnchen-3ya.de ]'
check "example.org.zone has no \$ORIGIN line" '[ -s example.org.zone ] && ! grep -q "^\$ORIGIN" example.org.zone'
check "example.org has the records of example.com" '[ "$(get /v1/zones/example.org | field record_count)" = "$(get /v1/zones/example.com | field record_count)" ]'
`.replaceAll("$\\{", "${");

function buildScript() {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const blocks = [...bashBlocks(lines, "## A short tour", "## The API in brief"), ...bashBlocks(lines, "## DNS: zones and records")];
  const out = PRELUDE.split("\n");
  const readmeLine = new Map(); // script line (1-based) → README line
  for (const [n, block] of blocks.entries()) {
    const label = `block ${n + 1} (README lines ${block.first}-${block.first + block.body.length - 1})`;
    out.push(`# ---- ${label}`);
    for (const [k, line] of block.body.entries()) {
      out.push(line);
      readmeLine.set(out.length, block.first + k);
    }
    out.push("", `report "ok - ${label}"`);
  }
  out.push(...EPILOGUE.split("\n"));
  return { script: out.join("\n") + "\n", readmeLine, blocks: blocks.length };
}

function runBash(scriptPath, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn("bash", [scriptPath], { cwd, env, stdio: ["ignore", "pipe", "pipe", "pipe"], detached: true });
    let output = "";
    let reports = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.stdio[3].on("data", (chunk) => (reports += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }, BASH_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, reports });
    });
    child.on("error", (error) => resolve({ code: null, signal: null, output: error.message, reports }));
  });
}

async function main() {
  const { script, readmeLine, blocks } = buildScript();
  const persistTo = tempDir("domain-api-readme-tour-state-");
  const work = tempDir("domain-api-readme-tour-cwd-");
  const base = await startReported("npm start -- --auth", { persistTo });
  if (!base) return;

  const scriptPath = join(work, "tour.sh");
  writeFileSync(scriptPath, script);
  const env = { ...process.env, BASE: base, PERSIST_TO: persistTo, README_TOUR_ROOT: ROOT, FORCE_COLOR: "0" };
  const result = await runBash(scriptPath, work, env);

  const expectedChecks = (EPILOGUE.match(/^check "/gm) ?? []).length;
  let afterChecks = 0; // reports after the last block: the epilogue's checks
  let okBlocks = 0;
  let stopped = false;
  for (const line of result.reports.split("\n").filter(Boolean)) {
    if (okBlocks === blocks && !line.startsWith("ok - block ")) afterChecks++;
    if (line.startsWith("ok - ")) {
      ok(line.slice(5));
      if (line.startsWith("ok - block ")) okBlocks++;
    } else if (line.startsWith("not ok - ")) {
      notOk(line.slice(9));
    } else if (line.startsWith("stopped - ")) {
      stopped = true;
      const text = line.slice(10).replace(/^line (\d+)/, (_, n) => `README line ${readmeLine.get(Number(n)) ?? `?(script line ${n})`}`);
      notOk(`the tour stopped at ${text}`);
    }
  }
  if (result.code !== 0 && !stopped) notOk("the tour's bash", `exit ${result.code}, signal ${result.signal}`);
  if (result.code === 0 && okBlocks !== blocks) notOk("every block ran", `${okBlocks} of ${blocks}`);
  if (result.code === 0 && okBlocks === blocks && afterChecks !== expectedChecks) notOk("every check after the tour ran", `${afterChecks} of ${expectedChecks}`);
  if (result.code !== 0) {
    const tail = result.output.trimEnd().split("\n").slice(-40);
    console.log("# tour output (last 40 lines):");
    for (const line of tail) console.log(`#   ${line}`);
  }
}

await run(main);
