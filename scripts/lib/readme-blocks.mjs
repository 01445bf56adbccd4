// Runs ```bash blocks of the README as written, for the scripts that check the README's
// commands (readme-tour.mjs: the newcomer's tour; deploy-tour.mjs: deploying to Cloudflare).
//
// The blocks are joined into one bash script under `set -euo pipefail` (and
// inherit_errexit). `curl` is a bash function that passes the README's arguments through
// unchanged (plus the array TOUR_CURL_ARGS, empty unless a script sets it in its prelude),
// prints the response as curl would, and fails on HTTP ≥ 400 (or no answer), like
// --fail-with-body, so the README's commands stay as readable as a reader types them.
// Each curl call, each block, and each check of the epilogue reports `ok - …` or
// `not ok - …` on file descriptor 3; an error stops the script with `stopped - line N`,
// which is mapped back to the line of the README or guide page the command came from.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "./daemons.mjs";
import { ROOT } from "./wrangler.mjs";

/**
 * The ```bash blocks of a section of `file` (the README, or a page of the guide: the
 * walkthroughs live beside the rules they show) from the heading `from` to `to`.
 * @param {string} from
 * @param {string | null} [to]
 * @param {string} [file]
 */
export function bashBlocks(from, to, file = "README.md") {
  return fencedBlocks("bash", from, to, file);
}

/**
 * @typedef {{ first: number, body: string[], file: string }} FencedBlock
 */

/**
 * The ```<language> blocks of the section of `file` from the heading `from` to `to` (or the next "## ").
 * @param {string} language
 * @param {string} from
 * @param {string | null} [to]
 * @param {string} [file]
 * @returns {FencedBlock[]}
 */
export function fencedBlocks(language, from, to, file = "README.md") {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === from);
  if (start < 0) throw new Error(`${file} has no "${from}" heading`);
  let end = to ? lines.findIndex((line, i) => i > start && line.trim() === to) : -1;
  if (end < 0) end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  if (end < 0) end = lines.length;
  /** @type {{ first: number, body: string[] }[]} */
  const blocks = [];
  for (let i = start + 1; i < end; i++) {
    if (lines[i]?.trim() !== "```" + language) continue;
    /** @type {string[]} */
    const body = [];
    const first = i + 2; // 1-based line of the block's first command line in its file
    for (i++; i < end && lines[i]?.trim() !== "```"; i++) body.push(/** @type {string} */ (lines[i]));
    blocks.push({ first, body });
  }
  if (blocks.length === 0) throw new Error(`no \`\`\`${language} block under "${from}" in ${file}`);
  return blocks.map((block) => ({ ...block, file }));
}

// Strict mode, reporting on fd 3, and the curl wrapper. Bash's ${…} is written $\{…} here
// (not a template expression) and restored by the replaceAll.
const PRELUDE = String.raw`set -euo pipefail
shopt -s inherit_errexit
report() { printf '%s\n' "$*" >&3; }
TOUR_CURL_ARGS=()
curl() {
  local method=GET url="" arg prev="" body code
  for arg in "$@"; do
    case "$prev" in -X|--request) method=$arg ;; esac
    case "$arg" in http://*|https://*) url=$arg ;; esac
    case "$arg" in -d|--data|--data-binary|--data-raw) [ "$method" = GET ] && method=POST ;; esac
    prev=$arg
  done
  # A command that prints its status (-w '… %{http_code}') shows a refusal on purpose: a
  # 4xx is its expected answer, printed after the body as curl would print it.
  local shown=""
  case " $* " in *" -w "*"%{http_code}"*|*" --write-out "*"%{http_code}"*) shown=1 ;; esac
  body=$(mktemp)
  code=$(command curl "$\{TOUR_CURL_ARGS[@]}" "$@" -o "$body" -w '%{http_code}') || true
  cat "$body"
  if [ -n "$shown" ]; then echo " $code"; fi
  if [ -n "$shown" ] && [ -n "$code" ] && [ "$code" -ge 400 ] && [ "$code" -lt 500 ]; then
    report "ok - $method $\{url#"$\{BASE:-}"} -> $code (a refusal the README shows)"
    rm -f "$body"
    return 0
  fi
  if [ -z "$code" ] || [ "$code" = 000 ] || [ "$code" -ge 400 ]; then
    report "not ok - $method $\{url#"$\{BASE:-}"} -> HTTP $\{code:-none} ($(head -c 300 "$body" | tr '\n\r' '  '))"
    rm -f "$body"
    return 22
  fi
  rm -f "$body"
  report "ok - $method $\{url#"$\{BASE:-}"} -> $code"
}
`.replaceAll("$\\{", "${");

