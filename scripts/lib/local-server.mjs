// The running `npm start` of a state directory, for the command-line tools that act on its
// database (`npm run token`): SQLite lets one writer at a time hold the file, and a tool
// writing it while `wrangler dev` serves it made the server's D1 answer SQLITE_BUSY. So
// each `npm start` writes, into its state directory, a file only its user can read (mode
// 0600) naming its port and a credential made afresh for the run, and hands `wrangler dev`
// only the credential's SHA-256 (LOCAL_CREDENTIAL_SHA256, honoured for loopback requests
// only, as AUTH_DISABLED is: src/http/local-development.ts); it removes the file when it stops. A tool
// finding the file and the server answering to the credential goes through the server's
// API over loopback; otherwise (no file, or a file left by a server that died) it opens the
// database file as before.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler.mjs";

/**
 * A request to the running server, with its credential: the answer's body as text, and parsed when it is JSON (else null).
 * @typedef {(method: string, path: string, body?: unknown) => Promise<{ status: number, headers: Headers, json: any, text: string }>} LocalServerRequest
 */

/** The file's name in the state directory. */
export const LOCAL_SERVER_FILE = "local-server.json";

/**
 * What `npm start` writes into its state directory.
 * @typedef {{ url: string, credential: string, pid: number }} LocalServer
 */

/**
 * Where `npm start` on `stateDir` (null: wrangler's default, .wrangler/state) keeps the file.
 * @param {string | null | undefined} stateDir
 */
export function localServerFile(stateDir) {
  return join(stateDir ?? join(ROOT, ".wrangler", "state"), LOCAL_SERVER_FILE);
}

/**
 * For `npm start`: a fresh credential for the server about to listen on 127.0.0.1:`port`,
 * written (mode 0600) with the port and this process's id. Returns the hash `wrangler dev`
 * gets and `remove()`, which deletes the file unless another run has replaced it since.
 * @param {string | null | undefined} stateDir
 * @param {number} port
 */
export function writeLocalServer(stateDir, port) {
  const credential = `local_${randomBytes(32).toString("base64url")}`;
  const file = localServerFile(stateDir);
  mkdirSync(join(file, ".."), { recursive: true });
  // A file left by an earlier run may have another mode: it goes first, and the new one is
  // created with 0600 (and set so, whatever the umask).
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify({ url: `http://127.0.0.1:${port}`, credential, pid: process.pid })}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return {
    sha256: createHash("sha256").update(credential).digest("hex"),
    remove() {
      if (readLocalServer(stateDir)?.credential === credential) rmSync(file, { force: true });
    },
  };
}

/**
 * The file's contents ({ url, credential, pid }), or null when there is none or it cannot be read.
 * @param {string | null | undefined} stateDir
 * @returns {LocalServer | null}
 */
export function readLocalServer(stateDir) {
  try {
    const value = JSON.parse(readFileSync(localServerFile(stateDir), "utf8"));
    if (typeof value?.url === "string" && typeof value.credential === "string" && Number.isInteger(value.pid)) return value;
  } catch {}
  return null;
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** @type {(ms: number) => Promise<void>} */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client of the server `npm start` runs on `stateDir`, or null when none runs there: no
 * file, a file whose `npm start` is gone, or a server that does not take its credential
 * (then it is not this state directory's). A server still starting (its `npm start` alive,
 * nothing answering yet) is waited for, `waitMs` at most. The client is `request(method,
 * path, body?)` → { status, headers, json, text }, with the credential; 429 and 503 are
 * tried again after their Retry-After, a few times.
 * @param {string | null | undefined} stateDir
 * @param {{ waitMs?: number, onWait?: (url: string) => void }} [options]
 * @returns {Promise<LocalServerRequest | null>}
 */
export async function localServerClient(stateDir, { waitMs = 120_000, onWait = () => {} } = {}) {
  const server = readLocalServer(stateDir);
  if (!server || !alive(server.pid)) return null;
  /** @type {LocalServerRequest} */
  const request = async (method, path, body) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${server.credential}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      if ((response.status === 429 || response.status === 503) && attempt < 5) {
        await sleep(Math.min(10, Number(response.headers.get("retry-after")) || 1) * 1000);
        continue;
      }
      /** @type {any} */
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {}
      return { status: response.status, headers: response.headers, json, text };
    }
  };
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      const probe = await request("GET", "/v1/tokens?limit=1");
      return probe.status === 200 ? request : null;
    } catch {
      // Nothing answers yet: a server starting, or an `npm start` that will not serve.
      if (!alive(server.pid) || Date.now() - started > waitMs) return null;
      if (!told) onWait(server.url);
      told = true;
      await sleep(500);
    }
  }
}
