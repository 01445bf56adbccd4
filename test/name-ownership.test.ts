// Names are owned, not first-come (docs/accounts.md, src/registry/zone-ownership.ts): a
// customer's zone is never at or above an extension of the catalog; nobody's zone lies
// inside or above another account's zone, or at or inside a domain another account
// registered here; the refusal says nothing of what holds the name. The DNS backend
// serves a zone only while it holds its names and its account is active, so no zone of
// one account answers for a name of another's; drizzle/0015's view lists the stored zones
// that break the rules, for the operator to decide.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { reversedName } from "../src/dns/name";
import { addDnsToken, adaAddress, api, type ApiResponse, expectProblem } from "./helpers";

/** A customer account with a write token. */
async function customer(name: string) {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", { json: { name: `${name.replace(/\W/g, "-")}-token`, scope: "write", account: account.body.id } });
  expect(token.status, token.text).toBe(201);
  const auth = `Bearer ${token.body.secret}`;
  return {
    id: account.body.id as string,
    auth,
    call: (method: string, path: string, json?: unknown) => api(method, path, { json, headers: { authorization: auth } }),
    zone: (name: string) => api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"] }, headers: { authorization: auth } }),
    import: (text: string, name?: string) =>
      api("POST", `/v1/zones${name ? `?name=${name}` : ""}`, { body: text, headers: { authorization: auth, "content-type": "text/dns" } }),
  };
}
type Customer = Awaited<ReturnType<typeof customer>>;

async function registerDomain(owner: Customer, name: string, fields: Record<string, unknown> = {}) {
  const contact = await owner.call("POST", "/v1/contacts", { name: "Alice Example", email: "alice@example.org", address: adaAddress });
  expect(contact.status, contact.text).toBe(201);
  const domain = await owner.call("POST", "/v1/domains", { name, registrant: contact.body.id, ...fields });
  expect(domain.status, domain.text).toBe(201);
  return domain.body;
}

