// Connected repositories (docs/registries.md): what the API answers when a repository has a
// connector but its registry gateway cannot be reached — no network reaches workerd here,
// so the gateway is a closed loopback port. The registry's own answers are exercised end
// to end by scripts/registry-e2e.mjs against the local registry; the mapping of our objects
// to EPP and of EPP answers to ours by test/unit/connector.test.ts.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { database } from "../src/db/client";
import { registryObjectsHeld } from "../src/db/registry-objects";
import { overdueForReconciliation } from "../src/db/registry-state";
import { sweep } from "../src/jobs/sweep";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { costOfRequest, type D1Cost, roundTrips } from "./d1-cost";
import { type ApiResponse, api, createContact, customerAccount, expectProblem } from "./helpers";
import { bearer } from "./tokens";

/** pir (.org) connected to a gateway on a loopback port nothing listens on. */
const PIR_TO_A_CLOSED_GATEWAY = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { host: "epp.example", client_id: "domain-api", password: "local-pw-1" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
};

/** What a gateway out of reach is, as the Worker finds it (workerd's outbound answers 500 for a refused connection here). */
const UNREACHABLE = expect.stringMatching(/^the registry gateway (could not be reached|answered HTTP 5\d\d)/);

/** A request to the Worker with these settings beside the runtime's bindings. */
async function apiWith(
  settings: Record<string, string>,
  method: string,
  path: string,
  options: { json?: unknown; authorization?: string } = {},
): Promise<ApiResponse> {
  const headers = new Headers({ authorization: options.authorization ?? bearer("write") });
  if (options.json !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://api.test${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...settings } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
    text,
  };
}
const connected = (method: string, path: string, options: { json?: unknown; authorization?: string } = {}) =>
  apiWith(PIR_TO_A_CLOSED_GATEWAY, method, path, options);

describe("a repository without a connector is builtin", () => {
  it("GET /v1/repositories/{id} shows connector builtin, up since the repository exists", async () => {
    const response = await api("GET", "/v1/repositories/verisign");
    expect(response.status, response.text).toBe(200);
    expect(response.body.connector).toEqual({ kind: "builtin", state: "up", since: response.body.created_at, last_error: null });
  });

  it("its names are checked and registered here, as before", async () => {
    const check = await api("GET", "/v1/domains/check?name=builtin-free.org");
    expect(check.status, check.text).toBe(200);
    expect(check.body.data[0]).toMatchObject({ name: "builtin-free.org", available: true, reason: null, premium: false });
  });
});

