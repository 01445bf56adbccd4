// The gateway's part in keeping the registry the authority (docs/registries.md, "The
// registry decides"), against the local registry over real TLS: a create the registry holds
// from us already (its earlier answer lost, the retry answered 2302) is answered for as ours;
// another registrar's name stays 2302; the connector's status names the login it holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorConfig } from "../../src/gateway/config";
import { parseConnectors } from "../../src/gateway/config";
import { DEFAULT_POOL_OPTIONS, RegistryPool } from "../../src/gateway/registry-pool";
import type { Registry } from "../../scripts/local-registry/registry";
import type { EppServer } from "../../scripts/local-registry/server";
import { OTHER, startLocalRegistry, US } from "./local-registry-fixture";

let server: EppServer;
let registry: Registry;
let config: ConnectorConfig;
const pools: RegistryPool[] = [];
const FAST = { ...DEFAULT_POOL_OPTIONS, backoffMinMs: 100, backoffMaxMs: 400, commandBudgetMs: 4_000 };

beforeAll(async () => {
  let port: number;
  let ca: string;
  ({ server, registry, port, ca } = await startLocalRegistry());
  config = { host: "127.0.0.1", port, client_id: US.clientId, password: US.password, ca, sessions: 1 };
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.stop()));
  await server.close();
});

async function upPool() {
  const p = new RegistryPool("verisign", config, FAST, null);
  pools.push(p);
  p.start();
  const end = Date.now() + 30_000; // a hang detector
  while (p.state !== "up") {
    if (Date.now() > end) throw new Error(`not up: ${p.lastError}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return p;
}

const contact = (clientId: string, id: string) =>
  registry.execute(
    clientId,
    {
      kind: "contact:create",
      id,
      postalInfo: [{ type: "int", name: "Ada Lovelace", city: "London", cc: "GB" }],
      email: "ada@example.org",
      authInfo: "Contact-Auth-1",
    },
    undefined,
    registry.nextSvTRID(),
  );

describe("a create answered 2302", () => {
  it("a name the registry holds from us already (our earlier create, its answer lost) is answered for as the create, from its info, its ROID beside", async () => {
    const p = await upPool();
    contact(US.clientId, "gw-own-1");
    // Our first create took effect; the request's retry sends it again.
    registry.execute(
      US.clientId,
      { kind: "domain:create", name: "own-already.com", registrant: "gw-own-1", authInfo: "Domain-Auth-123" },
      "req-own",
      registry.nextSvTRID(),
    );
    const answer = await p.run({ kind: "domain:create", name: "own-already.com", registrant: "gw-own-1", authInfo: "Domain-Auth-123" }, "req-own-retry");
    expect(answer).toMatchObject({
      outcome: "answered",
      recovered: true,
      response: {
        code: 1000,
        resData: [
          { kind: "domain:creData", name: "own-already.com" },
          { kind: "domain:infData", name: "own-already.com" },
        ],
      },
    });
    const info = registry.execute(US.clientId, { kind: "domain:info", name: "own-already.com" }, "req-own-info", registry.nextSvTRID());
    const roid = (info.resData?.[0] as { roid?: string } | undefined)?.roid;
    expect(roid).toMatch(/^\w+-\w+$/);
    expect(answer.outcome === "answered" && answer.response.resData[1]).toMatchObject({ roid });
    expect(server.commands.filter((c) => c.kind === "domain:info" && c.clTRID === "req-own-retry")).toHaveLength(1);
  });

  it("another registrar's name stays the registry's 2302", async () => {
    const p = await upPool();
    contact(OTHER.clientId, "gw-other-1");
    registry.execute(
      OTHER.clientId,
      { kind: "domain:create", name: "theirs-already.com", registrant: "gw-other-1", authInfo: "Domain-Auth-123" },
      "x-1",
      registry.nextSvTRID(),
    );
    contact(US.clientId, "gw-own-2");
    const answer = await p.run({ kind: "domain:create", name: "theirs-already.com", registrant: "gw-own-2", authInfo: "Domain-Auth-456" }, "req-theirs");
    expect(answer).toMatchObject({ outcome: "answered", response: { code: 2302 } });
    expect(answer).not.toHaveProperty("recovered");
  });
});

describe("configuration and status", () => {
  it("a connector's poll_seconds is 1–3600, named without its value when wrong; the status names the login it holds", async () => {
    const base = { host: "epp.example", client_id: "domain-api", password: "local-pw-1" };
    expect(parseConnectors(JSON.stringify({ verisign: { ...base, poll_seconds: 5 } })).ok).toBe(true);
    expect(parseConnectors(JSON.stringify({ verisign: { ...base, poll_seconds: 0 } }))).toEqual({
      ok: false,
      problems: ["REGISTRY_CONNECTORS.verisign.poll_seconds is 1–3600"],
    });
    const p = await upPool();
    expect(p.status()).toMatchObject({ state: "up", client_id: "domain-api" });
  });
});
