// The registry lock (docs/lifecycle.md "Registry lock"; RFC 5731 §2.3 server statuses):
// operator tokens only set and clear serverUpdateProhibited, serverDeleteProhibited,
// serverTransferProhibited, serverRenewProhibited and serverHold; each binds every account,
// the operator's own routine operations and the lifecycle sweep included; each change is an
// event; RDAP shows them, and serverHold takes the delegation out of RDAP but leaves a
// hosted zone of that name served. The SQL mirrors of the rules are held to them here.
import { env } from "cloudflare:test";
import { and, asc, type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { domains, transfers } from "../src/db/schema";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { autoRenewAllowed, DOMAIN_STATUS_FILTERS, domainStatus, LOCK_STATUSES, prohibitingStatus, sweepDeleteAllowed } from "../src/registry/statuses";
import { domainStatusCondition as statusCondition } from "../src/db/domain-rules";
import { sweep } from "../src/jobs/sweep";
import { AUTO_RENEW_ALLOWED, SWEEP_DELETE_ALLOWED, TRANSFER_APPROVAL_ALLOWED } from "../src/jobs/sweep-due";
import { addDnsToken, api, createDomain, createZone, customerAccount, errorFields, expectProblem } from "./helpers";

const NS = ["ns1.example.net", "ns2.example.net"];
const DAY = 86_400_000;

/** A domain of a customer (its write token) under `.de`: no transfer lock, no add grace period. */
async function customerDomain(name: string, status: string[] = []) {
  const customer = await customerAccount(`lock-${name}`);
  const created = await api("POST", "/v1/domains", { json: { name, nameservers: NS }, headers: { authorization: customer.auth } });
  expect(created.status, created.text).toBe(201);
  if (status.length > 0) expect((await lock(name, status)).status).toBe(200);
  return { customer, domain: created.body, as: { headers: { authorization: customer.auth } } };
}

/** The operator sets `status` (client and lock statuses together) on a domain. */
function lock(name: string, status: string[]) {
  return api("PATCH", `/v1/domains/${name}`, { json: { status } });
}

async function runSweep(asOf: string) {
  return sweep(database(env.DB), { now: new Date(asOf), actor: "test", limits: BUILT_IN_LIMITS });
}

describe("operator tokens set and clear the lock; customers cannot", () => {
  it("the operator sets each lock status with PATCH, the domain shows it, and clears it; each change is an update event", async () => {
    const { domain, as } = await customerDomain("lock-set.de", []);
    const set = await lock("lock-set.de", [...LOCK_STATUSES]);
    expect(set.status, set.text).toBe(200);
    expect(set.body.status).toEqual([...LOCK_STATUSES]);
    // The customer sees its domain locked.
    expect((await api("GET", "/v1/domains/lock-set.de", as)).body.status).toEqual([...LOCK_STATUSES]);
    const cleared = await lock("lock-set.de", []);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.status).toEqual(["ok"]);
    const events = (await api("GET", `/v1/events?resource=${domain.id}&operation=update`)).body.data;
    expect(events.map((e: any) => e.after.status)).toEqual([[...LOCK_STATUSES], ["ok"]]);
    expect(events[0].before.status).toEqual(["ok"]);
  });

  it("a customer sending a lock status answers 422 read_only_field naming it, and nothing changes", async () => {
    const { as } = await customerDomain("lock-customer.de");
    for (const status of LOCK_STATUSES) {
      const problem = expectProblem(
        await api("PATCH", "/v1/domains/lock-customer.de", { ...as, json: { status: ["clientHold", status] } }),
        422,
        "read_only_field",
      );
      expect(errorFields(problem)).toEqual(["status[1]"]);
    }
    expect((await api("GET", "/v1/domains/lock-customer.de", as)).body.status).toEqual(["ok"]);
  });

  it("a customer's status patch keeps the lock the operator set: `status` replaces only the client statuses", async () => {
    const { as } = await customerDomain("lock-keep.de", ["serverDeleteProhibited"]);
    const patched = await api("PATCH", "/v1/domains/lock-keep.de", { ...as, json: { status: ["clientTransferProhibited"] } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.status).toEqual(["clientTransferProhibited", "serverDeleteProhibited"]);
  });

  it("the operator changes the lock whatever the domain's state: in redemption (pendingDelete) too", async () => {
    await customerDomain("lock-redeemed.de");
    expect((await api("DELETE", "/v1/domains/lock-redeemed.de")).status).toBe(202);
    const set = await lock("lock-redeemed.de", ["serverDeleteProhibited"]);
    expect(set.status, set.text).toBe(200);
    expect(set.body.status).toEqual(["serverDeleteProhibited", "pendingDelete"]);
    // Anything else is still refused by pendingDelete.
    expectProblem(await api("PATCH", "/v1/domains/lock-redeemed.de", { json: { auto_renew: false } }), 409, "status_prohibits");
  });
});

describe("each lock status forbids what it names to every account, the operator included", () => {
  it("serverUpdateProhibited: PATCH by the customer and by the operator → 409; only the operator's patch that removes it passes", async () => {
    const { as } = await customerDomain("lock-update.de", ["serverUpdateProhibited"]);
    const byCustomer = expectProblem(await api("PATCH", "/v1/domains/lock-update.de", { ...as, json: { auto_renew: false } }), 409, "status_prohibits");
    expect(byCustomer.detail).toContain("serverUpdateProhibited");
    expectProblem(await api("PATCH", "/v1/domains/lock-update.de", { ...as, json: { status: [] } }), 409, "status_prohibits");
    expectProblem(await api("PATCH", "/v1/domains/lock-update.de", { json: { auto_renew: false } }), 409, "status_prohibits");
    const unlocked = await api("PATCH", "/v1/domains/lock-update.de", { json: { status: [], auto_renew: false } });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body).toMatchObject({ status: ["ok"], auto_renew: false });
  });

  it("serverUpdateProhibited: a restore → 409", async () => {
    await customerDomain("lock-restore.de");
    expect((await api("DELETE", "/v1/domains/lock-restore.de")).status).toBe(202);
    expect((await lock("lock-restore.de", ["serverUpdateProhibited"])).status).toBe(200);
    expectProblem(await api("POST", "/v1/domains/lock-restore.de/restore"), 409, "status_prohibits");
    expect((await lock("lock-restore.de", [])).status).toBe(200);
    expect((await api("POST", "/v1/domains/lock-restore.de/restore")).status).toBe(200);
  });

  it("serverDeleteProhibited: DELETE by the customer and by the operator → 409", async () => {
    const { as } = await customerDomain("lock-delete.de", ["serverDeleteProhibited"]);
    expect(expectProblem(await api("DELETE", "/v1/domains/lock-delete.de", as), 409, "status_prohibits").detail).toContain("serverDeleteProhibited");
    expectProblem(await api("DELETE", "/v1/domains/lock-delete.de"), 409, "status_prohibits");
    expect((await api("GET", "/v1/domains/lock-delete.de")).body.status).toEqual(["serverDeleteProhibited"]);
  });

  it("serverRenewProhibited: renew by the customer and by the operator → 409", async () => {
    const { as, domain } = await customerDomain("lock-renew.com", ["serverRenewProhibited"]);
    const body = { period: 1, current_expires_at: domain.expires_at };
    expect(expectProblem(await api("POST", "/v1/domains/lock-renew.com/renew", { ...as, json: body }), 409, "status_prohibits").detail).toContain(
      "serverRenewProhibited",
    );
    expectProblem(await api("POST", "/v1/domains/lock-renew.com/renew", { json: body }), 409, "status_prohibits");
  });

  it("serverTransferProhibited: a transfer request → 409; a transfer already pending cannot be approved, by the losing account or the operator, but can be rejected", async () => {
    const { as, domain } = await customerDomain("lock-transfer.de");
    const gaining = await customerAccount("lock-transfer-gaining");
    const asGaining = { headers: { authorization: gaining.auth } };
    const requested = await api("POST", "/v1/domains/lock-transfer.de/transfer", { ...asGaining, json: { auth_info: domain.auth_info } });
    expect(requested.status, requested.text).toBe(201);
    // The lock while the transfer waits: the operator may set it (a lock change alone).
    expect((await lock("lock-transfer.de", ["serverTransferProhibited"])).status).toBe(200);
    expectProblem(await api("POST", "/v1/domains/lock-transfer.de/transfer/approve", as), 409, "status_prohibits");
    expectProblem(await api("POST", "/v1/domains/lock-transfer.de/transfer/approve"), 409, "status_prohibits");
    expect((await api("POST", "/v1/domains/lock-transfer.de/transfer/reject", as)).body.status).toBe("rejected");
    const again = expectProblem(
      await api("POST", "/v1/domains/lock-transfer.de/transfer", { ...asGaining, json: { auth_info: domain.auth_info } }),
      409,
      "status_prohibits",
    );
    expect(again.detail).toContain("serverTransferProhibited");
  });

  it("serverHold: RDAP shows it and no delegation (name servers, DS); the hosted zone of that name is still served", async () => {
    const ds = [{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: "E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D" }];
    await createDomain("lock-hold.com", { nameservers: NS, ds });
    await createZone("lock-hold.com", { nameservers: NS });
    expect((await api("POST", "/v1/records", { json: { zone: "lock-hold.com", name: "www", type: "A", content: "192.0.2.80" } })).status).toBe(201);
    const rdap = (await api("GET", "/v1/domains/lock-hold.com", { headers: { accept: "application/rdap+json" } })).body;
    expect(rdap.nameservers.map((n: any) => n.ldhName)).toEqual(NS);
    expect(rdap.secureDNS.delegationSigned).toBe(true);

    expect((await lock("lock-hold.com", ["serverHold"])).status).toBe(200);
    const held = (await api("GET", "/v1/domains/lock-hold.com", { headers: { accept: "application/rdap+json" } })).body;
    expect(held.status).toEqual(["server hold"]);
    expect(held.nameservers).toEqual([]);
    expect(held.secureDNS).toEqual({ delegationSigned: false, dsData: [] });
    expect(held.remarks[0].title).toBe("Delegation not published");
    // The domain keeps its name servers and DS (the lock hides them, it does not remove them).
    expect((await api("GET", "/v1/domains/lock-hold.com")).body).toMatchObject({ nameservers: NS, status: ["serverHold"] });
    // The zone hosted here is another object: PowerDNS still gets its records.
    const base = await addDnsToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9K", "lock-dns", "lock-dns-secret-0123456789abcdef");
    const lookup = await api("GET", `${base}/lookup/www%2elock-hold%2ecom%2e/A`, { auth: false });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.result.map((r: any) => r.content)).toEqual(["192.0.2.80"]);
  });
});

