#!/usr/bin/env node
// `npm run token -- <command>`: mint, list and revoke API tokens, in the local D1 (the
// one `npm start` uses) or, with --remote, in the deployed database. No code change and no
// redeploy: the Worker reads tokens from D1.
//
//   npm run token -- create --name ci --scope write [--remote] [--persist-to DIR]
//   npm run token -- list [--remote] [--persist-to DIR]
//   npm run token -- revoke --name ci [--remote] [--persist-to DIR]
//
// A token is `tok_<id>.<secret>`; it is printed once, at creation. The database keeps only
// the SHA-256 hash of the secret, so a lost token cannot be recovered: revoke it and mint
// another.
//
// PERSIST_TO (env) is the default for --persist-to (local database only; --persist-to and
// --remote win), so a shell that exports it mints tokens for the server started with that
// state dir (scripts/readme-tour.mjs runs the README's tour that way).
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { assertWranglerInstalled, DB_NAME, ROOT, WRANGLER, wranglerEnv } from "./lib/wrangler.mjs";

const USAGE = `usage:
  npm run token -- create --name NAME --scope read|write|dns [--remote] [--persist-to DIR]
  npm run token -- list [--remote] [--persist-to DIR]
  npm run token -- revoke --name NAME [--remote] [--persist-to DIR]`;

function fail(message) {
  console.error(`[token] ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = { command, remote: false, name: null, scope: null, persistTo: null };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = () => (i + 1 < rest.length ? rest[++i] : fail(`${arg} needs a value`));
    if (arg === "--remote") options.remote = true;
    else if (arg === "--name") options.name = value();
    else if (arg === "--scope") options.scope = value();
    else if (arg === "--persist-to") options.persistTo = resolve(process.cwd(), value());
    else fail(`unknown argument ${arg}`);
  }
  if (!["create", "list", "revoke"].includes(command)) fail(command ? `unknown command ${command}` : "a command is needed");
  // Names go into SQL literals below, so they are held to a plain alphabet.
  if (command !== "list" && !/^[A-Za-z0-9._-]{1,64}$/.test(options.name ?? "")) fail("--name must be 1-64 letters, digits, dots, dashes or underscores");
  // dns: the DNS backend only (/v1/pdns/<token>/…, contract §13; `npm run dns` mints one).
  if (command === "create" && !["read", "write", "dns"].includes(options.scope)) fail("--scope must be read, write or dns");
  if (options.remote && options.persistTo) fail("--persist-to is for the local database only");
  if (!options.remote && !options.persistTo && process.env.PERSIST_TO) options.persistTo = resolve(process.cwd(), process.env.PERSIST_TO);
  return options;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
function ulid() {
  let time = Date.now();
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[time % 32] + out;
    time = Math.floor(time / 32);
  }
  for (const byte of randomBytes(16)) out += CROCKFORD[byte % 32];
  return out;
}

function wrangler(args, { json = false } = {}) {
  const result = spawnSync(WRANGLER, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    console.error(`[token] wrangler ${args.slice(0, 3).join(" ")} failed (exit ${result.status})`);
    process.exit(1);
  }
  return json ? JSON.parse(result.stdout.slice(result.stdout.indexOf("["))) : result.stdout;
}

function execute(options, sql) {
  const where = options.remote ? ["--remote"] : ["--local", ...(options.persistTo ? ["--persist-to", options.persistTo] : [])];
  return wrangler(["d1", "execute", DB_NAME, ...where, "--json", "--command", sql], { json: true })[0].results;
}

const options = parseArgs(process.argv.slice(2));
assertWranglerInstalled();
if (!options.remote) {
  // The local database may not exist yet on a fresh clone: migrate it first.
  wrangler(["d1", "migrations", "apply", DB_NAME, "--local", ...(options.persistTo ? ["--persist-to", options.persistTo] : [])]);
}

if (options.command === "create") {
  const id = `tok_${ulid()}`;
  const secret = randomBytes(32).toString("base64url");
  const hash = createHash("sha256").update(secret).digest("hex");
  const existing = execute(options, `SELECT id FROM api_tokens WHERE name = '${options.name}'`);
  if (existing.length > 0) fail(`a token named ${options.name} exists already (names are never reused, even revoked ones)`);
  execute(
    options,
    `INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES ('${id}', '${options.name}', '${options.scope}', '${hash}', '${new Date().toISOString()}')`,
  );
  console.log(`Created ${options.scope} token "${options.name}" in the ${options.remote ? "remote" : "local"} database. It is shown only this once:\n`);
  console.log(`${id}.${secret}\n`);
  console.log("Use it as: Authorization: Bearer <token>");
} else if (options.command === "list") {
  const rows = execute(options, "SELECT id, name, scope, created_at, revoked_at FROM api_tokens ORDER BY created_at");
  if (rows.length === 0) console.log("No tokens: the deployed service refuses every request until one exists.");
  for (const row of rows)
    console.log(
      `${row.id}  ${row.name.padEnd(24)} ${row.scope.padEnd(5)}  created ${row.created_at}  ${row.revoked_at ? `REVOKED ${row.revoked_at}` : "active"}`,
    );
} else {
  const rows = execute(options, `SELECT id, revoked_at FROM api_tokens WHERE name = '${options.name}'`);
  if (rows.length === 0) fail(`no token is named ${options.name}`);
  if (rows[0].revoked_at) {
    console.log(`Token "${options.name}" was already revoked at ${rows[0].revoked_at}.`);
  } else {
    execute(options, `UPDATE api_tokens SET revoked_at = '${new Date().toISOString()}' WHERE name = '${options.name}'`);
    console.log(`Revoked token "${options.name}". Running Workers stop accepting it within 10 seconds.`);
  }
}
