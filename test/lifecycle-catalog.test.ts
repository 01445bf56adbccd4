// docs/lifecycle.md: the catalog's transfer lock and pending-transfer days, and the lifecycle
// fields every domain shows from its registration on.
import { describe, expect, it } from "vitest";
import { api, createContact, withoutPrice } from "./helpers";

describe("extensions show transfer_lock_days (60 for gTLDs, 0 for uk, co.uk, de, nl, eu, ch) and pending_transfer_days (5)", () => {
  it("com locks 60 days, the ccTLDs without a lock 0", async () => {
    const com = await api("GET", "/v1/extensions/com");
    expect(com.status, com.text).toBe(200);
    expect(com.body).toMatchObject({ transfer_lock_days: 60, pending_transfer_days: 5 });
    for (const id of ["uk", "co.uk", "de", "nl", "eu", "ch"]) {
      const extension = await api("GET", `/v1/extensions/${id}`);
      expect(extension.status, extension.text).toBe(200);
      expect(extension.body).toMatchObject({ id, transfer_lock_days: 0, pending_transfer_days: 5 });
    }
  });
});

describe("a new registration shows addPeriod, its transfer lock and no DS data", () => {
  it("addPeriod ends grace_periods.add days after creation; the lock 60 days after (com)", async () => {
    const contact = await createContact();
    const created = await api("POST", "/v1/domains", { json: { name: "lifecycle-fields.com", registrant: contact.id } });
    expect(created.status, created.text).toBe(201);
    const createdAt = Date.parse(created.body.created_at);
    expect(created.body.rgp_status).toEqual([{ status: "addPeriod", ends_at: new Date(createdAt + 5 * 86_400_000).toISOString() }]);
    expect(created.body.transfer_locked_until).toBe(new Date(createdAt + 60 * 86_400_000).toISOString());
    expect(created.body.ds).toEqual([]);
    const read = await api("GET", "/v1/domains/lifecycle-fields.com");
    expect(read.status).toBe(200);
    expect(read.body).toEqual(withoutPrice(created.body));
  });
  it("a domain under uk has no transfer lock", async () => {
    const contact = await createContact();
    const created = await api("POST", "/v1/domains", { json: { name: "lifecycle-fields.uk", registrant: contact.id } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.transfer_locked_until).toBeNull();
  });
});
