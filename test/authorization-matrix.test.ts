// The authorization matrix: every operation of the OpenAPI document × every kind of caller,
// with the outcome each must get. The operations come from the served document, so a route
// added without a row here fails the test; the outcomes are written out by hand, so a
// route declared too open (or too closed) fails too. Who may do what is declared on each
// route (`access`, src/access/route-access.ts; docs/accounts.md "Who may use which route").
//
// Outcomes: V the caller reaches the object (not 401/403/404), P the route lets the caller
// through (not 401/403: the handler may still answer 404, 409, 412 or 422), H hidden
// (404: another account's object, or one outside a narrow token's names), F 403 forbidden,
// U 401 unauthorized. No caller ever gets a 5xx.
//
// Writes that pass authorization must not change the objects the other rows use: PATCH
// and DELETE carry `If-Match: "never"` (412 after authorization), creations an empty body
// (422), and the actions bodies that the handler refuses after it has found the object.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { archiveEvents } from "../src/jobs/event-archive";
import { type ApiResponse, adaAddress, api } from "./helpers";
import { bearer } from "./tokens";

const CALLERS = ["operator", "write", "read", "zone", "domain", "records", "dns", "expired", "revoked", "suspended", "other"] as const;
type Caller = (typeof CALLERS)[number];

//                                    o  w  r  z  d  rec dns exp rev sus other
const EXPECTED: Record<string, string> = {
  getIndex: "VVVVVVVVVVV",
  listProblemTypes: "VVVVVVVVVVV",
  getProblemType: "VVVVVVVVVVV",

  listExtensions: "VVVVVFFUUFV",
  getExtension: "VVVVVFFUUFV",
  listRepositories: "VVVVVFFUUFV",
  getRepository: "VVVVVFFUUFV",

  listContacts: "VVVFFFFUUFV",
  listRepositoryContacts: "VVVFFFFUUFV",
  getContact: "VVVFFFFUUFH",
  createContact: "PPFFFFFUUFP",
  updateContact: "PPFFFFFUUFH",
  deleteContact: "PPFFFFFUUFH",

  listHosts: "VVVFFFFUUFV",
  listRepositoryHosts: "VVVFFFFUUFV",
  getHost: "VVVFFFFUUFH",
  createHost: "PPFFFFFUUFP",
  updateHost: "PPFFFFFUUFH",
  deleteHost: "PPFFFFFUUFH",

  listDomains: "VVVVVFFUUFV",
  listRepositoryDomains: "VVVVVFFUUFV",
  checkDomains: "VVVVVFFUUFV",
  getDomain: "VVVHVFFUUFH",
  createDomain: "PPFFFFFUUFP",
  updateDomain: "PPFHPFFUUFH",
  deleteDomain: "PPFHPFFUUFH",
  renewDomain: "PPFHPFFUUFH",
  restoreDomain: "PPFHPFFUUFH",
  requestTransfer: "PPFHPFFUUFP",
  getTransfer: "PPPHPFFUUFH",
  approveTransfer: "PPFHPFFUUFH",
  rejectTransfer: "PPFHPFFUUFH",
  cancelTransfer: "PPFHPFFUUFH",

  listZones: "VVVVVVFUUFV",
  getZone: "VVVVHVFUUFH",
  createZone: "PPFFFFFUUFP",
  updateZone: "PPFPHFFUUFH",
  deleteZone: "PPFPHFFUUFH",
  enableDnssec: "PPFPHFFUUFH",
  getDnssec: "VVVVHVFUUFH",
  updateDnssec: "PPFPHFFUUFH",
  startDnssecRollover: "PPFPHFFUUFH",
  reportDnssecDsSeen: "PFFFFFFUUFF",
  disableDnssec: "PPFPHFFUUFH",

  listRecords: "VVVVVVFUUFV",
  listZoneRecords: "VVVVHVFUUFH",
  getRecord: "VVVVHVFUUFH",
  createRecord: "PPFPPPFUUFP",
  updateRecord: "PPFPHPFUUFH",
  deleteRecord: "PPFPHPFUUFH",
  applyZoneChanges: "PPFPHPFUUFH",

  listEvents: "VVVVVFFUUFV",
  getEvent: "VVVVHFFUUFH",
  listEventArchive: "VVVFFFFUUFV",
  getEventArchive: "VVVFFFFUUFH",
  runEventArchive: "PFFFFFFUUFF",

  listTokens: "VVVFFFFUUFV",
  getToken: "VVVFFFFUUFH",
  createToken: "PPFFFFFUUFP",
  deleteToken: "PPFFFFFUUFH",

  listAccounts: "VFFFFFFUUFF",
  getAccount: "VVVFFFFUUFH",
  createAccount: "PFFFFFFUUFF",
  updateAccount: "PFFFFFFUUFF",
  deleteAccount: "PFFFFFFUUFF",
  getMe: "VVVVVVFUUFV",

  runSweep: "PFFFFFFUUFF",
  receiveRegistryMessage: "PFFFFFFUUFF",
  runReconciliation: "PFFFFFFUUFF",
  runDnssec: "PFFFFFFUUFF",

  listTsigKeys: "VVVFFFFUUFV",
  getTsigKey: "VVVFFFFUUFH",
  createTsigKey: "PPFFFFFUUFP",
  updateTsigKey: "PPFFFFFUUFH",
  deleteTsigKey: "PPFFFFFUUFH",
  listWebhooks: "VVVFFFFUUFV",
  getWebhook: "VVVFFFFUUFH",
  createWebhook: "PPFFFFFUUFP",
  updateWebhook: "PPFFFFFUUFH",
  deleteWebhook: "PPFFFFFUUFH",
  rotateWebhookSecret: "PPFFFFFUUFH",
  listWebhookDeliveries: "VVVFFFFUUFH",
  replayWebhook: "PPFFFFFUUFH",
  pingWebhook: "PPFFFFFUUFH",
  dispatchWebhooks: "PFFFFFFUUFF",

  pdnsLookup: "UUUUUUVUUFU",
  pdnsList: "UUUUUUVUUFU",
  pdnsGetDomainInfo: "UUUUUUVUUFU",
  pdnsGetAllDomains: "UUUUUUVUUFU",
  pdnsGetAllDomainMetadata: "UUUUUUVUUFU",
  pdnsGetDomainMetadata: "UUUUUUVUUFU",
  pdnsGetDomainKeys: "UUUUUUVUUFU",
  pdnsGetBeforeAndAfterNamesAbsolute: "UUUUUUVUUFU",
  pdnsGetUpdatedMasters: "UUUUUUVUUFU",
  pdnsSetNotified: "UUUUUUVUUFU",
  pdnsGetTSIGKey: "UUUUUUVUUFU",
  pdnsDnsUpdate: "UUUUUUVUUFU",
};

