// A database that another program holds locked (SQLITE_BUSY) is waited for, and one still
// locked after the waits is 503 database_busy with Retry-After, never a 500
// (src/db/client.ts, src/db/errors.ts, src/app.ts).
//
// The lock of another process cannot be taken inside this runtime (each test file's D1 is
// its own, reachable only through the binding), so the requests below go through the real
// Worker and the real D1 of this file with a lock in front of it: a binding that refuses
// the next N calls exactly as the local D1 refuses them while another process writes the
// file, and then hands every call to the real one. scripts/safety-e2e.mjs takes the real
// lock (`sqlite3` holding BEGIN IMMEDIATE on the file `npm start` serves).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../src/index";
import type { Env } from "../src/env";
import { api, type ApiResponse, expectProblem } from "./helpers";
import { bearer } from "./tokens";

/** What a request to the Worker gets from the local D1 while another process writes its file (observed with `sqlite3` holding BEGIN IMMEDIATE). */
const LOCAL_LOCKED =
  "Failed to parse body as JSON, got: Error: internal error; reference = dcvr401qe1cfq0p0vrnlcu1q\n    at D1DatabaseObject.queryExecute (file:///node_modules/miniflare/dist/src/workers/d1/database.worker.js:191:73)";
/** What D1 itself says. */
const D1_LOCKED = "D1_ERROR: database is locked: SQLITE_BUSY";

/** Another program's write lock on the database: it refuses the next `calls` D1 calls (Infinity: all of them), counting each. */
class Lock {
  refused = 0;
  constructor(
    private calls: number,
    private readonly message = LOCAL_LOCKED,
  ) {}
  check(): void {
    if (this.calls <= 0) return;
    this.calls--;
    this.refused++;
    throw new Error(this.message);
  }
}

const real = new WeakMap<object, D1PreparedStatement>();

function lockedStatement(statement: D1PreparedStatement, lock: Lock): D1PreparedStatement {
  const through = async <T>(call: () => Promise<T>) => {
    lock.check();
    return call();
  };
  const locked = {
    bind: (...values: unknown[]) => lockedStatement(statement.bind(...values), lock),
    first: (column?: string) => through(() => (column === undefined ? statement.first() : statement.first(column))),
    run: () => through(() => statement.run()),
    all: () => through(() => statement.all()),
    raw: (options?: { columnNames?: false }) => through(() => statement.raw(options)),
  };
  real.set(locked, statement);
  return locked as unknown as D1PreparedStatement;
}

function lockedDatabase(d1: D1Database | D1DatabaseSession, lock: Lock) {
  const batch = async (statements: D1PreparedStatement[]) => {
    lock.check();
    return d1.batch(statements.map((statement) => real.get(statement) ?? statement));
  };
  return {
    prepare: (query: string) => lockedStatement(d1.prepare(query), lock),
    batch,
    getBookmark: () => ("getBookmark" in d1 ? d1.getBookmark() : null),
    withSession: (constraint?: string) => lockedDatabase((d1 as D1Database).withSession(constraint), lock),
    exec: async (query: string) => {
      lock.check();
      return (d1 as D1Database).exec(query);
    },
    dump: () => (d1 as D1Database).dump(),
  };
}

/** A request to the Worker while `lock` stands in front of this file's D1. */
async function whileLocked(lock: Lock, method: string, path: string, json?: unknown, authorization = bearer("write")): Promise<ApiResponse> {
  const lockedEnv = { ...env, DB: lockedDatabase(env.DB, lock) as unknown as D1Database } as Env;
  const headers = new Headers(authorization ? { authorization } : {});
  if (json !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://api.test${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }),
    lockedEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
  };
}

/** The zone's status as an unlocked read finds it: 200 when it exists, 404 when not. */
async function zoneStatus(name: string): Promise<number> {
  return (await api("GET", `/v1/zones/${name}`)).status;
}

describe("a database locked by another program for a moment is waited for: the request is answered as usual", () => {
  it("a zone created while the database refuses three calls is created, 201 (not 409: the refused tries wrote nothing)", async () => {
    const lock = new Lock(3);
    const created = await whileLocked(lock, "POST", "/v1/zones", { name: "busy-once.test", nameservers: ["ns1.example.net"] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "busy-once.test" });
    expect(lock.refused).toBe(3);
    expect(await zoneStatus("busy-once.test")).toBe(200);
  });

  it("D1's own words for it (SQLITE_BUSY, database is locked) are waited for too", async () => {
    const lock = new Lock(2, D1_LOCKED);
    const read = await whileLocked(lock, "GET", "/v1/zones?limit=1");
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual(expect.any(Array));
    expect(lock.refused).toBe(2);
  });
});

describe("a database still locked after the waits answers 503 database_busy with Retry-After, never 500", () => {
  it("a write: 503 database_busy, Retry-After 1, and nothing is written", async () => {
    const lock = new Lock(Number.POSITIVE_INFINITY);
    const refused = await whileLocked(lock, "POST", "/v1/zones", { name: "busy-always.test", nameservers: ["ns1.example.net"] });
    const problem = expectProblem(refused, 503, "database_busy");
    expect(problem.title).toBe("Database busy");
    expect(problem.detail).toMatch(/nothing was written/);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await zoneStatus("busy-always.test")).toBe(404);
  });

  it("a read: 503 database_busy with Retry-After 1", async () => {
    const refused = await whileLocked(new Lock(Number.POSITIVE_INFINITY, D1_LOCKED), "GET", "/v1/zones?limit=1");
    expectProblem(refused, 503, "database_busy");
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  describe("the PowerDNS backend (its token in the path)", () => {
    let dnsToken = "";
    beforeAll(async () => {
      const minted = await api("POST", "/v1/tokens", { json: { name: "busy-dns", scope: "dns" } });
      expect(minted.status, minted.text).toBe(201);
      dnsToken = minted.body.secret;
    });

    it("answers a lookup while the database is locked through every retry with 503 database_busy, never 500", async () => {
      const refused = await whileLocked(new Lock(Number.POSITIVE_INFINITY), "GET", `/v1/pdns/${dnsToken}/getUpdatedMasters`, undefined, "");
      expectProblem(refused, 503, "database_busy");
      expect(refused.headers.get("retry-after")).toBe("1");
    });

    it("answers it as usual once the lock goes within the waits", async () => {
      const answered = await whileLocked(new Lock(2), "GET", `/v1/pdns/${dnsToken}/getUpdatedMasters`, undefined, "");
      expect(answered.status, answered.text).toBe(200);
      expect(answered.body).toEqual({ result: expect.anything() });
    });
  });
});
