// Issue 18: what every operation of the OpenAPI document costs D1 — round trips (each
// batch and each statement run on its own is one trip to the primary or a replica), rows
// read and rows written as D1's own result meta reports them — measured through the
// Worker on a database seeded through the API. Each figure is guarded as an upper bound in
// a test named after the operation, so a change that adds a round trip or a scan fails by
// name. Reads are measured the second time they are asked (the isolate warm: the token and
// the catalog are cached per isolate). `npm run bench -- --cost` runs this file and prints
// the table it logs (COST_TABLE below); the README's Performance section quotes it.
import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COST_BOUNDS, type CostBound } from "./cost-bounds";
import { type CostedResponse, costOf, costOfRequest, roundTrips, tokenVerifiedAfresh, tripsText } from "./d1-cost";
import { answerOf, signed, updateMessage } from "./dns-update-messages";
import { database } from "../src/db/client";
import { archiveEvents } from "../src/jobs/event-archive";
import { addDnsToken, api, createContact } from "./helpers";
import { bearer } from "./tokens";

interface Measured {
  operation: string;
  /** What was asked: method, path and how. */
  request: string;
  status: number;
  round_trips: number;
  rows_read: number;
  rows_written: number;
  /** Rows in the answer's page (lists only). */
  page_rows?: number;
}

const measured = new Map<string, Measured>();
/** The marker the bench looks for in vitest's output. */
const COST_TABLE = "D1_COST_TABLE ";

type Options = { json?: unknown; body?: string; headers?: Record<string, string>; settings?: Record<string, string> };

async function send(method: string, path: string, options: Options): Promise<CostedResponse> {
  const headers = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  if (options.settings) {
    // Settings beside the runtime's bindings (a connected repository).
    const { response, cost } = await costOfRequest(
      new Request(`http://api.test${path}`, { method, headers: { authorization: bearer("write"), ...headers }, body }),
      options.settings,
    );
    const text = await response.text();
    return { status: response.status, text, body: /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined, cost };
  }
  return costOf(method, path, { body, headers });
}

/** Measures one operation: a read is asked twice and measured the second time. */
async function measure(operation: string, method: string, path: string, expected: number, options: Options = {}): Promise<CostedResponse> {
  // The caller's token verified afresh and its last_used_at written, if due, just before: a
  // loaded machine can run past the token cache's 10 s between two measures, and neither
  // the token's read nor that write is the operation's cost.
  const warm = () =>
    send("GET", "/v1/extensions/com", { headers: options.headers?.authorization ? { authorization: options.headers.authorization } : undefined });
  await warm();
  if (method === "GET") await send(method, path, options);
  let response = await send(method, path, options);
  // A read, measured again: on a machine loaded enough that the token cache's 10 s ran out
  // between the warm-up and the request, the request verified its token afresh.
  for (let again = 0; again < 2 && method === "GET" && tokenVerifiedAfresh(response.cost); again++) {
    await warm();
    response = await send(method, path, options);
  }
  expect(response.status, `${operation}: ${response.text.slice(0, 300)}`).toBe(expected);
  const how = [options.headers?.accept && `Accept: ${options.headers.accept}`, options.headers?.["content-type"] === "text/dns" && "text/dns"]
    .filter(Boolean)
    .join(", ");
  tripsOf.set(operation, tripsText(response.cost));
  measured.set(operation, {
    operation,
    request: `${method} ${path.replace(/\/pdns\/[^/]+/, "/pdns/{token}")}${how ? ` (${how})` : ""}`,
    status: response.status,
    round_trips: roundTrips(response.cost),
    rows_read: response.cost.rowsRead,
    rows_written: response.cost.rowsWritten,
    page_rows: Array.isArray(response.body?.data) ? response.body.data.length : undefined,
  });
  return response;
}