describe("a connected repository whose gateway cannot be reached", () => {
  it("GET /v1/repositories/{id} shows connector epp down with the error, never a 500", async () => {
    const response = await connected("GET", "/v1/repositories/pir");
    expect(response.status, response.text).toBe(200);
    expect(response.body.connector).toMatchObject({ kind: "epp", state: "down", since: null, last_error: UNREACHABLE });
  });

  it("operators also see the greeting's objects and extensions and the sessions (none while down); customers do not", async () => {
    const operator = await connected("GET", "/v1/repositories/pir");
    expect(operator.body.connector).toEqual({
      kind: "epp",
      state: "down",
      since: null,
      last_error: UNREACHABLE,
      objects: [],
      extensions: [],
      sessions: { open: 0, configured: 0 },
    });
    const customer = await customerAccount("connector-viewer");
    const seen = await connected("GET", "/v1/repositories/pir", { authorization: customer.auth });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.connector).toEqual({ kind: "epp", state: "down", since: null, last_error: UNREACHABLE });
  });

  it("other repositories stay builtin", async () => {
    expect((await connected("GET", "/v1/repositories/verisign")).body.connector).toMatchObject({ kind: "builtin", state: "up" });
    const check = await connected("GET", "/v1/domains/check?name=still-builtin.com");
    expect(check.body.data[0]).toMatchObject({ available: true });
  });

  it("a check of its names answers 503 registry_unavailable with Retry-After", async () => {
    const response = await connected("GET", "/v1/domains/check?name=gateway-down.org&name=gateway-down.com");
    const problem = expectProblem(response, 503, "registry_unavailable");
    expect(problem.detail).toMatch(/^The registry cannot be reached now \(the registry gateway (could not be reached|answered HTTP 5\d\d)/);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("registering one of its names answers 503 registry_unavailable with Retry-After, and nothing is written", async () => {
    const registrant = (await createContact({ name: "Gateway Down" })).id;
    const response = await connected("POST", "/v1/domains", {
      json: { name: "not-written.org", registrant, nameservers: ["ns1.example.net", "ns2.example.net"] },
    });
    expectProblem(response, 503, "registry_unavailable");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expectProblem(await connected("GET", "/v1/domains/not-written.org"), 404, "not_found");
  });

  it("a REGISTRY_CONNECTORS that is not JSON answers 503 not_configured, never a guess that the repository is builtin", async () => {
    const misconfigured = { ...PIR_TO_A_CLOSED_GATEWAY, REGISTRY_CONNECTORS: '{"pir": {"password": "local-pw-1"' };
    const problem = expectProblem(await apiWith(misconfigured, "GET", "/v1/domains/check?name=misconfigured.org"), 503, "not_configured");
    expect(problem.detail).toContain("REGISTRY_CONNECTORS is not JSON");
    expect(problem.detail).not.toContain("local-pw-1");
  });
});

describe("a restore its registry left pending (pendingRestore)", () => {
  it("another restore answers 409 status_prohibits naming pendingRestore before the registry is asked (its gateway is out of reach here), and nothing is written", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "restore-pending.org", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(created.status, created.text).toBe(201);
    // Deleted into redemption, its restore pending at the registry (as a 202 restore left it).
    const ends = new Date(Date.now() + 20 * 86_400_000).toISOString();
    await env.DB.prepare("update domains set deleted_at = ?1, rgp = ?2, rgp_ends_at = ?3, statuses = ?4 where id = ?5")
      .bind(
        new Date().toISOString(),
        JSON.stringify([{ status: "redemptionPeriod", ends_at: ends }]),
        ends,
        JSON.stringify(["pendingRestore"]),
        created.body.id,
      )
      .run();
    const before = await connected("GET", "/v1/domains/restore-pending.org");
    expect(before.body.status).toEqual(["pendingRestore", "pendingDelete"]);
    const problem = expectProblem(await connected("POST", "/v1/domains/restore-pending.org/restore"), 409, "status_prohibits");
    expect(problem.detail).toMatch(/pendingRestore/);
    const after = await connected("GET", "/v1/domains/restore-pending.org");
    expect(after.body).toEqual(before.body);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
  });
});

describe("an update its registry left pending (pendingUpdate)", () => {
  it("another update answers 409 status_prohibits naming pendingUpdate before the registry is asked (its gateway is out of reach here), and the stored DS stays", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "update-pending.org", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(created.status, created.text).toBe(201);
    // Its DS change pending at the registry (as a 202 update left it): the DS stored is still none.
    await env.DB.prepare("update domains set statuses = ?1 where id = ?2")
      .bind(JSON.stringify(["pendingUpdate"]), created.body.id)
      .run();
    const before = await connected("GET", "/v1/domains/update-pending.org");
    expect(before.body.status).toEqual(["pendingUpdate"]);
    expect(before.body.ds).toEqual([]);
    const ds = [{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: "a".repeat(64) }];
    const problem = expectProblem(await connected("PATCH", "/v1/domains/update-pending.org", { json: { ds } }), 409, "status_prohibits");
    expect(problem.detail).toMatch(/pendingUpdate/);
    const after = await connected("GET", "/v1/domains/update-pending.org");
    expect(after.body).toEqual(before.body);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
  });
});

