#!/usr/bin/env node
// `npm run token -- <command>`: mint, list and revoke API tokens, in the local D1 (the
// one `npm start` uses) or, with --remote, in the deployed database. No code change and no
// redeploy: the Worker reads tokens from D1.
//
//   npm run token -- create --name ci --scope write [--account acc_…] [--remote] [--persist-to DIR]
//   npm run token -- list [--account acc_…] [--remote] [--persist-to DIR]
//   npm run token -- revoke --name ci [--account acc_…] [--remote] [--persist-to DIR]
//
// A token belongs to an account (docs/accounts.md): --account names it, by default the
// operator account migration 0009 made, which sees everything — the first token of a new
// installation. Token names are unique within an account. A token minted here has no
// parent, so it outlives any token of the API; revoking one revokes it and every token
// minted from it, as DELETE /v1/tokens/{token} does.
//
// A token is `tok_<id>.<secret>`; it is printed once, at creation. The database keeps only
// the SHA-256 hash of the secret, so a lost token cannot be recovered: revoke it and mint
// another.
//
// While `npm start` serves the local database, the command goes through that server's
// API over loopback, with the credential the run keeps in its state dir
// (scripts/lib/local-server.mjs): SQLite lets one writer at a time hold the file, and a
// second program writing it made the server's D1 answer SQLITE_BUSY. Otherwise the local
// database is opened directly (scripts/lib/cli-database.mjs: Miniflare on the same SQLite
// file wrangler uses, about a second); a database that lacks migrations gets them from
// `wrangler d1 migrations apply` first, as `npm start` does. --remote goes through
// `wrangler d1 execute --remote`. The output is the same either way.
//
// The state dir follows the rule `npm start` follows: --persist-to DIR, else the
// PERSIST_TO environment variable, else .wrangler/state (scripts/readme-tour.mjs runs the
// README's tour with PERSIST_TO exported).
import { createHash, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { cliDatabase } from "./lib/cli-database.mjs";
import { localStateDir } from "./lib/local-d1.mjs";
import { localServerClient } from "./lib/local-server.mjs";
import { ulid } from "../src/db/ulid.js";

const USAGE = `usage:
  npm run token -- create --name NAME --scope read|write|dns [--account acc_…] [--remote] [--persist-to DIR]
  npm run token -- list [--account acc_…] [--remote] [--persist-to DIR]
  npm run token -- revoke --name NAME [--account acc_…] [--remote] [--persist-to DIR]`;

function fail(message) {
  console.error(`[token] ${message}\n${USAGE}`);
  process.exit(2);
}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        remote: { type: "boolean", default: false },
        name: { type: "string" },
        scope: { type: "string" },
        account: { type: "string" },
        "persist-to": { type: "string" },
      },
    });
  } catch (error) {
    fail(error.message);
  }
  const [command, ...extra] = parsed.positionals;
  if (extra.length > 0) fail(`unknown argument ${extra[0]}`);
  const { values } = parsed;
  const options = {
    command,
    remote: values.remote,
    name: values.name ?? null,
    scope: values.scope ?? null,
    account: values.account ?? null,
    persistTo: values["persist-to"] ?? null,
  };
  if (!["create", "list", "revoke"].includes(command)) fail(command ? `unknown command ${command}` : "a command is needed");
  // Names go into SQL literals below, so they are held to a plain alphabet.
  if (command !== "list" && !/^[A-Za-z0-9._-]{1,64}$/.test(options.name ?? "")) fail("--name must be 1-64 letters, digits, dots, dashes or underscores");
  // dns: the DNS backend only (/v1/pdns/<token>/…, docs/serving.md; `npm run dns` mints one).
  if (command === "create" && !["read", "write", "dns"].includes(options.scope)) fail("--scope must be read, write or dns");
  // Account ids go into SQL literals too: `acc_` and a ULID.
  if (options.account !== null && !/^acc_[0-9A-HJKMNP-TV-Z]{26}$/.test(options.account)) fail("--account must be an account id (acc_ and 26 characters)");
  if (options.remote && options.persistTo) fail("--persist-to is for the local database only");
  if (!options.remote) options.persistTo = localStateDir(options.persistTo);
  return options;
}

/** The operator account of migration 0009 (src/db/schema.ts OPERATOR_ACCOUNT_ID). */
const OPERATOR_ACCOUNT_ID = "acc_00000000000000000000000000";

/** A refusal for the user (the command changed nothing): printed with the usage, exit 2. */
class Refusal extends Error {}

/**
 * The tokens in the database itself, by SQL (`execute`: the local file, or --remote through
 * wrangler): what `npm run token` does when no server serves the database.
 */
function databaseStore(execute) {
  return {
    async account(id) {
      const [row] = await execute(`SELECT name, role FROM accounts WHERE id = '${id}'`);
      return row ?? null;
    },
    async tokenNamed(account, name) {
      const [row] = await execute(`SELECT id, revoked_at FROM api_tokens WHERE account_id = '${account}' AND name = '${name}'`);
      return row ?? null;
    },
    async create({ account, name, scope }) {
      const id = `tok_${ulid()}`;
      const secret = randomBytes(32).toString("base64url");
      const hash = createHash("sha256").update(secret).digest("hex");
      await execute(
        `INSERT INTO api_tokens (id, account_id, name, scope, secret_hash, created_at) VALUES ('${id}', '${account}', '${name}', '${scope}', '${hash}', '${new Date().toISOString()}')`,
      );
      return `${id}.${secret}`;
    },
    list(account) {
      const where = account ? ` WHERE account_id = '${account}'` : "";
      return execute(`SELECT id, account_id, name, scope, created_at, revoked_at FROM api_tokens${where} ORDER BY created_at`);
    },
    async revoke(id) {
      // The token and every token minted from it, transitively (docs/accounts.md).
      await execute(
        `WITH RECURSIVE revoked(id) AS (SELECT '${id}' UNION SELECT t.id FROM api_tokens t JOIN revoked r ON t.parent_id = r.id) UPDATE api_tokens SET revoked_at = '${new Date().toISOString()}' WHERE id IN (SELECT id FROM revoked) AND revoked_at IS NULL`,
      );
    },
  };
}

