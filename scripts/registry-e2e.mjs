#!/usr/bin/env node
// End to end through a connected registry (docs/registries.md): the local registry
// (`npm run registry -- --port 0 --check-responses --keep-frames`, which checks every frame
// it gets and every answer it gives against the EPP schemas, and keeps them for the real
// xmllint to judge again at the end: one run, the same verdict on each) and `npm start -- --registries FILE` with a
// connector for `verisign` (com, net), then through the API: check, register (a premium
// name with the registry's fee too), renew, update (hosts, statuses), DS added and removed,
// delete and restore — each verified at the registry through its control interface, and
// every frame it received schema-valid. Then the registry goes down: a write answers 503
// registry_unavailable with Retry-After within 10 s while reads go on, and the connector
// comes back up once the registry does. Also: a new registration's ROID, learned after its
// 201; and a poll message whose every write D1 refuses, set aside by the gateway (its raw
// XML in the gateway's state dir) and acked so the queue moves on, then applied from there.
// Prints `ok - …` / `not ok - …` per check and `REGISTRY-E2E: N passed, M failed`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { assert, assertEqual, createHarness, expectStatus, httpClient, startDaemon, waitFor } from "./lib/harness.mjs";
import { openLocalD1 } from "./lib/local-d1.mjs";
import { assembleScript, bashBlocks, reportRun, runBash } from "./lib/readme-blocks.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const harness = createHarness({ name: "registry-e2e", label: "REGISTRY-E2E", readyTimeoutMs: 120_000, totalTimeoutMs: 600_000 });
const { check, ok, notOk, startReported, run, tempDir } = harness;

