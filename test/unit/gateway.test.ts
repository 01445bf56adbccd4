// The registry gateway's sessions (src/gateway/) against the local registry over real TLS:
// login with the greeting's services, one EPP round trip per command on a warm session, a
// lost answer never sent again blindly, 2400 tried once more, a registry down answered
// quickly as unavailable and coming back by itself, wrong credentials a connector down with
// the registry's message, the poll queue handed over and acked only once applied, and the
// HTTP interface under its bearer secret.
import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EppResponse } from "../../src/epp/types";
import type { ConnectorConfig } from "../../src/gateway/config";
import { parseConnectors } from "../../src/gateway/config";
import { gatewayServer, KEEP_ALIVE_MS } from "../../src/gateway/http";
import { DEFAULT_POOL_OPTIONS, RegistryPool } from "../../src/gateway/registry-pool";
import type { Registry } from "../../scripts/local-registry/registry";
import type { EppServer } from "../../scripts/local-registry/server";
import { startLocalRegistry, US, xmllintAgrees } from "./local-registry-fixture";

let server: EppServer;
let registry: Registry;
let config: ConnectorConfig;
const pools: RegistryPool[] = [];
const FAST = { ...DEFAULT_POOL_OPTIONS, backoffMinMs: 100, backoffMaxMs: 400, commandBudgetMs: 4_000, pollIntervalMs: 200 };

beforeAll(async () => {
  let port: number;
  let ca: string;
  ({ server, registry, port, ca } = await startLocalRegistry());
  config = { host: "127.0.0.1", port, client_id: US.clientId, password: US.password, ca, sessions: 2 };
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.stop()));
  await server.close();
});

function pool(overrides: Partial<ConnectorConfig> = {}, onMessage: ConstructorParameters<typeof RegistryPool>[3] = null) {
  const p = new RegistryPool("verisign", { ...config, ...overrides }, FAST, onMessage);
  pools.push(p);
  p.start();
  return p;
}

