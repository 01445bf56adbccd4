// The gateway's HTTP interface (docs/registries.md, "The gateway's HTTP interface"): what
// the API Worker asks of it, under one bearer secret, on loopback or behind the tunnel.
// Bodies are bounded before they are read; every answer is JSON; nothing of the
// configuration is ever in one. Connections are kept alive longer than the clients keep
// theirs idle (cloudflared's pool: 90 s), so that a command never pays a new connection
// nor meets one the gateway is closing under it.
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { EppCommand } from "../epp/types";
import type { RegistryPool } from "./registry-pool";

const MAX_BODY_BYTES = 256 * 1024;
/** An idle connection from the Worker's side is kept this long: the client closes first. */
export const KEEP_ALIVE_MS = 300_000;
/** clTRID (RFC 5730 trIDType): 3–64 characters, no white space at the ends. */
const CL_TRID = /^\S[\s\S]{1,62}\S$/;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`a body is at most ${MAX_BODY_BYTES} bytes`));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function authorized(request: IncomingMessage, secret: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function gatewayServer(pools: Map<string, RegistryPool>, secret: string): Server {
  const reply = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
  };
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, async (request, response) => {
    try {
      if (!authorized(request, secret)) return reply(response, 401, { error: "unauthorized" });
      const url = new URL(request.url ?? "/", "http://gateway");
      const match = /^\/registries\/([a-z0-9-]{1,63})(\/commands)?$/.exec(url.pathname);
      if (!match) return reply(response, 404, { error: "no such route: GET /registries/{id}, POST /registries/{id}/commands" });
      const pool = pools.get(match[1]!);
      if (!pool) return reply(response, 404, { error: `no connector for repository ${match[1]}` });
      if (!match[2]) {
        if (request.method !== "GET") return reply(response, 405, { error: "GET" });
        return reply(response, 200, pool.status());
      }
      if (request.method !== "POST") return reply(response, 405, { error: "POST" });
      let input: { command?: EppCommand; cl_trid?: string };
      try {
        input = JSON.parse(await readBody(request));
      } catch (error) {
        return reply(response, 400, { error: `the body is not JSON: ${(error as Error).message}` });
      }
      if (!input.command || typeof input.command !== "object" || typeof input.command.kind !== "string")
        return reply(response, 400, { error: "command is required" });
      if (typeof input.cl_trid !== "string" || !CL_TRID.test(input.cl_trid)) return reply(response, 400, { error: "cl_trid is 3–64 characters" });
      if (input.command.kind === "login" || input.command.kind === "logout") return reply(response, 400, { error: "sessions are the gateway's own" });
      const answer = await pool.run(input.command, input.cl_trid).catch((error: Error) => ({
        // A command the codec refuses to write (a value its schema forbids) is the caller's bug, not the registry's.
        outcome: "invalid" as const,
        reason: error.message,
      }));
      return reply(response, answer.outcome === "invalid" ? 400 : 200, answer);
    } catch (error) {
      return reply(response, 500, { error: (error as Error).message });
    }
  });
  return server;
}