// A failed curl call has reported itself already: then only where the script stopped.
const STOP_TRAP = String.raw`trap 'rc=$?; if [ "$BASH_COMMAND" = "return 22" ]; then report "stopped - line $LINENO"; else report "stopped - line $LINENO: $BASH_COMMAND (exit $rc)"; fi' ERR
`;

// Opens the epilogue: checks run whatever their outcome, each reporting itself.
const CHECKS = String.raw`# ---- checks after the README's blocks
trap - ERR
set +e
check() { if eval "$2"; then report "ok - $1"; else report "not ok - $1"; fi; }
`;

/**
 * The bash script: PRELUDE, `setup` (more bash: functions, TOUR_CURL_ARGS), the blocks,
 * then `checks` (lines of `check "what" 'bash condition'`, plus helpers they need).
 * @param {{ blocks: FencedBlock[], setup?: string, checks?: string }} parts
 */
export function assembleScript({ blocks, setup = "", checks = "" }) {
  const out = [...PRELUDE.split("\n"), ...setup.split("\n"), ...STOP_TRAP.split("\n")];
  /** @type {Map<number, string>} */
  const readmeLine = new Map(); // script line (1-based) → "FILE line N"
  for (const [n, block] of blocks.entries()) {
    const label = `block ${n + 1} (${block.file} lines ${block.first}-${block.first + block.body.length - 1})`;
    out.push(`# ---- ${label}`);
    for (const [k, line] of block.body.entries()) {
      out.push(line);
      readmeLine.set(out.length, `${block.file} line ${block.first + k}`);
    }
    out.push("", `report "ok - ${label}"`);
  }
  out.push(...CHECKS.split("\n"), ...checks.split("\n"));
  const expectedChecks = (checks.match(/^check "/gm) ?? []).length;
  return { script: out.join("\n") + "\n", readmeLine, blocks: blocks.length, expectedChecks };
}

/**
 * Runs the script with bash in its own process group (scripts/lib/daemons.mjs: stopped
 * after `timeoutMs`, and when this process exits); fd 3 carries its reports.
 * @param {string} scriptPath
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number }} options
 * @returns {Promise<BashRun>}
 */
export async function runBash(scriptPath, { cwd, env, timeoutMs }) {
  const result = await runCommand("bash", [scriptPath], { cwd, env, timeoutMs, extraFds: 1 });
  return { code: result.code, signal: result.signal, output: result.interleaved, reports: result.fds[0] ?? "" };
}

/** @typedef {{ code: number | string, signal: NodeJS.Signals | null, output: string, reports: string }} BashRun */

/**
 * Turns the script's fd-3 reports into the harness's ok / not ok lines.
 * @param {BashRun} result
 * @param {ReturnType<typeof assembleScript>} assembled
 * @param {{ ok: (what: string) => void, notOk: (what: string, detail?: string) => void, what: string }} report
 */
export function reportRun(result, assembled, { ok, notOk, what }) {
  const { readmeLine, blocks, expectedChecks } = assembled;
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
      const text = line.slice(10).replace(/^line (\d+)/, (_, /** @type {string} */ n) => readmeLine.get(Number(n)) ?? `?(script line ${n})`);
      notOk(`${what} stopped at ${text}`);
    }
  }
  if (result.code !== 0 && !stopped) notOk(`${what}'s bash`, `exit ${result.code}, signal ${result.signal}`);
  if (result.code === 0 && okBlocks !== blocks) notOk("every block ran", `${okBlocks} of ${blocks}`);
  if (result.code === 0 && okBlocks === blocks && afterChecks !== expectedChecks)
    notOk("every check after the blocks ran", `${afterChecks} of ${expectedChecks}`);
  if (result.code !== 0) {
    const tail = result.output.trimEnd().split("\n").slice(-40);
    console.log(`# ${what} output (last 40 lines):`);
    for (const line of tail) console.log(`#   ${line}`);
  }
}
