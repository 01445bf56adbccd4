#!/usr/bin/env node
// Runs the README's newcomer tour as written (scripts/lib/readme-blocks.mjs): every
// ```bash block between the headings "## A short tour" and "## The API in brief", then the
// guide's walkthroughs (each a "## Walkthrough: …" section up to the next "## " heading):
// zones and records (docs/dns.md), accounts and tokens (docs/accounts.md), tokens from the
// command line (docs/safety.md) and a domain's whole life (docs/lifecycle.md), joined in
// that order into one bash script. Which blocks run is decided by these headings alone: a
// ```bash block added there is run too, so keep only commands that work against a fresh
// server in them.
//
// The script runs under `set -euo pipefail` (and inherit_errexit), with cwd a throwaway
// directory (the tour writes zone files), against `node scripts/start.mjs --auth` started
// through scripts/lib/harness.mjs on a free port with a throwaway --persist-to dir. Its env
// has BASE=http://127.0.0.1:PORT and PERSIST_TO=<that dir>, so the README's
// `npm run -s token -- create …` mints a token in the server's database; `npm` is wrapped to
// run in the project root. `curl` is the lib's wrapper: the README's arguments unchanged,
// failing on HTTP ≥ 400.
//
// Prints `ok - …` / `not ok - …` per curl call and per block, and
// `README-TOUR: N passed, M failed`; exits 1 on any failure.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transform } from "esbuild";
import { createHarness, runCommand } from "./lib/harness.mjs";
import { assembleScript, bashBlocks, fencedBlocks, reportRun, runBash } from "./lib/readme-blocks.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const BASH_TIMEOUT_MS = 300_000;

const { ok, notOk, tempDir, startReported, run } = createHarness({
  name: "readme-tour",
  label: "README-TOUR",
  startArgs: ["--auth"],
  readyTimeoutMs: 120_000,
  totalTimeoutMs: 900_000,
});

const SETUP = String.raw`npm() { (cd "$README_TOUR_ROOT" && command npm "$@"); }`;

// After the README's blocks: what the tour's captures and effects should be. An empty
// $ETAG, say, would not fail by itself (curl drops a header with an empty value).
const CHECKS = String.raw`get() { command curl -sf "$BASE$1" -H "Authorization: Bearer $TOKEN"; }
check "TOKEN is a token (tok_…)" '[[ "$\{TOKEN:-}" == tok_*.* ]]'
check "CONTACT is a contact id (con_…)" '[[ "$\{CONTACT:-}" == con_* ]]'
check "ETAG was captured (a quoted version-hash)" '[[ "$\{ETAG:-}" =~ ^\"[0-9]+-.+\"$ ]]'
check "CURSOR was a next_cursor (not null)" '[ -n "$\{CURSOR:-}" ] && [ "$CURSOR" != null ] && [ "$CURSOR" != undefined ]'
check "the PATCH took effect (auto_renew false)" '[ "$(get /v1/domains/example.co.uk | field auto_renew)" = false ]'
check "the premium vacation.com was registered (its price confirmed) and now checks as registered" '[ "$(get /v1/domains/vacation.com | field name)" = vacation.com ] && [ "$(get "/v1/domains/check?name=vacation.com" | field "data[0].reason")" = registered ]'
check "the IDN domain reads back as xn--mnchen-3ya.de" '[ "$(get /v1/domains/münchen.de | field name)" = xn--mnchen-3ya.de ]'
check "example.org.zone has no \$ORIGIN line" '[ -s example.org.zone ] && ! grep -q "^\$ORIGIN" example.org.zone'
check "the audit trail holds the tour's PATCH of example.co.uk (before auto_renew true, after false)" '[ "$(get "/v1/events?type=domain&operation=update" | node -pe "JSON.parse(require(\"fs\").readFileSync(0, \"utf8\")).data.filter((e) => e.after.name === \"example.co.uk\" && e.before.auto_renew && !e.after.auto_renew).length")" = 1 ]'
check "the command-line walkthrough's token ci is listed as revoked" 'npm run -s token -- list | grep -Eq "^tok_[0-9A-Z]{26}  ci +write  created .* REVOKED "'
check "the ACME token wrote its TXT challenge and removed it (a create and a delete event, each by that token)" '[ "$(get "/v1/events?resource=$CHALLENGE" | node -pe "JSON.parse(require(\"fs\").readFileSync(0, \"utf8\")).data.map((e) => e.operation + \" \" + e.token).sort().join()")" = "create $\{ACME%%.*},delete $\{ACME%%.*}" ]'
check "the ACME token's record at another name was refused: reseller.example holds no TXT record" '[ "$(get "/v1/zones/reseller.example/records?type=TXT" | field data.length)" = 0 ]'
check "the lifecycle walk renewed lifecycle-tour.eu once by itself and then purged it (the purge event holds it)" '[ "$(get "/v1/events?resource=$LIFE&operation=auto_renew" | field data.length)" = 1 ] && [ "$(get "/v1/events?resource=$LIFE&operation=purge" | field "data[0].before.name")" = lifecycle-tour.eu ] && ! get "/v1/domains/$LIFE" > /dev/null'
check "example.org has the records of example.com" '[ "$(get /v1/zones/example.org | field record_count)" = "$(get /v1/zones/example.com | field record_count)" ]'
`.replaceAll("$\\{", "${");