async function until(what: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sent = (kind: string, object: string) => server.commands.filter((c) => c.kind === kind && c.object === object);

async function contact(p: RegistryPool, id: string) {
  const answer = await p.run(
    {
      kind: "contact:create",
      id,
      postalInfo: [{ type: "int", name: "Ada Lovelace", city: "London", cc: "GB" }],
      email: "ada@example.org",
      authInfo: "Contact-Auth-1",
    },
    `req-${id}`,
  );
  expect(answer).toMatchObject({ outcome: "answered", response: { code: 1000 } });
}

describe("sessions", () => {
  it("logs in with the greeting's services and shows the connector up", async () => {
    const p = pool();
    await until(() => p.state === "up");
    expect(p.status()).toMatchObject({
      state: "up",
      last_error: null,
      objects: expect.arrayContaining(["urn:ietf:params:xml:ns:domain-1.0"]),
      sessions: { configured: 2 },
    });
  });

  it("a command is one EPP round trip on a warm session (no login per command)", async () => {
    const p = pool();
    // Both sessions open (each logged in once), so that no login is still on its way.
    await until(() => p.status().sessions.open === 2);
    const logins = () => server.commands.filter((c) => c.kind === "login" && c.code === 1000).length;
    const before = logins();
    for (let i = 0; i < 5; i++) expect((await p.run({ kind: "domain:check", names: [`warm-${i}.com`] }, `warm-check-${i}`)).outcome).toBe("answered");
    expect(logins()).toBe(before);
    expect(server.commands.filter((c) => c.kind === "domain:check" && c.clTRID?.startsWith("warm-check-")).length).toBe(5);
  });

  it("wrong credentials are a connector down with the registry's message, not a hang", async () => {
    const p = pool({ password: "wrong-pass-1" });
    await until(() => p.state === "down");
    expect(p.lastError).toMatch(/login refused: 2200/);
    const started = Date.now();
    const answer = await p.run({ kind: "domain:check", names: ["x-down.com"] }, "down-check-1");
    expect(answer).toMatchObject({ outcome: "unavailable" });
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("lost answers (never sent again blindly)", () => {
  it("a create whose answer was lost after it took effect is sent once, and answered from the registry's info, its ROID beside", async () => {
    const p = pool();
    await until(() => p.state === "up");
    await contact(p, "gw-lost-1");
    server.knobs.dropAfterApply.set("domain:create", 1);
    const answer = await p.run({ kind: "domain:create", name: "lost-answer-gw.com", registrant: "gw-lost-1", authInfo: "Domain-Auth-123" }, "req-lost-create");
    expect(answer).toMatchObject({
      outcome: "answered",
      recovered: true,
      response: {
        code: 1000,
        resData: [
          { kind: "domain:creData", name: "lost-answer-gw.com" },
          { kind: "domain:infData", name: "lost-answer-gw.com" },
        ],
      },
    });
    const info = await p.run({ kind: "domain:info", name: "lost-answer-gw.com" }, "req-lost-info");
    const roid = info.outcome === "answered" ? (info.response.resData[0] as { roid?: string }).roid : undefined;
    expect(roid).toMatch(/^\w+-\w+$/);
    expect(answer.outcome === "answered" && answer.response.resData[1]).toMatchObject({ roid });
    expect(sent("domain:create", "lost-answer-gw.com")).toHaveLength(1);
    expect(server.commands.filter((c) => c.kind === "domain:info" && c.clTRID === "req-lost-create")).toHaveLength(1);
  });

  it("a forced 2400 takes no effect and the command is tried once more", async () => {
    const p = pool();
    await until(() => p.state === "up");
    server.knobs.fail.set("contact:create", { code: 2400, count: 1 });
    await contact(p, "gw-retry-1");
    expect(sent("contact:create", "gw-retry-1").map((c) => c.code)).toEqual([2400, 1000]);
  });
});

describe("outages", () => {
  it("the registry down answers unavailable within the budget, and the connector comes back by itself", async () => {
    const p = pool();
    await until(() => p.state === "up");
    server.setDown(true);
    await until(() => p.state !== "up");
    const started = Date.now();
    const answer = await p.run({ kind: "domain:check", names: ["outage.com"] }, "outage-1");
    expect(answer.outcome).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(FAST.commandBudgetMs + 500);
    server.setDown(false);
    await until(() => p.state === "up");
    expect((await p.run({ kind: "domain:check", names: ["outage.com"] }, "outage-2")).outcome).toBe("answered");
  });
});

describe("poll messages", () => {
  it("each message is handed over, and acked only once it was applied", async () => {
    const received: EppResponse[] = [];
    let accept = false;
    const p = pool({ client_id: "other-registrar", password: "local-pw-2", sessions: 1 }, async (_repository, message) => {
      received.push(message);
      return accept ? { ok: true as const } : { ok: false as const, reason: "not yet" };
    });
    await until(() => p.state === "up");
    registry.enqueue("other-registrar", "A message for the poll test.");
    await until(() => received.length >= 1);
    expect(server.commands.filter((c) => c.kind === "poll" && c.clID === "other-registrar" && c.code === 1000)).toHaveLength(0);
    accept = true;
    await until(() => server.commands.some((c) => c.kind === "poll" && c.clID === "other-registrar" && c.code === 1000), 15_000);
    expect(received.at(-1)?.msgQ?.msg).toBe("A message for the poll test.");
  });
});

describe("the HTTP interface", () => {
  it("refuses a wrong secret (401) and answers a command as JSON", async () => {
    const p = pool();
    await until(() => p.state === "up");
    const secret = "s".repeat(40);
    const http = gatewayServer(new Map([["verisign", p]]), secret);
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
    const address = http.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    try {
      expect((await fetch(`${base}/registries/verisign`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      const status = await fetch(`${base}/registries/verisign`, { headers: { authorization: `Bearer ${secret}` } });
      expect(await status.json()).toMatchObject({ state: "up" });
      const answered = await fetch(`${base}/registries/verisign/commands`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ command: { kind: "domain:check", names: ["http-check.com"] }, cl_trid: "http-check-1" }),
      });
      expect(answered.status).toBe(200);
      expect(await answered.json()).toMatchObject({
        outcome: "answered",
        response: { code: 1000, resData: [{ kind: "domain:chkData", items: [{ name: "http-check.com", avail: true }] }] },
      });
      const bad = await fetch(`${base}/registries/verisign/commands`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}` },
        body: JSON.stringify({ command: { kind: "login" }, cl_trid: "x-1-y" }),
      });
      expect(bad.status).toBe(400);
    } finally {
      http.close();
    }
  });
});

describe("the HTTP interface: a transform is one EPP round trip", () => {
  /** A POST through a keep-alive agent of one socket (as workerd's and cloudflared's pools hold theirs). */
  function post(agent: Agent, url: string, secret: string, body: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        { method: "POST", agent, headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" } },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify(body));
    });
  }

  it("transforms through the HTTP interface are one EPP frame each on a warm session (no login, no hello), over one kept-alive connection", async () => {
    // The earlier tests' pools stopped: every frame the registry receives now is this pool's.
    for (const old of pools.splice(0)) await old.stop();
    const p = pool({ sessions: 1 });
    await until(() => p.status().sessions.open === 1);
    const secret = "k".repeat(40);
    const http = gatewayServer(new Map([["verisign", p]]), secret);
    let connections = 0;
    http.on("connection", () => connections++);
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
    const address = http.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/registries/verisign/commands`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const received = () => server.frames.filter((f) => f.direction === "received").length;
    try {
      expect(http.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
      const before = received();
      for (let i = 0; i < 3; i++) {
        const answer = await post(agent, url, secret, {
          command: {
            kind: "contact:create",
            id: `warm-tr-${i}`,
            postalInfo: [{ type: "int", name: "A", city: "B", cc: "GB" }],
            email: "a@example.org",
            authInfo: "Contact-Auth-1",
          },
          cl_trid: `warm-transform-${i}`,
        });
        expect(answer).toMatchObject({ status: 200, body: { outcome: "answered", response: { code: 1000 } } });
      }
      expect(received() - before).toBe(3);
      expect(server.commands.filter((c) => c.clTRID?.startsWith("warm-transform-")).map((c) => [c.kind, c.code])).toEqual([
        ["contact:create", 1000],
        ["contact:create", 1000],
        ["contact:create", 1000],
      ]);
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
      http.close();
    }
  });
});

describe("configuration", () => {
  it("REGISTRY_CONNECTORS is read strictly, naming the field and never the value", () => {
    const parsed = parseConnectors(JSON.stringify({ verisign: { host: "epp.example", client_id: "ab", password: "hunter2-secret", sesions: 2 } }));
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual([
      "REGISTRY_CONNECTORS.verisign.sesions is not a field (host, port, client_id, password, ca, certificate, key, sessions, poll_seconds, message_attempts, message_retry_max_seconds)",
      "REGISTRY_CONNECTORS.verisign.client_id is 3–16 characters",
    ]);
    expect(problems.join(" ")).not.toContain("hunter2");
  });
});

describe("xmllint's verdict on every frame", () => {
  it("every frame the registry received in this file, and every answer it sent, xmllint judges as the registry did", async () => {
    // The sessions logged out first: their last frames are judged too.
    await Promise.all(pools.map((p) => p.stop()));
    const report = xmllintAgrees(server);
    expect(report.disagreements).toEqual([]);
    expect(report.received).toBeGreaterThan(0);
  });
});