describe("a transfer between two of our accounts is approved at the registry first, or not at all", () => {
  it("an approval whose registry cannot be asked (the gateway out of reach) answers 503 registry_unavailable and nothing is half-applied: the domain, its contacts and auth_info stay the losing account's, no copy is made, the transfer stays pending", async () => {
    const registrant = await createContact({ email: "approval-out-of-reach@example.org" });
    const created = await api("POST", "/v1/domains", {
      json: {
        name: "approval-out-of-reach.org",
        registrant: registrant.id,
        contacts: { admin: registrant.id, tech: registrant.id },
        nameservers: ["ns1.example.net", "ns2.example.net"],
      },
    });
    expect(created.status, created.text).toBe(201);
    // Past the transfer lock (registered long ago), and asked for while .org was builtin: the approval is the first the registry hears of it.
    await env.DB.prepare("update domains set created_at = ?1 where id = ?2").bind("2020-01-01T00:00:00.000Z", created.body.id).run();
    const gaining = await customerAccount("approval-out-of-reach-gaining");
    const requested = await apiWith({}, "POST", "/v1/domains/approval-out-of-reach.org/transfer", {
      json: { auth_info: created.body.auth_info },
      authorization: gaining.auth,
    });
    expect(requested.status, requested.text).toBe(201);
    const before = await connected("GET", "/v1/domains/approval-out-of-reach.org");
    expect(before.body.status).toContain("pendingTransfer");

    const refused = expectProblem(await connected("POST", "/v1/domains/approval-out-of-reach.org/transfer/approve"), 503, "registry_unavailable");
    expect(refused.detail).toMatch(/nothing was changed/);

    const after = await connected("GET", "/v1/domains/approval-out-of-reach.org");
    expect(after.body).toEqual(before.body);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect([after.body.account, after.body.registrant, after.body.contacts.admin, after.body.auth_info]).toEqual([
      created.body.account,
      registrant.id,
      registrant.id,
      created.body.auth_info,
    ]);
    const transfer = await connected("GET", "/v1/domains/approval-out-of-reach.org/transfer");
    expect(transfer.body).toMatchObject({ status: "pending", gaining_account: gaining.id, acted_at: null });
    const gainingContacts = await apiWith({}, "GET", "/v1/contacts", { authorization: gaining.auth });
    expect(gainingContacts.status, gainingContacts.text).toBe(200);
    expect(gainingContacts.body.data).toEqual([]);
    const held = await env.DB.prepare("select count(*) as n from registry_objects where repository_id = 'pir'").first<{ n: number }>();
    expect(held?.n).toBe(0);
    const approvals = await api("GET", `/v1/events?resource=${created.body.id}&operation=transfer_approve`);
    expect(approvals.body.data).toEqual([]);
  });
});

describe("a transfer between two of our accounts is sent to the registry only when the gaining account has room", () => {
  /** The kinds of the commands `run` sends the (closed) gateway: each request is recorded, then goes on and fails as before. */
  async function commandsSentBy(run: () => Promise<void>): Promise<string[]> {
    const realFetch = globalThis.fetch;
    const sent: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith(`${PIR_TO_A_CLOSED_GATEWAY.REGISTRY_GATEWAY_URL}/registries/pir/commands`)) sent.push(JSON.parse(String(init?.body)).command.kind);
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      await run();
    } finally {
      globalThis.fetch = realFetch;
    }
    return sent;
  }

  it("the gaining account at its domains limit: the approve answers 422 quota_exceeded and the registry is sent no command, the sweep skips it sending none, nothing is written; with room both ask the registry (<domain:info>; 503, deferred)", async () => {
    const registrant = await createContact({ email: "approval-no-room@example.org" });
    const created = await api("POST", "/v1/domains", {
      json: { name: "approval-no-room.org", registrant: registrant.id, nameservers: ["ns1.example.net", "ns2.example.net"] },
    });
    expect(created.status, created.text).toBe(201);
    await env.DB.prepare("update domains set created_at = ?1 where id = ?2").bind("2020-01-01T00:00:00.000Z", created.body.id).run();
    const gaining = await customerAccount("approval-no-room-gaining");
    const requested = await apiWith({}, "POST", "/v1/domains/approval-no-room.org/transfer", {
      json: { auth_info: created.body.auth_info },
      authorization: gaining.auth,
    });
    expect(requested.status, requested.text).toBe(201);
    // Room when it asked; then the account is held to what it holds (no domain).
    const lowered = await api("PATCH", `/v1/accounts/${gaining.id}`, { json: { limits: { domains: 0 } } });
    expect(lowered.status, lowered.text).toBe(200);
    const before = await connected("GET", "/v1/domains/approval-no-room.org");

    let refused: ApiResponse | undefined;
    expect(
      await commandsSentBy(async () => {
        refused = await connected("POST", "/v1/domains/approval-no-room.org/transfer/approve");
      }),
    ).toEqual([]);
    const problem = expectProblem(refused!, 422, "quota_exceeded");
    expect(problem.errors).toEqual([{ field: "domains", message: expect.stringMatching(/\(limit domains\)/) }]);
    const after = await connected("GET", "/v1/domains/approval-no-room.org");
    expect(after.body).toEqual(before.body);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect((await connected("GET", "/v1/domains/approval-no-room.org/transfer")).body).toMatchObject({ status: "pending", acted_at: null });
    const gainingContacts = await apiWith({}, "GET", "/v1/contacts", { authorization: gaining.auth });
    expect(gainingContacts.body.data).toEqual([]);

    // The sweep past act_by (only this transfer is due then): skipped, nothing sent (a registry asked and out of reach: deferred, more).
    await env.DB.prepare("update transfers set act_by = ?1 where domain_id = ?2").bind("2021-01-01T00:00:00.000Z", created.body.id).run();
    const sweepAt = {
      now: new Date("2021-01-01T00:01:00.000Z"),
      actor: "test",
      limits: BUILT_IN_LIMITS,
      connected: new Set(["pir"]),
      settings: PIR_TO_A_CLOSED_GATEWAY,
    };
    const db = database(env.DB);
    let report: Awaited<ReturnType<typeof sweep>> | undefined;
    expect(
      await commandsSentBy(async () => {
        report = await sweep(db, sweepAt);
      }),
    ).toEqual([]);
    expect(report).toMatchObject({ transfers_approved: 0, skipped: 1, more: false });
    expect((await connected("GET", "/v1/domains/approval-no-room.org")).headers.get("etag")).toBe(before.headers.get("etag"));
    const held = await env.DB.prepare("select count(*) as n from registry_objects where repository_id = 'pir'").first<{ n: number }>();
    expect(held?.n).toBe(0);

    // With room, both go on to the registry (its gateway out of reach here).
    const raised = await api("PATCH", `/v1/accounts/${gaining.id}`, { json: { limits: { domains: null } } });
    expect(raised.status, raised.text).toBe(200);
    expect(
      await commandsSentBy(async () => {
        expectProblem(await connected("POST", "/v1/domains/approval-no-room.org/transfer/approve"), 503, "registry_unavailable");
      }),
    ).toEqual(["domain:info"]);
    expect(
      await commandsSentBy(async () => {
        report = await sweep(db, sweepAt);
      }),
    ).toEqual(["domain:info"]);
    expect(report).toMatchObject({ transfers_approved: 0, skipped: 1, more: true });
    expect((await connected("GET", "/v1/domains/approval-no-room.org/transfer")).body).toMatchObject({ status: "pending", acted_at: null });
  });
});