describe("the lock binds the lifecycle sweep", () => {
  it("serverRenewProhibited: an expired domain with auto_renew is not renewed; it expires into redemption instead", async () => {
    const { domain } = await customerDomain("lock-sweep-renew.com", ["serverRenewProhibited"]);
    await runSweep(new Date(Date.parse(domain.expires_at) + DAY).toISOString());
    const after = (await api("GET", "/v1/domains/lock-sweep-renew.com")).body;
    expect(after.expires_at).toBe(domain.expires_at);
    expect(after.status).toContain("pendingDelete");
  });

  it("serverRenewProhibited and serverDeleteProhibited: an expired domain waits as it is, out of the sweep's due rows, until the operator clears one", async () => {
    const { domain } = await customerDomain("lock-sweep-hold.com", ["serverRenewProhibited", "serverDeleteProhibited"]);
    const asOf = new Date(Date.parse(domain.expires_at) + DAY).toISOString();
    await runSweep(asOf);
    expect((await api("GET", "/v1/domains/lock-sweep-hold.com")).body).toMatchObject({
      expires_at: domain.expires_at,
      status: ["serverDeleteProhibited", "serverRenewProhibited"],
    });
    expect((await lock("lock-sweep-hold.com", ["serverDeleteProhibited"])).status).toBe(200);
    await runSweep(asOf);
    expect((await api("GET", "/v1/domains/lock-sweep-hold.com")).body.expires_at > domain.expires_at).toBe(true);
  });

  it("serverDeleteProhibited: a deleted domain is not purged at the end of redemption", async () => {
    await customerDomain("lock-sweep-purge.de");
    expect((await api("DELETE", "/v1/domains/lock-sweep-purge.de")).status).toBe(202);
    expect((await lock("lock-sweep-purge.de", ["serverDeleteProhibited"])).status).toBe(200);
    const late = new Date(Date.now() + 400 * DAY).toISOString();
    await runSweep(late);
    expect((await api("GET", "/v1/domains/lock-sweep-purge.de")).status).toBe(200);
    expect((await lock("lock-sweep-purge.de", [])).status).toBe(200);
    await runSweep(late);
    expect((await api("GET", "/v1/domains/lock-sweep-purge.de")).status).toBe(404);
  });

  it("serverTransferProhibited: a pending transfer is not approved at act_by", async () => {
    const { domain } = await customerDomain("lock-sweep-transfer.de");
    const gaining = await customerAccount("lock-sweep-gaining");
    const requested = await api("POST", "/v1/domains/lock-sweep-transfer.de/transfer", {
      headers: { authorization: gaining.auth },
      json: { auth_info: domain.auth_info },
    });
    expect(requested.status, requested.text).toBe(201);
    expect((await lock("lock-sweep-transfer.de", ["serverTransferProhibited"])).status).toBe(200);
    await runSweep(new Date(Date.parse(requested.body.act_by) + DAY).toISOString());
    expect((await api("GET", "/v1/domains/lock-sweep-transfer.de/transfer")).body.status).toBe("pending");
  });
});

