// auth_info cannot be guessed (RFC 5731 §2.6 leaves its strength and the handling of wrong
// guesses to the server; docs/safety.md § Transfers and auth_info): a strength rule for
// user-set values, failed transfer requests counted per domain and per requesting account
// in D1 with a growing lock, each failure shown to the sponsor as an event, and a domain
// that cannot move answering the same whatever the password.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { afterFailure, authInfoProblem, TRANSFER_FAILURE_LIMITS } from "../src/registry/auth-info";
import { api, type ApiResponse, createContact, createDomain, expectProblem } from "./helpers";

/** A customer account with `tokens` write tokens; returns its id and their Authorization headers. */
async function customer(name: string, tokens = 1) {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const auths: string[] = [];
  for (let i = 0; i < tokens; i++) {
    const token = await api("POST", "/v1/tokens", { json: { name: `${name}-token-${i}`, scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    auths.push(`Bearer ${token.body.secret}`);
  }
  return { id: account.body.id as string, auth: auths[0]!, auths };
}

function transfer(auth: string, domain: string, authInfo: unknown) {
  return api("POST", `/v1/domains/${domain}/transfer`, { json: { auth_info: authInfo }, headers: { authorization: auth } });
}

/** A .de domain (no transfer lock) of the operator account. */
async function domainOf(name: string, fields: Record<string, unknown> = {}) {
  return createDomain(name, { nameservers: ["ns1.example.net", "ns2.example.net"], ...fields });
}

/** A problem without its request id: what two answers must share to be "the same". */
function sameness(response: ApiResponse) {
  const { request_id: _id, ...rest } = response.body;
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: rest };
}

const WRONG = "Wrong-Guess-0001";

async function failuresOf(key: string) {
  return env.DB.prepare("SELECT failures, last_failed_at AS lastFailedAt, locked_until AS lockedUntil FROM transfer_auth_failures WHERE key = ?")
    .bind(key)
    .first<{ failures: number; lastFailedAt: number; lockedUntil: number }>();
}

/** Moves a count's lock (and last failure) into the past, as time passing would. */
async function pastLock(key: string) {
  await env.DB.prepare("UPDATE transfer_auth_failures SET locked_until = min(locked_until, ?1), last_failed_at = min(last_failed_at, ?1) WHERE key = ?2")
    .bind(Date.now() - 1000, key)
    .run();
}

describe("a user-set auth_info needs 12 to 32 characters from 3 character classes (RFC 5731 §2.6)", () => {
  it("123456, password-like and short values are refused on create with 422 naming auth_info", async () => {
    const cases: [unknown, string][] = [
      ["123456", "must be 12 to 32 characters"],
      ["Abcdef1!", "must be 12 to 32 characters"],
      ["passwordpassword", "must mix at least 3 of: upper-case letters, lower-case letters, digits, other characters"],
      ["password12345", "must mix at least 3 of: upper-case letters, lower-case letters, digits, other characters"],
      ["PASSWORD-PASSWORD", "must mix at least 3 of: upper-case letters, lower-case letters, digits, other characters"],
      ["Has space 1234", "may contain only printable ASCII characters without spaces"],
      ["Aa1-".repeat(9), "must be 12 to 32 characters"],
      [123456, "must be a string"],
    ];
    for (const [authInfo, message] of cases) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "weak-auth.com", auth_info: authInfo } }), 422, "validation_failed");
      expect(problem.errors, String(authInfo)).toEqual([{ field: "auth_info", message }]);
    }
    expectProblem(await api("GET", "/v1/domains/weak-auth.com"), 404, "not_found");
  });

  it("and on PATCH; the stored value stays", async () => {
    const domain = await domainOf("weak-patch.de", { auth_info: "Strong-Enough-42" });
    const problem = expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: "123456" } }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "auth_info", message: "must be 12 to 32 characters" }]);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.auth_info).toBe("Strong-Enough-42");
  });

  it("12 characters of 3 classes, and 32 of 4, are accepted and returned", async () => {
    for (const authInfo of ["abcdefgh12-_", "Aa1-".repeat(8)]) {
      const domain = await domainOf(`strong-${authInfo.length}.de`, { auth_info: authInfo });
      expect(domain.auth_info).toBe(authInfo);
      const patched = await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: "ABCDEFGH-1234" } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.auth_info).toBe("ABCDEFGH-1234");
    }
  });

  it("a generated auth_info meets the rule (every one of 200 drawn)", async () => {
    const domain = await domainOf("generated-strong.de");
    expect(authInfoProblem(domain.auth_info)).toBeNull();
    expect(domain.auth_info).toHaveLength(20);
    const { generateAuthInfo } = await import("../src/registry/auth-info");
    for (let i = 0; i < 200; i++) expect(authInfoProblem(generateAuthInfo())).toBeNull();
  });

  it("a weak value stored before the rule keeps working: a transfer with it succeeds, a PATCH that leaves it keeps it", async () => {
    const bob = await customer("weak-stored-bob");
    const domain = await domainOf("weak-stored.de");
    await env.DB.prepare("UPDATE domains SET auth_info = '123456' WHERE id = ?").bind(domain.id).run();
    const kept = await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: false } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.auth_info).toBe("123456");
    const response = await transfer(bob.auth, "weak-stored.de", "123456");
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ name: "weak-stored.de", status: "pending", gaining_account: bob.id });
  });
});