const LIMIT = 10;
const seeded = { contact: "", domain: "cost-0.com", host: "", zone: "cost-zone.test", record: "", event: "", account: "", token: "", archive: "" };
/** The PowerDNS connector's base path, with a dns token (beforeAll). */
let dnsBase = "";
const pdnsZone = "cost-zone%2etest%2e";

beforeAll(async () => {
  // No queue here: each write's queue message would run a delivery pass in the background a
  // second later (src/delivery/kick.ts), which the measured dispatches would meet
  // (its leases, its turned_away marks) or find done already. A pass is measured alone.
  Reflect.deleteProperty(env, "WEBHOOK_QUEUE");
  expect(env.WEBHOOK_QUEUE).toBeUndefined();
  const contact = await createContact({ email: "cost@example.org", address: { city: "Paris", country_code: "FR" } });
  seeded.contact = contact.id;
  for (let i = 0; i < 30; i++) {
    const domain = await api("POST", "/v1/domains", {
      json: {
        name: `cost-${i}.com`,
        registrant: contact.id,
        contacts: { admin: contact.id, tech: contact.id },
        nameservers: ["ns1.example.net", "ns2.example.net"],
      },
    });
    expect(domain.status, domain.text).toBe(201);
  }
  for (let i = 0; i < 20; i++) await createContact({ name: `Cost ${i}`, email: `cost${i}@example.org` });
  const host = await api("POST", "/v1/hosts", { json: { name: "ns1.cost-0.com", addresses: ["192.0.2.53"] } });
  expect(host.status, host.text).toBe(201);
  seeded.host = host.body.id;
  for (let i = 0; i < 20; i++) expect((await api("POST", "/v1/hosts", { json: { name: `ns${i}.cost-dns.net` } })).status).toBe(201);
  expect((await api("POST", "/v1/zones", { json: { name: seeded.zone } })).status).toBe(201);
  for (let i = 0; i < 30; i++) {
    const record = await api("POST", "/v1/records", { json: { zone: seeded.zone, name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` } });
    expect(record.status, record.text).toBe(201);
    seeded.record = record.body.id;
  }
  const account = await api("POST", "/v1/accounts", { json: { name: "Cost Customer" } });
  expect(account.status, account.text).toBe(201);
  seeded.account = account.body.id;
  const token = await api("POST", "/v1/tokens", { json: { name: "cost-customer", scope: "write", account: seeded.account } });
  expect(token.status, token.text).toBe(201);
  seeded.token = token.body.id;
  seeded.event = (await api("GET", "/v1/events?limit=1")).body.data[0].id;
  // An event from long ago (numbered before all others, as it would have been), archived.
  await env.DB.prepare(
    "insert into events (seq, id, at, actor, resource_type, resource_id, operation) select min(seq) - 1, 'evt_01E0000000C0STARCH1VE000', '2020-01-01T00:00:00.000Z', 'local', 'zone', 'zon_x', 'update' from events",
  ).run();
  expect(await archiveEvents(database(env.DB), env.ARCHIVE, { now: new Date(), hotDays: 30 })).toMatchObject({ archived: 1 });
  seeded.archive = "arc_01E0000000C0STARCH1VE000";
  dnsBase = await addDnsToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9H", "cost-dns", "cost-dns-secret-0123456789abcdef");
  // The isolate warm: the token and the catalog read once.
  await api("GET", "/v1/domains?limit=1");
}, 300_000); // a hang detector, as the suite's hookTimeout

// Logged for `npm run bench -- --cost` only (it sets PRINT_COST_TABLE), not in every test run.
afterAll(() => {
  if (!env.PRINT_COST_TABLE) return;
  const rows = [...measured.values()].map((m) => ({ ...m, bound: COST_BOUNDS[m.operation] }));
  console.log(`${COST_TABLE}${JSON.stringify(rows)}`);
});

/** The SQL of each measured operation's round trips: what a failure of its bound shows. */
const tripsOf = new Map<string, string>();

function expectWithin(operation: string) {
  const figures = measured.get(operation);
  const bound: CostBound | undefined = COST_BOUNDS[operation];
  expect(figures, `${operation} was measured`).toBeDefined();
  expect(bound, `${operation} has a bound in test/cost-bounds.ts`).toBeDefined();
  expect({ round_trips: figures!.round_trips, rows_read: figures!.rows_read, rows_written: figures!.rows_written }, tripsOf.get(operation)).toEqual({
    round_trips: Math.min(figures!.round_trips, bound!.round_trips),
    rows_read: Math.min(figures!.rows_read, bound!.rows_read),
    rows_written: Math.min(figures!.rows_written, bound!.rows_written),
  });
}

const json = { "content-type": "application/json" };

describe("every read costs at most its bound (the isolate warm)", () => {
  it.each([
    ["getIndex", "/v1"],
    ["listProblemTypes", "/v1/problems"],
    ["getProblemType", "/v1/problems/validation_failed"],
    ["listExtensions", `/v1/extensions?limit=${LIMIT}`],
    ["getExtension", "/v1/extensions/com"],
    ["listRepositories", `/v1/repositories?limit=${LIMIT}`],
    ["getRepository", "/v1/repositories/verisign"],
    ["listRepositoryDomains", `/v1/repositories/verisign/domains?limit=${LIMIT}`],
    ["listRepositoryContacts", `/v1/repositories/verisign/contacts?limit=${LIMIT}`],
    ["listRepositoryHosts", `/v1/repositories/verisign/hosts?limit=${LIMIT}`],
    ["listContacts", `/v1/contacts?limit=${LIMIT}`],
    ["getContact", () => `/v1/contacts/${seeded.contact}`],
    ["listDomains", `/v1/domains?limit=${LIMIT}`],
    ["getDomain", "/v1/domains/cost-0.com"],
    ["listHosts", `/v1/hosts?limit=${LIMIT}`],
    ["getHost", () => `/v1/hosts/${seeded.host}`],
    ["listZones", `/v1/zones?limit=${LIMIT}`],
    ["getZone", "/v1/zones/cost-zone.test"],
    ["listRecords", `/v1/records?limit=${LIMIT}`],
    ["listZoneRecords", `/v1/zones/cost-zone.test/records?limit=${LIMIT}`],
    ["getRecord", () => `/v1/records/${seeded.record}`],
    ["listEvents", `/v1/events?limit=${LIMIT}`],
    ["getEvent", () => `/v1/events/${seeded.event}`],
    ["listEventArchive", `/v1/events/archive?limit=${LIMIT}`],
    ["getEventArchive", () => `/v1/events/archive/${seeded.archive}`],
    ["listAccounts", `/v1/accounts?limit=${LIMIT}`],
    ["getAccount", () => `/v1/accounts/${seeded.account}`],
    ["getMe", "/v1/me"],
    ["listTokens", `/v1/tokens?limit=${LIMIT}`],
    ["getToken", () => `/v1/tokens/${seeded.token}`],
    ["getDnssec", "/v1/zones/cost-zone.test/dnssec"],
  ] as [string, string | (() => string)][])("%s", async (operation, path) => {
    await measure(operation, "GET", typeof path === "string" ? path : path(), 200);
    expectWithin(operation);
  });

  it("checkDomains: one round trip whatever the number of names (1 or 50)", async () => {
    const names = [
      ...Array.from({ length: 30 }, (_, i) => `cost-${i}.com`),
      ...Array.from({ length: 15 }, (_, i) => `cost-free-${i}.net`),
      "vacation.com",
      "nic.com",
      "www.cost-0.com",
      "cost.invalid",
      "münchen.de",
    ];
    expect(names).toHaveLength(50);
    const one = await measure("checkDomains", "GET", "/v1/domains/check?name=cost-0.com", 200);
    expect(roundTrips(one.cost), tripsText(one.cost)).toBe(1);
    const all = await measure("checkDomains", "GET", `/v1/domains/check?${names.map((n) => `name=${encodeURIComponent(n)}`).join("&")}`, 200);
    expect(all.body.data).toHaveLength(50);
    expectWithin("checkDomains");
  });

  it("getZone as a master file (text/dns)", async () => {
    await measure("getZone text/dns", "GET", "/v1/zones/cost-zone.test", 200, { headers: { accept: "text/dns" } });
    expectWithin("getZone text/dns");
  });

  it.each([
    ["pdnsLookup", `/lookup/h1%2e${pdnsZone}/ANY`],
    ["pdnsList", `/list/1/${pdnsZone}`],
    ["pdnsGetDomainInfo", `/getDomainInfo/${pdnsZone}`],
    ["pdnsGetAllDomains", `/getAllDomains?includeDisabled=false`],
    ["pdnsGetAllDomainMetadata", `/getAllDomainMetadata/${pdnsZone}`],
    ["pdnsGetDomainMetadata", `/getDomainMetadata/${pdnsZone}/SOA-EDIT`],
    ["pdnsGetDomainKeys", `/getDomainKeys/${pdnsZone}`],
  ])("%s", async (operation, path) => {
    await measure(operation, "GET", `${dnsBase}${path}`, 200, { headers: { authorization: "" } });
    expectWithin(operation);
  });

  it("pdnsGetUpdatedMasters", async () => {
    await measure("pdnsGetUpdatedMasters", "GET", `${dnsBase}/getUpdatedMasters`, 200, { headers: { authorization: "" } });
    expectWithin("pdnsGetUpdatedMasters");
  });

  it("pdnsSetNotified", async () => {
    const info = await api("GET", `${dnsBase}/getDomainInfo/${pdnsZone}`, { auth: false });
    const path = `${dnsBase}/setNotified/${info.body.result.id}`;
    const body = `serial=${info.body.result.serial}.000000`;
    await measure("pdnsSetNotified", "PATCH", path, 200, {
      body,
      headers: { authorization: "", "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
    });
    expectWithin("pdnsSetNotified");
  });

  it("pdnsGetBeforeAndAfterNamesAbsolute", async () => {
    const info = await api("GET", `${dnsBase}/getDomainInfo/${pdnsZone}`, { auth: false });
    const path = `${dnsBase}/getBeforeAndAfterNamesAbsolute/${info.body.result.id}/h1%2e`;
    await measure("pdnsGetBeforeAndAfterNamesAbsolute", "GET", path, 200, { headers: { authorization: "" } });
    expectWithin("pdnsGetBeforeAndAfterNamesAbsolute");
  });
});

describe("every write costs at most its bound", () => {
  it("createContact", async () => {
    await measure("createContact", "POST", "/v1/contacts", 201, { json: { name: "Cost New", email: "new@example.org" } });
    expectWithin("createContact");
  });
  it("updateContact", async () => {
    await measure("updateContact", "PATCH", `/v1/contacts/${seeded.contact}`, 200, { json: { organization: "Cost Ltd" }, headers: json });
    expectWithin("updateContact");
  });
  it("deleteContact", async () => {
    const contact = await createContact({ name: "Cost Gone", email: "gone@example.org" });
    await measure("deleteContact", "DELETE", `/v1/contacts/${contact.id}`, 204);
    expectWithin("deleteContact");
  });
  it("createDomain", async () => {
    await measure("createDomain", "POST", "/v1/domains", 201, {
      json: { name: "cost-new.com", registrant: seeded.contact, nameservers: ["ns1.example.net", "ns2.example.net"] },
    });
    expectWithin("createDomain");
  });
  it("updateDomain", async () => {
    await measure("updateDomain", "PATCH", "/v1/domains/cost-1.com", 200, { json: { auto_renew: false } });
    expectWithin("updateDomain");
  });
  it("renewDomain", async () => {
    const domain = await api("GET", "/v1/domains/cost-2.com");
    await measure("renewDomain", "POST", "/v1/domains/cost-2.com/renew", 200, { json: { period: 1, current_expires_at: domain.body.expires_at } });
    expectWithin("renewDomain");
  });
  it("deleteDomain and restoreDomain", async () => {
    expect((await api("POST", "/v1/domains", { json: { name: "cost-redeem.de", nameservers: ["ns1.example.net", "ns2.example.net"] } })).status).toBe(201);
    await measure("deleteDomain", "DELETE", "/v1/domains/cost-redeem.de", 202);
    await measure("restoreDomain", "POST", "/v1/domains/cost-redeem.de/restore", 200);
    expectWithin("deleteDomain");
    expectWithin("restoreDomain");
  });
  it("requestTransfer, getTransfer, approveTransfer, rejectTransfer, cancelTransfer", async () => {
    const gaining = await api("POST", "/v1/accounts", { json: { name: "cost-gaining" } });
    const token = await api("POST", "/v1/tokens", { json: { name: "cost-gaining", scope: "write", account: gaining.body.id } });
    const asGaining = { authorization: `Bearer ${token.body.secret}` };
    for (const [i, action] of ["reject", "cancel", "approve"].entries()) {
      // .de has no transfer lock after registration (the catalog), so a new one may move.
      const name = `cost-transfer-${i}.de`;
      expect((await api("POST", "/v1/domains", { json: { name, nameservers: ["ns1.example.net", "ns2.example.net"] } })).status).toBe(201);
      const authInfo = (await api("GET", `/v1/domains/${name}`)).body.auth_info;
      await measure("requestTransfer", "POST", `/v1/domains/${name}/transfer`, 201, { json: { auth_info: authInfo }, headers: asGaining });
      await measure("getTransfer", "GET", `/v1/domains/${name}/transfer`, 200, { headers: asGaining });
      await measure(`${action}Transfer`, "POST", `/v1/domains/${name}/transfer/${action}`, 200, action === "cancel" ? { headers: asGaining } : {});
    }
    for (const operation of ["requestTransfer", "getTransfer", "approveTransfer", "rejectTransfer", "cancelTransfer"]) expectWithin(operation);
  });
  it("createHost", async () => {
    await measure("createHost", "POST", "/v1/hosts", 201, { json: { name: "ns2.cost-0.com", addresses: ["192.0.2.54"] } });
    expectWithin("createHost");
  });
  it("updateHost", async () => {
    await measure("updateHost", "PATCH", `/v1/hosts/${seeded.host}`, 200, { json: { addresses: ["192.0.2.55"] } });
    expectWithin("updateHost");
  });
  it("deleteHost", async () => {
    await measure("deleteHost", "DELETE", "/v1/hosts/ns19.cost-dns.net", 204);
    expectWithin("deleteHost");
  });
  it("createZone", async () => {
    await measure("createZone", "POST", "/v1/zones", 201, { json: { name: "cost-new-zone.test" } });
    expectWithin("createZone");
  });
  it("createZone from a master file (text/dns, 100 records)", async () => {
    const lines = ["$ORIGIN cost-import.test.", "$TTL 300", "@ NS ns1.example.org."];
    for (let i = 0; i < 100; i++) lines.push(`h${i} A 10.0.0.${i}`);
    await measure("createZone text/dns", "POST", "/v1/zones", 201, { body: `${lines.join("\n")}\n`, headers: { "content-type": "text/dns" } });
    expectWithin("createZone text/dns");
  });
  it("updateZone", async () => {
    await measure("updateZone", "PATCH", "/v1/zones/cost-new-zone.test", 200, { json: { default_ttl: 600 } });
    expectWithin("updateZone");
  });
  it("deleteZone", async () => {
    await measure("deleteZone", "DELETE", "/v1/zones/cost-new-zone.test", 204);
    expectWithin("deleteZone");
  });
  it("createRecord", async () => {
    await measure("createRecord", "POST", "/v1/records", 201, { json: { zone: seeded.zone, name: "new", type: "A", content: "192.0.2.200" } });
    expectWithin("createRecord");
  });
  it("updateRecord", async () => {
    await measure("updateRecord", "PATCH", `/v1/records/${seeded.record}`, 200, { json: { content: "192.0.2.201" } });
    expectWithin("updateRecord");
  });
  it("deleteRecord", async () => {
    await measure("deleteRecord", "DELETE", `/v1/records/${seeded.record}`, 204);
    expectWithin("deleteRecord");
  });
  it("applyZoneChanges", async () => {
    await measure("applyZoneChanges", "POST", "/v1/zones/cost-zone.test/changes", 200, {
      json: {
        changes: [
          { action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"cost"'] },
          { action: "replace", name: "h1", type: "A", ttl: 300, contents: ["192.0.2.101", "192.0.2.102"] },
          { action: "remove", name: "h2", type: "A", contents: ["192.0.2.3"] },
          { action: "delete", name: "h3", type: "A" },
        ],
      },
    });
    expectWithin("applyZoneChanges");
  });
  it("applyZoneChanges with 1 000 changes: as many round trips as with 4", async () => {
    const changes = Array.from({ length: 1000 }, (_, i) => ({ action: "add", name: `bulk${i}`, type: "A", contents: [`10.1.${i >> 8}.${i & 255}`] }));
    await measure("applyZoneChanges 1000 changes", "POST", "/v1/zones/cost-zone.test/changes", 200, { json: { changes } });
    expectWithin("applyZoneChanges 1000 changes");
  });
  it("enableDnssec and disableDnssec", async () => {
    await measure("enableDnssec", "POST", "/v1/zones/cost-zone.test/dnssec", 201);
    await measure("updateDnssec", "PATCH", "/v1/zones/cost-zone.test/dnssec", 200, { json: { policy: { zsk_lifetime_days: 90, single_key: false } } });
    // At once (force): no domain here, so without it the zone would leave DNSSEC by RFC 8078 (202).
    await measure("disableDnssec", "DELETE", "/v1/zones/cost-zone.test/dnssec?force=true", 204);
    expectWithin("enableDnssec");
    expectWithin("updateDnssec");
    expectWithin("disableDnssec");
  });
  it("startDnssecRollover, reportDnssecDsSeen and runDnssec: a KSK roll's first step, the parent seen, the next step", async () => {
    // The zone's policy (updateDnssec above): a KSK and a ZSK.
    expect((await api("POST", "/v1/zones/cost-zone.test/dnssec")).status).toBe(201);
    await measure("startDnssecRollover", "POST", "/v1/zones/cost-zone.test/dnssec/rollover", 200, { json: { kind: "ksk" } });
    await measure("reportDnssecDsSeen", "POST", "/v1/zones/cost-zone.test/dnssec/ds-seen", 200, { json: {} });
    // A policy change makes the zone due now: the run reads it, finds its roll waiting for the DS TTL, and writes its next look.
    expect((await api("PATCH", "/v1/zones/cost-zone.test/dnssec", { json: { policy: { ksk_lifetime_days: 365 } } })).status).toBe(200);
    const run = await measure("runDnssec", "POST", "/v1/dnssec/run", 200);
    expect(run.body).toMatchObject({ zones: 1, steps: 0, failed: 0 });
    expect((await api("DELETE", "/v1/zones/cost-zone.test/dnssec?force=true")).status).toBe(204);
    expectWithin("startDnssecRollover");
    expectWithin("reportDnssecDsSeen");
    expectWithin("runDnssec");
  });
  it("createAccount", async () => {
    await measure("createAccount", "POST", "/v1/accounts", 201, { json: { name: "Cost Another" } });
    expectWithin("createAccount");
  });
  it("updateAccount", async () => {
    await measure("updateAccount", "PATCH", `/v1/accounts/${seeded.account}`, 200, { json: { name: "Cost Customer Ltd" } });
    expectWithin("updateAccount");
  });
  it("createToken", async () => {
    await measure("createToken", "POST", "/v1/tokens", 201, { json: { name: "cost-read", scope: "read" } });
    expectWithin("createToken");
  });
  it("deleteToken", async () => {
    await measure("deleteToken", "DELETE", `/v1/tokens/${seeded.token}`, 204);
    expectWithin("deleteToken");
  });
  it("runSweep", async () => {
    await measure("runSweep", "POST", "/v1/lifecycle/sweep", 200);
    expectWithin("runSweep");
  });
  // .com connected (our client id `domain-api`) to a gateway nobody answers: what the Worker itself costs.
  const connectedCom = {
    REGISTRY_CONNECTORS: JSON.stringify({ verisign: { client_id: "domain-api" } }),
    REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
    REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
  };
  it("receiveRegistryMessage", async () => {
    const requested = {
      repository: "verisign",
      client_id: "domain-api",
      message: {
        code: 1301,
        msgQ: { count: 1, id: "cost-1", msg: "Transfer requested." },
        resData: [
          {
            kind: "domain:trnData",
            name: seeded.domain,
            trStatus: "pending",
            reID: "other-registrar",
            reDate: "2026-11-22T09:30:00.000Z",
            acID: "domain-api",
            acDate: "2026-11-27T09:30:00.000Z",
          },
        ],
        extensions: [],
        trID: { svTRID: "LR-1" },
      },
    };
    const res = await measure("receiveRegistryMessage", "POST", "/v1/registry-messages", 200, { json: requested, settings: connectedCom });
    expect(res.body).toMatchObject({ outcome: "applied" });
    expectWithin("receiveRegistryMessage");
  });
  it("runReconciliation", async () => {
    const res = await measure("runReconciliation", "POST", "/v1/repositories/verisign/reconcile/run", 200, { settings: connectedCom });
    expect(res.body).toMatchObject({ failed: 1, more: true });
    expectWithin("runReconciliation");
  });
  it("runEventArchive", async () => {
    await measure("runEventArchive", "POST", "/v1/events/archive/run", 200);
    expectWithin("runEventArchive");
  });
  it("TSIG keys, and a DNS UPDATE through the update gateway's route", async () => {
    const created = await measure("createTsigKey", "POST", "/v1/tsig-keys", 201, {
      json: { name: "cost.cost-zone.test", allow: ["update", "transfer"], zones: ["cost-zone.test"] },
    });
    const id = created.body.id as string;
    await measure("getTsigKey", "GET", `/v1/tsig-keys/${id}`, 200);
    await measure("listTsigKeys", "GET", `/v1/tsig-keys?limit=${LIMIT}`, 200);
    await measure("updateTsigKey", "PATCH", `/v1/tsig-keys/${id}`, 200, { json: { records: [{ name: "www", types: ["A"] }] } });
    await measure("pdnsGetTSIGKey", "GET", `${dnsBase}/getTSIGKey/cost%2ecost-zone%2etest%2e`, 200);
    // One signed message replacing www A, as the gateway forwards it (binary body: measured here, not by `measure`).
    const key = { name: "cost.cost-zone.test", algorithm: created.body.algorithm, secret: created.body.secret };
    const message = await signed(
      updateMessage("cost-zone.test", [
        { deleteRrset: "www.cost-zone.test", type: "A" },
        { add: "www.cost-zone.test", type: "A", content: "192.0.2.12" },
      ]),
      key,
    );
    await send("GET", "/v1/extensions/com", {});
    const { response, cost } = await costOfRequest(
      new Request(`http://api.test${dnsBase}/update`, { method: "POST", headers: { "content-type": "application/dns-message" }, body: message }),
    );
    expect(response.status).toBe(200);
    expect(answerOf(new Uint8Array(await response.arrayBuffer())).rcode).toBe(0);
    measured.set("pdnsDnsUpdate", {
      operation: "pdnsDnsUpdate",
      request: "POST /v1/pdns/{token}/update (application/dns-message: replace an A RRset)",
      status: 200,
      round_trips: roundTrips(cost),
      rows_read: cost.rowsRead,
      rows_written: cost.rowsWritten,
    });
    await measure("deleteTsigKey", "DELETE", `/v1/tsig-keys/${id}`, 204);
    for (const operation of ["createTsigKey", "getTsigKey", "listTsigKeys", "updateTsigKey", "pdnsGetTSIGKey", "pdnsDnsUpdate", "deleteTsigKey"])
      expectWithin(operation);
  });
  it("webhooks: create, read, list, update, rotate, ping, deliveries, replay, dispatch, delete", async () => {
    const created = await measure("createWebhook", "POST", "/v1/webhooks", 201, { json: { url: "https://93.184.215.14/cost", event_types: ["zone.*"] } });
    const id = created.body.id as string;
    // A ping or a run then fails before any request leaves (a private address).
    await env.DB.prepare("update webhooks set url = 'https://10.0.0.1/cost' where id = ?").bind(id).run();
    await measure("getWebhook", "GET", `/v1/webhooks/${id}`, 200);
    await measure("listWebhooks", "GET", `/v1/webhooks?limit=${LIMIT}`, 200);
    await measure("updateWebhook", "PATCH", `/v1/webhooks/${id}`, 200, { json: { description: "cost" } });
    await measure("rotateWebhookSecret", "POST", `/v1/webhooks/${id}/rotate-secret`, 200);
    await measure("pingWebhook", "POST", `/v1/webhooks/${id}/ping`, 200);
    await measure("listWebhookDeliveries", "GET", `/v1/webhooks/${id}/deliveries?limit=${LIMIT}`, 200);
    await measure("replayWebhook", "POST", `/v1/webhooks/${id}/replay`, 202, { json: { since: "2020-01-01T00:00:00Z" } });
    await measure("dispatchWebhooks", "POST", "/v1/webhooks/dispatch", 200);
    // Ten webhooks owed new events: one pass serves them all (src/delivery/pass.ts),
    // each failing its first attempt before a request leaves (a private address).
    const ten: string[] = [];
    for (let i = 0; i < 10; i++) ten.push((await api("POST", "/v1/webhooks", { json: { url: "https://93.184.215.14/cost" } })).body.id as string);
    await env.DB.prepare("update webhooks set url = 'https://10.0.0.1/cost' where id in (select value from json_each(?))").bind(JSON.stringify(ten)).run();
    await measure("dispatchWebhooks 10 webhooks", "POST", "/v1/webhooks/dispatch", 200);
    for (const hook of ten) await api("DELETE", `/v1/webhooks/${hook}`);
    await measure("deleteWebhook", "DELETE", `/v1/webhooks/${id}`, 204);
    const ops = [
      "createWebhook",
      "getWebhook",
      "listWebhooks",
      "updateWebhook",
      "rotateWebhookSecret",
      "pingWebhook",
      "listWebhookDeliveries",
      "replayWebhook",
      "dispatchWebhooks",
      "dispatchWebhooks 10 webhooks",
      "deleteWebhook",
    ];
    for (const operation of ops) expectWithin(operation);
  });
  it("deleteAccount", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "Cost Closing" } });
    await measure("deleteAccount", "DELETE", `/v1/accounts/${account.body.id}`, 204);
    expectWithin("deleteAccount");
  });
});

describe("the cost table covers the OpenAPI document", () => {
  it("every operation of /v1/openapi.json has a bound, and every bound an operation", async () => {
    const doc = (await api("GET", "/v1/openapi.json", { auth: false })).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    const bounded = new Set(Object.keys(COST_BOUNDS).map((key) => key.split(" ")[0]!));
    expect(operations.filter((id) => !bounded.has(id))).toEqual([]);
    expect([...bounded].filter((id) => !operations.includes(id))).toEqual([]);
  });
});
