// What a connected registry's word brings back to our copy (docs/registries.md, "Pending
// states" and "The registry decides"): everything a domain update can change — name servers,
// DS, statuses, the registrant, the admin, tech and billing contacts and the auth_info —
// follows the registry's <domain:info>, the same way whether a panData settlement, a
// reconciliation or a message carrying the domain's infData brings it (followView). Here the
// message carries the info (no gateway is reachable from workerd: the panData path against
// the local registry is scripts/registry-authority-e2e.mjs). The domains are registered while
// .org is builtin; the registry ids of their contacts are recorded as a create at the
// registry would have recorded them (registry_objects).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { registryDomainView } from "../src/connector/follow";
import { catalog } from "../src/db/catalog";
import { database } from "../src/db/client";
import { writeContextAt } from "../src/db/write";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { findDomain } from "../src/resources/domains/queries";
import { followView } from "../src/resources/domains/registry-follow";
import { type ApiResponse, api, createContact } from "./helpers";
import { bearer } from "./tokens";
import { domainInfData } from "./registry-info";

const PIR = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { client_id: "domain-api" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
};
const NAMESERVERS = ["ns1.example.fr", "ns2.example.fr"];

async function hand(body: unknown): Promise<ApiResponse> {
  const request = new Request("http://api.test/v1/registry-messages", {
    method: "POST",
    headers: { authorization: bearer("write"), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...PIR } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

let messageId = 0;
/** A poll message carrying the domain's infData, as the gateway hands it over. */
function changed(info: Record<string, unknown>) {
  const id = `settlement-${++messageId}`;
  return {
    repository: "pir",
    client_id: "domain-api",
    message: {
      code: 1301,
      msgQ: { count: 1, id, msg: "The registry changed the domain." },
      resData: [info],
      extensions: [],
      trID: { svTRID: `LR-S${messageId}` },
    },
  };
}

/** Our contact as the registry holds it (the row a contact:create at the registry records). */
async function heldAtRegistry(contactId: string, registryId: string) {
  await env.DB.prepare(
    "insert into registry_objects (repository_id, object_type, object_id, registry_id, roid, created_at) values ('pir', 'contact', ?1, ?2, null, ?3)",
  )
    .bind(contactId, registryId, new Date().toISOString())
    .run();
}

function infData(name: string, fields: Record<string, unknown>) {
  return domainInfData(name, `${name.length}-PIR`, NAMESERVERS, fields);
}

describe("the registry's info brings back the contacts and the auth_info, as it does name servers and statuses", () => {
  it("the admin, tech and billing contacts become our contacts the registry's ids stand for, and the auth_info the one it shows its sponsor, in one update event listing each and never the auth_info's value", async () => {
    const first = await createContact({ email: "settle-first@example.org" });
    const second = await createContact({ email: "settle-second@example.org" });
    await heldAtRegistry(first.id, "settle-first");
    await heldAtRegistry(second.id, "settle-second");
    const created = await api("POST", "/v1/domains", {
      json: { name: "contacts-follow.org", registrant: first.id, contacts: { admin: first.id, tech: first.id }, nameservers: NAMESERVERS },
    });
    expect(created.status, created.text).toBe(201);
    const domain = created.body;
    const info = infData("contacts-follow.org", {
      registrant: "settle-first",
      contacts: [
        { type: "admin", id: "settle-second" },
        { type: "tech", id: "settle-second" },
        { type: "billing", id: "settle-second" },
      ],
      exDate: domain.expires_at,
      authInfo: "Registry-Set-auth-42",
    });
    const res = await hand(changed(info));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: "applied", domain: domain.id });
    const now = await api("GET", "/v1/domains/contacts-follow.org");
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({
      registrant: first.id,
      contacts: { admin: second.id, tech: second.id, billing: second.id },
      nameservers: NAMESERVERS,
      auth_info: "Registry-Set-auth-42",
    });
    const events = await api("GET", `/v1/events?resource=${domain.id}&limit=100`);
    expect(events.status, events.text).toBe(200);
    expect(events.body.data.map((e: any) => e.operation)).toEqual(["create", "update"]);
    const update = events.body.data[1];
    expect(update.token).toBe("registry:pir");
    expect(update.after.registry_differences).toEqual([
      { field: "admin", ours: first.id, registry: second.id },
      { field: "tech", ours: first.id, registry: second.id },
      { field: "billing", ours: null, registry: second.id },
      { field: "auth_info", ours: "not recorded", registry: "not recorded" },
    ]);
    expect(update.after.contacts).toEqual({ admin: second.id, tech: second.id, billing: second.id });
    expect(JSON.stringify(update)).not.toContain("Registry-Set-auth-42");
    expect(JSON.stringify(update)).not.toContain(domain.auth_info);
  });

  it("a role the registry fills with a contact that is none of ours leaves it empty here, the registry's id in the difference; a role it leaves empty is cleared; an info without authInfo keeps ours", async () => {
    const ours = await createContact({ email: "settle-ours@example.org" });
    await heldAtRegistry(ours.id, "settle-ours");
    const created = await api("POST", "/v1/domains", {
      json: { name: "contacts-theirs.org", registrant: ours.id, contacts: { admin: ours.id, tech: ours.id, billing: ours.id }, nameservers: NAMESERVERS },
    });
    expect(created.status, created.text).toBe(201);
    const domain = created.body;
    const info = infData("contacts-theirs.org", {
      registrant: "settle-ours",
      contacts: [
        { type: "admin", id: "settle-ours" },
        { type: "tech", id: "another-registrars" },
      ],
      exDate: domain.expires_at,
    });
    const res = await hand(changed(info));
    expect(res.body).toMatchObject({ outcome: "applied", domain: domain.id });
    const now = await api("GET", "/v1/domains/contacts-theirs.org");
    expect(now.body).toMatchObject({ registrant: ours.id, contacts: { admin: ours.id, tech: null, billing: null }, auth_info: domain.auth_info });
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=update`);
    expect(events.body.data.at(-1).after.registry_differences).toEqual([
      { field: "tech", ours: ours.id, registry: "another-registrars" },
      { field: "billing", ours: ours.id, registry: null },
    ]);
  });

  it("a contact of another account the registry's id stands for is not pointed at: the role is left empty here", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "settlement-other-account" } });
    expect(account.status, account.text).toBe(201);
    const token = await api("POST", "/v1/tokens", { json: { name: "settlement-other-token", scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    const theirs = await api("POST", "/v1/contacts", {
      json: {
        name: "Other Account",
        email: "settle-other-account@example.org",
        address: { street: ["1 Road"], city: "Paris", postal_code: "75001", country_code: "FR" },
      },
      headers: { authorization: `Bearer ${token.body.secret}` },
    });
    expect(theirs.status, theirs.text).toBe(201);
    await heldAtRegistry(theirs.body.id, "settle-other-acc");
    const created = await api("POST", "/v1/domains", { json: { name: "contacts-other-account.org", nameservers: NAMESERVERS } });
    expect(created.status, created.text).toBe(201);
    const info = infData("contacts-other-account.org", { contacts: [{ type: "admin", id: "settle-other-acc" }], exDate: created.body.expires_at });
    expect((await hand(changed(info))).body).toMatchObject({ outcome: "applied", domain: created.body.id });
    const now = await api("GET", "/v1/domains/contacts-other-account.org");
    expect(now.body.contacts).toEqual({ admin: null, tech: null, billing: null });
  });
});

describe("a domain in pendingUpdate follows the registry's info when it settles", () => {
  it("the registry's info without pendingUpdate and with the old values (a refusal): pendingUpdate goes, contacts, name servers and auth_info stay, the one difference listed is the status", async () => {
    const ours = await createContact({ email: "settle-refused@example.org" });
    await heldAtRegistry(ours.id, "settle-refused");
    const created = await api("POST", "/v1/domains", {
      json: { name: "update-refused.org", registrant: ours.id, contacts: { admin: ours.id, tech: ours.id }, nameservers: NAMESERVERS },
    });
    expect(created.status, created.text).toBe(201);
    const domain = created.body;
    // As the 202 of a PATCH the registry left pending wrote it.
    await env.DB.prepare("update domains set statuses = ?1 where id = ?2")
      .bind(JSON.stringify(["pendingUpdate"]), domain.id)
      .run();
    const info = infData("update-refused.org", {
      registrant: "settle-refused",
      contacts: [
        { type: "admin", id: "settle-refused" },
        { type: "tech", id: "settle-refused" },
      ],
      exDate: domain.expires_at,
      authInfo: domain.auth_info,
    });
    expect((await hand(changed(info))).body).toMatchObject({ outcome: "applied", domain: domain.id });
    const now = await api("GET", "/v1/domains/update-refused.org");
    expect(now.body).toMatchObject({
      status: ["ok"],
      registrant: ours.id,
      contacts: { admin: ours.id, tech: ours.id, billing: null },
      nameservers: NAMESERVERS,
      auth_info: domain.auth_info,
    });
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=update`);
    expect(events.body.data.at(-1).after.registry_differences).toEqual([{ field: "status", ours: ["pendingUpdate"], registry: [] }]);
  });
});

