#!/usr/bin/env node
// Runs docs/deploying.md's commands as written (every ```bash block of
// that section, scripts/lib/readme-blocks.mjs) on a machine with no route to Cloudflare:
// against scripts/lib/cloudflare-api.mjs, a local stand-in for the Cloudflare API whose D1
// databases are real D1 and which runs the uploaded Worker in workerd.
//
// The blocks run in a throwaway copy of the project (they edit wrangler.toml), with the
// shell variables docs/deploying.md asks the reader to set: CLOUDFLARE_API_TOKEN,
// CLOUDFLARE_ACCOUNT_ID and WORKERS_SUBDOMAIN, plus CLOUDFLARE_API_BASE_URL, which points
// wrangler at the stand-in. curl's https:// requests (api.cloudflare.com and
// *.workers.dev) go to the stand-in's edge through `--connect-to` and its self-signed CA
// (TOUR_CURL_ARGS), the page's arguments unchanged.
//
// Then it checks what the commands should have left behind, from both sides: in bash (the
// deployed Worker serves the catalog, pages with signed cursors, refuses a request
// without a token, takes a write, pings a webhook through the deployed webhook sender;
// the sender has no workers.dev address) and in the stand-in's records (the database
// bound, the uploaded bindings and cron schedule, read replication on, the sender
// deployed with no bindings and no route, the API's service binding to it). Last, what
// the stand-in refuses as Cloudflare does: a wrong token, a var and a secret of one name,
// an API whose sender was never deployed.
//
// Prints `ok - …` / `not ok - …` and `DEPLOY-TOUR: N passed, M failed`; exits 1 on any failure.
import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createHarness, runCommand } from "./lib/harness.mjs";
import { startCloudflareApi } from "./lib/cloudflare-api.mjs";
import { assembleScript, bashBlocks, reportRun, runBash } from "./lib/readme-blocks.mjs";
import { OFFLINE_ENV, ROOT } from "./lib/wrangler.mjs";

const BASH_TIMEOUT_MS = 240_000;
const SUBDOMAIN = "sandbox";
/** The webhook sender's Worker (wrangler.sender.toml), which the API's WEBHOOK_SENDER binding names. */
const SENDER = "domain-api-webhook-sender";

const { ok, notOk, check, assert, tempDir, run } = createHarness({
  name: "deploy-tour",
  label: "DEPLOY-TOUR",
  totalTimeoutMs: 300_000,
});

// The edge's address and CA for every https:// URL the page's curl calls name.
const SETUP = String.raw`TOUR_CURL_ARGS=(--connect-to "::127.0.0.1:$EDGE_PORT" --cacert "$EDGE_CA")`;

