#!/usr/bin/env node
// The registry is the authority (docs/registries.md), end to end: two local registries
// (`npm run registry -- --port 0 --check-responses`), `verisign` (.com) connected to the
// first with the gateway reading its queue every second, `pir` (.org) to the second, and
// `npm start -- --registries FILE`. Through the API and the registries' control interfaces:
// poll messages (transfers another registrar asks for, approved, rejected, cancelled,
// auto-approved; transfers in, approved and rejected; the registry's own status change and
// deletion), pending states settled by poll (create, renew, an update of name servers,
// contacts and auth_info approved and refused, restore), a create whose answer was lost
// (sent once, the domain exists once, its Idempotency-Key replay sends nothing), outages
// (2502, the registry down, a 202 finishing after it), a slow registry holding only its own
// writes (shown by what the registries saw, not by the clock), reconciliation (drift
// followed, contacts and auth_info included, a domain gone marked), the registry's clock
// (the sweep leaving connected domains' renewal, redemption, purge and transfer approval to
// the registry), a transfer between two
// of our accounts (`eurid`, .eu, connected to a third registry: its auth_info the registry's,
// no year added, nothing owed, its approval naming the gaining account's contact copies at the
// registry, refused or its answer lost, held back while the gaining account has no room,
// reconciled with nothing to change), a pending update's
// auth_info from a registry whose info hides it — every frame the
// registries received schema-valid. Waits are hang detectors with generous bounds, never speed checks.
// Prints `ok - …` / `not ok - …` per check and `REGISTRY-AUTHORITY-E2E: N passed, M failed`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEqual, createHarness, expectStatus, httpClient, startDaemon, waitFor } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const harness = createHarness({ name: "registry-authority-e2e", label: "REGISTRY-AUTHORITY-E2E", readyTimeoutMs: 120_000, totalTimeoutMs: 900_000 });
const { check, startReported, run, tempDir } = harness;