describe("the OpenAPI document declares the update a registry leaves pending", () => {
  it("PATCH /v1/domains/{domain} declares 202 with the Domain schema and an example showing pendingUpdate, beside its 200; other updates declare no 202", async () => {
    const res = await api("GET", "/v1/openapi.json");
    expect(res.status, res.text).toBe(200);
    const patch = res.body.paths["/domains/{domain}"].patch;
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(["200", "202"]));
    const accepted = patch.responses["202"];
    expect(accepted.description).toMatch(/pendingUpdate/);
    expect(accepted.headers.ETag).toBeDefined();
    const content = accepted.content["application/json"];
    expect(content.schema).toEqual(patch.responses["200"].content["application/json"].schema);
    expect(content.schema).toEqual({ $ref: "#/components/schemas/Domain" });
    expect(content.example.status).toEqual(["pendingUpdate"]);
    const otherUpdates = Object.entries(res.body.paths as Record<string, Record<string, any>>)
      .filter(([path, ops]) => ops.patch && path !== "/domains/{domain}")
      .map(([path, ops]) => [path, "202" in ops.patch.responses]);
    expect(otherUpdates.length).toBeGreaterThan(3);
    expect(otherUpdates.filter(([, has202]) => has202)).toEqual([]);
  });
});

describe("the OpenAPI document declares every 202 a registry's 1001 can give", () => {
  it("POST /v1/domains, PATCH, DELETE, renew, restore and transfer each declare 202 with its schema and an example in the pending state the handler answers", async () => {
    const res = await api("GET", "/v1/openapi.json");
    expect(res.status, res.text).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, any>>;
    const accepted = (path: string, method: string) => {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op.responses), `${method} ${path}`).toContain("202");
      return op.responses["202"];
    };
    const pendingShown = (path: string, method: string) => accepted(path, method).content["application/json"].example;

    // The registration: the 201's schema and headers (Location: the 202 names the new domain too).
    const create = paths["/domains"]!.post;
    const created = accepted("/domains", "post");
    expect(created.content["application/json"].schema).toEqual(create.responses["201"].content["application/json"].schema);
    expect(Object.keys(created.headers).sort()).toEqual(Object.keys(create.responses["201"].headers).sort());
    expect(created.description).toMatch(/pendingCreate/);
    expect(pendingShown("/domains", "post").status).toContain("pendingCreate");
    expect(pendingShown("/domains", "post").price).toEqual({ currency: "USD", amount: "24.00" });

    expect(pendingShown("/domains/{domain}", "patch").status).toContain("pendingUpdate");
    expect(pendingShown("/domains/{domain}", "delete").status).toContain("pendingDelete");
    expect(pendingShown("/domains/{domain}/renew", "post").status).toContain("pendingRenew");
    expect(pendingShown("/domains/{domain}/restore", "post").status).toContain("pendingRestore");
    expect(pendingShown("/domains/{domain}/transfer", "post").status).toBe("pending");
    for (const [path, method] of [
      ["/domains/{domain}", "patch"],
      ["/domains/{domain}", "delete"],
      ["/domains/{domain}/renew", "post"],
      ["/domains/{domain}/restore", "post"],
      ["/domains/{domain}/transfer", "post"],
    ] as const) {
      expect(accepted(path, method).content["application/json"].schema, `${method} ${path}`).toHaveProperty("$ref");
    }
    // Other creates declare no 202.
    const otherCreates = Object.entries(paths)
      .filter(([path, ops]) => ops.post?.responses?.["201"] && path !== "/domains" && path !== "/domains/{domain}/transfer")
      .map(([path, ops]) => [path, "202" in ops.post.responses]);
    expect(otherCreates.length).toBeGreaterThan(3);
    expect(otherCreates.filter(([, has202]) => has202)).toEqual([]);
  });
});