const ZONE = "alice-matrix.com";
const tokens = {} as Record<Caller, string>;
/** Path parameters, by name: Alice's objects. */
const params: Record<string, string> = {};

type Operation = { operationId: string; "x-access"?: Record<string, unknown>; requestBody?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };
let doc: Document;

async function mint(authorization: string, body: Record<string, unknown>): Promise<{ bearer: string; id: string }> {
  const response = await api("POST", "/v1/tokens", { headers: { authorization }, json: body });
  expect(response.status, response.text).toBe(201);
  return { bearer: `Bearer ${response.body.secret}`, id: response.body.id };
}

async function account(name: string): Promise<string> {
  const response = await api("POST", "/v1/accounts", { json: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

async function created(response: ApiResponse): Promise<any> {
  expect(response.status, response.text).toBe(201);
  return response.body;
}

beforeAll(async () => {
  doc = (await api("GET", "/v1/openapi.json")).body;
  const operator = bearer("write");
  const alice = await account("Alice Matrix");
  const bob = await account("Bob Matrix");
  const carol = await account("Carol Matrix");
  const write = await mint(operator, { name: "alice-write", scope: "write", account: alice });
  const as = (body: Record<string, unknown>) => mint(write.bearer, body);
  tokens.operator = operator;
  tokens.write = write.bearer;
  tokens.read = (await as({ name: "alice-read", scope: "read" })).bearer;
  tokens.zone = (await as({ name: "alice-zone", scope: "write", zones: [ZONE] })).bearer;
  tokens.domain = (await as({ name: "alice-domain", scope: "write", domains: [ZONE] })).bearer;
  tokens.records = (await as({ name: "alice-records", scope: "write", records: [{ name: "_acme-challenge", types: ["TXT"] }] })).bearer;
  const expired = await as({ name: "alice-expired", scope: "write", expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  // Expired before its first use, so no isolate holds it verified.
  await env.DB.prepare("update api_tokens set expires_at = '2020-01-01T00:00:00.000Z' where id = ?").bind(expired.id).run();
  tokens.expired = expired.bearer;
  tokens.dns = (await mint(operator, { name: "matrix-dns", scope: "dns" })).bearer;
  tokens.revoked = bearer("revoked");
  tokens.other = (await mint(operator, { name: "bob-write", scope: "write", account: bob })).bearer;
  tokens.suspended = (await mint(operator, { name: "carol-write", scope: "write", account: carol })).bearer;
  expect((await api("PATCH", `/v1/accounts/${carol}`, { json: { status: "suspended" } })).status).toBe(200);

  const asAlice = { headers: { authorization: write.bearer } };
  const contact = await created(await api("POST", "/v1/contacts", { ...asAlice, json: { name: "Alice", email: "alice@example.org", address: adaAddress } }));
  const host = await created(await api("POST", "/v1/hosts", { ...asAlice, json: { name: "ns1.alice-matrix-dns.net" } }));
  await created(await api("POST", "/v1/domains", { ...asAlice, json: { name: ZONE, registrant: contact.id, nameservers: [host.name] } }));
  const zone = await created(await api("POST", "/v1/zones", { ...asAlice, json: { name: ZONE, nameservers: [host.name] } }));
  const record = await created(await api("POST", "/v1/records", { ...asAlice, json: { zone: ZONE, name: "_acme-challenge", type: "TXT", content: '"x"' } }));
  // An event of Alice's from long ago (numbered before all others, as it would have been), archived.
  await env.DB.prepare(
    "insert into events (seq, id, account_id, at, actor, resource_type, resource_id, operation, before, after) select min(seq) - 1, 'evt_01E0000000MATR1XARCH1VE00', ?, '2020-01-01T00:00:00.000Z', 'local', 'zone', ?, 'update', null, null from events",
  )
    .bind(alice, zone.id)
    .run();
  expect(await archiveEvents(database(env.DB), env.ARCHIVE, { now: new Date(), hotDays: 30 })).toMatchObject({ archived: 1, objects: 1 });
  const victim = await as({ name: "alice-victim", scope: "read" });
  const tsigKey = await created(
    await api("POST", "/v1/tsig-keys", { ...asAlice, json: { name: "matrix.alice-matrix.test", allow: ["transfer"], zones: [ZONE] } }),
  );
  const webhook = await created(await api("POST", "/v1/webhooks", { ...asAlice, json: { url: "https://93.184.215.14/alice" } }));
  // Pings and runs are refused at delivery time (a private address), so no request leaves the test.
  await env.DB.prepare("update webhooks set url = 'https://10.0.0.1/alice' where id = ?").bind(webhook.id).run();
  const events = await api("GET", `/v1/events?resource=${zone.id}`, asAlice);
  expect(events.status, events.text).toBe(200);
  Object.assign(params, {
    contact: contact.id,
    host: host.name,
    domain: ZONE,
    zone: ZONE,
    record: record.id,
    event: events.body.data[0].id,
    object: "arc_01E0000000MATR1XARCH1VE00",
    token: victim.id,
    webhook: webhook.id,
    account: alice,
    repository: "verisign",
    extension: "com",
    code: "not_found",
    // The DNS backend's arguments, as PowerDNS sends them.
    qname: `${ZONE}.`,
    qtype: "SOA",
    domain_id: "1",
    zonename: `${ZONE}.`,
    name: `${ZONE}.`,
    kind: "PRESIGNED",
    id: "1",
    key: tsigKey.id,
  });
});

function operations(): { method: string; template: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([template, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );
}

/** The request each operation is tried with: bodies that pass validation but change nothing. */
function requestFor(method: string, template: string, operationId: string, caller: Caller) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    // The DNS backend's token travels in the path: each caller presents its own there.
    if (name === "token" && template.startsWith("/pdns/")) return tokens[caller].replace(/^Bearer /, "");
    return encodeURIComponent(params[name]!);
  });
  const headers: Record<string, string> = { authorization: tokens[caller] };
  let json: unknown;
  if (method === "PATCH" || method === "DELETE") headers["if-match"] = '"never"';
  if (method === "PATCH") json = {};
  if (method === "POST") {
    const bodies: Record<string, unknown> = {
      renewDomain: { period: 1, current_expires_at: "2020-01-01T00:00:00.000Z" },
      requestTransfer: { auth_info: "Wrong-Password-1234" },
      // Within the records rules' name and type, and changing nothing (the content is not there).
      applyZoneChanges: { changes: [{ action: "remove", name: "_acme-challenge", type: "TXT", contents: ['"matrix-absent"'] }] },
      replayWebhook: { since: "2020-01-01T00:00:00Z" },
      // A ZSK roll: refused after the zone is found (unsigned, or one combined key under the default policy).
      startDnssecRollover: { kind: "zsk" },
      // Not DS data: refused (422) once the zone is found, or 409 for an unsigned zone.
      reportDnssecDsSeen: { ds: ["not a ds"] },
    };
    json = operationId in bodies ? bodies[operationId] : /^create/.test(operationId) ? {} : undefined;
  }
  return { path: path === "/" ? "/v1" : `/v1${path}`, headers, json };
}

function satisfies(outcome: string, response: ApiResponse): boolean {
  if (response.status >= 500) return false;
  switch (outcome) {
    case "V":
      return ![401, 403, 404].includes(response.status);
    case "P":
      return ![401, 403].includes(response.status);
    case "H":
      return response.status === 404 && response.body?.code === "not_found";
    case "F":
      return response.status === 403 && response.body?.code === "forbidden";
    case "U":
      return response.status === 401 && response.body?.code === "unauthorized";
  }
  return false;
}

describe("every route declares who may use it", () => {
  it("every operation of the OpenAPI document has an access declaration (x-access)", () => {
    const undeclared = operations()
      .filter(({ operation }) => operation["x-access"] === undefined)
      .map(({ operation }) => operation.operationId);
    expect(undeclared).toEqual([]);
  });

  it("GET routes need at most read, every other method write (or none, or the dns scope)", () => {
    const wrong = operations()
      .filter(({ method, operation }) => {
        const scope = operation["x-access"]?.scope;
        if (scope === "public" || scope === "dns") return false;
        return method === "GET" ? scope !== "read" : scope !== "write";
      })
      .map(({ operation }) => operation.operationId);
    expect(wrong).toEqual([]);
  });

  it("every operation has a row in the authorization matrix, and every row an operation", () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => !(id in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter((id) => !ids.includes(id))).toEqual([]);
  });
});

describe("the authorization matrix: every route × every kind of caller", () => {
  it("each caller gets the outcome its row says, on every route", async () => {
    const wrong: string[] = [];
    for (const { method, template, operation } of operations()) {
      const row = EXPECTED[operation.operationId];
      if (!row) continue;
      for (const [i, caller] of CALLERS.entries()) {
        const { path, headers, json } = requestFor(method, template, operation.operationId, caller);
        const response = await api(method, path, { headers, json });
        if (!satisfies(row[i]!, response)) {
          wrong.push(`${operation.operationId} as ${caller}: expected ${row[i]}, got ${response.status} ${response.body?.detail ?? ""}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 240_000);
});