const READY = /local registry ready: epp 127\.0\.0\.1:(\d+) control (http:\/\/127\.0\.0\.1:\d+) ca (\S+)/;
const NAMESERVERS = ["ns1.example.fr", "ns2.example.fr"];
const ADDRESS = { street: ["12 Example Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" };
/** The API answers within 10 s whatever the registry does (contract section 21). */
const ANSWER_WITHIN_MS = 10_000;
/** How long a poll message may take to change our copy: the gateway asks every second; this is a hang detector. */
const SETTLES_WITHIN_MS = 120_000;

async function startRegistry(name) {
  const registry = await startDaemon(process.execPath, [join(ROOT, "scripts", "registry.mjs"), "--port", "0", "--check-responses"], {
    name,
    ready: READY,
    timeoutMs: 120_000,
  });
  if (registry.notReady) throw new Error(`${name}: ${registry.notReady}`);
  const [, port, controlUrl, caFile] = READY.exec(registry.output);
  return { port: Number(port), control: httpClient(controlUrl, { timeoutMs: 15_000 }), ca: readFileSync(caFile, "utf8") };
}

async function main() {
  const work = tempDir("domain-api-registry-authority-e2e-");
  const [a, b, c] = await Promise.all([startRegistry("local registry A"), startRegistry("local registry B"), startRegistry("local registry C")]);
  const connectors = join(work, "registries.json");
  writeFileSync(
    connectors,
    JSON.stringify({
      verisign: { host: "127.0.0.1", port: a.port, client_id: "domain-api", password: "local-pw-1", ca: a.ca, poll_seconds: 1 },
      pir: { host: "127.0.0.1", port: b.port, client_id: "domain-api", password: "local-pw-1", ca: b.ca, poll_seconds: 1, sessions: 1 },
      // A registry of its own: a registry's poll queue is per registrar, read by one connector.
      eurid: { host: "127.0.0.1", port: c.port, client_id: "domain-api", password: "local-pw-1", ca: c.ca, poll_seconds: 1, sessions: 1 },
    }),
    { mode: 0o600 },
  );
  // A CURSOR_SECRET of its own: a request not from loopback (the second account's, below) needs one.
  const cursorSecret = `registry-authority-e2e-${Date.now().toString(36)}-cursor-key`.padEnd(40, "0");
  const base = await startReported("npm start -- --registries FILE", { args: ["--registries", connectors, "--var", `CURSOR_SECRET:${cursorSecret}`] });
  if (!base) return;
  const api = httpClient(base, { timeoutMs: 30_000 });
  const control = a.control;

  /** The commands registry A received since `from`. */
  const commandsSince = async (from, registry = control) => {
    const res = await registry("GET", "/commands");
    expectStatus(res, 200);
    return res.json.commands.slice(from);
  };
  const commandCount = async (registry = control) => (await commandsSince(0, registry)).length;
  /** One command as a registrar, at registry A (or B), without a session: its code and answer. */
  const as = async (clientId, command, registry = control) => {
    const res = await registry("POST", `/as/${clientId}`, { command, cl_trid: `e2e-${Date.now().toString(36)}` });
    expectStatus(res, 200);
    return { code: res.json.results[0].code, json: res.json };
  };
  const knobs = async (value, registry = control) => expectStatus(await registry("POST", "/knobs", value), 200);
  /** Waits until `predicate(domainResponse)` holds for GET /v1/domains/{name}; the last answer otherwise in the failure. */
  const domainUntil = async (name, predicate, what) => {
    let last = null;
    const took = await waitFor(
      async () => {
        last = await api("GET", `/v1/domains/${name}`);
        return predicate(last);
      },
      { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 500 },
    );
    assert(took !== null, `${name}: ${what} not within ${SETTLES_WITHIN_MS / 1000} s: ${last?.status} ${last?.text.slice(0, 400)}`);
    return last;
  };
  const eventsOf = async (id, operation) => {
    const res = await api("GET", `/v1/events?resource=${id}&operation=${operation}&limit=100`);
    expectStatus(res, 200);
    return res.json.data;
  };
  const pendingTransfer = (res) => res.status === 200 && res.json.status.includes("pendingTransfer");

  await check("the three connectors come up", async () => {
    for (const repository of ["verisign", "pir", "eurid"]) {
      let last = null;
      const up = await waitFor(
        async () => {
          last = await api("GET", `/v1/repositories/${repository}`);
          return last.json?.connector?.state === "up";
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      assert(up !== null, `${repository}: ${last?.text.slice(0, 300)}`);
    }
  });

  const tag = Date.now().toString(36);
  let contact = null;
  await check("a contact for the registrations", async () => {
    const res = await api("POST", "/v1/contacts", { name: "Authority E2E", email: `authority-${tag}@example.org`, phone: "+44.2071234567", address: ADDRESS });
    expectStatus(res, 201);
    contact = res.json.id;
  });
  const register = async (name, extra = {}, headers = {}) => {
    const res = await api(
      "POST",
      "/v1/domains",
      { name, registrant: contact, contacts: { admin: contact, tech: contact }, nameservers: NAMESERVERS, ...extra },
      headers,
    );
    return res;
  };
  const registered = async (name) => {
    const res = await register(name);
    expectStatus(res, 201);
    // Its ROID is asked for right after the 201 (one <domain:info>): waited for, so the commands a check counts next are its own.
    await domainUntil(name, (r) => r.status === 200 && typeof r.json.registry?.roid === "string", "the registry's ROID");
    return res.json;
  };

  // ---- poll messages: transfers another registrar asks for ---------------------------------

  const asked = `asked-${tag}.com`;
  let askedDomain = null;
  const otherAsks = async (name, authInfo) => {
    const res = await as("other-registrar", { kind: "domain:transfer", op: "request", name, authInfo, period: { value: 1, unit: "y" } });
    assertEqual(res.code, 1001, "the other registrar's transfer request");
  };
  await check(
    "another registrar asks for one of our domains: from its poll message the domain shows pendingTransfer, the transfer names that registrar",
    async () => {
      askedDomain = await registered(asked);
      await otherAsks(asked, askedDomain.auth_info);
      await domainUntil(asked, pendingTransfer, "pendingTransfer");
      const transfer = await api("GET", `/v1/domains/${asked}/transfer`);
      expectStatus(transfer, 200);
      assert(transfer.json.registrar === "other-registrar" && transfer.json.status === "pending", `transfer: ${transfer.text}`);
      assertEqual(transfer.json.losing_account, askedDomain.account, "losing_account");
      const events = await eventsOf(askedDomain.id, "transfer_request");
      assert(events.length === 1 && events[0].token === "registry:verisign", `events: ${JSON.stringify(events).slice(0, 300)}`);
    },
  );

  await check(
    'its account rejects it: <domain:transfer op="reject"> at the registry, the domain no longer pendingTransfer, the event with the registry\'s svTRID',
    async () => {
      const from = await commandCount();
      const res = await api("POST", `/v1/domains/${asked}/transfer/reject`);
      expectStatus(res, 200);
      assertEqual(res.json.status, "rejected", "status");
      const sent = (await commandsSince(from)).filter((x) => x.kind === "domain:transfer" && x.object === asked);
      assertEqual(
        sent.map((x) => x.code),
        [1000],
        "domain:transfer commands",
      );
      const now = await api("GET", `/v1/domains/${asked}`);
      assert(!now.json.status.includes("pendingTransfer"), `status: ${now.json.status}`);
      const events = await eventsOf(askedDomain.id, "transfer_reject");
      assert(/^LR-/.test(events[0]?.after?.registry_sv_trid ?? ""), `event: ${JSON.stringify(events[0]).slice(0, 300)}`);
    },
  );

  await check("asked again and approved by its account: the registry gives it to the other registrar, and it leaves the account", async () => {
    await otherAsks(asked, askedDomain.auth_info);
    await domainUntil(asked, pendingTransfer, "pendingTransfer");
    const res = await api("POST", `/v1/domains/${asked}/transfer/approve`);
    expectStatus(res, 200);
    assertEqual(res.json.status, "approved", "status");
    expectStatus(await api("GET", `/v1/domains/${asked}`), 404);
    const info = await as("other-registrar", { kind: "domain:info", name: asked });
    assertEqual(info.json.resData[0].clID, "other-registrar", "the registry's sponsor");
    assertEqual((await eventsOf(askedDomain.id, "transfer_approve")).length, 1, "transfer_approve events");
  });

  await check("the other registrar cancels its request: from the poll message the domain no longer shows pendingTransfer", async () => {
    const name = `cancelled-${tag}.com`;
    const domain = await registered(name);
    await otherAsks(name, domain.auth_info);
    await domainUntil(name, pendingTransfer, "pendingTransfer");
    assertEqual((await as("other-registrar", { kind: "domain:transfer", op: "cancel", name })).code, 1000, "cancel");
    await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingTransfer"), "no pendingTransfer");
    assertEqual((await api("GET", `/v1/domains/${name}/transfer`)).json.status, "cancelled", "transfer status");
  });

  // ---- transfers in -----------------------------------------------------------------------

  const otherDomain = async (name) => {
    const id = `o${tag}${name.length}`.slice(0, 16);
    await as("other-registrar", {
      kind: "contact:create",
      id,
      postalInfo: [{ type: "int", name: "Other", city: "Paris", cc: "FR" }],
      email: "o@example.org",
      authInfo: "Other-auth-12",
    });
    const created = await as("other-registrar", { kind: "domain:create", name, period: { value: 2, unit: "y" }, registrant: id, authInfo: "Other-auth-1234" });
    assertEqual(created.code, 1000, `another registrar's ${name}`);
  };

  const incoming = `incoming-${tag}.com`;
  await check(
    "a transfer in: POST …/transfer of another registrar's name asks the registry (202), and the domain joins the account with the registry's expiry once it approves",
    async () => {
      await otherDomain(incoming);
      const from = await commandCount();
      const res = await api("POST", `/v1/domains/${incoming}/transfer`, { auth_info: "Other-auth-1234" });
      expectStatus(res, 202);
      assert(res.json.registrar === "other-registrar" && res.json.status === "pending" && res.json.domain === null, `transfer: ${res.text}`);
      assertEqual(
        (await commandsSince(from)).filter((x) => x.kind === "domain:transfer").map((x) => x.code),
        [1001],
        "domain:transfer request",
      );
      assertEqual((await as("other-registrar", { kind: "domain:transfer", op: "approve", name: incoming })).code, 1000, "approve");
      const joined = await domainUntil(incoming, (r) => r.status === 200, "joined");
      const info = await as("domain-api", { kind: "domain:info", name: incoming });
      const data = info.json.resData[0];
      assertEqual(Date.parse(joined.json.expires_at), Date.parse(data.exDate), "expires_at (the registry's)");
      assertEqual(joined.json.registry?.roid, data.roid, "registry.roid");
      assertEqual((await api("GET", `/v1/domains/${incoming}/transfer`)).json.status, "approved", "transfer status");
    },
  );

  await check(
    "a transfer in that takes the account past its domains limit: the registry's approval message is applied (the domain joins, its event notes the limit, the account shows over_quota) and acked once, never handed over again",
    async () => {
      const name = `past-limit-${tag}.com`;
      await otherDomain(name);
      expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: "Other-auth-1234" }), 202);
      // Room was there when it asked; then the account fills it (here: its limit lowered to what it holds).
      const me = await api("GET", "/v1/me");
      expectStatus(me, 200);
      const account = me.json.account;
      expectStatus(await api("PATCH", `/v1/accounts/${account.id}`, { limits: { domains: account.usage.domains } }), 200);
      try {
        const from = await commandCount();
        assertEqual((await as("other-registrar", { kind: "domain:transfer", op: "approve", name })).code, 1000, "approve");
        const joined = await domainUntil(name, (r) => r.status === 200, "joined");
        // Acked: our queue at the registry empties (the poll as us, at the registry itself, takes nothing off it).
        let last = null;
        const empty = await waitFor(
          async () => {
            last = await as("domain-api", { kind: "poll", op: "req" });
            return last.code === 1300;
          },
          { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 500 },
        );
        assert(empty !== null, `our queue at the registry: ${JSON.stringify(last?.json).slice(0, 300)}`);
        const polls = (await commandsSince(from)).filter((x) => x.kind === "poll");
        const handed = polls.filter((x) => x.code === 1301);
        const acked = polls.filter((x) => x.code === 1000 && x.object !== undefined);
        assertEqual(handed.length, 1, "messages the gateway read (handed over to the API) since the approval");
        assertEqual(acked.length, 1, "messages acked since the approval");
        const events = await eventsOf(joined.json.id, "transfer_approve");
        assertEqual(events[0]?.after?.registry_over_quota, { account: account.id, quota: "domains", limit: account.usage.domains }, "registry_over_quota");
        const after = await api("GET", "/v1/me");
        assert(after.json.account.over_quota.includes("domains"), `account: ${JSON.stringify(after.json.account)}`);
        assertEqual(after.json.account.usage.domains, account.usage.domains + 1, "usage.domains");
      } finally {
        expectStatus(await api("PATCH", `/v1/accounts/${account.id}`, { limits: { domains: null } }), 200);
      }
    },
  );

  await check("a wrong auth_info for another registrar's name: 422 invalid_auth_info (the registry's 2202), nothing written", async () => {
    const name = `wrongauth-${tag}.com`;
    await otherDomain(name);
    const res = await api("POST", `/v1/domains/${name}/transfer`, { auth_info: "Not-the-password-1" });
    expectStatus(res, 422);
    assertEqual(res.json.code, "invalid_auth_info", "code");
    expectStatus(await api("GET", `/v1/domains/${name}/transfer`), 404);
  });

  await check("a transfer in rejected by the other registrar: from its poll message our transfer ends rejected", async () => {
    const name = `refused-${tag}.com`;
    await otherDomain(name);
    expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: "Other-auth-1234" }), 202);
    assertEqual((await as("other-registrar", { kind: "domain:transfer", op: "reject", name })).code, 1000, "reject");
    let last = null;
    const took = await waitFor(
      async () => {
        last = await api("GET", `/v1/domains/${name}/transfer`);
        return last.json?.status === "rejected";
      },
      { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 500 },
    );
    assert(took !== null, `transfer: ${last?.text}`);
  });

  // ---- the registry's own changes -------------------------------------------------------

  await check("the registry puts a domain on hold itself: from its poll message ours shows serverHold, an update event listing what differed", async () => {
    const name = `held-${tag}.com`;
    const domain = await registered(name);
    expectStatus(await control("POST", "/server-status", { name, add: ["serverHold"] }), 200);
    await domainUntil(name, (r) => r.status === 200 && r.json.status.includes("serverHold"), "serverHold");
    const events = await eventsOf(domain.id, "update");
    assert(
      events.some((e) => e.after.registry_differences?.some((d) => d.field === "status")),
      `events: ${JSON.stringify(events).slice(0, 400)}`,
    );
  });

  await check("the registry deletes a domain itself: from its poll message the domain leaves its account (purge)", async () => {
    const name = `deleted-by-registry-${tag}.com`;
    const domain = await registered(name);
    expectStatus(await control("POST", "/server-delete", { name }), 200);
    await domainUntil(name, (r) => r.status === 404, "gone");
    assertEqual((await eventsOf(domain.id, "purge")).length, 1, "purge events");
  });

  // ---- pending states ---------------------------------------------------------------------

  await check("a registration left pending (1001) is 202 pendingCreate; approved at the registry, its poll message settles it (settled event)", async () => {
    const name = `pending-ok-${tag}.com`;
    await knobs({ pending: { "domain:create": 1 } });
    const res = await register(name);
    expectStatus(res, 202);
    assert(res.json.status.includes("pendingCreate"), `status: ${res.json.status}`);
    expectStatus(await control("POST", "/settle", { name, approve: true }), 200);
    await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingCreate"), "settled");
    const settled = await eventsOf(res.json.id, "settled");
    assert(settled.length === 1 && settled[0].after.registry_result === true, `events: ${JSON.stringify(settled).slice(0, 300)}`);
  });

  await check("a registration the registry refuses after 1001: its poll message takes the domain out of the account", async () => {
    const name = `pending-no-${tag}.com`;
    await knobs({ pending: { "domain:create": 1 } });
    const res = await register(name);
    expectStatus(res, 202);
    expectStatus(await control("POST", "/settle", { name, approve: false }), 200);
    await domainUntil(name, (r) => r.status === 404, "gone");
    assertEqual((await eventsOf(res.json.id, "settled")).length, 1, "settled events");
  });

  await check("a renewal left pending is 202 pendingRenew with the expiry unchanged; settled, the expiry is the registry's", async () => {
    const name = `renew-pending-${tag}.com`;
    const domain = await registered(name);
    await knobs({ pending: { "domain:renew": 1 } });
    const res = await api("POST", `/v1/domains/${name}/renew`, { current_expires_at: domain.expires_at, period: 1 });
    expectStatus(res, 202);
    assert(res.json.status.includes("pendingRenew"), `status: ${res.json.status}`);
    assertEqual(res.json.expires_at, domain.expires_at, "expires_at while pending");
    expectStatus(await control("POST", "/settle", { name, approve: true }), 200);
    const settled = await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingRenew"), "settled");
    const info = await as("domain-api", { kind: "domain:info", name });
    assertEqual(Date.parse(settled.json.expires_at), Date.parse(info.json.resData[0].exDate), "expires_at (the registry's)");
    assert(Date.parse(settled.json.expires_at) > Date.parse(domain.expires_at), "the expiry moved on");
  });

  // ---- an update left pending --------------------------------------------------------------

  const PENDING_NAMESERVERS = ["ns3.example.fr", "ns4.example.fr"];
  let secondContact = null;
  await check("a second contact, for the updates below", async () => {
    const res = await api("POST", "/v1/contacts", {
      name: "Authority E2E Two",
      email: `authority-two-${tag}@example.org`,
      phone: "+44.2071234568",
      address: ADDRESS,
    });
    expectStatus(res, 201);
    secondContact = res.json;
  });
  /** What the registry itself holds of a domain, asked as us: its info's statuses, name servers, contacts by role, authInfo. */
  const atRegistry = async (name) => {
    const info = await as("domain-api", { kind: "domain:info", name });
    assertEqual(info.code, 1000, `the registry's info of ${name}`);
    const data = info.json.resData[0];
    const role = (type) => data.contacts.find((x) => x.type === type)?.id ?? null;
    return {
      statuses: data.statuses.map((x) => x.s),
      nameservers: data.nameservers,
      contacts: { admin: role("admin"), tech: role("tech"), billing: role("billing") },
      authInfo: data.authInfo,
    };
  };
  /** The email of the registry's contact of that id (our contact it stands for has the same). */
  const registryEmail = async (id) => {
    const info = await as("domain-api", { kind: "contact:info", id });
    assertEqual(info.code, 1000, `the registry's contact ${id}`);
    return info.json.resData[0].email;
  };
  const pendingUpdate = (res) => res.status === 200 && res.json.status.includes("pendingUpdate");
  /** The PATCH both pending-update checks send: name servers, the three contacts and auth_info. */
  const bigPatch = (authInfo) => ({
    nameservers: PENDING_NAMESERVERS,
    contacts: { admin: secondContact.id, tech: secondContact.id, billing: secondContact.id },
    auth_info: authInfo,
  });
  /** A registered domain with an update the registry left pending: the 202, what GET and the registry show meanwhile. */
  const leftPending = async (name, authInfo) => {
    const domain = await registered(name);
    const held = await atRegistry(name);
    await knobs({ pending: { "domain:update": 1 } });
    const from = await commandCount();
    const res = await api("PATCH", `/v1/domains/${name}`, bigPatch(authInfo));
    expectStatus(res, 202);
    assert(res.json.status.includes("pendingUpdate"), `status in the 202: ${res.json.status}`);
    const old = { nameservers: NAMESERVERS, contacts: { admin: contact, tech: contact, billing: null }, auth_info: domain.auth_info };
    assertEqual(
      { nameservers: res.json.nameservers, contacts: res.json.contacts, auth_info: res.json.auth_info },
      old,
      "the 202's name servers, contacts, auth_info",
    );
    assertEqual(
      (await commandsSince(from)).filter((x) => x.kind === "domain:update" && x.object === name).map((x) => x.code),
      [1001],
      "domain:update commands",
    );
    const read = await api("GET", `/v1/domains/${name}`);
    expectStatus(read, 200);
    assert(pendingUpdate(read), `status while pending: ${read.json.status}`);
    assertEqual(
      { nameservers: read.json.nameservers, contacts: read.json.contacts, auth_info: read.json.auth_info },
      old,
      "GET's name servers, contacts, auth_info while pending",
    );
    const registry = await atRegistry(name);
    assert(registry.statuses.includes("pendingUpdate"), `the registry's statuses: ${registry.statuses}`);
    assertEqual({ ...registry, statuses: undefined }, { ...held, statuses: undefined }, "what the registry holds while pending (its old values)");
    return { domain, held, pending: read };
  };

  const updatePending = `update-pending-${tag}.com`;
  let updatePendingState = null;
  await check(
    "an update the registry leaves pending (1001: name servers, admin/tech/billing contacts and auth_info) is 202 with pendingUpdate; GET and the registry still show the old values",
    async () => {
      updatePendingState = await leftPending(updatePending, `Pending-auth-${tag}-9`);
    },
  );

  await check("a second update while one is pending is 409 status_prohibits naming pendingUpdate, the registry not asked, nothing written", async () => {
    assert(updatePendingState !== null, "the update left pending above");
    const from = await commandCount();
    const res = await api("PATCH", `/v1/domains/${updatePending}`, { nameservers: NAMESERVERS.slice(0, 1) });
    expectStatus(res, 409);
    assertEqual(res.headers.get("content-type"), "application/problem+json; charset=utf-8", "content-type");
    assert(
      res.json.code === "status_prohibits" &&
        res.json.status === 409 &&
        res.json.type === "/v1/problems/status_prohibits" &&
        /pendingUpdate/.test(res.json.detail),
      `problem: ${res.text}`,
    );
    assertEqual((await commandsSince(from)).filter((x) => x.object === updatePending).length, 0, "commands about the domain sent to the registry");
    const read = await api("GET", `/v1/domains/${updatePending}`);
    assertEqual(read.headers.get("etag"), updatePendingState.pending.headers.get("etag"), "ETag (nothing written)");
  });

  await check(
    "the registry approves the pending update: from its panData poll message the domain shows the new name servers, contacts and auth_info, pendingUpdate gone, in one write (one settled event); the registry holds the same",
    async () => {
      assert(updatePendingState !== null, "the update left pending above");
      const { domain } = updatePendingState;
      const authInfo = `Pending-auth-${tag}-9`;
      expectStatus(await control("POST", "/settle", { name: updatePending, approve: true }), 200);
      const settled = await domainUntil(updatePending, (r) => r.status === 200 && !r.json.status.includes("pendingUpdate"), "settled");
      assertEqual(
        { nameservers: [...settled.json.nameservers].sort(), contacts: settled.json.contacts, auth_info: settled.json.auth_info },
        { nameservers: PENDING_NAMESERVERS, contacts: { admin: secondContact.id, tech: secondContact.id, billing: secondContact.id }, auth_info: authInfo },
        "name servers, contacts, auth_info once settled",
      );
      assertEqual(settled.json.registrant, contact, "registrant (unchanged)");
      const registry = await atRegistry(updatePending);
      assert(!registry.statuses.includes("pendingUpdate"), `the registry's statuses: ${registry.statuses}`);
      assertEqual([...registry.nameservers].sort(), PENDING_NAMESERVERS, "the registry's name servers");
      assertEqual(registry.authInfo, authInfo, "the registry's authInfo");
      for (const role of ["admin", "tech", "billing"])
        assertEqual(await registryEmail(registry.contacts[role]), secondContact.email, `the registry's ${role} contact's email`);
      // One write: the events since the 202's are exactly one settled event, which shows the new values and never the auth_info.
      const events = await api("GET", `/v1/events?resource=${domain.id}&limit=100`);
      expectStatus(events, 200);
      assertEqual(
        events.json.data.map((e) => e.operation),
        ["create", "update", "settled"],
        "the domain's events",
      );
      const event = events.json.data[2];
      assertEqual(event.token, "registry:verisign", "the settled event's token");
      assertEqual(event.after.registry_result, true, "registry_result");
      assertEqual(event.after.contacts, settled.json.contacts, "contacts in the settled event");
      assertEqual([...event.after.nameservers].sort(), PENDING_NAMESERVERS, "name servers in the settled event");
      const fields = event.after.registry_differences.map((d) => d.field).sort();
      assertEqual(fields, ["admin", "auth_info", "billing", "nameservers", "status", "tech"], "registry_differences");
      assert(
        !JSON.stringify(event).includes(authInfo) && !("auth_info" in event.after),
        `the settled event records no auth_info: ${JSON.stringify(event).slice(0, 400)}`,
      );
      // The name servers the registry now names are hosts here (external ones, created with the settlement).
      for (const ns of PENDING_NAMESERVERS) expectStatus(await api("GET", `/v1/hosts/${ns}`), 200);
      // And the domain takes updates again.
      expectStatus(await api("PATCH", `/v1/domains/${updatePending}`, { status: ["clientTransferProhibited"] }), 200);
    },
  );

  await check(
    "the registry refuses the pending update (panData paResult 0): the domain keeps its old name servers, contacts and auth_info, pendingUpdate gone (one settled event); the registry holds the old values too",
    async () => {
      const name = `update-refused-${tag}.com`;
      const { domain, held } = await leftPending(name, `Refused-auth-${tag}-9`);
      expectStatus(await control("POST", "/settle", { name, approve: false }), 200);
      const settled = await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingUpdate"), "settled");
      assertEqual(
        { nameservers: settled.json.nameservers, contacts: settled.json.contacts, auth_info: settled.json.auth_info },
        { nameservers: NAMESERVERS, contacts: { admin: contact, tech: contact, billing: null }, auth_info: domain.auth_info },
        "name servers, contacts, auth_info once refused",
      );
      const registry = await atRegistry(name);
      assertEqual(registry, { ...held, statuses: registry.statuses }, "what the registry holds once refused");
      assert(!registry.statuses.includes("pendingUpdate"), `the registry's statuses: ${registry.statuses}`);
      const events = await api("GET", `/v1/events?resource=${domain.id}&limit=100`);
      assertEqual(
        events.json.data.map((e) => e.operation),
        ["create", "update", "settled"],
        "the domain's events",
      );
      const event = events.json.data[2];
      assertEqual(event.after.registry_result, false, "registry_result");
      assertEqual(
        event.after.registry_differences.map((d) => d.field),
        ["status"],
        "registry_differences (pendingUpdate only)",
      );
    },
  );

  await check(
    "a pending update of auth_info settled by a registry whose <domain:info> shows no authInfo: approved, the domain takes the auth_info the PATCH asked for (kept with the pending update); refused, it keeps its own",
    async () => {
      const approved = `pending-auth-${tag}.com`;
      const refused = `pending-auth-refused-${tag}.com`;
      const domains = { [approved]: await registered(approved), [refused]: await registered(refused) };
      const asked = { [approved]: `Asked-auth-${tag}-1`, [refused]: `Asked-auth-${tag}-2` };
      await knobs({ hide_auth_info: true });
      try {
        for (const name of [approved, refused]) {
          await knobs({ pending: { "domain:update": 1 } });
          const res = await api("PATCH", `/v1/domains/${name}`, { auth_info: asked[name] });
          expectStatus(res, 202);
          assert(res.json.status.includes("pendingUpdate") && res.json.auth_info === domains[name].auth_info, `202: ${res.text.slice(0, 300)}`);
        }
        expectStatus(await control("POST", "/settle", { name: approved, approve: true }), 200);
        expectStatus(await control("POST", "/settle", { name: refused, approve: false }), 200);
        const settled = await domainUntil(approved, (r) => r.status === 200 && !r.json.status.includes("pendingUpdate"), "settled");
        assertEqual(settled.json.auth_info, asked[approved], "auth_info once approved (the one asked for: the registry's info shows none)");
        const kept = await domainUntil(refused, (r) => r.status === 200 && !r.json.status.includes("pendingUpdate"), "settled");
        assertEqual(kept.json.auth_info, domains[refused].auth_info, "auth_info once refused (its own)");
        const info = await as("domain-api", { kind: "domain:info", name: approved });
        assertEqual(info.json.resData[0].authInfo, undefined, "the registry's info shows no authInfo");
      } finally {
        await knobs({ reset: true });
      }
      // The registry holds what we hold.
      assertEqual((await atRegistry(approved)).authInfo, asked[approved], "the registry's authInfo (approved)");
      assertEqual((await atRegistry(refused)).authInfo, domains[refused].auth_info, "the registry's authInfo (refused)");
      const events = await eventsOf(domains[approved].id, "settled");
      assert(
        events.length === 1 && events[0].after.registry_differences.some((d) => d.field === "auth_info") && !JSON.stringify(events).includes(asked[approved]),
        `settled events: ${JSON.stringify(events).slice(0, 400)}`,
      );
    },
  );

  // ---- lost answers -----------------------------------------------------------------------

  await check(
    "a create whose answer is lost after the registry applied it: sent once, asked after (<domain:info>), 201; the domain exists once; its Idempotency-Key replay sends nothing",
    async () => {
      const name = `lost-${tag}.com`;
      await knobs({ drop_after_apply: { "domain:create": 1 } });
      const from = await commandCount();
      const key = `lost-${tag}`;
      const res = await register(name, {}, { "idempotency-key": key });
      expectStatus(res, 201);
      const creates = (await commandsSince(from)).filter((x) => x.kind === "domain:create" && x.object === name);
      assertEqual(creates.length, 1, "domain:create commands");
      assertEqual(creates[0].answered, false, "the create's answer was dropped");
      const asks = (await commandsSince(from)).filter((x) => x.kind === "domain:info" && x.object === name);
      assert(asks.length >= 1 && asks[0].clTRID === res.headers.get("x-request-id"), `domain:info after the lost answer: ${JSON.stringify(asks)}`);
      const state = await control("GET", "/state");
      assertEqual(state.json.domains.filter((d) => d === name).length, 1, "the registry's domains of that name");
      // The info that recovered the answer gave the ROID: stored in the create's own write, its event shows it.
      const info = await as("domain-api", { kind: "domain:info", name });
      assertEqual(res.json.registry?.roid, info.json.resData[0].roid, "registry.roid in the 201");
      const events = await api("GET", `/v1/events?resource=${res.json.id}&limit=100`);
      expectStatus(events, 200);
      assertEqual(
        events.json.data.map((e) => e.operation),
        ["create"],
        "the domain's events (the ROID written with the create, no write after it)",
      );
      assertEqual(events.json.data[0].after.registry?.roid, info.json.resData[0].roid, "registry.roid in the create event");
      const replay = await register(name, {}, { "idempotency-key": key });
      expectStatus(replay, 201);
      assertEqual(replay.headers.get("idempotent-replayed"), "true", "Idempotent-Replayed");
      assertEqual(
        (await commandsSince(from)).filter((x) => x.kind === "domain:create" && x.object === name).length,
        1,
        "domain:create commands after the replay",
      );
    },
  );

  await check(
    "a create answered 1000 learns its ROID after the 201 (creData has none): one <domain:info> under the request's clTRID, then GET shows the registry's ROID",
    async () => {
      const name = `roid-after-${tag}.com`;
      const from = await commandCount();
      const res = await register(name);
      expectStatus(res, 201);
      assertEqual(res.json.registry, null, "registry in the 201");
      const shown = await domainUntil(name, (r) => r.status === 200 && typeof r.json.registry?.roid === "string", "the registry's ROID");
      const sent = (await commandsSince(from)).filter((x) => x.object === name);
      assertEqual(
        sent.map((x) => `${x.kind} ${x.code} ${x.clTRID === res.headers.get("x-request-id")}`),
        ["domain:create 1000 true", "domain:info 1000 true"],
        "commands for the create (kind, code, the request's clTRID)",
      );
      const info = await as("domain-api", { kind: "domain:info", name });
      assertEqual(shown.json.registry.roid, info.json.resData[0].roid, "registry.roid");
    },
  );

  await check(
    "a create whose outcome could not be told (answer lost, the registry's info failing too): 503; its Idempotency-Key retry finds it ours at the registry, 201; the domain exists once",
    async () => {
      const name = `unknown-${tag}.com`;
      await knobs({ drop_after_apply: { "domain:create": 1 }, fail: { "domain:info": { code: 2400, count: 4 } } });
      const key = `unknown-${tag}`;
      const first = await register(name, {}, { "idempotency-key": key });
      expectStatus(first, 503);
      assertEqual(first.json.code, "registry_unavailable", "code");
      await knobs({ reset: true });
      expectStatus(await api("GET", `/v1/domains/${name}`), 404);
      const retry = await register(name, {}, { "idempotency-key": key });
      expectStatus(retry, 201);
      const state = await control("GET", "/state");
      assertEqual(state.json.domains.filter((d) => d === name).length, 1, "the registry's domains of that name");
      expectStatus(await api("GET", `/v1/domains/${name}`), 200);
    },
  );

  await check("an update whose answer is lost: sent once, its effect found by <domain:info>, 200", async () => {
    const name = `lost-update-${tag}.com`;
    await registered(name);
    await knobs({ drop_after_apply: { "domain:update": 1 } });
    const from = await commandCount();
    const res = await api("PATCH", `/v1/domains/${name}`, { status: ["clientTransferProhibited"] });
    expectStatus(res, 200);
    assertEqual((await commandsSince(from)).filter((x) => x.kind === "domain:update" && x.object === name).length, 1, "domain:update commands");
  });

  // ---- outages ----------------------------------------------------------------------------

  const outageName = `outage-${tag}.com`;
  await check(
    "the registry answers 2502 (closing the session): the write is 503 registry_unavailable with Retry-After within 10 s, then goes through",
    async () => {
      await registered(outageName);
      await knobs({ fail: { "*": { code: 2502, count: 2 } } });
      const started = Date.now();
      const res = await api("PATCH", `/v1/domains/${outageName}`, { status: ["clientHold"] });
      const took = Date.now() - started;
      expectStatus(res, 503);
      assertEqual(res.json.code, "registry_unavailable", "code");
      assert(Number(res.headers.get("retry-after")) > 0, `Retry-After: ${res.headers.get("retry-after")}`);
      assert(took < ANSWER_WITHIN_MS, `answered after ${took} ms`);
      await knobs({ reset: true });
      let last = null;
      const through = await waitFor(
        async () => {
          last = await api("PATCH", `/v1/domains/${outageName}`, { status: ["clientHold"] });
          return last.status === 200;
        },
        { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 1_000 },
      );
      assert(through !== null, `after the 2502s: ${last?.status} ${last?.text.slice(0, 300)}`);
    },
  );

  const beforeOutage = `accepted-before-${tag}.com`;
  await check("the registry down: writes 503 within 10 s with Retry-After, reads go on, the connector is not up", async () => {
    await knobs({ pending: { "domain:create": 1 } });
    expectStatus(await register(beforeOutage), 202);
    const zone = await api("POST", "/v1/zones", { name: `served-${tag}.com` });
    expectStatus(zone, 201);
    expectStatus(await control("POST", "/down"), 200);
    const started = Date.now();
    const res = await api("PATCH", `/v1/domains/${outageName}`, { status: [] });
    const took = Date.now() - started;
    expectStatus(res, 503);
    assertEqual(res.json.code, "registry_unavailable", "code");
    assert(Number(res.headers.get("retry-after")) > 0, `Retry-After: ${res.headers.get("retry-after")}`);
    assert(took < ANSWER_WITHIN_MS, `answered after ${took} ms`);
    expectStatus(await api("GET", `/v1/domains/${outageName}`), 200);
    expectStatus(await api("GET", "/v1/domains?limit=5"), 200);
    const exported = await api("GET", `/v1/zones/served-${tag}.com`, undefined, { accept: "text/dns" });
    expectStatus(exported, 200);
    assert(/SOA/.test(exported.text), `the zone's export: ${exported.text.slice(0, 200)}`);
    const repository = await api("GET", "/v1/repositories/verisign");
    assert(repository.json.connector.state !== "up", `connector: ${JSON.stringify(repository.json.connector)}`);
  });

  await check(
    "settled while the registry was out of reach, a 202-accepted registration finishes once it is back; the connector comes up by itself",
    async () => {
      // The registry settles it (its queue holds the message) while no session reaches it.
      expectStatus(await control("POST", "/settle", { name: beforeOutage, approve: true }), 200);
      expectStatus(await control("POST", "/up"), 200);
      await domainUntil(beforeOutage, (r) => r.status === 200 && !r.json.status.includes("pendingCreate"), "settled after the outage");
      const repository = await api("GET", "/v1/repositories/verisign");
      assertEqual(repository.json.connector.state, "up", "connector");
    },
  );

  await check(
    "a slow registry holds only its own repository's writes: a .com write finishes while the .org registry still holds the .org command it received first",
    async () => {
      const slow = `slow-${tag}.org`;
      const res = await api("POST", "/v1/domains", { name: slow, registrant: contact, contacts: { admin: contact, tech: contact }, nameservers: NAMESERVERS });
      expectStatus(res, 201);
      const fast = `fast-${tag}.com`;
      await registered(fast);
      // Registry B holds the .org update unanswered until released: slower than any margin, so the order below is
      // shown by what the registries saw (B still holding it when the .com write was answered), not by the clock.
      await knobs({ hold: { "domain:update": 1 } }, b.control);
      const slowWrite = api("PATCH", `/v1/domains/${slow}`, { status: ["clientHold"] });
      let state = null;
      const arrived = await waitFor(
        async () => {
          state = (await b.control("GET", "/state")).json;
          return state.in_flight.some((x) => x.held && x.kind === "domain:update" && x.object === slow);
        },
        { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 100 },
      );
      assert(arrived !== null, `the .org update never reached registry B: ${JSON.stringify(state)}`);
      const fastWrite = await api("PATCH", `/v1/domains/${fast}`, { status: ["clientHold"] });
      expectStatus(fastWrite, 200);
      // Evidence of the order: B has not answered the .org update, and still holds it.
      const answeredSlow = (await commandsSince(0, b.control)).filter((x) => x.kind === "domain:update" && x.object === slow);
      assertEqual(answeredSlow, [], "the .org updates registry B answered before the .com write finished");
      state = (await b.control("GET", "/state")).json;
      assert(
        state.in_flight.some((x) => x.held && x.kind === "domain:update" && x.object === slow),
        `registry B no longer holds the .org update: ${JSON.stringify(state.in_flight)}`,
      );
      expectStatus(await b.control("POST", "/release"), 200);
      const slowAnswer = await slowWrite;
      await knobs({ reset: true }, b.control);
      // Answered once released (or, on a machine so loaded that the .com write outlasted the gateway's 8 s deadline,
      // 503 registry_unavailable: the API never waits past it); never a hang.
      if (slowAnswer.status === 503) assertEqual(slowAnswer.json.code, "registry_unavailable", "code");
      else expectStatus(slowAnswer, 200);
    },
  );

  // ---- reconciliation ---------------------------------------------------------------------

  const reconcileAll = async () => {
    const reports = [];
    for (let i = 0; i < 50; i++) {
      const res = await api("POST", "/v1/repositories/verisign/reconcile/run", { limit: 100 });
      expectStatus(res, 200);
      reports.push(res.json);
      if (res.json.pass_complete) return reports;
    }
    throw new Error(`no pass completed: ${JSON.stringify(reports.at(-1))}`);
  };

  await check(
    "reconciliation: a domain changed at the registry behind our back (a status, a renewal) follows it, with a reconciled event listing what differed",
    async () => {
      const name = `drift-${tag}.com`;
      const domain = await registered(name);
      const info = await as("domain-api", { kind: "domain:info", name });
      assertEqual(
        (await as("domain-api", { kind: "domain:renew", name, curExpDate: info.json.resData[0].exDate.slice(0, 10), period: { value: 1, unit: "y" } })).code,
        1000,
        "renew at the registry",
      );
      assertEqual(
        (await as("domain-api", { kind: "domain:update", name, add: { statuses: [{ s: "clientRenewProhibited" }] } })).code,
        1000,
        "update at the registry",
      );
      const reports = await reconcileAll();
      assert(reports.reduce((n, r) => n + r.reconciled, 0) >= 1, `reports: ${JSON.stringify(reports)}`);
      const now = await api("GET", `/v1/domains/${name}`);
      expectStatus(now, 200);
      assert(now.json.status.includes("clientRenewProhibited"), `status: ${now.json.status}`);
      const after = await as("domain-api", { kind: "domain:info", name });
      assertEqual(Date.parse(now.json.expires_at), Date.parse(after.json.resData[0].exDate), "expires_at (the registry's)");
      assertEqual(now.json.registry.roid, after.json.resData[0].roid, "registry.roid");
      assert(now.json.registry.reconciled_at !== null, "registry.reconciled_at");
      const events = await eventsOf(domain.id, "reconciled");
      const fields = events.flatMap((e) => e.after.registry_differences.map((d) => d.field));
      assert(fields.includes("status") && fields.includes("expires_at"), `differences: ${JSON.stringify(fields)}`);
      // A second pass finds nothing more to change.
      const again = await reconcileAll();
      assertEqual(
        again.reduce((n, r) => n + r.reconciled, 0),
        0,
        "domains reconciled by a second pass",
      );
    },
  );

  await check(
    "reconciliation: contacts and an auth_info changed at the registry behind our back come back (the registry's contact ids as our contacts), in a reconciled event that lists them without the auth_info's value",
    async () => {
      assert(secondContact !== null, "the second contact, held at the registry since the pending update above");
      const name = `drift-contacts-${tag}.com`;
      const domain = await registered(name);
      // The registry ids of our two contacts: the first's from this domain, the second's from the update settled above.
      const first = (await atRegistry(name)).contacts.admin;
      const second = (await atRegistry(updatePending)).contacts.admin;
      assert(first !== null && second !== null && first !== second, `registry ids: ${first}, ${second}`);
      const authInfo = `Behind-back-${tag}-7`;
      const changed = await as("domain-api", {
        kind: "domain:update",
        name,
        add: {
          contacts: [
            { type: "admin", id: second },
            { type: "billing", id: second },
          ],
        },
        rem: { contacts: [{ type: "admin", id: first }] },
        chg: { authInfo },
      });
      assertEqual(changed.code, 1000, "update at the registry");
      await reconcileAll();
      const now = await api("GET", `/v1/domains/${name}`);
      expectStatus(now, 200);
      assertEqual(
        { contacts: now.json.contacts, auth_info: now.json.auth_info, registrant: now.json.registrant },
        { contacts: { admin: secondContact.id, tech: contact, billing: secondContact.id }, auth_info: authInfo, registrant: contact },
        "contacts, auth_info, registrant after reconciliation",
      );
      const events = await eventsOf(domain.id, "reconciled");
      assertEqual(events.length, 1, "reconciled events");
      assertEqual(
        events[0].after.registry_differences,
        [
          { field: "admin", ours: contact, registry: secondContact.id },
          { field: "billing", ours: null, registry: secondContact.id },
          { field: "auth_info", ours: "not recorded", registry: "not recorded" },
        ],
        "registry_differences",
      );
      assert(!JSON.stringify(events[0]).includes(authInfo), "the reconciled event records no auth_info");
    },
  );

  await check("reconciliation: a domain the registry no longer holds for us (another registrar's now) is marked with that registrar, not deleted", async () => {
    const name = `gone-${tag}.com`;
    const domain = await registered(name);
    // Moved at the registry without a message to us: the other registrar asks, we approve there directly.
    await otherAsks(name, domain.auth_info);
    await domainUntil(name, pendingTransfer, "pendingTransfer");
    assertEqual((await as("domain-api", { kind: "domain:transfer", op: "approve", name })).code, 1000, "approved at the registry");
    const reports = await reconcileAll();
    assert(reports.reduce((n, r) => n + r.missing, 0) >= 1, `reports: ${JSON.stringify(reports)}`);
    const now = await api("GET", `/v1/domains/${name}`);
    expectStatus(now, 200);
    assert(now.json.registry.registrar === "other-registrar" && now.json.registry.missing_since !== null, `registry: ${JSON.stringify(now.json.registry)}`);
    const rdap = await api("GET", `/v1/domains/${name}`, undefined, { accept: "application/rdap+json" });
    assert(
      rdap.json.entities.some((e) => e.roles.includes("registrar") && e.handle === "other-registrar"),
      `RDAP entities: ${JSON.stringify(rdap.json.entities).slice(0, 300)}`,
    );
  });

  // ---- the registry's clock: an automatic approval -----------------------------------------

  /** POST /v1/lifecycle/sweep as of a time (npm start allows `as_of`): its report. */
  const sweepAt = async (asOf) => {
    const res = await api("POST", "/v1/lifecycle/sweep", { as_of: asOf });
    expectStatus(res, 200);
    return res.json;
  };
  const DAY_MS = 86_400_000;

  await check(
    "a transfer the registry approves by itself after five days: the sweep past act_by leaves it pending; from the registry's poll message the domain leaves the account (transfer_auto_approve)",
    async () => {
      const name = `auto-${tag}.com`;
      const domain = await registered(name);
      await otherAsks(name, domain.auth_info);
      await domainUntil(name, pendingTransfer, "pendingTransfer");
      const transfer = await api("GET", `/v1/domains/${name}/transfer`);
      expectStatus(transfer, 200);
      const report = await sweepAt(new Date(Date.parse(transfer.json.act_by) + DAY_MS).toISOString());
      assertEqual(report.transfers_approved, 0, "transfers the sweep approved");
      assert(pendingTransfer(await api("GET", `/v1/domains/${name}`)), "the domain no longer pendingTransfer after the sweep");
      expectStatus(await control("POST", "/clock", { advance_days: 6 }), 200);
      await domainUntil(name, (r) => r.status === 404, "gone");
      assertEqual((await eventsOf(domain.id, "transfer_auto_approve")).length, 1, "transfer_auto_approve events");
    },
  );

  // ---- the registry's clock: the sweep leaves connected domains to it (registry B, .org) -------

  const pir = b.control;
  const reconcilePir = async () => {
    const reports = [];
    for (let i = 0; i < 50; i++) {
      const res = await api("POST", "/v1/repositories/pir/reconcile/run", { limit: 100 });
      expectStatus(res, 200);
      reports.push(res.json);
      if (res.json.pass_complete) return reports;
    }
    throw new Error(`no pass completed: ${JSON.stringify(reports.at(-1))}`);
  };
  const pirUp = async () => {
    let last = null;
    const up = await waitFor(
      async () => {
        last = await api("GET", "/v1/repositories/pir");
        return last.json?.connector?.state === "up";
      },
      { timeoutMs: SETTLES_WITHIN_MS, intervalMs: 500 },
    );
    assert(up !== null, `pir: ${last?.text.slice(0, 300)}`);
  };

  await check(
    "the sweep a day past a connected domain's expiry neither renews nor expires it (a builtin one it renews); the registry renews it by its own clock, and reconciliation brings the registry's expiry",
    async () => {
      const name = `clock-${tag}.org`;
      const domain = await registered(name);
      const builtinName = `builtin-${tag}.info`;
      const builtin = await api("POST", "/v1/domains", { name: builtinName, nameservers: NAMESERVERS });
      expectStatus(builtin, 201);
      const asOf = new Date(Math.max(Date.parse(domain.expires_at), Date.parse(builtin.json.expires_at)) + DAY_MS).toISOString();
      const report = await sweepAt(asOf);
      assert(
        report.auto_renewed === 1 && report.expired === 0 && report.purged === 0 && report.redemptions_ended === 0,
        `the sweep's report: ${JSON.stringify(report)}`,
      );
      const after = await api("GET", `/v1/domains/${name}`);
      expectStatus(after, 200);
      assertEqual(after.json.expires_at, domain.expires_at, "the connected domain's expires_at after the sweep");
      assertEqual((await eventsOf(domain.id, "auto_renew")).length + (await eventsOf(domain.id, "expire")).length, 0, "auto_renew and expire events");
      const renewedHere = await api("GET", `/v1/domains/${builtinName}`);
      assert(Date.parse(renewedHere.json.expires_at) > Date.parse(builtin.json.expires_at), `the builtin domain: ${renewedHere.text.slice(0, 300)}`);
      // The registry's clock passes the expiry: it renews the domain itself (the extension auto-renews).
      expectStatus(await pir("POST", "/clock", { advance_days: 367 }), 200);
      const info = await as("domain-api", { kind: "domain:info", name }, pir);
      assert(Date.parse(info.json.resData[0].exDate) > Date.parse(domain.expires_at), `the registry's exDate: ${info.json.resData[0].exDate}`);
      await reconcilePir();
      const followed = await api("GET", `/v1/domains/${name}`);
      assertEqual(Date.parse(followed.json.expires_at), Date.parse(info.json.resData[0].exDate), "expires_at (the registry's)");
      const reconciled = await eventsOf(domain.id, "reconciled");
      assert(
        reconciled.some((e) => e.after.registry_differences.some((d) => d.field === "expires_at")),
        `reconciled events: ${JSON.stringify(reconciled).slice(0, 400)}`,
      );
    },
  );

  /** A connected .org domain deleted into redemption at registry B (past its add grace period there): 202 pendingDelete. */
  const deletedAtPir = async (name) => {
    const domain = await registered(name);
    expectStatus(await pir("POST", "/clock", { advance_days: 6 }), 200);
    const res = await api("DELETE", `/v1/domains/${name}`);
    expectStatus(res, 202);
    assert(res.json.status.includes("pendingDelete"), `status: ${res.json.status}`);
    return domain;
  };

  await check(
    "a deleted connected domain: the sweep past the end of its redemption neither ends it nor purges it; the registry purges it by its own clock, and its poll message takes it out of the account (purge)",
    async () => {
      const name = `purged-there-${tag}.org`;
      const domain = await deletedAtPir(name);
      const report = await sweepAt(new Date(Date.now() + 45 * DAY_MS).toISOString());
      assert(report.redemptions_ended === 0 && report.purged === 0, `the sweep's report: ${JSON.stringify(report)}`);
      const still = await api("GET", `/v1/domains/${name}`);
      expectStatus(still, 200);
      assert(still.json.status.includes("pendingDelete"), `status: ${still.json.status}`);
      // The registry's redemption (30 days) ends, then its pendingDelete (5): it purges the name and tells us.
      expectStatus(await pir("POST", "/clock", { advance_days: 31 }), 200);
      expectStatus(await pir("POST", "/clock", { advance_days: 6 }), 200);
      await domainUntil(name, (r) => r.status === 404, "gone");
      const purges = await eventsOf(domain.id, "purge");
      assert(purges.length === 1 && purges[0].token === "registry:pir", `purge events: ${JSON.stringify(purges).slice(0, 300)}`);
    },
  );

  await check(
    "a deleted connected domain the registry purged whose message was lost: reconciliation finds it gone (2303) and purges it here (purged), where a live one would only be marked",
    async () => {
      const name = `lost-purge-${tag}.org`;
      const domain = await deletedAtPir(name);
      // The gateway locked out; the registry purges the name and queues its message, which we take and ack ourselves: lost.
      expectStatus(await pir("POST", "/down"), 200);
      expectStatus(await pir("POST", "/clock", { advance_days: 31 }), 200);
      expectStatus(await pir("POST", "/clock", { advance_days: 6 }), 200);
      const taken = [];
      for (let i = 0; i < 100; i++) {
        const req = await as("domain-api", { kind: "poll", op: "req" }, pir);
        if (req.code !== 1301) break;
        taken.push(req.json.resData?.[0]?.name ?? null);
        assertEqual((await as("domain-api", { kind: "poll", op: "ack", msgID: req.json.msgQ.id }, pir)).code, 1000, "ack");
      }
      assert(taken.includes(name), `the messages taken: ${JSON.stringify(taken)}`);
      expectStatus(await pir("POST", "/up"), 200);
      await pirUp();
      expectStatus(await api("GET", `/v1/domains/${name}`), 200);
      const reports = await reconcilePir();
      assert(reports.reduce((n, r) => n + r.purged, 0) === 1, `reports: ${JSON.stringify(reports)}`);
      expectStatus(await api("GET", `/v1/domains/${name}`), 404);
      assertEqual((await eventsOf(domain.id, "purge")).length, 1, "purge events");
    },
  );

  // ---- a restore left pending --------------------------------------------------------------

  await check(
    "a restore the registry leaves pending (1001: it reviews the report) is 202 with pendingRestore, the domain still deleted, a second restore 409; approved, its poll message settles it: restored (settled event)",
    async () => {
      const name = `restore-ok-${tag}.org`;
      const domain = await deletedAtPir(name);
      await knobs({ pending: { "domain:restore": 1 } }, pir);
      const res = await api("POST", `/v1/domains/${name}/restore`);
      expectStatus(res, 202);
      assert(res.json.status.includes("pendingRestore") && res.json.status.includes("pendingDelete"), `status: ${res.json.status}`);
      assert(
        res.json.rgp_status.some((e) => e.status === "redemptionPeriod"),
        `rgp_status: ${JSON.stringify(res.json.rgp_status)}`,
      );
      const again = await api("POST", `/v1/domains/${name}/restore`);
      expectStatus(again, 409);
      assertEqual(again.json.code, "status_prohibits", "code of a second restore");
      const read = await api("GET", `/v1/domains/${name}`);
      assert(read.json.status.includes("pendingRestore"), `status while pending: ${read.json.status}`);
      expectStatus(await pir("POST", "/settle", { name, approve: true }), 200);
      const settled = await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingRestore"), "settled");
      assert(!settled.json.status.includes("pendingDelete"), `status once settled: ${settled.json.status}`);
      assert(!settled.json.rgp_status.some((e) => e.status === "redemptionPeriod"), `rgp_status once settled: ${JSON.stringify(settled.json.rgp_status)}`);
      const events = await eventsOf(domain.id, "settled");
      assert(events.length === 1 && events[0].after.registry_result === true, `settled events: ${JSON.stringify(events).slice(0, 300)}`);
      const info = await as("domain-api", { kind: "domain:info", name }, pir);
      assert(!info.json.resData[0].statuses.some((x) => x.s === "pendingDelete"), `the registry's statuses: ${JSON.stringify(info.json.resData[0].statuses)}`);
    },
  );

  await check(
    "a pending restore the registry refuses: from its poll message the domain no longer shows pendingRestore and stays deleted in redemption",
    async () => {
      const name = `restore-no-${tag}.org`;
      const domain = await deletedAtPir(name);
      await knobs({ pending: { "domain:restore": 1 } }, pir);
      expectStatus(await api("POST", `/v1/domains/${name}/restore`), 202);
      expectStatus(await pir("POST", "/settle", { name, approve: false }), 200);
      const settled = await domainUntil(name, (r) => r.status === 200 && !r.json.status.includes("pendingRestore"), "settled");
      assert(settled.json.status.includes("pendingDelete"), `status once refused: ${settled.json.status}`);
      const events = await eventsOf(domain.id, "settled");
      assert(events.length === 1 && events[0].after.registry_result === false, `settled events: ${JSON.stringify(events).slice(0, 300)}`);
    },
  );

  await check(
    "a restore at a connected registry stores the registry's expiry (its <domain:info> after the restore) in the restore's write, never a year added here",
    async () => {
      const name = `restore-dates-${tag}.org`;
      const domain = await registered(name);
      // The registry's dates move on without us: renewed there for a year, D1 not told.
      const renewed = await as("domain-api", { kind: "domain:renew", name, curExpDate: domain.expires_at.slice(0, 10), period: { unit: "y", value: 1 } }, pir);
      assertEqual(renewed.code, 1000, "the registry's renew");
      expectStatus(await pir("POST", "/clock", { advance_days: 6 }), 200);
      expectStatus(await api("DELETE", `/v1/domains/${name}`), 202);
      const res = await api("POST", `/v1/domains/${name}/restore`);
      expectStatus(res, 200);
      const info = await as("domain-api", { kind: "domain:info", name }, pir);
      const exDate = info.json.resData[0].exDate;
      assert(Date.parse(exDate) > Date.parse(domain.expires_at), `the registry's exDate: ${exDate}`);
      assertEqual(Date.parse(res.json.expires_at), Date.parse(exDate), "expires_at in the restore's answer (the registry's)");
      const events = await eventsOf(domain.id, "restore");
      assert(events.length === 1 && Date.parse(events[0].after.expires_at) === Date.parse(exDate), `restore events: ${JSON.stringify(events).slice(0, 300)}`);
    },
  );

  // ---- a transfer between two of our accounts (registry C, .eu: no transfer lock) ----------

  let gaining = null;
  await check("a second account of ours and its token (POST /v1/accounts, /v1/tokens)", async () => {
    const account = await api("POST", "/v1/accounts", { name: `Authority E2E gaining ${tag}` });
    expectStatus(account, 201);
    const token = await api("POST", "/v1/tokens", { name: `authority-e2e-${tag}`, scope: "write", account: account.json.id });
    expectStatus(token, 201);
    // npm start runs without authentication for loopback requests (AUTH_DISABLED): a request
    // from another address (wrangler dev keeps a CF-Connecting-IP sent) is authenticated,
    // so it is the gaining account's, by its token.
    gaining = { id: account.json.id, headers: { authorization: `Bearer ${token.json.secret}`, "cf-connecting-ip": "192.0.2.10" } };
  });
  /** The registry's view of one of our domains, as its sponsor (authInfo included). */
  const atC = async (name) => {
    const info = await as("domain-api", { kind: "domain:info", name }, c.control);
    assertEqual(info.code, 1000, `<domain:info> of ${name}`);
    return info.json.resData[0];
  };
  const between = `between-${tag}.eu`;
  let betweenDomain = null;
  await check(
    "between our accounts, a wrong auth_info: the registry is asked (<domain:info> with it), 422 policy_violation naming auth_info, counted, its transfer_auth_failed event, no transfer",
    async () => {
      assert(gaining !== null, "no second account");
      betweenDomain = await registered(between);
      const from = await commandCount(c.control);
      const res = await api("POST", `/v1/domains/${between}/transfer`, { auth_info: "Not-the-password-1" }, gaining.headers);
      expectStatus(res, 422);
      assertEqual(res.json.code, "policy_violation", "code");
      assertEqual(res.json.errors, [{ field: "auth_info", message: "does not match" }], "errors");
      const sent = (await commandsSince(from, c.control)).filter((x) => x.object === between);
      assertEqual(
        sent.map((x) => `${x.kind} ${x.code}`),
        ["domain:info 1000"],
        "commands at the registry",
      );
      const failed = await eventsOf(betweenDomain.id, "transfer_auth_failed");
      assert(
        failed.length === 1 && failed[0].after.failures === 1 && failed[0].after.gaining_account === gaining.id,
        `events: ${JSON.stringify(failed).slice(0, 300)}`,
      );
      expectStatus(await api("GET", `/v1/domains/${between}/transfer`), 404);
    },
  );

  await check(
    "between our accounts, the registry's auth_info: 201 pending, costing nothing (price 0.00: no registry transfer, no year), no <domain:transfer> sent",
    async () => {
      assert(betweenDomain !== null, "no domain");
      const from = await commandCount(c.control);
      const res = await api("POST", `/v1/domains/${between}/transfer`, { auth_info: betweenDomain.auth_info }, gaining.headers);
      expectStatus(res, 201);
      assert(
        res.json.status === "pending" && res.json.gaining_account === gaining.id && res.json.losing_account === betweenDomain.account,
        `transfer: ${res.text.slice(0, 300)}`,
      );
      assertEqual(res.json.price, { currency: "USD", amount: "0.00" }, "price");
      const sent = (await commandsSince(from, c.control)).filter((x) => x.object === between);
      assertEqual(
        sent.map((x) => `${x.kind} ${x.code}`),
        ["domain:info 1000"],
        "commands at the registry",
      );
      assert(pendingTransfer(await api("GET", `/v1/domains/${between}`)), "the domain not pendingTransfer");
    },
  );

  /** Reconciliation of registry C's domains, a whole pass. */
  const reconcileEurid = async () => {
    const reports = [];
    for (let i = 0; i < 50; i++) {
      const res = await api("POST", "/v1/repositories/eurid/reconcile/run", { limit: 100 });
      expectStatus(res, 200);
      reports.push(res.json);
      if (res.json.pass_complete) return reports;
    }
    throw new Error(`no pass completed: ${JSON.stringify(reports.at(-1))}`);
  };
  /** The contact ids registry C names for a domain, by role, and each one's email there. */
  const contactsAtC = async (name) => {
    const info = await atC(name);
    const roles = {
      registrant: info.registrant ?? null,
      admin: info.contacts.filter((x) => x.type === "admin").map((x) => x.id),
      tech: info.contacts.filter((x) => x.type === "tech").map((x) => x.id),
      billing: info.contacts.filter((x) => x.type === "billing").map((x) => x.id),
    };
    const emails = {};
    for (const id of new Set([roles.registrant, ...roles.admin, ...roles.tech, ...roles.billing].filter((x) => x !== null))) {
      const contactInfo = await as("domain-api", { kind: "contact:info", id }, c.control);
      assertEqual(contactInfo.code, 1000, `<contact:info> of ${id}`);
      emails[id] = contactInfo.json.resData[0].email;
    }
    return { roles, emails };
  };
  /**
   * After an approval: the registry names, in every role, contacts other than the losing
   * account's (the gaining account's copies: same data, ids of their own), and a reconciliation
   * pass finds nothing of the domain to change (no reconciled event; its contacts stay the copies).
   */
  const registryNamesTheCopies = async (name, domainId, before) => {
    const moved = await api("GET", `/v1/domains/${name}`, undefined, gaining.headers);
    expectStatus(moved, 200);
    assertEqual(moved.json.account, gaining.id, "account");
    assert(moved.json.registrant !== null && moved.json.registrant !== contact, `registrant here: ${moved.json.registrant} (a copy, not ${contact})`);
    assertEqual(
      [moved.json.contacts.admin, moved.json.contacts.tech],
      [moved.json.registrant, moved.json.registrant],
      "admin and tech here: the registrant's copy (one contact copied once)",
    );
    const after = await contactsAtC(name);
    const copyAtRegistry = after.roles.registrant;
    assert(
      copyAtRegistry !== null && copyAtRegistry !== before.roles.registrant,
      `the registry's registrant: ${copyAtRegistry}, before ${before.roles.registrant}`,
    );
    assertEqual(after.roles, { registrant: copyAtRegistry, admin: [copyAtRegistry], tech: [copyAtRegistry], billing: [] }, "the registry's contacts");
    assertEqual(after.emails[copyAtRegistry], before.emails[before.roles.registrant], "the copy's email at the registry (the copied contact's)");
    await reconcileEurid();
    const now = await api("GET", `/v1/domains/${name}`, undefined, gaining.headers);
    expectStatus(now, 200);
    assertEqual(
      { registrant: now.json.registrant, contacts: now.json.contacts, auth_info: now.json.auth_info },
      { registrant: moved.json.registrant, contacts: moved.json.contacts, auth_info: moved.json.auth_info },
      "registrant, contacts and auth_info after reconciliation",
    );
    assert(now.json.registry.reconciled_at !== null, "registry.reconciled_at (compared)");
    const reconciled = await eventsOf(domainId, "reconciled");
    assert(
      reconciled.every((e) => e.after.registry_differences.length === 0),
      `reconciled events: ${JSON.stringify(reconciled).slice(0, 500)}`,
    );
    return moved;
  };

  await check(
    "between our accounts, approved: the registry names the gaining account's copies of the contacts (<contact:create>, then one <domain:update> with the new auth_info, after a <domain:info>), the domain is the gaining account's with the registry's expiry, no year added, the event carries the update's svTRID, and a reconciliation afterwards changes nothing",
    async () => {
      assert(betweenDomain !== null, "no domain");
      const before = await atC(between);
      const contactsBefore = await contactsAtC(between);
      const from = await commandCount(c.control);
      const res = await api("POST", `/v1/domains/${between}/transfer/approve`);
      expectStatus(res, 200);
      assertEqual(res.json.status, "approved", "status");
      const sentAll = await commandsSince(from, c.control);
      assertEqual(
        sentAll.filter((x) => x.object === between || x.kind === "contact:create").map((x) => `${x.kind} ${x.code}`),
        ["domain:info 1000", "contact:create 1000", "domain:update 1000"],
        "commands at the registry",
      );
      const moved = await registryNamesTheCopies(between, betweenDomain.id, contactsBefore);
      const after = await atC(between);
      assertEqual(after.clID, "domain-api", "the registry's sponsor (still us)");
      assertEqual(after.exDate, before.exDate, "the registry's exDate");
      assertEqual(Date.parse(moved.json.expires_at), Date.parse(after.exDate), "expires_at (the registry's)");
      assertEqual(Date.parse(moved.json.expires_at), Date.parse(betweenDomain.expires_at), "expires_at (no year added)");
      assert(after.authInfo !== before.authInfo, "the registry still holds the losing account's auth_info");
      assertEqual(after.authInfo, moved.json.auth_info, "the registry's auth_info is the domain's");
      const events = await eventsOf(betweenDomain.id, "transfer_approve");
      assert(
        events.length === 1 && events[0].account === gaining.id && /^LR-/.test(events[0].after?.registry_sv_trid ?? ""),
        `events: ${JSON.stringify(events).slice(0, 400)}`,
      );
      // The losing account's password no longer moves it back.
      const back = await api("POST", `/v1/domains/${between}/transfer`, { auth_info: betweenDomain.auth_info });
      expectStatus(back, 422);
      assertEqual(back.json.code, "policy_violation", "asked back with the old auth_info");
    },
  );

  await check(
    "between our accounts, an approval the registry refuses (its <domain:update> answered 2306) is not half-applied: 422, the domain, its contacts and auth_info stay the losing account's here and at the registry, the transfer pending; approved again, the registry names the copies",
    async () => {
      assert(gaining !== null, "no second account");
      const name = `between-refused-${tag}.eu`;
      const domain = await registered(name);
      expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: domain.auth_info }, gaining.headers), 201);
      const before = await atC(name);
      const contactsBefore = await contactsAtC(name);
      await knobs({ fail: { "domain:update": { code: 2306, count: 1 } } }, c.control);
      const refused = await api("POST", `/v1/domains/${name}/transfer/approve`);
      await knobs({ reset: true }, c.control);
      expectStatus(refused, 422);
      assertEqual(refused.json.code, "policy_violation", "code");
      const here = await api("GET", `/v1/domains/${name}`);
      expectStatus(here, 200);
      assertEqual(
        [here.json.account, here.json.registrant, here.json.contacts, here.json.auth_info],
        [domain.account, domain.registrant, domain.contacts, domain.auth_info],
        "account, registrant, contacts, auth_info here",
      );
      assert(pendingTransfer(here), "the transfer no longer pending");
      assertEqual((await api("GET", `/v1/domains/${name}/transfer`)).json.status, "pending", "the transfer");
      const atRegistry = await atC(name);
      assertEqual([atRegistry.authInfo, atRegistry.registrant], [before.authInfo, before.registrant], "the registry's authInfo and registrant");
      assertEqual((await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_approve`)).json.data, [], "transfer_approve events");
      // The next approval finds the copy the refused one created at the registry (its 2302, its email) and names it.
      const again = await api("POST", `/v1/domains/${name}/transfer/approve`);
      expectStatus(again, 200);
      await registryNamesTheCopies(name, domain.id, contactsBefore);
    },
  );

  await check(
    "between our accounts, an approval whose <domain:update> took effect but whose answer was lost: the gateway asks <domain:info>, sees the contacts and the auth_info, answers for it (one update at the registry); the domain moves once, and a reconciliation changes nothing",
    async () => {
      assert(gaining !== null, "no second account");
      const name = `between-lost-${tag}.eu`;
      const domain = await registered(name);
      expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: domain.auth_info }, gaining.headers), 201);
      const contactsBefore = await contactsAtC(name);
      const from = await commandCount(c.control);
      await knobs({ drop_after_apply: { "domain:update": 1 } }, c.control);
      const res = await api("POST", `/v1/domains/${name}/transfer/approve`);
      await knobs({ reset: true }, c.control);
      expectStatus(res, 200);
      const updates = (await commandsSince(from, c.control)).filter((x) => x.kind === "domain:update" && x.object === name);
      assertEqual(updates.length, 1, "domain:update commands at the registry (sent once, answered for by the info)");
      const moved = await registryNamesTheCopies(name, domain.id, contactsBefore);
      assertEqual((await atC(name)).authInfo, moved.json.auth_info, "the registry's auth_info is the domain's");
      assertEqual((await eventsOf(domain.id, "transfer_approve")).length, 1, "transfer_approve events");
    },
  );

  await check(
    "between our accounts, the gaining account at its domains limit: the approval is 422 quota_exceeded and the registry is sent nothing (no <domain:info>, <contact:create> or <domain:update>), its contacts and authInfo as before, the transfer pending; with room, approved",
    async () => {
      assert(gaining !== null, "no second account");
      const name = `between-full-${tag}.eu`;
      const domain = await registered(name);
      expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: domain.auth_info }, gaining.headers), 201);
      const before = await atC(name);
      const contactsBefore = await contactsAtC(name);
      // Room when it asked; then the account is held to what it holds.
      const account = await api("GET", `/v1/accounts/${gaining.id}`);
      expectStatus(account, 200);
      expectStatus(await api("PATCH", `/v1/accounts/${gaining.id}`, { limits: { domains: account.json.usage.domains } }), 200);
      try {
        const from = await commandCount(c.control);
        const refused = await api("POST", `/v1/domains/${name}/transfer/approve`);
        expectStatus(refused, 422);
        assertEqual(refused.json.code, "quota_exceeded", "code");
        assertEqual(refused.json.errors?.[0]?.field, "domains", "the limit named");
        const sent = (await commandsSince(from, c.control)).filter((x) => x.object === name || x.kind === "contact:create" || x.kind === "domain:update");
        assertEqual(
          sent.map((x) => `${x.kind} ${x.code}`),
          [],
          "commands at the registry",
        );
        const atRegistry = await atC(name);
        assertEqual(
          [atRegistry.authInfo, atRegistry.registrant, atRegistry.contacts],
          [before.authInfo, before.registrant, before.contacts],
          "the registry's authInfo, registrant and contacts",
        );
        const here = await api("GET", `/v1/domains/${name}`);
        assertEqual([here.json.account, here.json.auth_info], [domain.account, domain.auth_info], "account and auth_info here");
        assertEqual((await api("GET", `/v1/domains/${name}/transfer`)).json.status, "pending", "the transfer");
      } finally {
        expectStatus(await api("PATCH", `/v1/accounts/${gaining.id}`, { limits: { domains: null } }), 200);
      }
      const again = await api("POST", `/v1/domains/${name}/transfer/approve`);
      expectStatus(again, 200);
      await registryNamesTheCopies(name, domain.id, contactsBefore);
    },
  );

  await check("between our accounts, rejected: nothing changes at the registry (no command after the request's <domain:info>), the domain stays", async () => {
    assert(gaining !== null, "no second account");
    const name = `between-rejected-${tag}.eu`;
    const domain = await registered(name);
    const before = await atC(name);
    const from = await commandCount(c.control);
    expectStatus(await api("POST", `/v1/domains/${name}/transfer`, { auth_info: domain.auth_info }, gaining.headers), 201);
    const res = await api("POST", `/v1/domains/${name}/transfer/reject`);
    expectStatus(res, 200);
    assertEqual(res.json.status, "rejected", "status");
    const sent = (await commandsSince(from, c.control)).filter((x) => x.object === name);
    assertEqual(
      sent.map((x) => `${x.kind} ${x.code}`),
      ["domain:info 1000"],
      "commands at the registry",
    );
    const after = await atC(name);
    assertEqual([after.authInfo, after.exDate, after.clID], [before.authInfo, before.exDate, before.clID], "the registry's authInfo, exDate, sponsor");
    const now = await api("GET", `/v1/domains/${name}`);
    expectStatus(now, 200);
    assertEqual(
      [now.json.account, now.json.auth_info, now.json.expires_at],
      [domain.account, domain.auth_info, domain.expires_at],
      "account, auth_info, expires_at",
    );
  });

  await check("every frame the registries received was schema-valid (no command invalid, none answered 2001)", async () => {
    for (const registry of [control, b.control, c.control]) {
      const all = await commandsSince(0, registry);
      const bad = all.filter((x) => x.kind === "invalid" || x.code === 2001);
      assert(bad.length === 0, `invalid: ${JSON.stringify(bad).slice(0, 500)}`);
    }
  });
}

run(main);
