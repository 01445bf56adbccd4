// docs/lifecycle.md, renew (RFC 5731 §3.2.3): POST /v1/domains/{domain}/renew.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createDomain, expectProblem, withoutPrice } from "./helpers";

function renew(name: string, body: Record<string, unknown>) {
  return api("POST", `/v1/domains/${name}/renew`, { json: body });
}

function yearsLater(iso: string, years: number): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString();
}

describe("renew adds the period to the stored expiry and starts renewPeriod", () => {
  it("answers 200 with the domain, expiry one period later, renewPeriod for grace_periods.renew days", async () => {
    const domain = await createDomain("renew-ok.com");
    const response = await renew("renew-ok.com", { period: 2, current_expires_at: domain.expires_at });
    expect(response.status, response.text).toBe(200);
    expect(response.body.expires_at).toBe(yearsLater(domain.expires_at, 2));
    const renewPeriod = response.body.rgp_status.find((e: any) => e.status === "renewPeriod");
    expect(Date.parse(renewPeriod.ends_at) - Date.parse(response.body.updated_at)).toBe(5 * 86_400_000);
    expect(response.body.rgp_status.map((e: any) => e.status)).toEqual(["addPeriod", "renewPeriod"]);
    expect(response.headers.get("etag")).toEqual(expect.any(String));
    const read = await api("GET", "/v1/domains/renew-ok.com");
    // The renewal's answer says what it cost; the domain does not keep it.
    expect(response.body.price).toEqual({ currency: "USD", amount: "24.00" });
    expect(read.body).toEqual(withoutPrice(response.body));
  });
  it("writes one event with operation renew", async () => {
    const domain = await createDomain("renew-event.com");
    await renew("renew-event.com", { period: 1, current_expires_at: domain.expires_at });
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=renew`);
    expect(events.status, events.text).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ operation: "renew", type: "domain", resource: domain.id });
    expect(events.body.data[0].before.expires_at).toBe(domain.expires_at);
    expect(events.body.data[0].after.expires_at).toBe(yearsLater(domain.expires_at, 1));
  });
  it("the period defaults to the extension's minimum", async () => {
    const domain = await createDomain("renew-default.com");
    const response = await renew("renew-default.com", { current_expires_at: domain.expires_at });
    expect(response.status, response.text).toBe(200);
    expect(response.body.expires_at).toBe(yearsLater(domain.expires_at, 1));
  });
});

describe("renew: current_expires_at must equal the stored expiry to the day (422 policy_violation)", () => {
  it("accepts the date alone; a retried renew after it succeeded is refused", async () => {
    const domain = await createDomain("renew-retry.com");
    const body = { period: 1, current_expires_at: domain.expires_at.slice(0, 10) };
    const first = await renew("renew-retry.com", body);
    expect(first.status, first.text).toBe(200);
    const retried = expectProblem(await renew("renew-retry.com", body), 422, "policy_violation");
    expect(retried.errors).toEqual([
      { field: "current_expires_at", message: `does not match the domain's expiry date (${first.body.expires_at.slice(0, 10)})` },
    ]);
    expect((await api("GET", "/v1/domains/renew-retry.com")).body.expires_at).toBe(first.body.expires_at);
  });
  it("a missing current_expires_at is bad input, an unreadable one too", async () => {
    await createDomain("renew-missing.com");
    const missing = await renew("renew-missing.com", { period: 1 });
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.errors.map((e: any) => e.field)).toContain("current_expires_at");
    const unreadable = expectProblem(await renew("renew-missing.com", { period: 1, current_expires_at: "soon" }), 422, "validation_failed");
    expect(unreadable.errors).toEqual([{ field: "current_expires_at", message: "must be a date or an RFC 3339 time" }]);
  });
});

describe("renew: the period lies in the extension's range and the new expiry within periods.max years (422)", () => {
  it("refuses 11 years and an expiry past ten years from now, and writes nothing", async () => {
    const domain = await createDomain("renew-range.com", { period: 2 });
    const tooLong = expectProblem(await renew("renew-range.com", { period: 11, current_expires_at: domain.expires_at }), 422, "policy_violation");
    expect(tooLong.errors).toEqual([{ field: "period", message: ".com renews for 1 to 10 years" }]);
    const horizon = expectProblem(await renew("renew-range.com", { period: 9, current_expires_at: domain.expires_at }), 422, "policy_violation");
    expect(horizon.errors[0].field).toBe("period");
    expect(horizon.errors[0].message).toMatch(/more than 10 years from now$/);
    const fraction = expectProblem(await renew("renew-range.com", { period: 1.5, current_expires_at: domain.expires_at }), 422, "validation_failed");
    expect(fraction.errors).toEqual([{ field: "period", message: "must be a whole number of years" }]);
    expect((await api("GET", "/v1/domains/renew-range.com")).body.expires_at).toBe(domain.expires_at);
  });
});

describe("renew is forbidden by clientRenewProhibited (409 status_prohibits)", () => {
  it("names the status", async () => {
    const domain = await createDomain("renew-prohibited.com", { status: ["clientRenewProhibited"] });
    const problem = expectProblem(await renew("renew-prohibited.com", { period: 1, current_expires_at: domain.expires_at }), 409, "status_prohibits");
    expect(problem.detail).toBe("renew-prohibited.com has clientRenewProhibited; it cannot be renewed.");
  });
});

describe("renew is forbidden by pendingTransfer and pendingDelete (409 status_prohibits)", () => {
  it("a pending transfer shows pendingTransfer and refuses the renew", async () => {
    const domain = await createDomain("renew-pending.com");
    await env.DB.prepare(
      "INSERT INTO transfers (id, domain_id, name, gaining_account_id, losing_account_id, status, period, requested_at, act_by) VALUES ('trn_1', ?, 'renew-pending.com', ?, ?, 'pending', 1, '2026-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z')",
    )
      .bind(domain.id, domain.account, domain.account)
      .run();
    const read = await api("GET", "/v1/domains/renew-pending.com");
    expect(read.body.status).toContain("pendingTransfer");
    const problem = expectProblem(await renew("renew-pending.com", { period: 1, current_expires_at: domain.expires_at }), 409, "status_prohibits");
    expect(problem.detail).toBe("renew-pending.com has pendingTransfer; it cannot be renewed.");
  });
  it("a domain in pendingDelete refuses the renew", async () => {
    const domain = await createDomain("renew-deleted.com");
    await env.DB.prepare("UPDATE domains SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").bind(domain.id).run();
    const problem = expectProblem(await renew("renew-deleted.com", { period: 1, current_expires_at: domain.expires_at }), 409, "status_prohibits");
    expect(problem.detail).toBe("renew-deleted.com has pendingDelete; it cannot be renewed.");
  });
});

describe("concurrency: 10 parallel renews with one current_expires_at renew exactly once", () => {
  it("one answers 200, nine 422 policy_violation (or 409 write_conflict), and the expiry grew by one period", async () => {
    const domain = await createDomain("renew-race.com");
    const responses = await Promise.all(Array.from({ length: 10 }, () => renew("renew-race.com", { period: 1, current_expires_at: domain.expires_at })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200)) expect([409, 422]).toContain(r.status);
    const read = await api("GET", "/v1/domains/renew-race.com");
    expect(read.body.expires_at).toBe(yearsLater(domain.expires_at, 1));
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=renew`);
    expect(events.body.data).toHaveLength(1);
  });
});