describe("each SQL mirror holds to its TypeScript rule", () => {
  /** Every combination of the statuses the rules read, as stored rows, and what SQL says of each. */
  async function matrix(prefix: string, expression: SQL) {
    const client = [[], ["clientRenewProhibited"]];
    const server = [
      [],
      ["serverRenewProhibited"],
      ["serverDeleteProhibited"],
      ["serverDeleteProhibited", "serverRenewProhibited"],
      ["serverHold"],
      ["serverTransferProhibited"],
      ["serverTransferProhibited", "serverUpdateProhibited"],
    ];
    const rows: { name: string; autoRenew: boolean; statuses: string[]; serverStatuses: string[] }[] = [];
    let i = 0;
    for (const autoRenew of [true, false])
      for (const statuses of client)
        for (const serverStatuses of server) {
          const name = `${prefix}-${i++}.de`;
          await createDomain(name, { nameservers: NS });
          await env.DB.prepare("update domains set auto_renew = ?1, statuses = ?2, server_statuses = ?3 where name = ?4")
            .bind(autoRenew ? 1 : 0, JSON.stringify(statuses), JSON.stringify(serverStatuses), name)
            .run();
          rows.push({ name, autoRenew, statuses, serverStatuses });
        }
    const db = database(env.DB);
    const selected = await db
      .select({ name: domains.name })
      .from(domains)
      .where(and(sql`"domains"."name" like ${`${prefix}-%`}`, expression))
      .orderBy(asc(domains.name));
    return { rows, selected: new Set(selected.map((r) => r.name)) };
  }

  it("AUTO_RENEW_ALLOWED is autoRenewAllowed", async () => {
    const { rows, selected } = await matrix("mirror-renew", AUTO_RENEW_ALLOWED);
    for (const row of rows) expect(selected.has(row.name), JSON.stringify(row)).toBe(autoRenewAllowed(row));
  });

  it("SWEEP_DELETE_ALLOWED is sweepDeleteAllowed", async () => {
    const { rows, selected } = await matrix("mirror-delete", SWEEP_DELETE_ALLOWED);
    for (const row of rows) expect(selected.has(row.name), JSON.stringify(row)).toBe(sweepDeleteAllowed(row.serverStatuses));
  });

  it('TRANSFER_APPROVAL_ALLOWED is prohibitingStatus("approveTransfer") finding nothing', async () => {
    const { rows } = await matrix("mirror-transfer", sql`1`);
    const operator = "acc_00000000000000000000000000";
    for (const [i, row] of rows.entries()) {
      await env.DB.prepare(
        `insert into transfers (id, domain_id, name, gaining_account_id, losing_account_id, status, period, requested_at, act_by)
         select ?1, id, name, ?2, ?2, 'pending', 1, '2026-01-01T00:00:00.000Z', '2026-01-06T00:00:00.000Z' from domains where name = ?3`,
      )
        .bind(`trn_MIRROR${String(i).padStart(20, "0")}`, operator, row.name)
        .run();
    }
    const db = database(env.DB);
    const allowed = await db
      .select({ name: transfers.name })
      .from(transfers)
      .where(and(sql`"transfers"."name" like 'mirror-transfer-%'`, TRANSFER_APPROVAL_ALLOWED));
    const names = new Set(allowed.map((r) => r.name));
    for (const row of rows) {
      const rule = prohibitingStatus("approveTransfer", [...row.statuses, ...row.serverStatuses, "pendingTransfer"]) === null;
      expect(names.has(row.name), JSON.stringify(row)).toBe(rule);
    }
    expect(names.size).toBeGreaterThan(0);
    expect(names.size).toBeLessThan(rows.length);
  });

  it("statusCondition (the list's status filter) is domainStatus, for every status a filter may name", async () => {
    const { rows } = await matrix("mirror-status", sql`1`);
    const db = database(env.DB);
    for (const status of DOMAIN_STATUS_FILTERS) {
      const found = await db
        .select({ name: domains.name })
        .from(domains)
        .where(and(sql`"domains"."name" like 'mirror-status-%'`, statusCondition(status)));
      const names = new Set(found.map((r) => r.name));
      for (const row of rows) {
        const shown = domainStatus(row.statuses, NS.length, row.serverStatuses as never);
        expect(names.has(row.name), `${status} ${JSON.stringify(row)}`).toBe(shown.includes(status));
      }
    }
  });
});