// After the page's blocks, through the deployed Worker. `api` calls it with the token.
const CHECKS = String.raw`api() { command curl -s "$\{TOUR_CURL_ARGS[@]}" -H "Authorization: Bearer $TOKEN" "$@"; }
field() { node -pe "JSON.parse(require('fs').readFileSync(0, 'utf8')).$1"; }
check "DATABASE_ID is the new database's uuid" '[[ "$DATABASE_ID" =~ ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ ]]'
check "wrangler.toml binds DB to it" 'grep -q "^database_id = \"$DATABASE_ID\"$" wrangler.toml'
check "TOKEN is a token (tok_…)" '[[ "$\{TOKEN:-}" == tok_*.* ]]'
check "BOOKMARK was an X-D1-Bookmark" '[ -n "$\{BOOKMARK:-}" ]'
check "the deployed Worker serves the whole catalog (14 extensions)" '[ "$(api "$BASE/v1/extensions?limit=200" | node -pe "JSON.parse(require(\"fs\").readFileSync(0, \"utf8\")).data.length")" = 14 ]'
check "its cursors are signed with the secret and followed" 'C=$(api "$BASE/v1/extensions?limit=5" | field next_cursor) && [ "$(api "$BASE/v1/extensions?limit=5&cursor=$C" -o /dev/null -w "%{http_code}")" = 200 ]'
check "a forged cursor is refused (400 invalid_cursor)" '[ "$(api "$BASE/v1/extensions?limit=5&cursor=AAAA$C" | field code)" = invalid_cursor ]'
check "without a token it answers 401 (auth is on: not a loopback host)" '[ "$(command curl -s "$\{TOUR_CURL_ARGS[@]}" "$BASE/v1/domains" -o /dev/null -w "%{http_code}")" = 401 ]'
check "a write through it lands in the database (201, then read back)" 'ID=$(api -X POST "$BASE/v1/contacts" -H "content-type: application/json" -d "{\"name\":\"Deploy Check\",\"email\":\"deploy@example.org\"}" | field id) && [ "$(api "$BASE/v1/contacts/$ID" | field email)" = deploy@example.org ]'
check "npm run token -- list --remote shows admin, active" 'npm run -s token -- list --remote | grep -Eq "^tok_[0-9A-Z]{26}  admin +write  created .* active$"'
check "a token revoked with --remote is refused by the deployed Worker" 'T2=$(npm run -s token -- create --name ci --scope read --remote | grep "^tok_") && npm run -s token -- revoke --name ci --remote >/dev/null && [ "$(command curl -s "$\{TOUR_CURL_ARGS[@]}" -H "Authorization: Bearer $T2" "$BASE/v1/domains" | field detail)" = "The bearer token has been revoked." ]'
check "wrangler secret list shows CURSOR_SECRET" 'npx wrangler secret list | grep -q "\"CURSOR_SECRET\""'
check "wrangler d1 info reports read_replication mode auto" '[ "$(npx wrangler d1 info domain-api --json | field "read_replication.mode")" = auto ]'
check "the webhook sender has no workers.dev route: its address gets the edge's 404, not the Worker" '[ "$(command curl -s "$\{TOUR_CURL_ARGS[@]}" "https://domain-api-webhook-sender.$WORKERS_SUBDOMAIN.workers.dev/")" = "There is nothing here yet: the Worker domain-api-webhook-sender has no workers.dev route." ]'
# A webhook to https://example.org/hook, then a ping of it. Only the sender sends (src/sender.ts):
# the API hands it the job over WEBHOOK_SENDER, and the sender's own check of the URL
# (send.ts targetRefusal) cannot reach a resolver from here, so the delivery fails with its
# "Not sent: … could not be resolved" (POST /v1/webhooks accepts a name no resolver answers
# for: collection.ts). With a route to the Internet, example.org resolves and the sender's
# POST gets example.org's own refusal, "HTTP 4xx…": sent by the sender as well.
HOOK_URL=https://example.org/hook
status_and() { local out; out=$(api "$@" -w "\n%{http_code}"); STATUS=$(tail -n1 <<<"$out"); BODY=$(head -n -1 <<<"$out"); }
PING_DELIVERY_OK='const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
const sent = /^Not sent: example\.org could not be resolved to check its addresses: /.test(d.error) || (/^HTTP 4\d\d/.test(d.error) && d.status_code >= 400);
if (!(d.id.startsWith("dlv_") && d.kind === "ping" && d.message_id.startsWith("png_") && d.attempt === 1 && d.outcome === "failed" && sent && d.next_attempt_at === null)) {
  console.error(JSON.stringify(d));
  process.exit(1);
}'
check "POST /v1/webhooks through the deployed API takes https://example.org/hook (201, its id and URL)" 'status_and -X POST "$BASE/v1/webhooks" -H "content-type: application/json" -d "{\"url\":\"$HOOK_URL\"}" && [ "$STATUS" = 201 ] && WEBHOOK_ID=$(field id <<<"$BODY") && [[ "$WEBHOOK_ID" == whk_* ]] && [ "$(field url <<<"$BODY")" = "$HOOK_URL" ]'
check "a ping through the deployed API is sent by the deployed sender over WEBHOOK_SENDER (200, a ping delivery, outcome failed with the sender's error)" 'status_and -X POST "$BASE/v1/webhooks/$WEBHOOK_ID/ping" && [ "$STATUS" = 200 ] && node -e "$PING_DELIVERY_OK" <<<"$BODY"'
check "the ping's delivery is recorded: GET …/deliveries lists it" 'status_and "$BASE/v1/webhooks/$WEBHOOK_ID/deliveries" && [ "$STATUS" = 200 ] && [ "$(field "data.find((d) => d.kind === \"ping\").outcome" <<<"$BODY")" = failed ]'
`.replaceAll("$\\{", "${");