function created(response: ApiResponse) {
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The one answer to a name another account holds: 409, the same words whatever holds it, naming nothing of it. */
function expectHeld(response: ApiResponse, name: string, others: string[]) {
  const problem = expectProblem(response, 409, "already_exists");
  expect(problem.detail).toBe(`The zone name ${name} is not available: it, a name above it or a zone below it is held by another account.`);
  expect(problem.errors).toEqual([{ field: "name", message: "is held by another account" }]);
  for (const other of others) expect(response.text).not.toContain(other);
  expect(response.text).not.toMatch(/zon_|dom_|acc_/);
}

const masterFile = (origin: string) => `$ORIGIN ${origin}.\n$TTL 300\n@ NS ns1.example.net.\nwww A 203.0.113.66\n`;

describe("a customer creates no zone at or above an extension of the catalog, nor at a top-level name: 422 policy_violation", () => {
  it.each([
    ["org", "org is an extension offered here; a zone at an extension or above one is an operator's"],
    ["co.uk", "co.uk is an extension offered here; a zone at an extension or above one is an operator's"],
    ["uk", "uk is an extension offered here; a zone at an extension or above one is an operator's"],
    ["internal", "internal is a top-level name; a zone there is an operator's"],
  ])("%s, by JSON and by master file", async (name, reason) => {
    const bob = await customer(`Bob reserved ${name}`);
    for (const response of [await bob.zone(name), await bob.import(masterFile(name))]) {
      const problem = expectProblem(response, 422, "policy_violation");
      expect(problem.errors).toEqual([{ field: "name", message: reason }]);
    }
    expect((await api("GET", `/v1/zones/${name}`)).status).toBe(404);
  });

  it("an operator may: its zone at an extension then holds every name below it", async () => {
    const zone = created(await api("POST", "/v1/zones", { json: { name: "ch", nameservers: ["ns1.example.net"] } }));
    expect(zone.account).toBe("acc_00000000000000000000000000");
    const bob = await customer("Bob under ch");
    expectHeld(await bob.zone("bob-shop.ch"), "bob-shop.ch", [zone.id]);
    // An operator creating it for a customer's account: still the customer's rule.
    const forBob = await api("POST", "/v1/zones", { json: { name: "eu", nameservers: ["ns1.example.net"], account: bob.id } });
    expect(expectProblem(forBob, 422, "policy_violation").errors).toEqual([
      { field: "name", message: "eu is an extension offered here; a zone at an extension or above one is an operator's" },
    ]);
  });
});

describe("nobody creates a zone inside or above another account's zone: 409, one message", () => {
  it("Bob's zone inside Alice's zone is refused, by JSON and by master file; Alice's own subzone is not", async () => {
    const alice = await customer("Alice subzone");
    const bob = await customer("Bob subzone");
    const zone = created(await alice.zone("alice-one.eu"));
    expectHeld(await bob.zone("secret-host.alice-one.eu"), "secret-host.alice-one.eu", [zone.id, alice.id]);
    expectHeld(await bob.import(masterFile("secret-host.alice-one.eu")), "secret-host.alice-one.eu", [zone.id, alice.id]);
    expectHeld(await bob.import("$TTL 300\n@ NS ns1.example.net.\n", "a.b.alice-one.eu"), "a.b.alice-one.eu", [zone.id, alice.id]);
    // The operator cannot either: the names are Alice's.
    expectHeld(await api("POST", "/v1/zones", { json: { name: "op.alice-one.eu", nameservers: ["ns1.example.net"] } }), "op.alice-one.eu", []);
    created(await alice.zone("sub.alice-one.eu"));
    expect((await api("GET", "/v1/zones/secret-host.alice-one.eu")).status).toBe(404);
  });

  it("Bob's zone above Alice's zone is refused", async () => {
    const alice = await customer("Alice above");
    const bob = await customer("Bob above");
    const zone = created(await alice.zone("www.alice-three.net"));
    expectHeld(await bob.zone("alice-three.net"), "alice-three.net", [zone.id, alice.id]);
    // Alice may hold the zone above her own.
    created(await alice.zone("alice-three.net"));
  });

  it("another account's zone of the very name answers the same words, without its id", async () => {
    const alice = await customer("Alice same");
    const bob = await customer("Bob same");
    const zone = created(await alice.zone("alice-same.net"));
    expectHeld(await bob.zone("alice-same.net"), "alice-same.net", [zone.id, alice.id]);
    // The caller's own zone of that name is named, with its id.
    const own = expectProblem(await alice.zone("alice-same.net"), 409, "already_exists");
    expect(own.detail).toBe(`The zone alice-same.net already exists (${zone.id}).`);
  });

  it("two accounts claiming a name and a name inside it at once: one zone is made, the other is refused", async () => {
    for (let round = 0; round < 3; round++) {
      const alice = await customer(`Alice race ${round}`);
      const bob = await customer(`Bob race ${round}`);
      const [outer, inner] = await Promise.all([bob.zone(`race-${round}.net`), alice.zone(`in.race-${round}.net`)]);
      expect([outer.status, inner.status].sort(), `${outer.text} ${inner.text}`).toEqual([201, 409]);
    }
  });
});

describe("a domain registered here is its sponsor's: only its account makes a zone at it or inside it", () => {
  it("Bob's zone for Alice's domain, or inside it, is refused with the same words; Alice's is made", async () => {
    const alice = await customer("Alice domain");
    const bob = await customer("Bob domain");
    const domain = await registerDomain(alice, "alice-two.com");
    expectHeld(await bob.zone("alice-two.com"), "alice-two.com", [domain.id, alice.id]);
    expectHeld(await bob.zone("www.alice-two.com"), "www.alice-two.com", [domain.id, alice.id]);
    expectHeld(await bob.import(masterFile("alice-two.com")), "alice-two.com", [domain.id, alice.id]);
    const zone = created(await alice.zone("alice-two.com"));
    expect(zone.domain).toBe(domain.id);
  });
});

// Rows as a database from before the rules may hold them (the API refuses to make them).
let legacyCount = 0;
async function legacyZone(name: string, accountId: string, createdAt: string, records: [string, string, string][] = []) {
  const id = `zon_01JD3Q6Y4T8N0V4W5X6Y7Z${String(++legacyCount).padStart(4, "0")}`;
  await env.DB.prepare(
    `INSERT INTO zones (id, account_id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, created_at, updated_at)
     VALUES (?, ?, ?, ?, 300, 'ns1.example.net', 'hostmaster.example.net', 2026010101, 7200, 900, 1209600, 300, ?, ?)`,
  )
    .bind(id, accountId, name, reversedName(name), createdAt, createdAt)
    .run();
  for (const [owner, type, content] of [["@", "NS", "ns1.example.net."], ...records] as [string, string, string][]) {
    await env.DB.prepare(
      "INSERT INTO records (id, zone_id, name, type, content, ttl, owner_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 300, ?, ?, ?)",
    )
      .bind(
        `rec_${crypto.randomUUID().replaceAll("-", "").slice(0, 26).toUpperCase()}`,
        id,
        owner,
        type,
        content,
        owner === "@" ? "" : owner.split(".").reverse().join(" "),
        createdAt,
        createdAt,
      )
      .run();
  }
  return id;
}

const DNS = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8D01", secret: "name-ownership-dns-secret-0123456789" };
let dnsBase: string | null = null;
async function pdns(path: string) {
  dnsBase ??= await addDnsToken(DNS.id, "name-ownership-dns", DNS.secret);
  const response = await api("GET", `${dnsBase}${path}`, { auth: false });
  expect(response.status, response.text).toBe(200);
  return response.body.result;
}
const encode = (name: string) => [...name].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`)).join("");
const lookup = (name: string, type: string) => pdns(`/lookup/${encode(name)}/${type}`);
const contents = (result: false | { qtype: string; content: string }[]) => (result === false ? false : result.map((r) => `${r.qtype} ${r.content}`).sort());
const servedZones = async () => ((await pdns("/getAllDomains?includeDisabled=true")) as { zone: string }[]).map((d) => d.zone);
const suspend = (account: string, status = "suspended") => api("PATCH", `/v1/accounts/${account}`, { json: { status } });
const conflicts = async () =>
  (
    await env.DB.prepare("SELECT zone, rule, other_name FROM zone_ownership_conflicts ORDER BY zone, rule").all<{
      zone: string;
      rule: string;
      other_name: string | null;
    }>()
  ).results;

describe("the DNS backend never lets one account's zone answer for a name of another's", () => {
  it("Bob's zone `org` made before the rules (with a wildcard) is not served; Alice's suspended zone then answers nothing, and nothing answers for it", async () => {
    const alice = await customer("Alice dns");
    const bob = await customer("Bob dns");
    const aliceZone = created(await alice.zone("alice-dns.org"));
    await api("POST", "/v1/records", { json: { zone: "alice-dns.org", name: "www", type: "A", content: "192.0.2.80" } });
    await legacyZone("org", bob.id, new Date().toISOString(), [["*", "A", "203.0.113.66"]]);

    expect(contents(await lookup("www.alice-dns.org.", "ANY"))).toEqual(["A 192.0.2.80"]);
    // The customer's zone at an extension holds no names: no SOA, no wildcard, not listed.
    expect(await lookup("org.", "SOA")).toBe(false);
    expect(await lookup("anything.org.", "ANY")).toBe(false);
    expect(await lookup("*.org.", "ANY")).toBe(false);
    expect(await pdns(`/getDomainInfo/${encode("org.")}`)).toBe(false);
    expect(await pdns(`/list/-1/${encode("org.")}`)).toBe(false);
    expect(await servedZones()).not.toContain("org.");

    // Alice suspended: her zone answers nothing, and every name PowerDNS asks for SOA on the
    // way up from one of hers finds no zone (PowerDNS: REFUSED).
    expect((await suspend(alice.id)).status).toBe(200);
    for (const name of ["www.alice-dns.org.", "alice-dns.org.", "org."]) expect(await lookup(name, "SOA"), name).toBe(false);
    for (const name of ["www.alice-dns.org.", "*.alice-dns.org.", "alice-dns.org.", "*.org."]) expect(await lookup(name, "ANY"), name).toBe(false);
    expect(await servedZones()).not.toContain("alice-dns.org.");
    expect((await suspend(alice.id, "active")).status).toBe(200);
    expect(contents(await lookup("alice-dns.org.", "SOA"))).toHaveLength(1);
    expect(aliceZone.name).toBe("alice-dns.org");
  });

  it("a zone made above another account's zone that was there first holds no names; the one made inside another's first holds none either", async () => {
    const alice = await customer("Alice order");
    const bob = await customer("Bob order");
    const earlier = "2026-01-01T00:00:00.000Z";
    const later = "2026-02-01T00:00:00.000Z";
    // Alice first, Bob's parent later: Bob's parent is not served, even while Alice is suspended.
    await legacyZone("wrap.example-wrap.net", alice.id, earlier);
    await legacyZone("example-wrap.net", bob.id, later, [["*", "TXT", '"bob"']]);
    expect(await lookup("example-wrap.net.", "SOA")).toBe(false);
    expect(await lookup("other.example-wrap.net.", "ANY")).toBe(false);
    expect(contents(await lookup("wrap.example-wrap.net.", "SOA"))).toHaveLength(1);
    expect((await suspend(alice.id)).status).toBe(200);
    for (const name of ["x.wrap.example-wrap.net.", "wrap.example-wrap.net.", "example-wrap.net.", "net."]) expect(await lookup(name, "SOA"), name).toBe(false);
    expect(await lookup("*.example-wrap.net.", "ANY")).toBe(false);
    expect((await suspend(alice.id, "active")).status).toBe(200);

    // Alice first, Bob's subzone later (the subzone hijack): Alice's zone answers Bob's name.
    await legacyZone("alice-hijack.net", alice.id, earlier, [["secret-host", "A", "192.0.2.82"]]);
    await legacyZone("secret-host.alice-hijack.net", bob.id, later, [["@", "A", "203.0.113.66"]]);
    expect(contents(await lookup("secret-host.alice-hijack.net.", "ANY"))).toEqual(["A 192.0.2.82"]);
    expect(await lookup("secret-host.alice-hijack.net.", "SOA")).toBe(false);
    expect(await servedZones()).toEqual(expect.arrayContaining(["alice-hijack.net.", "wrap.example-wrap.net."]));
    expect(await servedZones()).not.toEqual(expect.arrayContaining(["secret-host.alice-hijack.net."]));
    expect(await servedZones()).not.toEqual(expect.arrayContaining(["example-wrap.net."]));
  });

  it("a zone at or inside a domain another account registered here is not served, whenever the domain came", async () => {
    const alice = await customer("Alice late domain");
    const bob = await customer("Bob late domain");
    // Bob's zone first (no domain yet: allowed), then Alice registers the name here.
    created(await bob.zone("alice-late.com"));
    created(await bob.zone("www.alice-late.com"));
    expect(contents(await lookup("alice-late.com.", "SOA"))).toHaveLength(1);
    await registerDomain(alice, "alice-late.com");
    expect(await lookup("alice-late.com.", "SOA")).toBe(false);
    expect(await lookup("www.alice-late.com.", "SOA")).toBe(false);
    expect(await lookup("www.alice-late.com.", "ANY")).toBe(false);
    expect(await servedZones()).not.toContain("alice-late.com.");
  });
});

describe("a transfer makes the domain's names the gaining account's", () => {
  it("the losing account's zone of the domain is no longer served, and is listed; once deleted, the gaining account creates its own", async () => {
    const alice = await customer("Alice transfer");
    const bob = await customer("Bob transfer");
    const domain = await registerDomain(alice, "alice-moves.de", { nameservers: ["ns1.example.net", "ns2.example.net"] });
    created(await alice.zone("alice-moves.de"));
    expect(contents(await lookup("alice-moves.de.", "SOA"))).toHaveLength(1);
    const requested = await bob.call("POST", "/v1/domains/alice-moves.de/transfer", { auth_info: domain.auth_info });
    expect(requested.status, requested.text).toBe(201);
    expect((await alice.call("POST", "/v1/domains/alice-moves.de/transfer/approve")).status).toBe(200);
    expect(await lookup("alice-moves.de.", "SOA")).toBe(false);
    expect((await conflicts()).filter((row) => row.zone === "alice-moves.de")).toEqual([
      { zone: "alice-moves.de", rule: "in_domain", other_name: "alice-moves.de" },
    ]);
    expectHeld(await bob.zone("alice-moves.de"), "alice-moves.de", [alice.id]);
    expect((await alice.call("DELETE", "/v1/zones/alice-moves.de")).status).toBe(204);
    created(await bob.zone("alice-moves.de"));
    expect(contents(await lookup("alice-moves.de.", "SOA"))).toHaveLength(1);
  });
});

describe("the zones that break the rules are listed for the operator (zone_ownership_conflicts), and the backend agrees with the list", () => {
  it("each rule, with the name that blocks it; no zone the list holds is served", async () => {
    const carol = await customer("Carol list");
    const dave = await customer("Dave list");
    const at = "2026-03-01T00:00:00.000Z";
    await legacyZone("io", carol.id, at);
    await legacyZone("carol-list.dev", carol.id, at);
    await legacyZone("in.carol-list.dev", dave.id, "2026-03-02T00:00:00.000Z");
    await legacyZone("deep.dave-list.dev", dave.id, at);
    await legacyZone("dave-list.dev", carol.id, "2026-03-02T00:00:00.000Z");
    created(await carol.zone("dave-domain.dev"));
    await registerDomain(dave, "dave-domain.dev");
    const listed = (await conflicts()).filter((row) => /list\.dev|domain\.dev|^io$/.test(row.zone));
    expect(listed).toEqual([
      { zone: "dave-domain.dev", rule: "in_domain", other_name: "dave-domain.dev" },
      { zone: "dave-list.dev", rule: "above_zone", other_name: "deep.dave-list.dev" },
      { zone: "in.carol-list.dev", rule: "inside_zone", other_name: "carol-list.dev" },
      { zone: "io", rule: "reserved_name", other_name: null },
    ]);
    const served = await servedZones();
    for (const { zone } of await conflicts()) {
      expect(served, zone).not.toContain(`${zone}.`);
      expect(await pdns(`/getDomainInfo/${encode(`${zone}.`)}`), zone).toBe(false);
    }
    for (const zone of ["carol-list.dev.", "deep.dave-list.dev."]) expect(served).toContain(zone);
  });
});

describe("zones.reversed_name (migration 0015) is each zone's labels reversed, whatever wrote the zone", () => {
  it("zone create and import, and the migration's backfill of stored rows, agree with reversedName; a write without it is refused", async () => {
    created(await api("POST", "/v1/zones", { json: { name: "a.b.reversed-zone.net", nameservers: ["ns1.example.net"] } }));
    created(await api("POST", "/v1/zones", { body: masterFile("reversed-import.net"), headers: { "content-type": "text/dns" } }));
    const stored = async () =>
      (await env.DB.prepare("SELECT name, reversed_name FROM zones").all<{ name: string; reversed_name: string }>()).results.map((row) => [
        row.name,
        row.reversed_name,
      ]);
    for (const [name, reversed] of await stored()) expect(reversed, name).toBe(reversedName(name as string));
    expect(await stored()).toEqual(expect.arrayContaining([["a.b.reversed-zone.net", "net.reversed-zone.b.a"]]));
    // The backfill, run over rows whose keys are wrong (the labels in order), writes them right.
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0015_"))!;
    const backfill = migration.queries.find((q) => /WITH RECURSIVE split/.test(q))!;
    expect(backfill).toBeDefined();
    await env.DB.prepare("UPDATE zones SET reversed_name = name").run();
    await env.DB.prepare(backfill).run();
    for (const [name, reversed] of await stored()) expect(reversed, name).toBe(reversedName(name as string));
    await expect(
      env.DB.prepare(
        "INSERT INTO zones (id, name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, created_at, updated_at) VALUES ('zon_01JD3Q6Y4T8N0V4W5X6Y7Z9999', 'forgot.net', 300, 'a', 'b', 1, 1, 1, 1, 1, 'x', 'x')",
      ).run(),
    ).rejects.toThrow(/reversed_name/);
  });
});
