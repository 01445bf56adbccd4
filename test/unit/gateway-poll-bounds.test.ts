// The gateway's poll reader never loops on a message (docs/registries.md, "Poll messages the
// API cannot take"), against the local registry over real TLS: a message the API does not take
// is handed over again after growing waits, set aside after its attempts (kept in the state
// directory, its raw XML and all) and only then acked, so the queue behind it moves on; a
// set-aside message is handed over again from its record until the API takes it; an answer
// the codec cannot read is handed over as `unreadable`, its XML whole; and with no state
// directory nothing is ever acked that the API did not take. The API here is the handler the
// pool calls (src/gateway/main.ts's POSTs it to `/v1/registry-messages`); scripts/registry-e2e.mjs
// runs the same rule against the real API with its D1 refusing the message's every write.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EppResponse } from "../../src/epp/types";
import type { ConnectorConfig } from "../../src/gateway/config";
import { DEFAULT_POOL_OPTIONS, type MessageHandler, type PoolOptions, RegistryPool } from "../../src/gateway/registry-pool";
import type { Registry } from "../../scripts/local-registry/registry";
import type { EppServer } from "../../scripts/local-registry/server";
import { OTHER, startLocalRegistry, US } from "./local-registry-fixture";

let server: EppServer;
let registry: Registry;
let config: ConnectorConfig;
const pools: RegistryPool[] = [];
const FAST: PoolOptions = {
  ...DEFAULT_POOL_OPTIONS,
  backoffMinMs: 100,
  backoffMaxMs: 400,
  commandBudgetMs: 4_000,
  pollIntervalMs: 200,
  messageAttempts: 3,
  messageRetryMaxMs: 400,
};

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