describe("a domain that cannot be transferred answers the same whatever the password (no oracle), and counts nothing", () => {
  it("clientTransferProhibited, serverTransferProhibited, pendingDelete, pendingTransfer, the transfer lock and the caller's own domain", async () => {
    const bob = await customer("no-oracle-bob");
    const other = await customer("no-oracle-other");
    const contact = await createContact();
    const prohibited = await domainOf("oracle-client.de", { status: ["clientTransferProhibited"] });
    const server = await domainOf("oracle-server.de");
    await env.DB.prepare(`UPDATE domains SET statuses = '["serverTransferProhibited"]' WHERE id = ?`).bind(server.id).run();
    const deleted = await domainOf("oracle-deleted.de", { registrant: contact.id, contacts: { admin: contact.id } });
    expect((await api("DELETE", "/v1/domains/oracle-deleted.de")).status).toBe(202);
    const pending = await domainOf("oracle-pending.de");
    expect((await transfer(other.auth, "oracle-pending.de", pending.auth_info)).status).toBe(201);
    const locked = await createDomain("oracle-locked.com");
    const own = await api("POST", "/v1/domains", { json: { name: "oracle-own.de", account: bob.id, nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(own.status, own.text).toBe(201);

    const expected: [string, string, number, string, string][] = [
      ["oracle-client.de", prohibited.auth_info, 409, "status_prohibits", "oracle-client.de has clientTransferProhibited; it cannot be transferred."],
      ["oracle-server.de", server.auth_info, 409, "status_prohibits", "oracle-server.de has serverTransferProhibited; it cannot be transferred."],
      ["oracle-deleted.de", deleted.auth_info, 409, "status_prohibits", "oracle-deleted.de has pendingDelete; it cannot be transferred."],
      ["oracle-pending.de", pending.auth_info, 409, "status_prohibits", "oracle-pending.de has pendingTransfer; it cannot be transferred."],
      [
        "oracle-locked.com",
        locked.auth_info,
        422,
        "policy_violation",
        `oracle-locked.com cannot be transferred before ${locked.transfer_locked_until} (registration or last transfer lock).`,
      ],
      ["oracle-own.de", own.body.auth_info, 422, "policy_violation", "oracle-own.de is already sponsored by your account."],
    ];
    for (const [name, right, status, code, detail] of expected) {
      const withRight = await transfer(bob.auth, name, right);
      // More wrong passwords than the domain's free failures: none is counted, none locks.
      for (let i = 0; i < TRANSFER_FAILURE_LIMITS.domain.free + 1; i++) {
        const withWrong = await transfer(bob.auth, name, `${WRONG}${i}`);
        expect(sameness(withWrong), name).toEqual(sameness(withRight));
      }
      expect(expectProblem(withRight, status, code).detail, name).toBe(detail);
    }
    expect(await failuresOf(`account:${bob.id}`)).toBeNull();
    const events = await api("GET", "/v1/events?operation=transfer_auth_failed");
    expect(events.status, events.text).toBe(200);
    expect(events.body.data).toEqual([]);
  });
});

describe("failed transfer requests are limited per domain: after 5 wrong passwords, 429 with Retry-After whatever the password", () => {
  it("five 422s, then the right password and a wrong one get the same 429, from this account and from another", async () => {
    const bob = await customer("domain-limit-bob");
    const carol = await customer("domain-limit-carol");
    const domain = await domainOf("guess-me.de");
    for (let i = 0; i < TRANSFER_FAILURE_LIMITS.domain.free; i++) {
      const wrong = expectProblem(await transfer(bob.auth, "guess-me.de", `${WRONG}${i}`), 422, "policy_violation");
      expect(wrong.detail).toBe("auth_info: does not match.");
      expect(wrong.errors).toEqual([{ field: "auth_info", message: "does not match" }]);
    }
    const right = await transfer(bob.auth, "guess-me.de", domain.auth_info);
    const problem = expectProblem(right, 429, "rate_limited");
    const retryAfter = Number(right.headers.get("retry-after"));
    // What is left of a 60 s lock (a hang detector's room: a loaded machine may take seconds per request).
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const stored = await failuresOf(`domain:${domain.id}`);
    expect(stored!.lockedUntil - stored!.lastFailedAt).toBe(60_000);
    expect(problem.detail).toBe(`Too many transfer requests with a wrong auth_info, for this domain or from this account; retry after ${retryAfter} seconds.`);
    const wrong = await transfer(bob.auth, "guess-me.de", WRONG);
    expect(sameness(wrong)).toEqual(sameness(right));
    // Another account meets the domain's lock too.
    const fromCarol = await transfer(carol.auth, "guess-me.de", domain.auth_info);
    expectProblem(fromCarol, 429, "rate_limited");
    expect(Number(fromCarol.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Nothing moved.
    const read = await api("GET", "/v1/domains/guess-me.de");
    expect(read.body.account).toBe(domain.account);
    expect(read.body.status).not.toContain("pendingTransfer");
    // Locked requests are not failures: the count is still 5.
    expect(await failuresOf(`domain:${domain.id}`)).toMatchObject({ failures: 5 });
  });

  it("the lock doubles with each further failure (60 s, 120 s, 240 s …, at most an hour), as src/registry/auth-info.ts says", async () => {
    const bob = await customer("backoff-bob");
    const carol = await customer("backoff-carol");
    const domain = await domainOf("backoff.de");
    const key = `domain:${domain.id}`;
    const seen: number[] = [];
    for (let i = 0; i < TRANSFER_FAILURE_LIMITS.domain.free + 8; i++) {
      const before = await failuresOf(key);
      if (before && before.lockedUntil > Date.now()) await pastLock(key);
      const previous = await failuresOf(key);
      // Bob and Carol by turns: the domain's count is theirs together.
      const response = await transfer(i % 2 ? carol.auth : bob.auth, "backoff.de", `${WRONG}${i}`);
      expectProblem(response, 422, "policy_violation");
      const after = await failuresOf(key);
      const expected = afterFailure(previous, TRANSFER_FAILURE_LIMITS.domain, after!.lastFailedAt);
      expect(after).toEqual(expected);
      seen.push(after!.lockedUntil === 0 ? 0 : (after!.lockedUntil - after!.lastFailedAt) / 1000);
    }
    expect(seen).toEqual([0, 0, 0, 0, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it("requests sent at once from ten tokens are counted one by one: never more than 5 answered 422", async () => {
    const bob = await customer("burst-bob", 10);
    const domain = await domainOf("burst.de");
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => transfer(bob.auths[i % 10]!, "burst.de", `${WRONG}${i}`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 422)).toHaveLength(TRANSFER_FAILURE_LIMITS.domain.free);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - TRANSFER_FAILURE_LIMITS.domain.free);
    for (const response of responses.filter((r) => r.status === 429)) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await failuresOf(`domain:${domain.id}`)).toMatchObject({ failures: 5 });
    expectProblem(await transfer(bob.auths[3]!, "burst.de", domain.auth_info), 429, "rate_limited");
  });

  it("a new auth_info set by the sponsor ends the domain's lock: guesses at the old one say nothing of it", async () => {
    const bob = await customer("rotate-bob");
    const carol = await customer("rotate-carol");
    const domain = await domainOf("rotate-me.de");
    for (let i = 0; i < TRANSFER_FAILURE_LIMITS.domain.free; i++) await transfer(bob.auth, "rotate-me.de", `${WRONG}${i}`);
    expectProblem(await transfer(carol.auth, "rotate-me.de", domain.auth_info), 429, "rate_limited");
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: "Fresh-Secret-2026" } })).status).toBe(200);
    expect(await failuresOf(`domain:${domain.id}`)).toBeNull();
    const response = await transfer(carol.auth, "rotate-me.de", "Fresh-Secret-2026");
    expect(response.status, response.text).toBe(201);
  });
});

describe("failed transfer requests are limited per requesting account, whatever its tokens and the domains", () => {
  it("10 failures spread over 5 domains and 10 tokens lock the account: its next request, even right, is 429", async () => {
    const bob = await customer("account-limit-bob", 10);
    const names = ["spread-1.de", "spread-2.de", "spread-3.de", "spread-4.de", "spread-5.de"];
    for (const name of names) await domainOf(name);
    for (let i = 0; i < TRANSFER_FAILURE_LIMITS.account.free; i++) {
      expectProblem(await transfer(bob.auths[i]!, names[i % names.length]!, `${WRONG}${i}`), 422, "policy_violation");
    }
    const fresh = await domainOf("spread-fresh.de");
    const right = await transfer(bob.auths[0]!, "spread-fresh.de", fresh.auth_info);
    expectProblem(right, 429, "rate_limited");
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(right.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    const stored = await failuresOf(`account:${bob.id}`);
    expect(stored!.lockedUntil - stored!.lastFailedAt).toBe(60_000);
    // Each domain saw 2 failures only; another account is not locked by Bob's count.
    const carol = await customer("account-limit-carol");
    const moved = await transfer(carol.auth, "spread-fresh.de", fresh.auth_info);
    expect(moved.status, moved.text).toBe(201);
    expect(await failuresOf(`account:${bob.id}`)).toMatchObject({ failures: 10 });
  });
});

describe("each failed transfer request is shown to the sponsor as a transfer_auth_failed event on the domain", () => {
  it("with the requesting account, the domain's count and its lock; never to the requesting account; no auth_info", async () => {
    const bob = await customer("event-bob");
    const domain = await domainOf("watched.de");
    for (let i = 0; i < TRANSFER_FAILURE_LIMITS.domain.free; i++) await transfer(bob.auth, "watched.de", `${WRONG}${i}`);
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_auth_failed`);
    expect(events.status, events.text).toBe(200);
    expect(events.body.data).toHaveLength(5);
    const [first, , , , fifth] = events.body.data;
    expect(first).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      account: domain.account,
      token: expect.stringMatching(/^tok_/),
      type: "domain",
      resource: domain.id,
      operation: "transfer_auth_failed",
      before: null,
      after: { gaining_account: bob.id, failures: 1, locked_until: null },
    });
    expect(fifth.after).toEqual({ gaining_account: bob.id, failures: 5, locked_until: new Date(Date.parse(fifth.at) + 60_000).toISOString() });
    expect(JSON.stringify(events.body)).not.toContain(WRONG);
    expect(JSON.stringify(events.body)).not.toContain(domain.auth_info);
    // Bob sees none of them.
    const bobs = await api("GET", "/v1/events?operation=transfer_auth_failed", { headers: { authorization: bob.auth } });
    expect(bobs.status, bobs.text).toBe(200);
    expect(bobs.body.data).toEqual([]);
    // A locked request is not a failure: no sixth event.
    expectProblem(await transfer(bob.auth, "watched.de", WRONG), 429, "rate_limited");
    expect((await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_auth_failed`)).body.data).toHaveLength(5);
  });
});