describe("a connected registration's D1 round trips", () => {
  /** A registration under PIR_TO_A_CLOSED_GATEWAY and what it cost D1, the caller's token read just before (not the registration's cost). */
  async function registration(name: string, registrant: string) {
    await connected("GET", "/v1/extensions/com");
    const request = new Request("http://api.test/v1/domains", {
      method: "POST",
      headers: { authorization: bearer("write"), "content-type": "application/json" },
      body: JSON.stringify({ name, registrant, nameservers: ["ns1.rt.example.fr", "ns2.rt.example.fr"] }),
    });
    const { response, cost } = await costOfRequest(request, PIR_TO_A_CLOSED_GATEWAY);
    return { status: response.status, code: response.status >= 400 ? ((await response.json()) as { code: string }).code : null, cost };
  }
  const statements = (cost: D1Cost) => [...cost.batches.flat(), ...cost.singles].map((s) => s.sql);
  const readsRegistryObjects = (sql: string) => /"registry_objects"/.test(sql);

  it("the registry's ids come in the registration's one read batch: the registry is asked after as many round trips as a builtin registration's reads", async () => {
    const registrant = (await createContact({ name: "Round Trips" })).id;
    // The registry holds the contact and both hosts from us (as an earlier registration there recorded).
    await env.DB.batch(
      [
        ["contact", registrant, "crt0000000000001"],
        ["host", "ns1.rt.example.fr", "ns1.rt.example.fr"],
        ["host", "ns2.rt.example.fr", "ns2.rt.example.fr"],
      ].map(([type, id, registryId]) =>
        env.DB.prepare(
          "INSERT INTO registry_objects (repository_id, object_type, object_id, registry_id, roid, created_at) VALUES ('pir', ?, ?, ?, NULL, '2026-01-01T00:00:00.000Z')",
        ).bind(type, id, registryId),
      ),
    );
    const builtin = await registration("round-trips-builtin.com", registrant);
    expect(builtin.status).toBe(201);
    // pir's gateway is out of reach: the registration stops at its one command, <domain:create>, and writes nothing.
    const connectedOne = await registration("round-trips-connected.org", registrant);
    expect([connectedOne.status, connectedOne.code]).toEqual([503, "registry_unavailable"]);
    // The builtin registration: its read batch and its write batch. The connected one: the same read batch, the
    // registry's ids in it (one statement more); after the registry's answer it would write in one batch as well.
    expect(roundTrips(connectedOne.cost)).toBe(roundTrips(builtin.cost) - 1);
    expect(connectedOne.cost.batches.filter((batch) => batch.some((s) => readsRegistryObjects(s.sql))).length).toBe(1);
    expect(connectedOne.cost.singles.filter((s) => readsRegistryObjects(s.sql))).toEqual([]);
    expect(statements(builtin.cost).filter(readsRegistryObjects)).toEqual([]);
  });

  it("the registry's ids are read by the primary key, one probe per (type, id), never the repository's whole range", async () => {
    const { sql, params } = registryObjectsHeld(database(env.DB), "pir", { contacts: ["con_1", "con_2"], hosts: ["ns1.example.fr"] }).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^SEARCH registry_objects USING INDEX \S+ \(repository_id=\? AND object_type=\? AND object_id=\?\)$/),
    ]);
  });

  it("a contact the registry does not hold yet costs one read more (its fields, for its <contact:create>), and nothing else", async () => {
    const registrant = (await createContact({ name: "Not Held" })).id;
    await env.DB.batch(
      ["ns1.rt.example.fr", "ns2.rt.example.fr"].map((host) =>
        env.DB.prepare(
          "INSERT OR IGNORE INTO registry_objects (repository_id, object_type, object_id, registry_id, roid, created_at) VALUES ('pir', 'host', ?, ?, NULL, '2026-01-01T00:00:00.000Z')",
        ).bind(host, host),
      ),
    );
    const builtin = await registration("not-held-builtin.com", registrant);
    expect(builtin.status).toBe(201);
    const connectedOne = await registration("not-held-connected.org", registrant);
    expect([connectedOne.status, connectedOne.code]).toEqual([503, "registry_unavailable"]);
    expect(roundTrips(connectedOne.cost)).toBe(roundTrips(builtin.cost));
    expect(connectedOne.cost.singles.map((s) => s.sql).filter((sql) => /from "contacts"/.test(sql))).toHaveLength(1);
  });
});

