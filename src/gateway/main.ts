// The registry gateway (docs/registries.md): a long-running Node process that holds the
// EPP sessions of every connected registry and answers the API Worker over HTTP.
//
//   REGISTRY_GATEWAY_SECRET=… node scripts/gateway.mjs [--registries FILE] [--port 8700]
//                                                      [--messages-url URL] [--state-dir DIR]
//
// The connectors come from --registries FILE or the REGISTRY_CONNECTORS environment
// variable (the same JSON); the secret, which the Worker sends as a bearer token, from
// REGISTRY_GATEWAY_SECRET (32 characters or more). With --messages-url, each registry's
// poll messages are POSTed there (the API's `POST /v1/registry-messages`, with the same
// secret as its bearer token: the one secret authenticates each side to the other) and
// acked once it answered 2xx; one the API does not take is handed over again after a
// growing wait, and after its attempts set aside in --state-dir (REGISTRY_GATEWAY_STATE_DIR;
// `registry-gateway-state` in the working directory unless given) and acked. It listens on 127.0.0.1 only: a
// deployment publishes it through a tunnel (cloudflared) beside it. Prints `registry
// gateway ready on http://127.0.0.1:PORT (N registries)` and stops on SIGTERM or SIGINT,
// logging out of every session.
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { EppResponse } from "../epp/types";
import { parseConnectors } from "./config";
import { gatewayServer } from "./http";
import { DEFAULT_POOL_OPTIONS, type MessageHandler, RegistryPool } from "./registry-pool";

const USAGE =
  "usage: REGISTRY_GATEWAY_SECRET=… node scripts/gateway.mjs [--registries FILE] [--port N] [--messages-url URL] [--poll-seconds N] [--state-dir DIR]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/**
 * Hands a poll message to the API with the login it came to (the registrar's client id
 * there: the API tells "us" from another registrar by it); ok once it answered 2xx (then the
 * message is acked), else why not (its status and problem code, or the error). The API
 * answers 2xx for every message it could read, those of a kind it does not know included
 * (kept as an event); one it never takes is set aside by the pool after its attempts.
 */
function messageHandler(url: string, secret: string, clientIds: ReadonlyMap<string, string>): MessageHandler {
  return async (repository: string, message: EppResponse, hand?: { replayed: boolean }) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify({ repository, client_id: clientIds.get(repository), message, ...(hand?.replayed ? { replayed: true } : {}) }),
        // The API answers within 10 s; a message it could not take now is asked for again.
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      return { ok: false, reason: timedOut ? "the API did not answer within 15 s" : `the API could not be reached: ${(error as Error).message}` };
    }
    const text = await response.text().catch(() => "");
    if (response.ok) return { ok: true };
    let code = "";
    try {
      const problem = JSON.parse(text) as { code?: unknown };
      if (typeof problem.code === "string") code = ` ${problem.code.slice(0, 64)}`;
    } catch {
      // not a problem document
    }
    return { ok: false, reason: `the API answered ${response.status}${code}` };
  };
}

export async function main(argv: string[]): Promise<void> {
  let values: { registries?: string; port?: string; "messages-url"?: string; "poll-seconds"?: string; "state-dir"?: string };
  try {
    values = parseArgs({
      args: argv,
      options: {
        registries: { type: "string" },
        port: { type: "string", default: "8700" },
        "messages-url": { type: "string" },
        "poll-seconds": { type: "string", default: "30" },
        "state-dir": { type: "string" },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  const text = values.registries ? readFileSync(values.registries, "utf8") : process.env.REGISTRY_CONNECTORS;
  if (!text) fail("no connectors: give --registries FILE or REGISTRY_CONNECTORS");
  const parsed = parseConnectors(text);
  if (!parsed.ok) fail(parsed.problems.join("\n"));
  const secret = process.env.REGISTRY_GATEWAY_SECRET ?? "";
  if (secret.length < 32) fail("REGISTRY_GATEWAY_SECRET must be set, 32 characters or more");
  const port = Number(values.port);
  const pollSeconds = Number(values["poll-seconds"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port is a port number");
  if (!Number.isFinite(pollSeconds) || pollSeconds <= 0) fail("--poll-seconds is a positive number");
  const messagesUrl = values["messages-url"];
  const clientIds = new Map([...parsed.connectors].map(([id, config]) => [id, config.client_id]));
  const onMessage = messagesUrl ? messageHandler(messagesUrl, secret, clientIds) : null;

  // Poll messages set aside (acked, not taken by the API) are kept here: a directory that outlives the process.
  const stateDir = resolve(values["state-dir"] ?? process.env.REGISTRY_GATEWAY_STATE_DIR ?? "registry-gateway-state");
  if (onMessage) {
    try {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      fail(`--state-dir ${stateDir}: ${(error as Error).message}`);
    }
  }
  const pools = new Map<string, RegistryPool>();
  for (const [id, config] of parsed.connectors) {
    // A connector's own poll_seconds, else --poll-seconds (30 unless told).
    const pollIntervalMs = (config.poll_seconds ?? pollSeconds) * 1000;
    const pool = new RegistryPool(
      id,
      config,
      {
        ...DEFAULT_POOL_OPTIONS,
        pollIntervalMs,
        messageAttempts: config.message_attempts ?? DEFAULT_POOL_OPTIONS.messageAttempts,
        messageRetryMaxMs: (config.message_retry_max_seconds ?? DEFAULT_POOL_OPTIONS.messageRetryMaxMs / 1000) * 1000,
        stateDir,
      },
      onMessage,
    );
    pools.set(id, pool);
    pool.start();
  }
  const server = gatewayServer(pools, secret);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  console.log(
    `registry gateway ready on http://127.0.0.1:${bound} (${pools.size} ${pools.size === 1 ? "registry" : "registries"}: ${[...pools.keys()].join(", ")})`,
  );
  if (onMessage) console.log(`registry gateway: poll messages the API does not take are set aside in ${stateDir} (docs/registries.md)`);
  const stop = async () => {
    server.close();
    await Promise.all([...pools.values()].map((pool) => pool.stop()));
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