/** A copy of the project (tracked and new files, not ignored ones) sharing node_modules. */
function copyProject(into) {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT }).toString().split("\0").filter(Boolean);
  execFileSync("tar", ["-cf", join(into, "project.tar"), "--null", "-T", "-"], { cwd: ROOT, input: files.join("\0") });
  execFileSync("tar", ["-xf", "project.tar"], { cwd: into });
  symlinkSync(join(ROOT, "node_modules"), join(into, "node_modules"), "dir");
}

async function main() {
  const assembled = assembleScript({ blocks: bashBlocks("# Deploying to Cloudflare", undefined, "docs/deploying.md"), setup: SETUP, checks: CHECKS });
  const project = tempDir("domain-api-deploy-tour-project-");
  copyProject(project);
  const log = [];
  const token = randomBytes(30).toString("base64url");
  const accountId = randomBytes(16).toString("hex");
  const api = await startCloudflareApi({
    stateDir: tempDir("domain-api-deploy-tour-cloudflare-"),
    token,
    accountId,
    subdomain: SUBDOMAIN,
    log: (line) => log.push(line),
  });
  try {
    ok(`a local Cloudflare API listens on ${api.baseUrl}, its edge on 127.0.0.1:${api.edgePort}`);
    const scriptPath = join(project, "deploy-tour.sh");
    writeFileSync(scriptPath, assembled.script);
    const env = () => ({
      ...process.env,
      ...OFFLINE_ENV,
      CLOUDFLARE_API_BASE_URL: api.baseUrl,
      CLOUDFLARE_API_TOKEN: token,
      CLOUDFLARE_ACCOUNT_ID: accountId,
      WORKERS_SUBDOMAIN: SUBDOMAIN,
      EDGE_PORT: String(api.edgePort),
      EDGE_CA: api.caCertPath,
      FORCE_COLOR: "0",
    });
    const started = Date.now();
    const result = await runBash(scriptPath, { cwd: project, env: env(), timeoutMs: BASH_TIMEOUT_MS });
    reportRun(result, assembled, { ok, notOk, what: "the deploy tour" });
    console.log(`# the deploy commands took ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // What Cloudflare's side now holds.
    const databaseId = /^database_id = "(.*)"$/m.exec(readFileSync(join(project, "wrangler.toml"), "utf8"))?.[1];
    await check("the account has one D1 database, domain-api, with read replication on", () => {
      const all = [...api.databases.values()];
      assert(all.length === 1 && all[0].name === "domain-api", `databases: ${JSON.stringify(all.map((d) => d.name))}`);
      assert(all[0].uuid === databaseId, `wrangler.toml names ${databaseId}, the account has ${all[0].uuid}`);
      assert(all[0].read_replication.mode === "auto", `read_replication ${JSON.stringify(all[0].read_replication)}`);
    });
    const worker = api.scripts.get("domain-api");
    const active = worker?.versions.get(worker.active);
    await check("the deployed version binds DB to that database, ARCHIVE to the bucket created, the rate limiter, the vars and the three secrets", () => {
      assert(active, "no Worker domain-api is deployed");
      const byName = Object.fromEntries(active.bindings.map((b) => [b.name, b]));
      assert(byName.DB?.type === "d1" && byName.DB.id === databaseId, `DB: ${JSON.stringify(byName.DB)}`);
      assert(byName.ARCHIVE?.type === "r2_bucket" && api.buckets.has(byName.ARCHIVE.bucket_name), `ARCHIVE: ${JSON.stringify(byName.ARCHIVE)}`);
      assert(byName.RATE_LIMITER?.type === "ratelimit" && byName.RATE_LIMITER.simple?.limit === 600, `RATE_LIMITER: ${JSON.stringify(byName.RATE_LIMITER)}`);
      assert(byName.DEFAULT_NAMESERVERS?.type === "plain_text", "DEFAULT_NAMESERVERS is not a var");
      // The three keys the page's block puts (32 random bytes, base64: 44 characters).
      for (const name of ["CURSOR_SECRET", "WEBHOOK_SECRET_KEY", "DNSSEC_KEY_SECRET"]) {
        assert(byName[name]?.type === "secret_text" && byName[name].text.length >= 40, `${name} is not a 32-byte secret`);
      }
      assert(!byName.AUTH_DISABLED, "AUTH_DISABLED must never reach a deployed Worker");
      assert(!byName.CLOCK_OVERRIDE, "CLOCK_OVERRIDE must never reach a deployed Worker");
    });
    await check("the deployed version binds WEBHOOK_SENDER to the sender's WebhookSender entrypoint (a service binding)", () => {
      const binding = active?.bindings.find((b) => b.name === "WEBHOOK_SENDER");
      assert(binding?.type === "service" && binding.service === SENDER && binding.entrypoint === "WebhookSender", `WEBHOOK_SENDER: ${JSON.stringify(binding)}`);
    });
    const sender = api.scripts.get(SENDER);
    await check("the webhook sender is deployed by wrangler from wrangler.sender.toml with no bindings at all", () => {
      const version = sender?.versions.get(sender.active);
      assert(version, `no Worker ${SENDER} is deployed`);
      assert(version.source === "wrangler", `source ${version.source}`);
      assert(version.bindings.length === 0, `bindings ${JSON.stringify(version.bindings.map((b) => `${b.name}:${b.type}`))}`);
      const toml = readFileSync(join(ROOT, "wrangler.sender.toml"), "utf8");
      assert(version.metadata.compatibility_date === /^compatibility_date = "(.*)"$/m.exec(toml)[1], `date ${version.metadata.compatibility_date}`);
    });
    await check("the webhook sender has no workers.dev route and no preview URLs (workers_dev = false, preview_urls = false)", () => {
      assert(sender.workersDev.enabled === false && sender.workersDev.previews_enabled === false, `subdomain ${JSON.stringify(sender.workersDev)}`);
      assert(worker.workersDev.enabled === true, "the API's own workers.dev route went off");
    });
    await check("it was deployed by wrangler with the config's compatibility date and flags", () => {
      assert(active.source === "wrangler", `source ${active.source}`);
      const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
      assert(active.metadata.compatibility_date === /^compatibility_date = "(.*)"$/m.exec(toml)[1], `date ${active.metadata.compatibility_date}`);
      assert(active.metadata.compatibility_flags?.includes("nodejs_compat"), `flags ${active.metadata.compatibility_flags}`);
    });
    await check("the hourly cron (idempotency keys, the lifecycle sweep) and the webhooks' minute cron are scheduled", () => {
      assert(
        JSON.stringify(worker.schedules.map((s) => s.cron)) === JSON.stringify(["17 * * * *", "* * * * *"]),
        `schedules ${JSON.stringify(worker.schedules)}`,
      );
    });
    await check("the webhooks' queue exists, the Worker produces to it and consumes it", () => {
      const queue = api.queues.get("domain-api-webhooks");
      assert(queue, `queues: ${[...api.queues.keys()].join(", ") || "none"}`);
      assert(queue.consumers.length === 1 && queue.consumers[0].script === "domain-api", `consumers ${JSON.stringify(queue.consumers)}`);
      const active = worker.versions.get(worker.active);
      assert(
        active.bindings.some((b) => b.type === "queue" && b.name === "WEBHOOK_QUEUE" && b.queue_name === "domain-api-webhooks"),
        "no WEBHOOK_QUEUE binding",
      );
    });
    await check("no request to the Cloudflare API failed along the way but the expected first secret put and the sender's first lookups", () => {
      // `wrangler secret put` on a Worker that does not exist yet gets 10007 and then
      // creates it as a draft; the sender's first `wrangler deploy` asks for the Worker,
      // its deployments and settings, gets 404s (10090, 10007) and uploads it. Nothing
      // else should have been refused.
      const senderLookup = new RegExp(`/workers/(services/${SENDER}|scripts/${SENDER}/(deployments|settings))$`);
      const expected = (r) =>
        (r.method === "PUT" && r.path.endsWith("/workers/scripts/domain-api/secrets")) || (r.method === "GET" && r.status === 404 && senderLookup.test(r.path));
      const failed = api.requests.filter((r) => r.status >= 400 && !expected(r));
      assert(failed.length === 0, failed.map((r) => `${r.method} ${r.path} -> ${r.status}`).join("; "));
    });

    // The stand-in is no yes-machine: it refuses what Cloudflare refuses.
    // Asynchronously: the stand-in answers from this very process.
    const wrangler = (args, extraEnv = {}, config = "wrangler.toml") =>
      runCommand(join(ROOT, "node_modules", ".bin", "wrangler"), [...args, "--config", config], {
        cwd: project,
        env: { ...env(), ...extraEnv },
        timeoutMs: 60_000,
      });
    await check("a wrong API token is refused (code 10000)", async () => {
      const { code, output } = await wrangler(["d1", "list"], { CLOUDFLARE_API_TOKEN: "wrong-token" });
      assert(code !== 0 && /Authentication error \[code: 10000\]/.test(output), `exit ${code}: ${output.slice(-300)}`);
    });
    await check("a deploy with CURSOR_SECRET also under [vars] is refused (10053: binding name in use)", async () => {
      const toml = readFileSync(join(project, "wrangler.toml"), "utf8").replace("[vars]\n", '[vars]\nCURSOR_SECRET = "not-a-secret"\n');
      writeFileSync(join(project, "wrangler.with-var.toml"), toml);
      const { code, output } = await wrangler(["deploy"], {}, "wrangler.with-var.toml");
      assert(code !== 0 && /Binding name 'CURSOR_SECRET' already in use \[code: 10053\]/.test(output), `exit ${code}: ${output.slice(-300)}`);
    });

    await check("deploying the API when its sender does not exist is refused (10143: the service binding's Worker not found)", async () => {
      // A second pair, whose sender was never deployed: the API's first deploy fails and
      // leaves no Worker behind, as on Cloudflare.
      const toml = readFileSync(join(project, "wrangler.toml"), "utf8")
        .replace(/^name = "domain-api"$/m, 'name = "domain-api-staging"')
        .replace(`service = "${SENDER}"`, `service = "${SENDER}-staging"`);
      assert(toml.includes('name = "domain-api-staging"') && toml.includes(`service = "${SENDER}-staging"`), "the throwaway config was not made");
      writeFileSync(join(project, "wrangler.staging.toml"), toml);
      const { code, output } = await wrangler(["deploy"], {}, "wrangler.staging.toml");
      const said = output.replace(/\s+/g, " ");
      assert(
        code !== 0 &&
          said.includes(`Service binding 'WEBHOOK_SENDER' references Worker '${SENDER}-staging' which was not found.`) &&
          said.includes("[code: 10143]"),
        `exit ${code}: ${output.slice(-400)}`,
      );
      assert(!api.scripts.get("domain-api-staging")?.active, "a Worker domain-api-staging was deployed all the same");
    });

    if (result.code !== 0 || /^not ok - /m.test(result.reports)) {
      if (result.code === 0) {
        console.log("# the deploy tour's output (last 40 lines):");
        for (const line of result.output.trimEnd().split("\n").slice(-40)) console.log(`#   ${line}`);
      }
      console.log("# the local Cloudflare API's log (last 30 lines):");
      for (const line of log.slice(-30)) console.log(`#   ${line}`);
    }
  } finally {
    await api.close();
  }
}

await run(main);
