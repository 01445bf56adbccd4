// The local registry's control interface: JSON over HTTP on loopback, for the tests and a
// developer to make the registry misbehave as real ones do, to act as the registry itself
// (a registry-side deletion or status change, a pending action settled), to act as
// another registrar without a TLS session of its own, and to see what it received.
//
//   GET  /state                      objects held, knobs, sessions open, the commands in flight
//   GET  /commands                   every command received: kind, object, clTRID, svTRID, code, answered, check_ms, work_ms
//   POST /xmllint                    every frame kept (--keep-frames) judged by one xmllint run: {checked, disagreements}
//   POST /knobs        {"delay_ms", "drop_after_apply": {"domain:create": 1}, "fail": {"*": {"code": 2400, "count": 1}}, "pending": {"domain:create": 1, "domain:update": 1}, "hold": {"domain:update": 1}, "hide_auth_info": true}
//   POST /release                    every held command answered (the `hold` knob)
//   POST /down, /up                  sessions closed and connections refused / accepted again
//   POST /clock        {"advance_days": 5}
//   POST /settle       {"name", "approve": true}       a pending action settled (poll panData to the sponsor)
//   POST /server-status {"name", "add": [...], "rem": [...]}
//   POST /server-delete {"name"}
//   POST /as/{clientId} {"command": {...}, "cl_trid"}   one command as that registrar (the codec's typed command)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { EppCommand } from "../../src/epp/types";
import type { EppServer } from "./server";

const MAX_BODY = 64 * 1024;

function body(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
      if (text.length > MAX_BODY) {
        reject(new Error("body too large"));
        request.destroy();
      }
    });
    request.on("end", () => {
      try {
        resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
      } catch {
        reject(new Error("the body is not JSON"));
      }
    });
  });
}

export function startControl(server: EppServer, host: string, port: number): Promise<number> {
  const { registry, knobs } = server;
  const reply = (response: ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { "content-type": "application/json" }).end(`${JSON.stringify(value)}\n`);
  };
  const http = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? "/", "http://control");
      const path = url.pathname;
      if (request.method === "GET" && path === "/state")
        return reply(response, 200, {
          objects: registry.counts(),
          domains: registry.domainNames(),
          sessions: server.sockets.size,
          down: knobs.down,
          delay_ms: knobs.delayMs,
          in_flight: [...server.inFlight],
          clock_offset_days: registry.clockOffsetMs / 86_400_000,
        });
      if (request.method === "GET" && path === "/commands") return reply(response, 200, { commands: server.commands });
      if (request.method !== "POST") return reply(response, 405, { error: "GET /state, GET /commands, or a POST" });
      const input = await body(request);
      if (path === "/xmllint") {
        if (!server.options.keepFrames) return reply(response, 409, { error: "the registry keeps no frames: start it with --keep-frames" });
        return reply(response, 200, server.xmllintCheck());
      }
      if (path === "/knobs") {
        if (typeof input.delay_ms === "number") knobs.delayMs = input.delay_ms;
        for (const [kind, count] of Object.entries((input.drop_after_apply as Record<string, number>) ?? {})) knobs.dropAfterApply.set(kind, count);
        for (const [kind, knob] of Object.entries((input.fail as Record<string, { code: number; count: number }>) ?? {})) knobs.fail.set(kind, { ...knob });
        for (const [kind, count] of Object.entries((input.pending as Record<string, number>) ?? {})) registry.pendingNext.set(kind, count);
        for (const [kind, count] of Object.entries((input.hold as Record<string, number>) ?? {})) knobs.hold.set(kind, count);
        if (typeof input.hide_auth_info === "boolean") registry.hideAuthInfo = input.hide_auth_info;
        if (input.reset === true) {
          registry.hideAuthInfo = false;
          knobs.delayMs = 0;
          knobs.hold.clear();
          server.release();
          knobs.dropAfterApply.clear();
          knobs.fail.clear();
          registry.pendingNext.clear();
        }
        return reply(response, 200, { ok: true });
      }
      if (path === "/release") return reply(response, 200, { released: server.release() });
      if (path === "/down" || path === "/up") {
        server.setDown(path === "/down");
        return reply(response, 200, { down: knobs.down });
      }
      if (path === "/clock") {
        registry.clockOffsetMs += Number(input.advance_days ?? 0) * 86_400_000;
        registry.settleTime();
        return reply(response, 200, { clock_offset_days: registry.clockOffsetMs / 86_400_000 });
      }
      if (path === "/settle") return reply(response, registry.settle(String(input.name), input.approve !== false) ? 200 : 404, {});
      if (path === "/server-status")
        return reply(response, registry.serverStatus(String(input.name), (input.add as string[]) ?? [], (input.rem as string[]) ?? []) ? 200 : 404, {});
      if (path === "/server-delete") return reply(response, registry.serverDelete(String(input.name)) ? 200 : 404, {});
      const as = /^\/as\/([^/]+)$/.exec(path);
      if (as) {
        const clID = decodeURIComponent(as[1]!);
        if (!registry.registrars.has(clID)) return reply(response, 404, { error: `no registrar ${clID}` });
        const svTRID = registry.nextSvTRID();
        return reply(response, 200, registry.execute(clID, input.command as EppCommand, input.cl_trid as string | undefined, svTRID));
      }
      return reply(response, 404, { error: `no ${path}` });
    } catch (error) {
      return reply(response, 400, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  server.control = http;
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      const address = http.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}