async function main() {
  const assembled = assembleScript({
    blocks: [
      ...bashBlocks("## A short tour", "## The API in brief"),
      ...bashBlocks("## Walkthrough: zones and records", undefined, "docs/dns.md"),
      ...bashBlocks("## Walkthrough: accounts and tokens", undefined, "docs/accounts.md"),
      ...bashBlocks("## Walkthrough: tokens from the command line", undefined, "docs/safety.md"),
      // Last: the lifecycle walk's sweeps run `as_of` years ahead, for every domain of the server.
      ...bashBlocks("## Walkthrough: a domain's whole life", undefined, "docs/lifecycle.md"),
    ],
    setup: SETUP,
    checks: CHECKS,
  });
  const persistTo = tempDir("domain-api-readme-tour-state-");
  const work = tempDir("domain-api-readme-tour-cwd-");
  const base = await startReported("npm start -- --auth", { persistTo });
  if (!base) return;

  const scriptPath = join(work, "tour.sh");
  writeFileSync(scriptPath, assembled.script);
  const env = { ...process.env, BASE: base, PERSIST_TO: persistTo, README_TOUR_ROOT: ROOT, FORCE_COLOR: "0" };
  const result = await runBash(scriptPath, { cwd: work, env, timeoutMs: BASH_TIMEOUT_MS });
  reportRun(result, assembled, { ok, notOk, what: "the tour" });
  await typedClientBlock(base, persistTo);
}

/**
 * The typed client block of docs/typed-client.md, as written, in a file at the project's root (where
 * its `./src/app` import points), after a prelude that gives it BASE and token: type-checked
 * with the project's tsconfig, then compiled by esbuild and run with node against the
 * server. It must list the domain it registered.
 */
async function typedClientBlock(base, persistTo) {
  const [block] = fencedBlocks("ts", "# A typed client", undefined, "docs/typed-client.md");
  const prelude = "declare const process: { env: Record<string, string> };\nconst BASE = process.env.BASE!;\nconst token = process.env.TOKEN!;\n";
  const source = join(ROOT, ".readme-typed-client.ts");
  const tsconfig = join(ROOT, ".readme-typed-client.tsconfig.json");
  const compiled = join(ROOT, ".readme-typed-client.mjs");
  try {
    writeFileSync(source, prelude + block.body.join("\n") + "\n");
    writeFileSync(tsconfig, JSON.stringify({ extends: "./tsconfig.json", include: [".readme-typed-client.ts", "src/**/*.d.ts", "worker-configuration.d.ts"] }));
    // The whole of src/ is checked for AppType: about 35 s of CPU, minutes on a loaded machine (a hang detector's bound).
    const typecheck = await runCommand(join(ROOT, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", tsconfig], { timeoutMs: 600_000 });
    if (typecheck.code === 0) ok(`the typed client block (docs/typed-client.md line ${block.first}) type-checks against AppType`);
    else
      notOk(
        `the typed client block (docs/typed-client.md line ${block.first}) type-checks against AppType`,
        typecheck.timedOut ? "tsc did not finish within 600 s" : typecheck.output.trim().split("\n").slice(0, 5).join(" | "),
      );

    const minted = await runCommand("npm", ["run", "-s", "token", "--", "create", "--name", "typed-client", "--scope", "write"], {
      env: { ...process.env, PERSIST_TO: persistTo },
    });
    const token = /^tok_\S+$/m.exec(minted.output)?.[0];
    if (!token) return notOk("a token for the typed client block", minted.output.slice(-300));
    writeFileSync(compiled, (await transform(prelude + block.body.join("\n"), { loader: "ts", format: "esm" })).code);
    const ran = await runCommand(process.execPath, [compiled], { env: { ...process.env, BASE: base, TOKEN: token } });
    if (ran.code === 0 && /^example\.com \d{4}-\d\d-\d\dT/m.test(ran.output))
      ok("the typed client block runs: it registers example.com and lists it with its expiry");
    else notOk("the typed client block runs: it registers example.com and lists it with its expiry", `exit ${ran.code}: ${ran.output.slice(-300)}`);
  } finally {
    for (const file of [source, tsconfig, compiled]) rmSync(file, { force: true });
  }
}

await run(main);