const READY = /local registry ready: epp 127\.0\.0\.1:(\d+) control (http:\/\/127\.0\.0\.1:\d+) ca (\S+)/;
const NAMESERVERS = ["ns1.example.fr", "ns2.example.fr"]; // outside every extension the local registry serves: external hosts
const ADDRESS = { street: ["12 Example Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" };
const DS = { key_tag: 12345, algorithm: 13, digest_type: 2, digest: "AB".repeat(32) };
/** The API answers within 10 s whatever the registry does (contract section 21). */
const ANSWER_WITHIN_MS = 10_000;

async function main() {
  const work = tempDir("domain-api-registry-e2e-");
  const registry = await startDaemon(process.execPath, [join(ROOT, "scripts", "registry.mjs"), "--port", "0", "--check-responses", "--keep-frames"], {
    name: "local registry",
    ready: READY,
    timeoutMs: 120_000,
  });
  if (registry.notReady) {
    await check("the local registry comes up", () => {
      throw new Error(registry.notReady);
    });
    return;
  }
  const [, eppPort, controlUrl, caFile] = READY.exec(registry.output);
  const connectors = join(work, "registries.json");
  writeFileSync(
    connectors,
    JSON.stringify({
      // poll_seconds: a message the registry queues (a pending update settled) is read within 2 s.
      verisign: {
        host: "127.0.0.1",
        port: Number(eppPort),
        client_id: "domain-api",
        password: "local-pw-1",
        ca: readFileSync(caFile, "utf8"),
        poll_seconds: 2,
        // A message the API does not take: handed over again after 2 s, then 4 s, set aside at the third failure.
        message_attempts: 3,
        message_retry_max_seconds: 4,
      },
      // Wrong credentials: a connector down with the registry's message, never a 500.
      pir: { host: "127.0.0.1", port: Number(eppPort), client_id: "domain-api", password: "wrong-pw-9", ca: readFileSync(caFile, "utf8"), sessions: 1 },
    }),
    { mode: 0o600 },
  );

  const stateDir = tempDir("domain-api-registry-e2e-state-");
  // CURSOR_SECRET: a request under a Host that is not npm start's is served as a deployed
  // Worker's (asDeployed below), which refuses every request without one.
  const cursorSecret = ["--var", "CURSOR_SECRET:registry-e2e-cursor-secret-0123456789abcdef"];
  const base = await startReported("npm start -- --registries FILE", { persistTo: stateDir, args: ["--registries", connectors, ...cursorSecret] });
  if (!base) return;
  const api = httpClient(base, { timeoutMs: 20_000 });
  /**
   * A GET as a deployed Worker is asked: npm start turns authentication off only for its own
   * host names (src/http/local-development.ts), so under another Host the bearer decides.
   * @returns {Promise<{ status: number, text: string, json: any }>}
   */
  const asDeployed = (path, authorization) =>
    new Promise((resolve, reject) => {
      const url = new URL(path, base);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "GET",
          headers: { host: "api.registry-e2e.example", authorization },
          timeout: 20_000,
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text, json: text ? JSON.parse(text) : null }));
        },
      );
      req.on("timeout", () => req.destroy(new Error(`GET ${path}: no answer within 20 s`)));
      req.on("error", reject);
      req.end();
    });
  const control = httpClient(controlUrl, { timeoutMs: 10_000 });
  /** The commands the registry received since `from` (its log, GET /commands). */
  const commandsSince = async (from) => {
    const res = await control("GET", "/commands");
    expectStatus(res, 200);
    const all = Array.isArray(res.json) ? res.json : res.json.commands;
    return all.slice(from);
  };
  const commandCount = async () => (await commandsSince(0)).length;
  /** The registry received `kind` for `object` since `from` and answered it `code`. */
  const registryDid = async (from, kind, object, code = 1000) => {
    const seen = (await commandsSince(from)).filter((c) => c.kind === kind && (object === undefined || c.object === object));
    assert(seen.length > 0, `the registry received no ${kind}${object ? ` of ${object}` : ""}`);
    assert(
      seen.some((c) => c.code === code),
      `${kind} answered ${seen.map((c) => c.code).join(", ")}, not ${code}`,
    );
  };

  await check("GET /v1/repositories/verisign shows connector epp up, with the greeting's objects and extensions", async () => {
    let last = null;
    const up = await waitFor(
      async () => {
        last = await api("GET", "/v1/repositories/verisign");
        return last.status === 200 && last.json.connector?.state === "up";
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    assert(up !== null, `not up within 60 s: ${last?.text.slice(0, 300)}`);
    const { connector } = last.json;
    assertEqual(connector.kind, "epp", "kind");
    assert(connector.objects.includes("urn:ietf:params:xml:ns:domain-1.0"), `objects: ${connector.objects}`);
    assert(connector.extensions.includes("urn:ietf:params:xml:ns:epp:fee-1.0"), `extensions: ${connector.extensions}`);
    assert(connector.sessions.open >= 1, `sessions: ${JSON.stringify(connector.sessions)}`);
    assert(!JSON.stringify(last.json).includes("local-pw-1"), "the answer shows the password");
  });

  // The README's "Registries over EPP" block, as written, against this server and registry.
  const assembled = assembleScript({
    blocks: bashBlocks("## Registries over EPP"),
    checks: String.raw`check "CONTACT is a contact id (con_…)" '[[ "$CONTACT" == con_* ]]'
check "readme-epp-tour.com is registered here" '[ "$(command curl -sf "$BASE/v1/domains/readme-epp-tour.com" | field name)" = readme-epp-tour.com ]'
check "the registry took the domain:create of readme-epp-tour.com (its last answer: 1000)" '[ "$(command curl -sf "$CONTROL/commands" | node -pe "JSON.parse(require(\"fs\").readFileSync(0, \"utf8\")).commands.filter((c) => c.kind === \"domain:create\" && c.object === \"readme-epp-tour.com\").map((c) => c.code).at(-1)")" = 1000 ]'`,
  });
  const script = join(work, "readme-registries.sh");
  writeFileSync(script, assembled.script);
  const ran = await runBash(script, { cwd: work, env: { ...process.env, BASE: base, CONTROL: controlUrl, FORCE_COLOR: "0" }, timeoutMs: 120_000 });
  reportRun(ran, assembled, { ok, notOk, what: `the README's "Registries over EPP"` });

  await check("wrong credentials (pir): the connector is down with the registry's message, and its check is 503, not 500", async () => {
    let last = null;
    const down = await waitFor(
      async () => {
        last = await api("GET", "/v1/repositories/pir");
        return last.status === 200 && last.json.connector?.state === "down";
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    assert(down !== null, `connector: ${last?.text.slice(0, 300)}`);
    assert(/2200/.test(last.json.connector.last_error ?? ""), `last_error: ${last.json.connector.last_error}`);
    assert(!last.text.includes("wrong-pw-9"), "the answer shows the password");
    const checked = await api("GET", `/v1/domains/check?name=wrong-credentials-${Date.now().toString(36)}.org`);
    expectStatus(checked, 503);
    assertEqual(checked.json.code, "registry_unavailable", "code");
  });

  // A name another registrar holds: the registry knows it, our D1 does not.
  const tag = Date.now().toString(36);
  const theirs = `theirs-${tag}.com`;
  await check("another registrar registers a name at the registry (control interface)", async () => {
    const contact = await control("POST", "/as/other-registrar", {
      command: {
        kind: "contact:create",
        id: `oth${tag}`.slice(0, 16),
        postalInfo: [{ type: "int", name: "Other Registrant", city: "Paris", cc: "FR" }],
        email: "other@example.org",
        authInfo: "other-auth-1",
      },
    });
    expectStatus(contact, 200);
    const domain = await control("POST", "/as/other-registrar", {
      command: { kind: "domain:create", name: theirs, period: { value: 1, unit: "y" }, registrant: `oth${tag}`.slice(0, 16), authInfo: "other-auth-1" },
    });
    expectStatus(domain, 200);
    assertEqual(domain.json.code ?? domain.json.results?.[0]?.code, 1000, "code");
  });

  const free = `free-${tag}.com`;
  await check("check: a free name is available, another registrar's is registered, nic.com reserved, vacation.com premium at the registry's fee", async () => {
    const from = await commandCount();
    const res = await api("GET", `/v1/domains/check?name=${free}&name=${theirs}&name=nic.com&name=vacation.com`);
    expectStatus(res, 200);
    const [a, b, c, d] = res.json.data;
    assert(a.available === true && a.reason === null && a.premium === false, `free: ${JSON.stringify(a)}`);
    assert(b.available === false && b.reason === "registered" && b.prices === null, `theirs: ${JSON.stringify(b)}`);
    assert(c.available === false && c.reason === "reserved", `nic.com: ${JSON.stringify(c)}`);
    assert(d.available === true && d.premium === true && d.prices.register["1"] === "2500.00", `vacation.com: ${JSON.stringify(d)}`);
    const checks = (await commandsSince(from)).filter((x) => x.kind === "domain:check");
    assertEqual(checks.length, 1, "domain:check commands for four names");
  });

  await check("a check of 50 names is one <domain:check> at the registry", async () => {
    const names = Array.from({ length: 50 }, (_, i) => `bulk-${i}-${tag}.com`);
    const from = await commandCount();
    const res = await api("GET", `/v1/domains/check?${names.map((n) => `name=${n}`).join("&")}`);
    expectStatus(res, 200);
    assertEqual(res.json.data.length, 50, "answers");
    assert(
      res.json.data.every((d) => d.available === true),
      "every bulk name available",
    );
    const checks = (await commandsSince(from)).filter((x) => x.kind === "domain:check");
    assertEqual(checks.length, 1, "domain:check commands for 50 names");
  });

  let contact = null;
  await check("POST /v1/contacts (created at the registry with the first domain that uses it)", async () => {
    const res = await api("POST", "/v1/contacts", {
      name: "Registry E2E",
      email: `registry-e2e-${tag}@example.org`,
      phone: "+44.2071234567",
      address: ADDRESS,
    });
    expectStatus(res, 201);
    contact = res.json.id;
  });

  let registered = null;
  await check(`POST /v1/domains ${free}: 201, the contact, hosts and domain created at the registry, its dates`, async () => {
    const from = await commandCount();
    const res = await api("POST", "/v1/domains", { name: free, registrant: contact, contacts: { admin: contact, tech: contact }, nameservers: NAMESERVERS });
    expectStatus(res, 201);
    registered = res.json;
    await registryDid(from, "contact:create");
    await registryDid(from, "host:create", NAMESERVERS[0]);
    await registryDid(from, "domain:create", free);
    const state = await control("GET", "/state");
    assert(state.json.domains.includes(free), `the registry does not hold ${free}`);
    // The request's own commands: the gateway's sessions meanwhile read the registry's
    // message queue (<poll>) and keep alive (<hello>) under clTRIDs of their own.
    const clTRIDs = new Set((await commandsSince(from)).filter((x) => !["poll", "hello", "login", "logout"].includes(x.kind)).map((x) => x.clTRID));
    assertEqual(clTRIDs.size, 1, "clTRIDs of one request");
    assertEqual([...clTRIDs][0], res.headers.get("x-request-id"), "clTRID (the request id)");
  });

  await check("the domain's create event carries the registry's svTRID", async () => {
    const res = await api("GET", `/v1/events?resource=${registered.id}`);
    expectStatus(res, 200);
    const created = res.json.data.find((e) => e.operation === "create");
    assert(created && /^LR-/.test(created.after.registry_sv_trid ?? ""), `event: ${JSON.stringify(created)?.slice(0, 300)}`);
  });

  await check(`${free} learns its ROID right after the 201 (creData has none): GET and RDAP show the registry's ROID`, async () => {
    assertEqual(registered?.registry, null, "registry in the 201");
    const info = await control("POST", "/as/domain-api", { command: { kind: "domain:info", name: free } });
    expectStatus(info, 200);
    const roid = info.json.resData[0].roid;
    assert(typeof roid === "string" && roid.length > 0, `the registry's info: ${info.text.slice(0, 300)}`);
    let last = null;
    const shown = await waitFor(
      async () => {
        last = await api("GET", `/v1/domains/${free}`);
        return last.status === 200 && last.json.registry?.roid === roid;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    assert(shown !== null, `registry.roid never became ${roid}: ${last?.text.slice(0, 300)}`);
    const rdap = await api("GET", `/v1/domains/${free}`, undefined, { accept: "application/rdap+json" });
    expectStatus(rdap, 200);
    assertEqual(rdap.json.handle, roid, "RDAP handle");
  });

  await check(`POST /v1/domains ${theirs}: 409 unavailable, the registry's word (our D1 never held it)`, async () => {
    const res = await api("POST", "/v1/domains", { name: theirs, registrant: contact, nameservers: NAMESERVERS });
    expectStatus(res, 409);
    assertEqual(res.json.code, "unavailable", "code");
    assert(/2302/.test(res.json.detail), `detail: ${res.json.detail}`);
  });

  await check("POST /v1/domains vacation.com without its price: 422 price_mismatch, nothing sent", async () => {
    const from = await commandCount();
    const res = await api("POST", "/v1/domains", { name: "vacation.com", registrant: contact, nameservers: NAMESERVERS });
    expectStatus(res, 422);
    assertEqual(res.json.code, "price_mismatch", "code");
    assertEqual((await commandsSince(from)).filter((x) => x.kind === "domain:create").length, 0, "domain:create sent");
  });

  await check("POST /v1/domains vacation.com with price 2500.00: 201, the fee confirmed at the registry", async () => {
    const from = await commandCount();
    const res = await api("POST", "/v1/domains", { name: "vacation.com", registrant: contact, nameservers: NAMESERVERS, price: "2500.00" });
    expectStatus(res, 201);
    assertEqual(res.json.price?.amount, "2500.00", "price");
    await registryDid(from, "domain:create", "vacation.com");
  });

  await check(
    "a registration the registry leaves pending (1001): 202 with pendingCreate, stored; its Idempotency-Key replay the same 202, nothing sent",
    async () => {
      expectStatus(await control("POST", "/knobs", { pending: { "domain:create": 1 } }), 200);
      const pending = `pending-${tag}.com`;
      const from = await commandCount();
      const body = { name: pending, registrant: contact, nameservers: NAMESERVERS };
      const res = await api("POST", "/v1/domains", body, { "idempotency-key": `pending-${tag}` });
      expectStatus(res, 202);
      assert(res.json.status.includes("pendingCreate"), `status: ${res.json.status}`);
      await registryDid(from, "domain:create", pending, 1001);
      const replay = await api("POST", "/v1/domains", body, { "idempotency-key": `pending-${tag}` });
      expectStatus(replay, 202);
      assertEqual(replay.json.id, res.json.id, "the replay's domain");
      assertEqual((await commandsSince(from)).filter((x) => x.kind === "domain:create").length, 1, "domain:create commands (the replay sent none)");
      expectStatus(await api("GET", `/v1/domains/${pending}`), 200);
      expectStatus(await control("POST", "/knobs", { reset: true }), 200);
    },
  );

  await check(`POST /v1/domains/${free}/renew: the registry renews from curExpDate, its exDate stored`, async () => {
    const from = await commandCount();
    const res = await api("POST", `/v1/domains/${free}/renew`, { current_expires_at: registered.expires_at, period: 2 });
    expectStatus(res, 200);
    await registryDid(from, "domain:renew", free);
    const years = (Date.parse(res.json.expires_at) - Date.parse(registered.expires_at)) / (365.25 * 86_400_000);
    assert(Math.abs(years - 2) < 0.01, `expires_at ${registered.expires_at} → ${res.json.expires_at}`);
  });

  await check(`PATCH /v1/domains/${free}: hosts and statuses change at the registry`, async () => {
    const from = await commandCount();
    const res = await api("PATCH", `/v1/domains/${free}`, { nameservers: [NAMESERVERS[0], "ns3.example.fr"], status: ["clientTransferProhibited"] });
    expectStatus(res, 200);
    assertEqual(res.json.status, ["clientTransferProhibited"], "status");
    await registryDid(from, "host:create", "ns3.example.fr");
    await registryDid(from, "domain:update", free);
  });

  await check(`PATCH /v1/domains/${free}: a DS record added, then removed, through secDNS`, async () => {
    let from = await commandCount();
    const added = await api("PATCH", `/v1/domains/${free}`, { ds: [DS] });
    expectStatus(added, 200);
    assertEqual(added.json.ds.length, 1, "DS records");
    await registryDid(from, "domain:update", free);
    from = await commandCount();
    const removed = await api("PATCH", `/v1/domains/${free}`, { ds: [] });
    expectStatus(removed, 200);
    assertEqual(removed.json.ds, [], "DS records");
    await registryDid(from, "domain:update", free);
  });

  await check(`DELETE /v1/domains/${free}: the registry's answer decides (1001: 202 pendingDelete)`, async () => {
    const from = await commandCount();
    const clear = await api("PATCH", `/v1/domains/${free}`, { status: [] });
    expectStatus(clear, 200);
    const res = await api("DELETE", `/v1/domains/${free}`);
    assert(res.status === 202 || res.status === 204, `status ${res.status}: ${res.text.slice(0, 300)}`);
    const deletes = (await commandsSince(from)).filter((x) => x.kind === "domain:delete" && x.object === free);
    assertEqual(deletes.length, 1, "domain:delete commands");
    assertEqual(res.status, deletes[0].code === 1001 ? 202 : 204, "status for the registry's code");
    if (res.status === 202) assert(res.json.status.includes("pendingDelete"), `status: ${res.json.status}`);
  });

  await check(`POST /v1/domains/${free}/restore: RGP's request and report at the registry`, async () => {
    const from = await commandCount();
    const res = await api("POST", `/v1/domains/${free}/restore`);
    expectStatus(res, 200);
    const updates = (await commandsSince(from)).filter((x) => x.kind === "domain:update" && x.object === free);
    assertEqual(
      updates.map((x) => x.code),
      [1000, 1000],
      "restore request and report",
    );
  });

  await check("PATCH /v1/contacts/{id}: every registry holding the contact changes it (contact:update)", async () => {
    const from = await commandCount();
    const res = await api("PATCH", `/v1/contacts/${contact}`, { email: `changed-${tag}@example.org`, phone: null });
    expectStatus(res, 200);
    await registryDid(from, "contact:update");
  });

  await check("DELETE /v1/hosts/ns3.example.fr once no domain uses it: deleted at the registry (host:delete)", async () => {
    const moved = await api("PATCH", `/v1/domains/${free}`, { nameservers: NAMESERVERS });
    expectStatus(moved, 200);
    const from = await commandCount();
    const res = await api("DELETE", "/v1/hosts/ns3.example.fr");
    expectStatus(res, 204);
    await registryDid(from, "host:delete", "ns3.example.fr");
  });

  await check(`a host subordinate to ${free} becomes its name server: created at the registry with its glue`, async () => {
    const host = await api("POST", "/v1/hosts", { name: `ns1.${free}`, addresses: ["192.0.2.53"] });
    expectStatus(host, 201);
    const from = await commandCount();
    const res = await api("PATCH", `/v1/domains/${free}`, { nameservers: [`ns1.${free}`, NAMESERVERS[0]] });
    expectStatus(res, 200);
    await registryDid(from, "host:create", `ns1.${free}`);
    await registryDid(from, "domain:update", free);
  });

  await check("DNSSEC on for the zone of vacation.com: its DS is set at the registry first", async () => {
    const zone = await api("POST", "/v1/zones", { name: "vacation.com" });
    expectStatus(zone, 201);
    const from = await commandCount();
    const on = await api("POST", "/v1/zones/vacation.com/dnssec");
    assert(on.status === 200 || on.status === 201, `status ${on.status}: ${on.text.slice(0, 300)}`);
    await registryDid(from, "domain:update", "vacation.com");
    const domain = await api("GET", "/v1/domains/vacation.com");
    assertEqual(domain.json.ds.length, 1, "the domain's DS records");
  });

  // ---- a DNSSEC roll whose parent is this registry (docs/dnssec-rollovers.md "The parent") ----
  /** The DS key tags the registry holds for `name` (its <domain:info>, as our registrar). */
  const registryDs = async (name) => {
    const info = await control("POST", "/as/domain-api", { command: { kind: "domain:info", name } });
    expectStatus(info, 200);
    const sec = (info.json.extensions ?? []).find((e) => e.kind === "secDNS:infData");
    return (sec?.dsData ?? []).map((d) => d.keyTag).sort((a, b) => a - b);
  };
  /** The tags of the keys whose DS the zone wants the parent to show (submitted or seen). */
  const wantedTags = (state) =>
    state.keys
      .filter((k) => k.ds_state === "submitted" || k.ds_state === "seen")
      .map((k) => k.key_tag)
      .sort((a, b) => a - b);
  const dsEvents = async (zone) => {
    const res = await api("GET", `/v1/events?resource=${zone}&limit=200`);
    expectStatus(res, 200);
    return res.json.data
      .filter((e) => e.type === "dnssec.ds")
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((e) => e.operation);
  };
  /** The run at the zone's next step, until `done(state)` or no step is left (each run's state returned last). */
  const runUntil = async (zone, done, most = 12) => {
    let state = (await api("GET", `/v1/zones/${zone}/dnssec`)).json;
    for (let i = 0; i < most && !done(state) && state.next_step_at; i++) {
      expectStatus(await api("POST", "/v1/dnssec/run", { as_of: state.next_step_at }), 200);
      state = (await api("GET", `/v1/zones/${zone}/dnssec`)).json;
    }
    return state;
  };
  const signedAtRegistry = async (name) => {
    expectStatus(await api("POST", "/v1/domains", { name, registrant: contact, nameservers: NAMESERVERS }), 201);
    expectStatus(await api("POST", "/v1/zones", { name }), 201);
    const on = await api("POST", `/v1/zones/${name}/dnssec`);
    expectStatus(on, 201);
    return on.json;
  };

  const rolled = `ds-roll-${tag}.com`;
  await check(
    `a CSK roll of ${rolled}: each DS set goes by secDNS:update, the registry's 1000 completes the DS step at once, and it ends with the new DS alone`,
    async () => {
      const on = await signedAtRegistry(rolled);
      const oldTag = on.keys[0].key_tag;
      assertEqual(await registryDs(rolled), [oldTag], "the registry's DS after signing");
      const from = await commandCount();
      const started = await api("POST", `/v1/zones/${rolled}/dnssec/rollover`, { kind: "csk" });
      expectStatus(started, 200);
      await registryDid(from, "domain:update", rolled, 1000);
      const both = wantedTags(started.json);
      assertEqual(both.length, 2, "the DS set wanted during the roll");
      assert(
        started.json.keys.every((k) => k.ds_state === "seen"),
        `the registry's 1000 is the DS seen: ${JSON.stringify(started.json.keys.map((k) => k.ds_state))}`,
      );
      assertEqual(await registryDs(rolled), both, "the registry's DS during the roll (old and new)");
      assertEqual((await api("GET", `/v1/domains/${rolled}`)).json.ds.length, 2, "the domain's stored DS");
      const end = await runUntil(rolled, (s) => s.rollover === null);
      assertEqual(end.rollover, null, "the roll ended");
      assertEqual(end.keys.length, 1, "keys left");
      assert(end.keys[0].key_tag !== oldTag, "the new key is the one left");
      assertEqual(await registryDs(rolled), [end.keys[0].key_tag], "the registry's DS after the roll (the new key's alone)");
      const zone = (await api("GET", `/v1/zones/${rolled}`)).json.id;
      // Signing (seen at once), the new DS added (submitted, seen on 1000), the old one withdrawn (submitted, seen on 1000).
      assertEqual(await dsEvents(zone), ["seen", "submitted", "seen", "submitted", "seen"], "the zone's dnssec.ds events, in order");
    },
  );

  const held = `ds-held-${tag}.com`;
  await check(
    `a CSK roll of ${held} whose DS update the registry holds (1001): the roll waits, the stored DS unchanged, until the registry's poll message settles it; then it goes on`,
    async () => {
      const on = await signedAtRegistry(held);
      const oldTag = on.keys[0].key_tag;
      expectStatus(await control("POST", "/knobs", { pending: { "domain:update": 1 } }), 200);
      const from = await commandCount();
      const started = await api("POST", `/v1/zones/${held}/dnssec/rollover`, { kind: "csk" });
      expectStatus(started, 200);
      await registryDid(from, "domain:update", held, 1001);
      const newKey = started.json.keys.find((k) => k.key_tag !== oldTag);
      assertEqual(newKey.ds_state, "submitted", "the new key's DS while the registry holds the update");
      assertEqual((await api("GET", `/v1/domains/${held}`)).json.ds.length, 1, "the domain's stored DS while pending");
      assertEqual(await registryDs(held), [oldTag], "the registry's DS while pending");
      // A run at the zone's next look (Dreg later) finds the parent as it was: the roll waits.
      const waiting = await runUntil(held, () => true, 0);
      expectStatus(await api("POST", "/v1/dnssec/run", { as_of: waiting.next_step_at }), 200);
      const still = (await api("GET", `/v1/zones/${held}/dnssec`)).json;
      assertEqual(still.keys.find((k) => k.id === newKey.id).ds_state, "submitted", "the new key's DS after a run while pending");
      assertEqual(still.keys.find((k) => k.id === newKey.id).state, "published", "the new key's state while the parent waits");
      // The registry approves: its panData reaches the Worker through the gateway's poll, and the domain follows.
      expectStatus(await control("POST", "/settle", { name: held, approve: true }), 200);
      const followed = await waitFor(
        async () => {
          const domain = await api("GET", `/v1/domains/${held}`);
          return domain.status === 200 && domain.json.ds.length === 2 ? domain : null;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      assert(followed !== null, "the domain never followed the settled update");
      const end = await runUntil(held, (s) => s.rollover === null);
      assertEqual(end.rollover, null, "the roll ended");
      assertEqual(
        end.keys.map((k) => k.key_tag),
        [newKey.key_tag],
        "keys left",
      );
      assertEqual(await registryDs(held), [newKey.key_tag], "the registry's DS after the roll");
      const zone = (await api("GET", `/v1/zones/${held}`)).json.id;
      assert((await dsEvents(zone)).includes("seen"), "a dnssec.ds.seen event once settled");
    },
  );

  const signedHeld = `ds-sign-held-${tag}.com`;
  await check(
    `signing ${signedHeld} while the registry holds its DS update (1001): 201, the DS submitted and the stored DS empty until the registry's message; the run then sees it`,
    async () => {
      expectStatus(await api("POST", "/v1/domains", { name: signedHeld, registrant: contact, nameservers: NAMESERVERS }), 201);
      expectStatus(await api("POST", "/v1/zones", { name: signedHeld }), 201);
      expectStatus(await control("POST", "/knobs", { pending: { "domain:update": 1 } }), 200);
      const on = await api("POST", `/v1/zones/${signedHeld}/dnssec`);
      expectStatus(on, 201);
      assertEqual(on.json.keys[0].ds_state, "submitted", "the key's DS while the registry holds it");
      assert(on.json.next_step_at !== null, "the zone has a next look at its parent");
      assertEqual((await api("GET", `/v1/domains/${signedHeld}`)).json.ds, [], "the domain's stored DS while pending");
      expectStatus(await control("POST", "/settle", { name: signedHeld, approve: true }), 200);
      const followed = await waitFor(
        async () => {
          const domain = await api("GET", `/v1/domains/${signedHeld}`);
          return domain.status === 200 && domain.json.ds.length === 1 ? domain : null;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      assert(followed !== null, "the domain never followed the settled update");
      const seen = await runUntil(signedHeld, (s) => s.keys[0].ds_state === "seen");
      assertEqual(seen.keys[0].ds_state, "seen", "the key's DS once the run looked");
    },
  );

  // A poll message the API never takes: D1 refuses every event naming the domain (the message's own write and the
  // registry_message event that would keep it), so the API answers 500 to each hand-over.
  const refused = `refused-message-${tag}.com`;
  const behind = `behind-refused-${tag}.com`;
  // The server's D1 file opened beside it as `wrangler d1 execute --local` would (Debian's sqlite3 is older than its schema).
  const sqlite = async (sql) => {
    const d1 = await openLocalD1(stateDir);
    try {
      await d1.run(sql);
    } finally {
      await d1.close();
    }
  };
  const setAside = () => {
    const dir = join(stateDir, "registry-gateway", "set-aside-messages", "verisign");
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")))
      : [];
  };
  const holds = (name) => async () => {
    const res = await api("GET", `/v1/domains/${name}`);
    return res.status === 200 && res.json.status.includes("serverHold");
  };
  let refusedId = null;
  await check(
    "a poll message whose every write D1 refuses (any event naming its domain) is handed over message_attempts times, set aside in the gateway's state dir with its raw XML, then acked: the message behind it is applied",
    async () => {
      for (const name of [refused, behind]) expectStatus(await api("POST", "/v1/domains", { name, registrant: contact, nameservers: NAMESERVERS }), 201);
      await sqlite(
        `CREATE TRIGGER e2e_refuse_message BEFORE INSERT ON events WHEN new.after LIKE '%${refused}%' OR new.before LIKE '%${refused}%' BEGIN SELECT RAISE(ABORT, 'refused by registry-e2e'); END;`,
      );
      expectStatus(await control("POST", "/server-status", { name: refused, add: ["serverHold"] }), 200);
      expectStatus(await control("POST", "/server-status", { name: behind, add: ["serverHold"] }), 200);
      // Hang detectors, not speed checks: the gateway waits 2 s, then 4 s, before the third hand-over.
      assert((await waitFor(holds(behind), { timeoutMs: 120_000, intervalMs: 500 })) !== null, `${behind} never followed the registry's message`);
      const [record, ...others] = setAside();
      assert(record && others.length === 0, `set-aside records: ${JSON.stringify(setAside()).slice(0, 300)}`);
      refusedId = record.message_id;
      assertEqual(record.attempts, 3, "failed hand-overs before it was set aside (message_attempts)");
      assert(/^the API answered 500 internal/.test(record.last_failure), `last_failure: ${record.last_failure}`);
      assert(record.xml.includes(`<domain:name>${refused}</domain:name>`) && /<msgQ [^>]*id="/.test(record.xml), `xml: ${record.xml.slice(0, 400)}`);
      assertEqual(record.message?.resData?.[0]?.name, refused, "the record's reading of the message");
      // Handed over exactly three times, the third setting it aside; each a line in the gateway's log.
      const log = harness.serverOutput.split("\n").filter((line) => line.includes(`poll message ${refusedId} `) || line.includes(`POLL MESSAGE ${refusedId} `));
      assertEqual(
        log.filter((line) => /not taken by the API \(the API answered 500 internal\)/.test(line)).length,
        2,
        `refused hand-overs logged: ${log.join(" | ")}`,
      );
      assertEqual(log.filter((line) => /POLL MESSAGE \S+ SET ASIDE after 3 failed hand-overs/.test(line)).length, 1, `set aside logged: ${log.join(" | ")}`);
      // Acked: the registry's queue no longer holds it.
      const queue = await control("POST", "/as/domain-api", { command: { kind: "poll", op: "req" } });
      expectStatus(queue, 200);
      assert(queue.json.msgQ?.id !== refusedId, `the registry still holds message ${refusedId} first: ${JSON.stringify(queue.json.msgQ)}`);
      const now = await api("GET", `/v1/domains/${refused}`);
      assert(!now.json.status.includes("serverHold"), `${refused} changed although every write was refused: ${now.json.status}`);
      // An operator sees it through the API too (the gateway's count, until the API takes it).
      const repository = await api("GET", "/v1/repositories/verisign");
      expectStatus(repository, 200);
      assertEqual(repository.json.connector.set_aside_messages, 1, "connector.set_aside_messages");
    },
  );

  await check("a customer's token reads the repository's connector without the gateway's set-aside count (an operator's concern)", async () => {
    const account = await api("POST", "/v1/accounts", { name: "Registry E2E Customer" });
    expectStatus(account, 201);
    const token = await api("POST", "/v1/tokens", { name: "registry-e2e-customer", scope: "read", account: account.json.id });
    expectStatus(token, 201);
    // As a deployed Worker is asked (a Host that is not npm start's: authentication on), so the token is the reader.
    const seen = await asDeployed("/v1/repositories/verisign", `Bearer ${token.json.secret}`);
    expectStatus(seen, 200);
    assertEqual(seen.json.connector, { kind: "epp", state: "up", since: seen.json.connector.since, last_error: null }, "the customer's connector");
    assert(!seen.text.includes("set_aside"), `a customer sees the set-aside count: ${JSON.stringify(seen.json.connector)}`);
    // The operator, at the same moment, still sees it: the difference is the reader's.
    assertEqual((await api("GET", "/v1/repositories/verisign")).json.connector.set_aside_messages, 1, "the operator's connector.set_aside_messages");
  });

  await check("once D1 takes the writes again, the set-aside message is handed over from the gateway's record and applied; the record is removed", async () => {
    await sqlite("DROP TRIGGER e2e_refuse_message;");
    assert((await waitFor(holds(refused), { timeoutMs: 180_000, intervalMs: 500 })) !== null, `${refused} never followed its set-aside message`);
    assert((await waitFor(async () => setAside().length === 0, { timeoutMs: 60_000, intervalMs: 500 })) !== null, "the record stayed");
    assertEqual((await api("GET", "/v1/repositories/verisign")).json.connector.set_aside_messages, 0, "connector.set_aside_messages");
    assert(
      harness.serverOutput.includes(`set-aside poll message ${refusedId} taken by the API from the gateway's record`),
      "no log line of the record handed over",
    );
  });

  // A set-aside message is applied after the messages behind it: its replay (marked replayed: true) is not followed as
  // it says, the registry's info decides (docs/decisions.md). Handed over here as the gateway hands over a replay.
  const stale = `replayed-stale-${tag}.com`;
  await check(
    "a replayed (replayed: true) infData whose serverHold the registry no longer shows does not put it back: the domain follows the registry's info; a replayed transfer pending the registry shows no pendingTransfer for creates no transfer (kept as stale, 200)",
    async () => {
      const created = await api("POST", "/v1/domains", { name: stale, registrant: contact, nameservers: NAMESERVERS });
      expectStatus(created, 201);
      const replay = (id, msg, part) =>
        api("POST", "/v1/registry-messages", {
          repository: "verisign",
          client_id: "domain-api",
          replayed: true,
          message: { code: 1301, msgQ: { count: 1, id, msg }, resData: [part], extensions: [], trID: { svTRID: `${id}-sv` } },
        });
      const hold = await replay(`e2e-stale-hold-${tag}`, `The registry changed the statuses of ${stale}: +serverHold.`, {
        kind: "domain:infData",
        name: stale,
        roid: "E2E-STALE",
        statuses: [{ s: "serverHold" }],
        contacts: [],
        nameservers: NAMESERVERS,
        hostAttrs: [],
        hosts: [],
        clID: "domain-api",
      });
      expectStatus(hold, 200);
      assertEqual(hold.json.outcome, "applied", `the replayed infData: ${hold.text.slice(0, 300)}`);
      const domain = await api("GET", `/v1/domains/${stale}`);
      assert(!domain.json.status.includes("serverHold"), `the replayed infData's stale hold was followed: ${domain.json.status}`);
      const updates = await api("GET", `/v1/events?resource=${created.json.id}&operation=update`);
      assert(
        updates.json.data.some((e) => e.after?.registry_replayed === true),
        `no update event noting the replay: ${JSON.stringify(updates.json.data).slice(0, 300)}`,
      );
      const transfer = await replay(`e2e-stale-transfer-${tag}`, "Transfer requested.", {
        kind: "domain:trnData",
        name: stale,
        trStatus: "pending",
        reID: "other-registrar",
        reDate: "2026-11-22T09:30:00.000Z",
        acID: "domain-api",
        acDate: "2026-11-27T09:30:00.000Z",
      });
      expectStatus(transfer, 200);
      assertEqual(transfer.json.outcome, "kept", `the replayed pending transfer: ${transfer.text.slice(0, 300)}`);
      assert(/stale/.test(transfer.json.detail), `detail: ${transfer.json.detail}`);
      assert(!(await api("GET", `/v1/domains/${stale}`)).json.status.includes("pendingTransfer"), "the domain shows pendingTransfer");
      expectStatus(await api("GET", `/v1/domains/${stale}/transfer`), 404);
    },
  );

  await check("every frame the registry received was schema-valid (no command invalid, none answered 2001)", async () => {
    const all = await commandsSince(0);
    assert(all.length > 10, `only ${all.length} commands logged`);
    const bad = all.filter((x) => x.kind === "invalid" || x.code === 2001);
    assert(bad.length === 0, `invalid: ${JSON.stringify(bad).slice(0, 500)}`);
  });

  // The registry goes down: writes answer 503 within 10 s, reads go on from D1.
  await check("the registry down: a write answers 503 registry_unavailable with Retry-After within 10 s", async () => {
    expectStatus(await control("POST", "/down"), 200);
    const started = Date.now();
    const res = await api("PATCH", "/v1/domains/vacation.com", { status: ["clientHold"] });
    const took = Date.now() - started;
    expectStatus(res, 503);
    assertEqual(res.json.code, "registry_unavailable", "code");
    assert(Number(res.headers.get("retry-after")) > 0, `Retry-After: ${res.headers.get("retry-after")}`);
    assert(took < ANSWER_WITHIN_MS, `answered after ${took} ms`);
    const unchanged = await api("GET", "/v1/domains/vacation.com");
    expectStatus(unchanged, 200);
    assertEqual(unchanged.json.status, ["ok"], "status (nothing written)");
  });

  await check("the registry down: reads go on, and the connector is not up", async () => {
    expectStatus(await api("GET", "/v1/domains/vacation.com"), 200);
    expectStatus(await api("GET", "/v1/domains?limit=5"), 200);
    const repository = await api("GET", "/v1/repositories/verisign");
    expectStatus(repository, 200);
    assert(repository.json.connector.state !== "up", `connector: ${JSON.stringify(repository.json.connector)}`);
  });

  await check("the registry up again: the connector comes back up and writes go through", async () => {
    expectStatus(await control("POST", "/up"), 200);
    let last = null;
    const up = await waitFor(
      async () => {
        last = await api("GET", "/v1/repositories/verisign");
        return last.json?.connector?.state === "up";
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    assert(up !== null, `connector: ${JSON.stringify(last?.json?.connector)}`);
    const res = await api("PATCH", "/v1/domains/vacation.com", { status: ["clientHold"] });
    expectStatus(res, 200);
  });

  await check("xmllint gives every frame of the run the registry's verdict: each received valid, each answer valid (one xmllint run)", async () => {
    const res = await control("POST", "/xmllint");
    expectStatus(res, 200);
    assert(res.json.checked > 20, `only ${res.json.checked} frames kept`);
    assertEqual(res.json.disagreements, [], "frames xmllint judges otherwise than the registry");
  });
}

run(main);
