// docs/lifecycle.md, delete and redemption (RFC 3915 §3.3, §4.2.1): DELETE inside addPeriod
// removes at once; afterwards it enters redemptionPeriod in pendingDelete; restore.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createContact, createDomain, expectProblem } from "./helpers";

// .de has no add grace period (grace_periods.add = 0): its DELETE always goes to redemption.
async function createDe(name: string) {
  const contact = await createContact();
  return createDomain(name, { registrant: contact.id, contacts: { admin: contact.id }, nameservers: ["ns1.example.net", "ns2.example.net"] });
}

describe("DELETE inside addPeriod removes the domain at once (204)", () => {
  it("a .com just registered is gone", async () => {
    await createDomain("gone-at-once.com");
    const response = await api("DELETE", "/v1/domains/gone-at-once.com");
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe("");
    expectProblem(await api("GET", "/v1/domains/gone-at-once.com"), 404, "not_found");
  });
});

describe("DELETE after addPeriod answers 202 with pendingDelete and redemptionPeriod", () => {
  it("the domain stays, shows pendingDelete and redemptionPeriod for grace_periods.redemption days, and keeps its name", async () => {
    await createDe("redeem-me.de");
    const response = await api("DELETE", "/v1/domains/redeem-me.de");
    expect(response.status, response.text).toBe(202);
    expect(response.body.status).toContain("pendingDelete");
    expect(response.body.rgp_status).toEqual([
      { status: "redemptionPeriod", ends_at: new Date(Date.parse(response.body.updated_at) + 30 * 86_400_000).toISOString() },
    ]);
    const read = await api("GET", "/v1/domains/redeem-me.de");
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expectProblem(
      await api("POST", "/v1/domains", { json: { name: "redeem-me.de", nameservers: ["ns1.example.net", "ns2.example.net"] } }),
      409,
      "already_exists",
    );
    const events = await api("GET", `/v1/events?resource=${response.body.id}&operation=delete`);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].after.status).toContain("pendingDelete");
  });
  it("a domain in pendingDelete refuses PATCH, renew and a second DELETE (409 status_prohibits)", async () => {
    const domain = await createDe("redeem-locked.de");
    expect((await api("DELETE", "/v1/domains/redeem-locked.de")).status).toBe(202);
    const patch = expectProblem(
      await api("PATCH", "/v1/domains/redeem-locked.de", { json: { auto_renew: false }, headers: { "content-type": "application/merge-patch+json" } }),
      409,
      "status_prohibits",
    );
    expect(patch.detail).toMatch(/^redeem-locked\.de has pendingDelete/);
    const again = expectProblem(await api("DELETE", "/v1/domains/redeem-locked.de"), 409, "status_prohibits");
    expect(again.detail).toBe("redeem-locked.de has pendingDelete; remove that status first.");
    const renewed = expectProblem(
      await api("POST", "/v1/domains/redeem-locked.de/renew", { json: { current_expires_at: domain.expires_at } }),
      409,
      "status_prohibits",
    );
    expect(renewed.detail).toBe("redeem-locked.de has pendingDelete; it cannot be renewed.");
  });
});

describe("restore inside redemptionPeriod answers 200 with the domain back as it was", () => {
  it("pendingDelete and redemptionPeriod are gone, the event is restore", async () => {
    const domain = await createDe("restore-me.de");
    expect((await api("DELETE", "/v1/domains/restore-me.de")).status).toBe(202);
    const response = await api("POST", "/v1/domains/restore-me.de/restore");
    expect(response.status, response.text).toBe(200);
    expect(response.body.status).toEqual(domain.status);
    expect(response.body.rgp_status).toEqual([]);
    expect(response.body.expires_at).toBe(domain.expires_at);
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=restore`);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].after.status).toEqual(domain.status);
  });
});

describe("restore outside redemptionPeriod answers 409 status_prohibits", () => {
  it("a domain that is not deleted, and one past its redemption period", async () => {
    await createDe("not-deleted.de");
    const live = expectProblem(await api("POST", "/v1/domains/not-deleted.de/restore"), 409, "status_prohibits");
    expect(live.detail).toBe("not-deleted.de is not deleted; only a domain in redemptionPeriod can be restored.");
    expect((await api("DELETE", "/v1/domains/not-deleted.de")).status).toBe(202);
    // The redemption period ended a millisecond ago (the sweep has not yet run).
    const ended = new Date(Date.now() - 1).toISOString();
    await env.DB.prepare("UPDATE domains SET rgp = json_array(json_object('status', 'redemptionPeriod', 'ends_at', ?)) WHERE name = 'not-deleted.de'")
      .bind(ended)
      .run();
    const late = expectProblem(await api("POST", "/v1/domains/not-deleted.de/restore"), 409, "status_prohibits");
    expect(late.detail).toBe("not-deleted.de is past its redemption period; only a domain in redemptionPeriod can be restored.");
  });
});