describe("the auth_info a pending update asked for is kept until the update settles (drizzle/0046, 0047)", () => {
  /** The clTRID the PATCH of `name` was sent under (as update.ts keeps it beside the value asked for). */
  const updateTrid = (name: string) => `update-${name}`;
  /** A .org domain whose PATCH of auth_info the registry left pending (1001): as that PATCH leaves it. */
  async function pendingAuthInfoUpdate(name: string, asked: string) {
    const created = await api("POST", "/v1/domains", { json: { name, nameservers: NAMESERVERS } });
    expect(created.status, created.text).toBe(201);
    await env.DB.prepare("update domains set statuses = ?1 where id = ?2")
      .bind(JSON.stringify(["pendingUpdate"]), created.body.id)
      .run();
    await env.DB.prepare(
      "insert into registry_domains (domain_id, repository_id, roid, pending_auth_info, pending_auth_info_trid) values (?1, 'pir', ?2, ?3, ?4)",
    )
      .bind(created.body.id, `${name.length}-PIR`, asked, updateTrid(name))
      .run();
    return created.body;
  }
  const kept = async (id: string) =>
    (await env.DB.prepare("select pending_auth_info as kept from registry_domains where domain_id = ?1").bind(id).first<{ kept: string | null }>())?.kept;

  /**
   * The registry's info brought in a `settled` write, as a panData settlement brings it (its
   * paResult in `note.result`, its paTRID in `note.pending_trid`): the panData of the update
   * unless another command's clTRID is given.
   */
  async function settle(name: string, info: Record<string, unknown>, result: boolean, clTRID = updateTrid(name)) {
    const db = database(env.DB);
    const [current] = await findDomain(db, { kind: "name", name });
    const view = registryDomainView({ resData: [infData(name, { exDate: current!.expiresAt, ...info })] as never, extensions: [] })!;
    const ctx = writeContextAt(db, new Date(), "registry:pir", BUILT_IN_LIMITS);
    return followView(ctx, await catalog(db), current!, view, {
      operation: "settled",
      svTRID: "LR-P1",
      note: { result, pending_trid: { clTRID, svTRID: "LR-P0" } },
      always: true,
    });
  }

  it("approved (paResult 1) with an info that shows no authInfo: the domain takes the auth_info the PATCH asked for, listed in the settled event without its value, and it is no longer kept", async () => {
    const domain = await pendingAuthInfoUpdate("pending-auth-approved.org", "Asked-for-auth-1");
    expect(await kept(domain.id)).toBe("Asked-for-auth-1");
    const differences = await settle("pending-auth-approved.org", {}, true);
    expect(differences).toEqual([
      { field: "status", ours: ["pendingUpdate"], registry: [] },
      { field: "auth_info", ours: "not recorded", registry: "not recorded" },
    ]);
    const now = await api("GET", "/v1/domains/pending-auth-approved.org");
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({ status: ["ok"], auth_info: "Asked-for-auth-1" });
    expect(await kept(domain.id)).toBeNull();
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=settled`);
    expect(events.body.data).toHaveLength(1);
    expect(JSON.stringify(events.body.data[0])).not.toContain("Asked-for-auth-1");
  });

  it("refused (paResult 0): the domain keeps its auth_info and the one asked for is dropped", async () => {
    const domain = await pendingAuthInfoUpdate("pending-auth-refused.org", "Asked-for-auth-2");
    const differences = await settle("pending-auth-refused.org", {}, false);
    expect(differences).toEqual([{ field: "status", ours: ["pendingUpdate"], registry: [] }]);
    const now = await api("GET", "/v1/domains/pending-auth-refused.org");
    expect(now.body).toMatchObject({ status: ["ok"], auth_info: domain.auth_info });
    expect(await kept(domain.id)).toBeNull();
  });

  it("an info that shows the authInfo decides over the one asked for; one still showing pendingUpdate (another action settled) keeps it for the update's own settlement", async () => {
    const shown = await pendingAuthInfoUpdate("pending-auth-shown.org", "Asked-for-auth-3");
    await settle("pending-auth-shown.org", { authInfo: "Registry-shows-3" }, true);
    expect((await api("GET", "/v1/domains/pending-auth-shown.org")).body.auth_info).toBe("Registry-shows-3");
    expect(await kept(shown.id)).toBeNull();

    const still = await pendingAuthInfoUpdate("pending-auth-still.org", "Asked-for-auth-4");
    await settle("pending-auth-still.org", { statuses: [{ s: "pendingUpdate" }] }, true, "renew-pending-auth-still.org");
    const now = await api("GET", "/v1/domains/pending-auth-still.org");
    expect(now.body).toMatchObject({ status: ["pendingUpdate"], auth_info: still.auth_info });
    expect(await kept(still.id)).toBe("Asked-for-auth-4");
  });

  it("only the panData naming the update's clTRID settles the auth_info it asked for: a renew's approval first (pendingUpdate gone) neither applies nor drops it, the update's refusal then drops it and its approval applies it", async () => {
    const refused = await pendingAuthInfoUpdate("pending-auth-renew-refused.org", "Asked-for-auth-6");
    // The renew's panData (paResult 1) is handed over first: the info no longer shows pendingUpdate.
    const renewed = await settle("pending-auth-renew-refused.org", {}, true, "renew-pending-auth-renew-refused.org");
    expect(renewed).toEqual([{ field: "status", ours: ["pendingUpdate"], registry: [] }]);
    let now = await api("GET", "/v1/domains/pending-auth-renew-refused.org");
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({ status: ["ok"], auth_info: refused.auth_info });
    expect(await kept(refused.id)).toBe("Asked-for-auth-6");
    // Then the update's own panData says the registry refused it: ours stays, the value asked for goes.
    expect(await settle("pending-auth-renew-refused.org", {}, false)).toEqual([]);
    now = await api("GET", "/v1/domains/pending-auth-renew-refused.org");
    expect(now.body).toMatchObject({ status: ["ok"], auth_info: refused.auth_info });
    expect(await kept(refused.id)).toBeNull();

    const approved = await pendingAuthInfoUpdate("pending-auth-renew-approved.org", "Asked-for-auth-7");
    await settle("pending-auth-renew-approved.org", {}, true, "renew-pending-auth-renew-approved.org");
    expect((await api("GET", "/v1/domains/pending-auth-renew-approved.org")).body.auth_info).toBe(approved.auth_info);
    expect(await settle("pending-auth-renew-approved.org", {}, true)).toEqual([{ field: "auth_info", ours: "not recorded", registry: "not recorded" }]);
    now = await api("GET", "/v1/domains/pending-auth-renew-approved.org");
    expect(now.body).toMatchObject({ status: ["ok"], auth_info: "Asked-for-auth-7" });
    expect(await kept(approved.id)).toBeNull();
  });

  it("a panData naming no command (no clTRID in its paTRID) neither applies nor drops the auth_info asked for", async () => {
    const domain = await pendingAuthInfoUpdate("pending-auth-no-trid.org", "Asked-for-auth-8");
    const db = database(env.DB);
    const [current] = await findDomain(db, { kind: "name", name: "pending-auth-no-trid.org" });
    const view = registryDomainView({ resData: [infData("pending-auth-no-trid.org", { exDate: current!.expiresAt })] as never, extensions: [] })!;
    const ctx = writeContextAt(db, new Date(), "registry:pir", BUILT_IN_LIMITS);
    await followView(ctx, await catalog(db), current!, view, { operation: "settled", note: { result: true, pending_trid: { svTRID: "LR-P9" } }, always: true });
    expect((await api("GET", "/v1/domains/pending-auth-no-trid.org")).body).toMatchObject({ status: ["ok"], auth_info: domain.auth_info });
    expect(await kept(domain.id)).toBe("Asked-for-auth-8");
  });

  it("reconciliation that finds the update gone says nothing of its result: the auth_info asked for is dropped, ours kept", async () => {
    const domain = await pendingAuthInfoUpdate("pending-auth-reconciled.org", "Asked-for-auth-5");
    const db = database(env.DB);
    const [current] = await findDomain(db, { kind: "name", name: "pending-auth-reconciled.org" });
    const view = registryDomainView({ resData: [infData("pending-auth-reconciled.org", { exDate: current!.expiresAt })] as never, extensions: [] })!;
    const ctx = writeContextAt(db, new Date(), "cron", BUILT_IN_LIMITS);
    await followView(ctx, await catalog(db), current!, view, { operation: "reconciled", reconciledAt: ctx.at });
    expect((await api("GET", "/v1/domains/pending-auth-reconciled.org")).body).toMatchObject({ status: ["ok"], auth_info: domain.auth_info });
    expect(await kept(domain.id)).toBeNull();
  });
});
