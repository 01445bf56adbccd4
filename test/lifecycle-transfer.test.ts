// docs/lifecycle.md, transfers between accounts (RFC 5731 §3.2.4).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createContact, createDomain, createHost, expectProblem } from "./helpers";

/** A customer account with a write token; returns its id and Authorization header. */
async function customer(name: string) {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", { json: { name: `${name}-token`, scope: "write", account: account.body.id } });
  expect(token.status, token.text).toBe(201);
  return { id: account.body.id as string, auth: `Bearer ${token.body.secret}` };
}

function as(auth: string, method: string, path: string, json?: unknown) {
  return api(method, path, { json, headers: { authorization: auth } });
}

/** A .de domain (no transfer lock) of the operator account, with a registrant and a subordinate host. */
async function losingDomain(name: string) {
  const contact = await createContact();
  const domain = await createDomain(name, {
    registrant: contact.id,
    contacts: { admin: contact.id, tech: contact.id },
    nameservers: ["ns1.example.net", "ns2.example.net"],
  });
  return { domain, contact };
}

describe("a transfer request with the right auth_info answers 201 with the pending transfer; the domain shows pendingTransfer", () => {
  it("by name, with Location, act_by = request + pending_transfer_days", async () => {
    const gaining = await customer("gaining-1");
    const { domain } = await losingDomain("move-me.de");
    const response = await as(gaining.auth, "POST", "/v1/domains/move-me.de/transfer", { auth_info: domain.auth_info });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe("/v1/domains/move-me.de/transfer");
    expect(response.body).toEqual({
      domain: domain.id,
      name: "move-me.de",
      status: "pending",
      gaining_account: gaining.id,
      losing_account: domain.account,
      registrar: null,
      period: 1,
      requested_at: expect.any(String),
      act_by: new Date(Date.parse(response.body.requested_at) + 5 * 86_400_000).toISOString(),
      acted_at: null,
      price: { currency: "USD", amount: "9.00" },
    });
    expect((await api("GET", "/v1/domains/move-me.de")).body.status).toContain("pendingTransfer");
    const read = await as(gaining.auth, "GET", "/v1/domains/move-me.de/transfer");
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(response.body);
    expect((await api("GET", "/v1/domains/move-me.de/transfer")).body).toEqual(response.body);
  });
});

describe("a wrong auth_info answers 422 policy_violation naming auth_info and nothing more", () => {
  it("for a domain that could be transferred", async () => {
    const gaining = await customer("gaining-2");
    await losingDomain("wrong-secret.de");
    const problem = expectProblem(
      await as(gaining.auth, "POST", "/v1/domains/wrong-secret.de/transfer", { auth_info: "Not-The-Secret-1" }),
      422,
      "policy_violation",
    );
    expect(problem.detail).toBe("auth_info: does not match.");
    expect(problem.errors).toEqual([{ field: "auth_info", message: "does not match" }]);
  });
});

describe("a transfer is refused by clientTransferProhibited, the lock, the sponsor itself, and a pending transfer", () => {
  it("409 status_prohibits, 422 inside the lock, 422 from the sponsoring account, 409 when requested twice", async () => {
    const gaining = await customer("gaining-3");
    const prohibited = await createDomain("no-move.de", { nameservers: ["ns1.example.net", "ns2.example.net"], status: ["clientTransferProhibited"] });
    const status = expectProblem(
      await as(gaining.auth, "POST", "/v1/domains/no-move.de/transfer", { auth_info: prohibited.auth_info }),
      409,
      "status_prohibits",
    );
    expect(status.detail).toBe("no-move.de has clientTransferProhibited; it cannot be transferred.");

    const locked = await createDomain("locked.com");
    const lock = expectProblem(await as(gaining.auth, "POST", "/v1/domains/locked.com/transfer", { auth_info: locked.auth_info }), 422, "policy_violation");
    expect(lock.errors).toEqual([{ field: "domain", message: `is locked against transfer until ${locked.transfer_locked_until}` }]);

    const { domain } = await losingDomain("twice.de");
    const self = expectProblem(await api("POST", "/v1/domains/twice.de/transfer", { json: { auth_info: domain.auth_info } }), 422, "policy_violation");
    expect(self.detail).toBe("twice.de is already sponsored by your account.");
    expect((await as(gaining.auth, "POST", "/v1/domains/twice.de/transfer", { auth_info: domain.auth_info })).status).toBe(201);
    const twice = expectProblem(await as(gaining.auth, "POST", "/v1/domains/twice.de/transfer", { auth_info: domain.auth_info }), 409, "status_prohibits");
    expect(twice.detail).toBe("twice.de has pendingTransfer; it cannot be transferred.");
    const patch = await api("PATCH", "/v1/domains/twice.de", { json: { auto_renew: false }, headers: { "content-type": "application/merge-patch+json" } });
    expectProblem(patch, 409, "status_prohibits");
  });
});

