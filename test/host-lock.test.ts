// The registry lock binds hosts (docs/lifecycle.md "Registry lock"; src/registry/host-lock.ts):
// under a domain's serverUpdateProhibited its subordinate hosts are not created, renamed,
// re-addressed or deleted, no host is renamed into it, and no host it uses as a name server
// is renamed or re-addressed: 409 status_prohibits, for every account, the operator
// included, and nothing written (no host event, no `update` event on the locked domain). A
// lock set between a write's read and its batch refuses the write too.
import { env } from "cloudflare:test";
import { and, asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { domainLockedAgainstUpdate, noneLockedAgainstUpdate } from "../src/db/domain-rules";
import { domains } from "../src/db/schema";
import { LOCK_STATUSES, lockedAgainstUpdate } from "../src/registry/statuses";
import { allPages, api, customerAccount, expectProblem } from "./helpers";
import { apiWithHooks, onceBeforeWriting } from "./interleave";

const NS = ["ns1.example.net", "ns2.example.net"];

/** The operator sets `status` (client and lock statuses together) on a domain. */
async function lock(name: string, status: string[]) {
  const response = await api("PATCH", `/v1/domains/${name}`, { json: { status } });
  expect(response.status, response.text).toBe(200);
}

/**
 * A customer's domain under `.de` with its subordinate host `ns1.<domain>` (192.0.2.1)
 * as its first name server, then locked with `status` by the operator.
 */
async function lockedDomain(name: string, status: string[] = ["serverUpdateProhibited"]) {
  const customer = await customerAccount(`hl-${name}`);
  const as = { headers: { authorization: customer.auth } };
  const created = await api("POST", "/v1/domains", { ...as, json: { name, nameservers: NS } });
  expect(created.status, created.text).toBe(201);
  const host = await api("POST", "/v1/hosts", { ...as, json: { name: `ns1.${name}`, addresses: ["192.0.2.1"] } });
  expect(host.status, host.text).toBe(201);
  const linked = await api("PATCH", `/v1/domains/${name}`, { ...as, json: { nameservers: [`ns1.${name}`, NS[1]] } });
  expect(linked.status, linked.text).toBe(200);
  await lock(name, status);
  return { customer, as, domain: created.body, host: host.body };
}

async function eventsOf(resource: string): Promise<any[]> {
  return (await allPages(`/v1/events?resource=${resource}&limit=200`)).items;
}

/** Asserts the refusal: 409 status_prohibits naming the locked domain and the status; returns its detail. */
function refusedByLock(response: Awaited<ReturnType<typeof api>>, domain: string): string {
  const problem = expectProblem(response, 409, "status_prohibits");
  expect(problem.detail).toContain(domain);
  expect(problem.detail).toContain("serverUpdateProhibited");
  return problem.detail;
}

/** What must not move while the lock refuses: the host as it reads and the events of the host and the domain. */
async function snapshot(host: string, domain: string) {
  const read = await api("GET", `/v1/hosts/${host}`);
  expect(read.status, read.text).toBe(200);
  const [domainEvents, hostEvents] = await Promise.all([eventsOf((await api("GET", `/v1/domains/${domain}`)).body.id), eventsOf(read.body.id)]);
  return { host: read.body, domainEvents, hostEvents };
}

describe("serverUpdateProhibited holds the domain's subordinate hosts as they are", () => {
  it("re-addressing a subordinate host of a locked domain answers 409 status_prohibits, for its sponsor and for the operator, and writes nothing", async () => {
    const { as } = await lockedDomain("hl-readdress.de");
    const before = await snapshot("ns1.hl-readdress.de", "hl-readdress.de");
    const detail = refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-readdress.de", { ...as, json: { addresses: ["192.0.2.2"] } }), "hl-readdress.de");
    expect(detail).toContain("ns1.hl-readdress.de cannot be re-addressed");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-readdress.de", { json: { addresses: ["192.0.2.2"] } }), "hl-readdress.de");
    expect(await snapshot("ns1.hl-readdress.de", "hl-readdress.de")).toEqual(before);
  });

  it("renaming a subordinate host of a locked domain, within it or out of it, answers 409 and writes nothing", async () => {
    const { as } = await lockedDomain("hl-rename.de");
    const before = await snapshot("ns1.hl-rename.de", "hl-rename.de");
    const within = refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-rename.de", { ...as, json: { name: "ns9.hl-rename.de" } }), "hl-rename.de");
    expect(within).toContain("ns1.hl-rename.de cannot be renamed");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-rename.de", { ...as, json: { name: "ns1.hl-elsewhere.net", addresses: [] } }), "hl-rename.de");
    expect(await snapshot("ns1.hl-rename.de", "hl-rename.de")).toEqual(before);
    expect((await api("GET", "/v1/domains/hl-rename.de")).body.nameservers).toEqual(["ns1.hl-rename.de", NS[1]]);
  });

  it("creating a host under a locked domain answers 409, for its sponsor and for the operator, and creates nothing", async () => {
    const { as, domain } = await lockedDomain("hl-create.de");
    const events = await eventsOf(domain.id);
    const detail = refusedByLock(await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-create.de", addresses: ["192.0.2.3"] } }), "hl-create.de");
    expect(detail).toContain("no host ns2.hl-create.de can be created");
    refusedByLock(await api("POST", "/v1/hosts", { json: { name: "ns2.hl-create.de", addresses: ["192.0.2.3"], account: domain.account } }), "hl-create.de");
    expect((await api("GET", "/v1/hosts/ns2.hl-create.de")).status).toBe(404);
    expect(await eventsOf(domain.id)).toEqual(events);
  });

  it("renaming an external host into a locked domain answers 409 and writes nothing", async () => {
    const { as } = await lockedDomain("hl-into.de");
    const external = await api("POST", "/v1/hosts", { ...as, json: { name: "ns1.hl-into-dns.net" } });
    expect(external.status, external.text).toBe(201);
    const detail = refusedByLock(
      await api("PATCH", "/v1/hosts/ns1.hl-into-dns.net", { ...as, json: { name: "ns3.hl-into.de", addresses: ["192.0.2.4"] } }),
      "hl-into.de",
    );
    expect(detail).toContain("ns1.hl-into-dns.net cannot be renamed to ns3.hl-into.de");
    expect((await api("GET", "/v1/hosts/ns1.hl-into-dns.net")).body).toMatchObject({ name: "ns1.hl-into-dns.net", domain: null, addresses: [] });
    expect(await eventsOf(external.body.id)).toHaveLength(1);
  });

  it("deleting a subordinate host of a locked domain answers 409, linked or not, and the host stays", async () => {
    const { as } = await lockedDomain("hl-delete.de", []);
    const spare = await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-delete.de", addresses: ["192.0.2.5"] } });
    expect(spare.status, spare.text).toBe(201);
    await lock("hl-delete.de", ["serverUpdateProhibited"]);
    const detail = refusedByLock(await api("DELETE", "/v1/hosts/ns2.hl-delete.de", as), "hl-delete.de");
    expect(detail).toContain("ns2.hl-delete.de cannot be deleted");
    refusedByLock(await api("DELETE", "/v1/hosts/ns2.hl-delete.de"), "hl-delete.de");
    // A linked one answers the lock too (it would be object_linked once the lock is cleared).
    refusedByLock(await api("DELETE", "/v1/hosts/ns1.hl-delete.de", as), "hl-delete.de");
    expect((await api("GET", "/v1/hosts/ns2.hl-delete.de")).status).toBe(200);
    expect(await eventsOf(spare.body.id)).toHaveLength(1);
  });

  it("renaming or re-addressing a host that a locked domain uses as a name server answers 409 naming that domain; its delegation and events stay", async () => {
    const customer = await customerAccount("hl-user");
    const as = { headers: { authorization: customer.auth } };
    for (const name of ["hl-provider.de", "hl-user.de"]) {
      const created = await api("POST", "/v1/domains", { ...as, json: { name, nameservers: NS } });
      expect(created.status, created.text).toBe(201);
    }
    expect((await api("POST", "/v1/hosts", { ...as, json: { name: "ns1.hl-provider.de", addresses: ["192.0.2.6"] } })).status).toBe(201);
    const linked = await api("PATCH", "/v1/domains/hl-user.de", { ...as, json: { nameservers: ["ns1.hl-provider.de", NS[1]] } });
    expect(linked.status, linked.text).toBe(200);
    await lock("hl-user.de", ["serverUpdateProhibited"]);
    const before = await snapshot("ns1.hl-provider.de", "hl-user.de");
    const renamed = refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-provider.de", { ...as, json: { name: "ns2.hl-provider.de" } }), "hl-user.de");
    expect(renamed).toContain("ns1.hl-provider.de is a name server of hl-user.de");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-provider.de", { ...as, json: { addresses: ["192.0.2.7"] } }), "hl-user.de");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-provider.de", { json: { addresses: ["192.0.2.7"] } }), "hl-user.de");
    expect(await snapshot("ns1.hl-provider.de", "hl-user.de")).toEqual(before);
    expect((await api("GET", "/v1/domains/hl-user.de")).body.nameservers).toEqual(["ns1.hl-provider.de", NS[1]]);
  });

  it("the issue's four updates (re-address, rename, two new hosts) leave the locked domain without an update event, as its own PATCH does", async () => {
    const { as, domain } = await lockedDomain("hl-four.de");
    const updates = async () => (await eventsOf(domain.id)).filter((e) => e.operation === "update").length;
    const before = await updates();
    expectProblem(await api("PATCH", "/v1/domains/hl-four.de", { ...as, json: { auto_renew: false } }), 409, "status_prohibits");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-four.de", { ...as, json: { addresses: ["192.0.2.8"] } }), "hl-four.de");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-four.de", { ...as, json: { name: "ns5.hl-four.de" } }), "hl-four.de");
    for (const name of ["ns6.hl-four.de", "ns7.hl-four.de"]) {
      refusedByLock(await api("POST", "/v1/hosts", { ...as, json: { name, addresses: ["192.0.2.9"] } }), "hl-four.de");
    }
    expect(await updates()).toBe(before);
  });
});