async function until(what: () => boolean, ms = 30_000) {
  const end = Date.now() + ms; // a hang detector, not a speed check
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function upPool(options: Partial<PoolOptions>, onMessage: MessageHandler, registrar = US) {
  const p = new RegistryPool("verisign", { ...config, client_id: registrar.clientId, password: registrar.password }, { ...FAST, ...options }, onMessage);
  pools.push(p);
  p.start();
  await until(() => p.state === "up");
  return p;
}

async function stopAll() {
  for (const p of pools.splice(0)) await p.stop();
}

/** What the registrar's queue holds now, asked at the registry directly: the head message's text, or null when empty. */
function head(clientId: string): string | null {
  const answer = registry.execute(clientId, { kind: "poll", op: "req" }, `look-${Date.now()}`, registry.nextSvTRID());
  return answer.results[0]?.code === 1301 ? (answer.msgQ?.msg ?? "") : null;
}

const stateDir = () => mkdtempSync(join(tmpdir(), "gateway-state-"));
const recordsIn = (dir: string) => {
  const at = join(dir, "set-aside-messages", "verisign");
  return existsSync(at)
    ? readdirSync(at)
        .filter((f) => f.endsWith(".json"))
        .map((f) => ({ file: join(at, f), ...JSON.parse(readFileSync(join(at, f), "utf8")) }))
    : [];
};
const pollsAnswered = (clientId: string, code: number, from: number) =>
  server.commands.slice(from).filter((c) => c.kind === "poll" && c.clID === clientId && c.code === code && c.clTRID?.startsWith("poll-"));

describe("a poll message the API never takes is never looped on", () => {
  it("it is handed over messageAttempts times with waits between, then set aside in the state directory with its raw XML and acked; the message behind it is handed over next", async () => {
    await stopAll();
    const dir = stateDir();
    const handed: string[] = [];
    let refuse = true;
    const from = server.commands.length;
    const p = await upPool({ stateDir: dir }, async (_repository, message: EppResponse) => {
      handed.push(message.msgQ?.msg ?? "");
      return refuse && message.msgQ?.msg === "Never taken." ? { ok: false, reason: "the API answered 500 internal" } : { ok: true };
    });
    registry.enqueue(US.clientId, "Never taken.");
    registry.enqueue(US.clientId, "Behind it.");
    await until(() => handed.includes("Behind it."));
    await until(() => head(US.clientId) === null);
    // Three hand-overs of the first (its attempts), each after its own read of the queue: no hot loop.
    expect(handed).toEqual(["Never taken.", "Never taken.", "Never taken.", "Behind it."]);
    expect(pollsAnswered(US.clientId, 1301, from)).toHaveLength(4);
    const [record] = recordsIn(dir);
    expect(recordsIn(dir)).toHaveLength(1);
    expect(record).toMatchObject({
      repository: "verisign",
      attempts: 3,
      last_failure: "the API answered 500 internal",
      replays: expect.any(Number),
      message: { code: 1301, msgQ: { msg: "Never taken." } },
    });
    expect(record.xml).toMatch(/^<\?xml[\s\S]*<msgQ count="2" id="[^"]+">[\s\S]*Never taken\.[\s\S]*<\/epp>/);
    expect(p.status().messages).toMatchObject({ set_aside: 1, set_aside_messages: [{ id: record.message_id, attempts: 3 }] });

    // Handed over again from its record until the API takes it; then the record is removed.
    refuse = false;
    await until(() => recordsIn(dir).length === 0);
    expect(handed.filter((m) => m === "Never taken.")).toHaveLength(4);
    expect(p.status().messages.set_aside).toBe(0);
  });

  it("a set-aside record outlives the gateway: a new pool on the same state directory hands it over and removes it once taken", async () => {
    await stopAll();
    const dir = stateDir();
    await upPool({ stateDir: dir, messageAttempts: 1 }, async () => ({ ok: false, reason: "the API answered 503 database_busy" }));
    registry.enqueue(US.clientId, "Kept across a restart.");
    await until(() => recordsIn(dir).length === 1);
    await until(() => head(US.clientId) === null);
    await stopAll();
    const handed: string[] = [];
    const p = await upPool({ stateDir: dir }, async (_repository, message) => {
      handed.push(message.msgQ?.msg ?? "");
      return { ok: true };
    });
    await until(() => recordsIn(dir).length === 0);
    expect(handed).toEqual(["Kept across a restart."]);
    expect(p.status().messages.set_aside).toBe(0);
  });

  it("a hand-over from a set-aside record is marked replayed (the API then asks the registry instead of following the message's older state); hand-overs from the queue are not", async () => {
    await stopAll();
    const dir = stateDir();
    const handed: { msg: string; replayed: boolean | undefined }[] = [];
    let refuse = true;
    await upPool({ stateDir: dir, messageAttempts: 2 }, async (_repository, message, hand) => {
      handed.push({ msg: message.msgQ?.msg ?? "", replayed: hand?.replayed });
      return refuse && message.msgQ?.msg === "Set aside, then replayed." ? { ok: false, reason: "the API answered 500 internal" } : { ok: true };
    });
    registry.enqueue(US.clientId, "Set aside, then replayed.");
    registry.enqueue(US.clientId, "Newer, applied first.");
    await until(() => handed.some((h) => h.msg === "Newer, applied first."));
    await until(() => head(US.clientId) === null);
    refuse = false;
    await until(() => recordsIn(dir).length === 0);
    expect(handed).toEqual([
      { msg: "Set aside, then replayed.", replayed: undefined },
      { msg: "Set aside, then replayed.", replayed: undefined },
      { msg: "Newer, applied first.", replayed: undefined },
      { msg: "Set aside, then replayed.", replayed: true },
    ]);
  });

  it("without a state directory a message the API never takes is never acked: it stays at the registry, handed over after growing waits", async () => {
    await stopAll();
    const handed: string[] = [];
    const from = server.commands.length;
    await upPool({ stateDir: null, messageAttempts: 2 }, async (_repository, message) => {
      handed.push(message.msgQ?.msg ?? "");
      return { ok: false, reason: "the API could not be reached" };
    });
    registry.enqueue(US.clientId, "Never acked.");
    await until(() => handed.length >= 4);
    await stopAll();
    expect(head(US.clientId)).toBe("Never acked.");
    expect(pollsAnswered(US.clientId, 1301, from).length).toBe(handed.length);
    expect(server.commands.slice(from).filter((c) => c.kind === "poll" && c.clTRID?.startsWith("ack-"))).toEqual([]);
    // Taken off the queue for the next tests.
    const left = registry.execute(US.clientId, { kind: "poll", op: "req" }, "clear-req", registry.nextSvTRID());
    registry.execute(US.clientId, { kind: "poll", op: "ack", msgID: String(left.msgQ?.id) }, "clear-ack", registry.nextSvTRID());
  });
});

describe("an ack the registry refuses", () => {
  it("is not looped on: the message comes back after the wait, is handed over again (the API answers already_applied there) and acked then", async () => {
    await stopAll();
    const handed: string[] = [];
    const from = server.commands.length;
    await upPool({ stateDir: stateDir() }, async (_repository, message) => {
      handed.push(message.msgQ?.msg ?? "");
      // The first hand-over's ack (and the gateway's one retry of a 2400) refused by the registry.
      if (handed.length === 1) server.knobs.fail.set("poll", { code: 2400, count: 2 });
      return { ok: true };
    });
    registry.enqueue(US.clientId, "Ack refused once.");
    await until(() => head(US.clientId) === null);
    expect(handed).toEqual(["Ack refused once.", "Ack refused once."]);
    const acks = server.commands.slice(from).filter((c) => c.kind === "poll" && c.clTRID?.startsWith("ack-"));
    expect(acks.map((c) => c.code)).toEqual([2400, 2400, 1000]);
  });
});

describe("a poll answer the codec cannot read", () => {
  it("is handed over as one `unreadable` part holding its XML whole and why, and acked once taken; the session stays open", async () => {
    await stopAll();
    const handed: EppResponse[] = [];
    const p = await upPool(
      { stateDir: stateDir() },
      async (_repository, message) => {
        handed.push(message);
        return { ok: true };
      },
      OTHER,
    );
    const sessionsBefore = p.status().sessions.open;
    // A domain:trnData without its trStatus, reID, …: the registry's bug, which the codec refuses whole.
    registry.enqueue(OTHER.clientId, "Broken transfer data.", {
      kind: "unknown",
      ns: "urn:ietf:params:xml:ns:domain-1.0",
      name: "trnData",
      xml: '<domain:trnData xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>broken.com</domain:name></domain:trnData>',
    });
    await until(() => handed.length === 1);
    await until(() => head(OTHER.clientId) === null);
    expect(handed[0]).toMatchObject({
      code: 1301,
      msgQ: { id: expect.any(String) },
      resData: [{ kind: "unreadable", reason: expect.stringMatching(/^malformed: /) }],
    });
    const part = handed[0]!.resData[0] as unknown as { xml: string };
    expect(part.xml).toContain("Broken transfer data.");
    expect(part.xml).toContain("<domain:name>broken.com</domain:name>");
    expect(p.status().sessions.open).toBe(sessionsBefore);
  });
});