describe("approval by the losing account moves the domain: sponsor, expiry, auth_info, contact copies, subordinate hosts, transferPeriod, lock", () => {
  it("answers 200 with the approved transfer and the domain belongs to the gaining account", async () => {
    const gaining = await customer("gaining-4");
    const { domain, contact } = await losingDomain("approve-me.de");
    await createHost("ns.approve-me.de", ["192.0.2.1"]);
    await as(gaining.auth, "POST", "/v1/domains/approve-me.de/transfer", { auth_info: domain.auth_info });
    const approved = await api("POST", "/v1/domains/approve-me.de/transfer/approve");
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", acted_at: expect.any(String) });

    const losing = await customer("losing-4");
    expectProblem(await as(losing.auth, "GET", "/v1/domains/approve-me.de"), 404, "not_found");
    const moved = await as(gaining.auth, "GET", "/v1/domains/approve-me.de");
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.account).toBe(gaining.id);
    // The expiry grows by the period, capped at periods.max years from the approval (.de: 1 year).
    const de = (await api("GET", "/v1/extensions/de")).body;
    const grown = new Date(domain.expires_at);
    grown.setUTCFullYear(grown.getUTCFullYear() + 1);
    const cap = new Date(approved.body.acted_at);
    cap.setUTCFullYear(cap.getUTCFullYear() + de.periods.max);
    expect(moved.body.expires_at).toBe(new Date(Math.min(grown.getTime(), cap.getTime())).toISOString());
    expect(moved.body.auth_info).not.toBe(domain.auth_info);
    expect(moved.body.status).not.toContain("pendingTransfer");
    // .de has grace_periods.transfer = 0: no transferPeriod.
    expect(moved.body.rgp_status.map((e: any) => e.status)).toEqual(de.grace_periods.transfer > 0 ? ["transferPeriod"] : []);
    expect(moved.body.registrant).not.toBe(contact.id);
    expect(moved.body.contacts).toEqual({ admin: moved.body.registrant, tech: moved.body.registrant, billing: null });
    const copy = await as(gaining.auth, "GET", `/v1/contacts/${moved.body.registrant}`);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body).toMatchObject({ name: contact.name, email: contact.email, account: gaining.id });
    expect((await api("GET", `/v1/contacts/${contact.id}`)).status).toBe(200);
    const host = await as(gaining.auth, "GET", "/v1/hosts/ns.approve-me.de");
    expect(host.status, host.text).toBe(200);
    expect(host.body.account).toBe(gaining.id);
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_approve`);
    expect(events.body.data).toHaveLength(1);
  });
});

describe("reject by the losing account and cancel by the gaining one end the transfer; anyone else gets 404; a finished transfer 409", () => {
  it("reject, then approve after reject answers 409", async () => {
    const gaining = await customer("gaining-5");
    const { domain } = await losingDomain("reject-me.de");
    await as(gaining.auth, "POST", "/v1/domains/reject-me.de/transfer", { auth_info: domain.auth_info });
    expectProblem(await as(gaining.auth, "POST", "/v1/domains/reject-me.de/transfer/approve"), 404, "not_found");
    const rejected = await api("POST", "/v1/domains/reject-me.de/transfer/reject");
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.status).toBe("rejected");
    const late = expectProblem(await api("POST", "/v1/domains/reject-me.de/transfer/approve"), 409, "status_prohibits");
    expect(late.detail).toBe("The transfer of reject-me.de is rejected, no longer pending.");
    expect((await api("GET", "/v1/domains/reject-me.de")).body.account).toBe(domain.account);
  });
  it("cancel by the gaining account; approve after cancel answers 409; a third account gets 404", async () => {
    const gaining = await customer("gaining-6");
    const stranger = await customer("stranger-6");
    const { domain } = await losingDomain("cancel-me.de");
    await as(gaining.auth, "POST", "/v1/domains/cancel-me.de/transfer", { auth_info: domain.auth_info });
    expectProblem(await as(stranger.auth, "GET", "/v1/domains/cancel-me.de/transfer"), 404, "not_found");
    expectProblem(await as(stranger.auth, "POST", "/v1/domains/cancel-me.de/transfer/cancel"), 404, "not_found");
    const cancelled = await as(gaining.auth, "POST", "/v1/domains/cancel-me.de/transfer/cancel");
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expectProblem(await api("POST", "/v1/domains/cancel-me.de/transfer/approve"), 409, "status_prohibits");
    expect((await api("GET", "/v1/domains/cancel-me.de")).body.status).not.toContain("pendingTransfer");
  });
});

describe("an approve racing a cancel leaves exactly one outcome", () => {
  it("one answers 200, the other 409, and the domain agrees with the winner", async () => {
    const gaining = await customer("gaining-7");
    const { domain } = await losingDomain("race-me.de");
    await as(gaining.auth, "POST", "/v1/domains/race-me.de/transfer", { auth_info: domain.auth_info });
    const [approve, cancel] = await Promise.all([
      api("POST", "/v1/domains/race-me.de/transfer/approve"),
      as(gaining.auth, "POST", "/v1/domains/race-me.de/transfer/cancel"),
    ]);
    expect([approve.status, cancel.status].sort()).toEqual([200, 409]);
    const { results } = await env.DB.prepare("SELECT status FROM transfers WHERE name = 'race-me.de'").all<{ status: string }>();
    expect(results).toEqual([{ status: approve.status === 200 ? "approved" : "cancelled" }]);
    const owner = (await env.DB.prepare("SELECT account_id FROM domains WHERE name = 'race-me.de'").first<{ account_id: string }>())!.account_id;
    expect(owner).toBe(approve.status === 200 ? gaining.id : domain.account);
  });
});
