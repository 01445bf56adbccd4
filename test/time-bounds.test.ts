// Times are stored as ISO 8601 text in UTC and compared as text (docs/conventions.md), which
// holds only while every year has 4 digits: the year 10000 is "+010000-…", which sorts
// before "2026-…". So a time the API takes keeps its year within 0000–9999 in UTC, and a
// run's `as_of` stays far enough below it that what the run writes (a renewal's new
// expiry, a retry's due time) does too: 422 naming the field otherwise.
import { describe, expect, it } from "vitest";
import { api, expectProblem } from "./helpers";

describe("a run's as_of keeps every time the run writes within 4-digit years", () => {
  for (const asOf of ["9999-06-01T00:00:00Z", "9000-01-01T00:00:00Z", "1969-12-31T23:59:59Z"]) {
    it(`as_of ${asOf} answers 422 validation_failed naming as_of, before anything runs`, async () => {
      for (const path of ["/v1/lifecycle/sweep", "/v1/events/archive/run"]) {
        const refused = expectProblem(await api("POST", path, { json: { as_of: asOf } }), 422, "validation_failed");
        expect(refused.errors).toEqual([
          { field: "as_of", message: "must lie between 1970-01-01T00:00:00Z and 9000-01-01T00:00:00Z, so that every time the run writes keeps a 4-digit year" },
        ]);
      }
    });
  }

  it("an as_of within them is only refused where the clock may not be set (422 policy_violation, as before)", async () => {
    const refused = expectProblem(await api("POST", "/v1/lifecycle/sweep", { json: { as_of: "8999-12-31T00:00:00Z" } }), 422, "policy_violation");
    expect(refused.errors[0].field).toBe("as_of");
  });
});

describe("a time the API stores keeps a 4-digit year in UTC", () => {
  it("a token whose expires_at is in the year 10000 in UTC answers 422 naming expires_at, and none is made", async () => {
    const refused = expectProblem(
      await api("POST", "/v1/tokens", { json: { name: "far-future", scope: "read", expires_at: "9999-12-31T23:00:00-02:00" } }),
      422,
      "validation_failed",
    );
    expect(refused.errors).toEqual([{ field: "expires_at", message: "must be a time of the years 0000 to 9999 in UTC" }]);
    const listed = await api("GET", "/v1/tokens?limit=200");
    expect(listed.body.data.some((t: { name: string }) => t.name === "far-future")).toBe(false);
    const latest = await api("POST", "/v1/tokens", { json: { name: "far-but-fine", scope: "read", expires_at: "9999-12-31T23:59:59Z" } });
    expect(latest.status, latest.text).toBe(201);
    expect(latest.body.expires_at).toBe("9999-12-31T23:59:59.000Z");
  });
});