describe("serverUpdateProhibited binds the service's own DS writes (one-click DNSSEC)", () => {
  it("signing a zone leaves a locked domain's DS alone; turning it off with force cannot remove it (409)", async () => {
    await createDomain("lock-dnssec.com", { nameservers: NS });
    await createZone("lock-dnssec.com", { nameservers: NS });
    expect((await lock("lock-dnssec.com", ["serverUpdateProhibited"])).status).toBe(200);
    const on = await api("POST", "/v1/zones/lock-dnssec.com/dnssec");
    expect(on.status, on.text).toBe(201);
    expect((await api("GET", "/v1/domains/lock-dnssec.com")).body.ds).toEqual([]);
    // With the lock cleared, signing again links the DS; locked again, force cannot remove it.
    expect((await lock("lock-dnssec.com", [])).status).toBe(200);
    await api("DELETE", "/v1/zones/lock-dnssec.com/dnssec");
    expect((await api("POST", "/v1/zones/lock-dnssec.com/dnssec")).status).toBe(201);
    expect((await api("GET", "/v1/domains/lock-dnssec.com")).body.ds).toHaveLength(1);
    expect((await lock("lock-dnssec.com", ["serverUpdateProhibited"])).status).toBe(200);
    const off = expectProblem(await api("DELETE", "/v1/zones/lock-dnssec.com/dnssec?force=true"), 409, "status_prohibits");
    expect(off.detail).toContain("serverUpdateProhibited");
    expect((await api("GET", "/v1/domains/lock-dnssec.com")).body.ds).toHaveLength(1);
  });
});