describe("reconciliation takes a repository's overdue domains first (expired here, not compared with the registry since)", () => {
  const DAY = 86_400_000;
  /** A .org domain registered while pir is builtin, its expiry then set `daysAgo` in the past (the registry's clock decides it from there). */
  async function orgDomain(name: string, daysAgo: number | null) {
    const res = await api("POST", "/v1/domains", { json: { name, nameservers: ["ns1.example.fr", "ns2.example.fr"] } });
    expect(res.status, res.text).toBe(201);
    if (daysAgo !== null)
      await env.DB.prepare("UPDATE domains SET expires_at = ? WHERE id = ?")
        .bind(new Date(Date.now() - daysAgo * DAY).toISOString(), res.body.id)
        .run();
    return res.body as { id: string };
  }

  it("the overdue query lists only expired domains not compared since, most overdue first, whatever their ids", async () => {
    const current = await orgDomain("overdue-q-current.org", null);
    const late = await orgDomain("overdue-q-late.org", 3);
    const later = await orgDomain("overdue-q-later.org", 40);
    const comparedSince = await orgDomain("overdue-q-compared.org", 10);
    await env.DB.prepare("INSERT INTO registry_domains (domain_id, repository_id, reconciled_at) VALUES (?, 'pir', ?)")
      .bind(comparedSince.id, new Date(Date.now() - DAY).toISOString())
      .run();
    const rows = await overdueForReconciliation(database(env.DB), "pir", new Date().toISOString(), 100);
    const ids = rows.map((r) => r.id);
    expect(ids.indexOf(later.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(later.id)).toBeLessThan(ids.indexOf(late.id));
    expect(ids).not.toContain(current.id);
    expect(ids).not.toContain(comparedSince.id);
  });

  it("a run takes the overdue domain before the pass's first (report overdue 1): with the gateway out of reach it stops there, failed 1, and the pass has not moved", async () => {
    await orgDomain("overdue-run-a.org", null);
    const overdue = await orgDomain("overdue-run-z.org", 400);
    const res = await connected("POST", "/v1/repositories/pir/reconcile/run", { json: { limit: 1 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ repository: "pir", overdue: expect.any(Number), checked: 0, failed: 1, more: true, pass_complete: false });
    expect(res.body.overdue).toBe(1);
    const state = await env.DB.prepare("SELECT after_domain_id FROM registry_reconciliations WHERE repository_id = 'pir'").first();
    expect(state).toEqual({ after_domain_id: null });
    const rows = await overdueForReconciliation(database(env.DB), "pir", new Date().toISOString(), 1);
    expect(rows.map((r) => r.id)).toEqual([overdue.id]);
  });
});