describe("only serverUpdateProhibited holds the hosts, and only while it is set", () => {
  it("under every other lock status the hosts change as before: created, re-addressed, renamed, deleted", async () => {
    const others = LOCK_STATUSES.filter((s) => s !== "serverUpdateProhibited");
    const { as } = await lockedDomain("hl-others.de", [...others]);
    const created = await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-others.de", addresses: ["192.0.2.10"] } });
    expect(created.status, created.text).toBe(201);
    const readdressed = await api("PATCH", "/v1/hosts/ns2.hl-others.de", { ...as, json: { addresses: ["192.0.2.11"] } });
    expect(readdressed.status, readdressed.text).toBe(200);
    const renamed = await api("PATCH", "/v1/hosts/ns2.hl-others.de", { ...as, json: { name: "ns3.hl-others.de" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api("DELETE", "/v1/hosts/ns3.hl-others.de", as)).status).toBe(204);
  });

  it("once the operator clears serverUpdateProhibited, the refused changes pass", async () => {
    const { as } = await lockedDomain("hl-cleared.de");
    refusedByLock(await api("PATCH", "/v1/hosts/ns1.hl-cleared.de", { ...as, json: { addresses: ["192.0.2.12"] } }), "hl-cleared.de");
    await lock("hl-cleared.de", []);
    const readdressed = await api("PATCH", "/v1/hosts/ns1.hl-cleared.de", { ...as, json: { addresses: ["192.0.2.12"] } });
    expect(readdressed.status, readdressed.text).toBe(200);
    expect(readdressed.body.addresses).toEqual(["192.0.2.12"]);
    expect((await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-cleared.de", addresses: ["192.0.2.13"] } })).status).toBe(201);
  });
});

describe("a lock set between a host write's read and its batch refuses the write (the guard)", () => {
  /** The operator's token for the write (apiWithHooks' default), its lock set just before the write's batch. */
  const lockingBefore = (table: string, domain: string) => onceBeforeWriting(table, () => lock(domain, ["serverUpdateProhibited"]));

  it("a re-address of a host no domain uses, whose superordinate domain is locked meanwhile, answers 409 and writes nothing", async () => {
    const { as } = await lockedDomain("hl-race-readdress.de", []);
    expect((await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-race-readdress.de", addresses: ["192.0.2.14"] } })).status).toBe(201);
    const before = await snapshot("ns2.hl-race-readdress.de", "hl-race-readdress.de");
    const response = await apiWithHooks("PATCH", "/v1/hosts/ns2.hl-race-readdress.de", lockingBefore("hosts", "hl-race-readdress.de"), {
      json: { addresses: ["192.0.2.18"] },
    });
    refusedByLock(response, "hl-race-readdress.de");
    const after = await snapshot("ns2.hl-race-readdress.de", "hl-race-readdress.de");
    expect(after.host).toEqual(before.host);
    expect(after.hostEvents).toEqual(before.hostEvents);
    // The lock's own update event, and nothing else.
    expect(after.domainEvents.slice(0, -1)).toEqual(before.domainEvents);
    expect(after.domainEvents.at(-1).after.status).toEqual(["serverUpdateProhibited"]);
  });

  it("a create under a domain locked meanwhile answers 409 and creates nothing", async () => {
    const { domain } = await lockedDomain("hl-race-create.de", []);
    const response = await apiWithHooks("POST", "/v1/hosts", lockingBefore("hosts", "hl-race-create.de"), {
      json: { name: "ns2.hl-race-create.de", addresses: ["192.0.2.15"], account: domain.account },
    });
    refusedByLock(response, "hl-race-create.de");
    expect((await api("GET", "/v1/hosts/ns2.hl-race-create.de")).status).toBe(404);
  });

  it("a delete of a subordinate host whose domain is locked meanwhile answers 409 and the host stays", async () => {
    const { as } = await lockedDomain("hl-race-delete.de", []);
    expect((await api("POST", "/v1/hosts", { ...as, json: { name: "ns2.hl-race-delete.de", addresses: ["192.0.2.16"] } })).status).toBe(201);
    const response = await apiWithHooks("DELETE", "/v1/hosts/ns2.hl-race-delete.de", lockingBefore("hosts", "hl-race-delete.de"));
    refusedByLock(response, "hl-race-delete.de");
    expect((await api("GET", "/v1/hosts/ns2.hl-race-delete.de")).status).toBe(200);
  });

  it("a rename of a host whose user domain is locked meanwhile answers 409 and the domain keeps its name servers", async () => {
    const customer = await customerAccount("hl-race-user");
    const as = { headers: { authorization: customer.auth } };
    for (const name of ["hl-race-provider.de", "hl-race-user.de"]) {
      expect((await api("POST", "/v1/domains", { ...as, json: { name, nameservers: NS } })).status).toBe(201);
    }
    expect((await api("POST", "/v1/hosts", { ...as, json: { name: "ns1.hl-race-provider.de", addresses: ["192.0.2.17"] } })).status).toBe(201);
    expect((await api("PATCH", "/v1/domains/hl-race-user.de", { ...as, json: { nameservers: ["ns1.hl-race-provider.de", NS[1]] } })).status).toBe(200);
    const response = await apiWithHooks("PATCH", "/v1/hosts/ns1.hl-race-provider.de", lockingBefore("hosts", "hl-race-user.de"), {
      json: { name: "ns2.hl-race-provider.de" },
    });
    refusedByLock(response, "hl-race-user.de");
    expect((await api("GET", "/v1/domains/hl-race-user.de")).body.nameservers).toEqual(["ns1.hl-race-provider.de", NS[1]]);
  });
});

describe("the guard's SQL mirror holds to its rule", () => {
  it("domainLockedAgainstUpdate is lockedAgainstUpdate, and noneLockedAgainstUpdate holds exactly when no listed domain is locked", async () => {
    const rows: { name: string; serverStatuses: string[] }[] = [];
    const sets = [[], ...LOCK_STATUSES.map((s) => [s]), [...LOCK_STATUSES], LOCK_STATUSES.filter((s) => s !== "serverUpdateProhibited")];
    for (const [i, serverStatuses] of sets.entries()) {
      const name = `hl-mirror-${i}.de`;
      const created = await api("POST", "/v1/domains", { json: { name, nameservers: NS } });
      expect(created.status, created.text).toBe(201);
      await env.DB.prepare("update domains set server_statuses = ?1 where name = ?2").bind(JSON.stringify(serverStatuses), name).run();
      rows.push({ name, serverStatuses });
    }
    const db = database(env.DB);
    const selected = await db
      .select({ id: domains.id, name: domains.name })
      .from(domains)
      .where(and(sql`"domains"."name" like 'hl-mirror-%'`, domainLockedAgainstUpdate))
      .orderBy(asc(domains.name));
    const names = new Set(selected.map((r) => r.name));
    for (const row of rows) expect(names.has(row.name), JSON.stringify(row)).toBe(lockedAgainstUpdate(row.serverStatuses));
    const all = await db.select({ id: domains.id, name: domains.name }).from(domains).where(sql`"domains"."name" like 'hl-mirror-%'`);
    for (const domain of all) {
      const [holds] = await db.all<{ holds: number }>(sql`select ${noneLockedAgainstUpdate([domain.id])} as holds`);
      expect(holds!.holds === 1, domain.name).toBe(!names.has(domain.name));
    }
  });
});
