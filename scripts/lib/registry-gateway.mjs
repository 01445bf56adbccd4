// `npm start -- --registries FILE` (docs/registries.md, "Configuration"): the registry
// gateway (scripts/gateway.mjs) started beside the API on a loopback port it picks itself,
// with a bearer secret made fresh for the run, and the `--var`s that tell the Worker where
// it is. The Worker is given the connectors' repository ids and client ids only
// (`{"verisign": {"client_id": "domain-api"}}`): it needs no more, so the credentials of
// FILE reach the gateway alone, and the run's secret
// is never printed (redactGatewaySecrets drops it from wrangler's output).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { forwardLines } from "./dns-log-filter.mjs";
import { ROOT } from "./wrangler.mjs";

const READY = /^registry gateway ready on (http:\/\/127\.0\.0\.1:\d+)/;
/** Bundling and the first logins take a few seconds; past this the start fails with the gateway's output. */
const START_TIMEOUT_MS = 60_000;

/**
 * The repository ids of a connectors file, or the reason it cannot be read (nothing of its values).
 * @param {string} file
 */
export function connectorIdsOf(file) {
  return Object.keys(connectorsOf(file));
}

/**
 * What the Worker is told of each connector: its client id there, which the registry names as our objects' sponsor (no secret).
 * @param {string} file
 */
function workerConnectors(file) {
  const connectors = connectorsOf(file);
  return Object.fromEntries(Object.entries(connectors).map(([id, c]) => [id, typeof c?.client_id === "string" ? { client_id: c.client_id } : {}]));
}

/**
 * The connectors file as JSON: an object keyed by repository id (each connector's settings as written).
 * @param {string} file
 * @returns {Record<string, any>}
 */
function connectorsOf(file) {
  let value;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`--registries ${file}: ${/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT" ? "no such file" : "not JSON"}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`--registries ${file}: a JSON object keyed by repository id`);
  return value;
}

/**
 * Starts the gateway; resolves with the Worker's `--var`s, the secrets to keep out of any
 * output, and stop() (SIGTERM: it logs out of every session; SIGKILL after 10 s). With
 * `messagesUrl` (the API's `/v1/registry-messages`), the registries' poll messages go there,
 * under the same secret; `stateDir`: where it sets aside a message the API never takes.
 * @param {string} file
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ messagesUrl?: string, stateDir?: string }} [options]
 */
export async function startRegistryGateway(file, env = process.env, { messagesUrl, stateDir } = {}) {
  connectorIdsOf(file); // read first: a file that is not a JSON object fails here, naming nothing of its values
  const secret = randomBytes(32).toString("base64url");
  const args = [
    join(ROOT, "scripts", "gateway.mjs"),
    "--registries",
    file,
    "--port",
    "0",
    ...(messagesUrl ? ["--messages-url", messagesUrl] : []),
    ...(stateDir ? ["--state-dir", stateDir] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...env, REGISTRY_GATEWAY_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the registry gateway was not ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    /** @type {<T>(fn: (value: T) => void, value: T) => void} */
    const done = (fn, value) => {
      clearTimeout(timer);
      fn(value);
    };
    forwardLines(child.stdout, process.stdout, (line) => {
      const ready = READY.exec(line);
      if (ready) done(resolve, /** @type {string} */ (ready[1]));
      return `[gateway] ${line}`;
    });
    forwardLines(child.stderr, process.stderr, (line) => `[gateway] ${line}`);
    child.on("error", (error) => done(reject, new Error(`could not run the registry gateway: ${error.message}`)));
    child.on("exit", (code, signal) => done(reject, new Error(`the registry gateway stopped before it was ready (exit ${code ?? signal})`)));
  });
  const connectors = JSON.stringify(workerConnectors(file));
  return {
    url,
    vars: ["--var", `REGISTRY_CONNECTORS:${connectors}`, "--var", `REGISTRY_GATEWAY_URL:${url}`, "--var", `REGISTRY_GATEWAY_SECRET:${secret}`],
    secrets: [secret],
    running: () => child.exitCode === null && child.signalCode === null,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const stopped = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const late = setTimeout(() => child.kill("SIGKILL"), 10_000);
      return stopped.then(() => clearTimeout(late));
    },
  };
}

/**
 * A line of wrangler's output with the gateway's secret hidden (wrangler dev prints its vars' values).
 * @param {string | null} line
 * @param {readonly string[]} secrets
 * @returns {string | null}
 */
export function redactGatewaySecrets(line, secrets) {
  if (line === null) return null;
  let out = line;
  for (const secret of secrets) if (secret) out = out.split(secret).join("(hidden)");
  // Its table of bindings shows the start of each value: the secret's line shows none of it.
  if (secrets.length > 0 && out.includes("REGISTRY_GATEWAY_SECRET")) out = out.replace(/\("[^"]*(?:"\)|\.\.\.)/g, "((hidden))");
  return out;
}
