import type { Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EppServer } from "../../scripts/local-registry/server";
import { connectorStatus, registryCommand } from "../../src/connector/gateway";
import { gatewayServer } from "../../src/gateway/http";
import { DEFAULT_POOL_OPTIONS, RegistryPool } from "../../src/gateway/registry-pool";
import { ApiError } from "../../src/http/problem";
import { startLocalRegistry, US, xmllintAgrees } from "./local-registry-fixture";

const SECRET = "a-gateway-secret-of-32-characters-or-more";
const FAST = { ...DEFAULT_POOL_OPTIONS, backoffMinMs: 100, backoffMaxMs: 400, commandBudgetMs: 3_000 };
let eppServer: EppServer;
let pool: RegistryPool;
let gateway: Server;
let gatewayUrl: string;
let silent: TcpServer;
let silentUrl: string;
const held: Socket[] = [];

const settings = (url: string, secret = SECRET) => ({ REGISTRY_CONNECTORS: '{"verisign": {}}', REGISTRY_GATEWAY_URL: url, REGISTRY_GATEWAY_SECRET: secret });

/** The problem a call throws. */
async function problemOf(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  const local = await startLocalRegistry({ registrars: [US] });
  eppServer = local.server;
  const { ca } = local;
  const { port } = local;
  pool = new RegistryPool("verisign", { host: "127.0.0.1", port, client_id: "domain-api", password: "local-pw-1", ca, sessions: 1 }, FAST, null);
  pool.start();
  gateway = gatewayServer(new Map([["verisign", pool]]), SECRET);
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
  // A peer that takes the connection and never answers.
  silent = createTcpServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  for (let i = 0; i < 100 && pool.state !== "up"; i++) await new Promise((r) => setTimeout(r, 100));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  silent.close();
  gateway.close();
  await pool.stop();
  await eppServer.close();
});

describe("a command through the gateway answers the registry's response", () => {
  it("a domain:check with fee:check is answered 1000 with each name's availability and fees", async () => {
    const reply = await registryCommand(
      settings(gatewayUrl),
      "verisign",
      { kind: "domain:check", names: ["free-name.com", "nic.com"], fee: { commands: [{ name: "create", period: { value: 1, unit: "y" } }] } },
      "req-connector-1",
    );
    expect(reply.response.code).toBe(1000);
    expect(reply.response.trID.clTRID).toBe("req-connector-1");
    expect(reply.response.resData[0]).toMatchObject({
      kind: "domain:chkData",
      items: [
        { name: "free-name.com", avail: true },
        { name: "nic.com", avail: false },
      ],
    });
  });

  it("the connector's state is the gateway's: up, with the greeting's objects and extensions", async () => {
    const status = await connectorStatus(settings(gatewayUrl), "verisign");
    expect(status).toMatchObject({ state: "up", last_error: null, sessions: { configured: 1 } });
    expect(status.objects).toContain("urn:ietf:params:xml:ns:domain-1.0");
    expect(status.extensions).toContain("urn:ietf:params:xml:ns:secDNS-1.1");
  });
});

describe("a gateway or registry without an answer is 503 registry_unavailable with Retry-After", () => {
  it("a wrong bearer secret (the gateway answers 401)", async () => {
    const problem = await problemOf(registryCommand(settings(gatewayUrl, "x".repeat(40)), "verisign", { kind: "domain:info", name: "a.com" }, "req-2"));
    expect({ status: problem.status, code: problem.code, detail: problem.message }).toMatchObject({
      status: 503,
      code: "registry_unavailable",
      detail: expect.stringContaining("answered HTTP 401"),
    });
    expect(Number(problem.headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  it("a gateway that holds the request past the deadline answers 503 at the deadline, not later", async () => {
    const problem = await problemOf(registryCommand(settings(silentUrl), "verisign", { kind: "domain:info", name: "a.com" }, "req-3", 300));
    expect({ status: problem.status, code: problem.code, detail: problem.message }).toMatchObject({
      status: 503,
      code: "registry_unavailable",
      detail: expect.stringContaining("no answer within 0.3 s"),
    });
  });

  it("a gateway nobody listens for", async () => {
    const problem = await problemOf(registryCommand(settings("http://127.0.0.1:9"), "verisign", { kind: "domain:info", name: "a.com" }, "req-4"));
    expect({ status: problem.status, code: problem.code, detail: problem.message }).toMatchObject({
      status: 503,
      code: "registry_unavailable",
      detail: expect.stringContaining("the registry gateway could not be reached"),
    });
  });

  it("no gateway configured", async () => {
    const problem = await problemOf(registryCommand({ REGISTRY_CONNECTORS: '{"verisign": {}}' }, "verisign", { kind: "domain:info", name: "a.com" }, "req-5"));
    expect({ status: problem.status, code: problem.code }).toEqual({ status: 503, code: "registry_unavailable" });
  });

  it("the registry down: the gateway's unavailable, with its Retry-After; the connector shows it, and comes back", async () => {
    eppServer.setDown(true);
    try {
      const problem = await problemOf(registryCommand(settings(gatewayUrl), "verisign", { kind: "domain:info", name: "a.com" }, "req-6"));
      expect({ status: problem.status, code: problem.code }).toEqual({ status: 503, code: "registry_unavailable" });
      expect(Number(problem.headers?.["Retry-After"])).toBeGreaterThan(0);
      expect((await connectorStatus(settings(gatewayUrl), "verisign")).state).not.toBe("up");
    } finally {
      eppServer.setDown(false);
    }
    let state = "";
    for (let i = 0; i < 100 && state !== "up"; i++) {
      state = (await connectorStatus(settings(gatewayUrl), "verisign")).state;
      if (state !== "up") await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe("up");
  });
});

describe("a connector whose gateway cannot be reached is down, never an error", () => {
  it("nobody listens: down, with why", async () => {
    expect(await connectorStatus(settings("http://127.0.0.1:9"), "verisign")).toEqual({
      state: "down",
      since: null,
      last_error: "the registry gateway could not be reached",
      objects: [],
      extensions: [],
      sessions: { open: 0, configured: 0 },
    });
  });

  it("no answer within the deadline: down, with why", async () => {
    expect((await connectorStatus(settings(silentUrl), "verisign", 300)).last_error).toBe("the registry gateway did not answer within 0.3 s");
  });

  it("a repository the gateway has no connector for: down, with the gateway's status", async () => {
    expect(await connectorStatus(settings(gatewayUrl), "pir")).toMatchObject({ state: "down", last_error: "the registry gateway answered HTTP 404" });
  });
});

describe("xmllint's verdict on every frame", () => {
  it("every frame the registry received in this file, and every answer it sent, xmllint judges as the registry did", async () => {
    // The sessions logged out first: their last frames are judged too.
    await pool.stop();
    const report = xmllintAgrees(eppServer);
    expect(report.disagreements).toEqual([]);
    expect(report.received).toBeGreaterThan(0);
  });
});