/**
 * The tokens through the API of the `npm start` that serves the database (`request`, with
 * its local credential: scripts/lib/local-server.mjs), so that nothing else writes the
 * server's database file while it runs. The same commands: POST /v1/tokens mints (with no
 * parent, as here), DELETE /v1/tokens/{token} revokes the token and its descendants; the
 * API records an event for each, as for any token.
 */
function serverStore(request) {
  const must = async (method, path, body, statuses) => {
    const response = await request(method, path, body);
    if (!statuses.includes(response.status)) throw new Error(`${method} ${path} answered ${response.status}: ${response.text.slice(0, 400)}`);
    return response;
  };
  const pages = async function* (account) {
    const filter = account ? `&account=${account}` : "";
    let cursor = null;
    do {
      const page = (await must("GET", `/v1/tokens?limit=200${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, undefined, [200])).json;
      for (const token of page.data) yield token;
      cursor = page.next_cursor;
    } while (cursor);
  };
  const asRow = (token) => ({
    id: token.id,
    account_id: token.account,
    name: token.name,
    scope: token.scope,
    created_at: token.created_at,
    revoked_at: token.revoked_at,
  });
  return {
    async account(id) {
      const found = await must("GET", `/v1/accounts/${id}`, undefined, [200, 404]);
      return found.status === 200 ? { name: found.json.name, role: found.json.role } : null;
    },
    async tokenNamed(account, name) {
      for await (const token of pages(account)) if (token.name === name) return asRow(token);
      return null;
    },
    async create({ account, name, scope }) {
      const minted = await must("POST", "/v1/tokens", { name, scope, account }, [201, 409, 422]);
      // Refused by the API's rules (a dns token is the operator's, unrestricted): its words.
      if (minted.status !== 201) throw new Refusal(minted.json?.detail ?? minted.text);
      return minted.json.secret;
    },
    async list(account) {
      const rows = [];
      for await (const token of pages(account)) rows.push(asRow(token));
      return rows;
    },
    async revoke(id) {
      await must("DELETE", `/v1/tokens/${id}`, undefined, [204]);
    },
  };
}

// Runs the command on `store`; resolves to an error message for the user, or null when it is done.
async function runCommand(options, store) {
  const account = options.account ?? OPERATOR_ACCOUNT_ID;
  if (options.command === "create") {
    const owner = await store.account(account);
    if (!owner) return `no account has the id ${account} (GET /v1/accounts lists them)`;
    if (await store.tokenNamed(account, options.name))
      return `the account ${account} has a token named ${options.name} already (names are never reused, even revoked ones)`;
    const token = await store.create({ account, name: options.name, scope: options.scope });
    console.log(
      `Created ${options.scope} token "${options.name}" of the ${owner.role} account "${owner.name}" (${account}) in the ${options.remote ? "remote" : "local"} database. It is shown only this once:\n`,
    );
    console.log(`${token}\n`);
    console.log("Use it as: Authorization: Bearer <token>");
  } else if (options.command === "list") {
    const rows = await store.list(options.account);
    if (rows.length === 0)
      console.log(options.account ? `No tokens in the account ${options.account}.` : "No tokens: the deployed service refuses every request until one exists.");
    for (const row of rows)
      console.log(
        `${row.id}  ${row.name.padEnd(24)} ${row.scope.padEnd(5)}  created ${row.created_at}  ${row.account_id}  ${row.revoked_at ? `REVOKED ${row.revoked_at}` : "active"}`,
      );
  } else {
    const token = await store.tokenNamed(account, options.name);
    if (!token) return `the account ${account} has no token named ${options.name}`;
    if (token.revoked_at) {
      console.log(`Token "${options.name}" was already revoked at ${token.revoked_at}.`);
    } else {
      await store.revoke(token.id);
      console.log(`Revoked token "${options.name}" and every token minted from it. Running Workers stop accepting them within 10 seconds.`);
    }
  }
  return null;
}

// A reader that has seen enough (`npm run token -- list | grep -q ci`) closes the pipe:
// that ends the listing, as for any Unix tool, not in an EPIPE crash.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const options = parseOptions(process.argv.slice(2));
// The local database while `npm start` serves it: through that server, never its file.
const server = options.remote
  ? null
  : await localServerClient(options.persistTo, { onWait: (url) => console.error(`[token] waiting for npm start to answer on ${url}`) });
const db = server ? null : await cliDatabase({ label: "token", remote: options.remote, persistTo: options.persistTo });
let refusal;
try {
  refusal = await runCommand(options, server ? serverStore(server) : databaseStore(db.execute));
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  refusal = error.message;
} finally {
  await db?.close();
}
if (refusal) fail(refusal);
