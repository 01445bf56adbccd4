// Tokens over the API (docs/accounts.md): minted with the secret shown once (only its SHA-256
// kept), restrictions validated and normalised, attenuation (a token mints only tokens with
// at most its own rights), narrow tokens reaching no token but themselves, lists without
// secrets, revocation of a token and every token minted from it.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { allPages, api, type ApiResponse, errorFields, expectProblem, RFC3339_MS_UTC } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";

const OPERATOR_ACCOUNT = "acc_00000000000000000000000000";
const TOKEN_ID = /^tok_[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_TOKEN = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8ZZZ";

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

let names = 0;
const freshName = () => `token-${++names}`;

/** POST /v1/tokens as `as` (default: the operator's test write token). */
function mint(fields: Record<string, unknown>, as = bearer("write"), headers: Record<string, string> = {}) {
  return api("POST", "/v1/tokens", { json: { name: freshName(), scope: "write", ...fields }, headers: { authorization: as, ...headers } });
}

/** Mints (expects 201) and returns the token with its bearer header. */
async function minted(fields: Record<string, unknown> = {}, as = bearer("write")) {
  const token = ok(await mint(fields, as), 201);
  return { ...token, bearer: `Bearer ${token.secret}` };
}

let accounts = 0;
/** A customer account and a write token of it, minted by the operator's test token. */
async function customer() {
  const account = ok(await api("POST", "/v1/accounts", { json: { name: `Token Customer ${++accounts}` } }), 201);
  const token = await minted({ account: account.id });
  return { account, token };
}

function withToken(token: { bearer: string }, headers: Record<string, string> = {}) {
  return { headers: { authorization: token.bearer, ...headers } };
}

describe("POST /v1/tokens answers 201 with the secret, shown this once", () => {
  it("the answer is the token plus `secret` (tok_<id>.<secret>); reads never show it; only its SHA-256 is stored", async () => {
    const response = await mint({ name: "ci-deploy", scope: "read" });
    const token = ok(response, 201);
    expect(token).toEqual({
      id: expect.stringMatching(TOKEN_ID),
      name: "ci-deploy",
      account: OPERATOR_ACCOUNT,
      scope: "read",
      parent: TEST_TOKENS.write.id,
      zones: null,
      domains: null,
      records: null,
      allowed_ips: null,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      secret: expect.stringMatching(/^tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]{43}$/),
    });
    expect(token.secret.startsWith(`${token.id}.`)).toBe(true);
    expect(response.headers.get("location")).toBe(`/v1/tokens/${token.id}`);

    const { secret, ...shown } = token;
    const read = await api("GET", `/v1/tokens/${token.id}`);
    expect(ok(read, 200)).toEqual(shown);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
    expect(read.text).not.toContain(secret.split(".")[1]);

    const row = await env.DB.prepare("select * from api_tokens where id = ?").bind(token.id).first<Record<string, unknown>>();
    expect(row!.secret_hash).toBe(await sha256Hex(secret.split(".")[1]));
    expect(JSON.stringify(row)).not.toContain(secret.split(".")[1]);

    // The secret is a bearer token: it authenticates as the new token.
    const me = ok(await api("GET", "/v1/me", { headers: { authorization: `Bearer ${secret}` } }), 200);
    expect(me.token).toMatchObject({ id: token.id, scope: "read", last_used_at: expect.stringMatching(RFC3339_MS_UTC) });
  });

  it("minting is an event of type token whose `after` holds no secret", async () => {
    const token = await minted();
    const events = (await allPages(`/v1/events?resource=${token.id}`)).items;
    const { secret, bearer: _bearer, ...shown } = token;
    expect(events).toMatchObject([{ type: "token", operation: "create", token: TEST_TOKENS.write.id, before: null, after: shown }]);
    expect(JSON.stringify(events)).not.toContain(secret.split(".")[1]);
  });

  it("names are unique within an account and never reused: 409 already_exists; another account may use the name", async () => {
    const first = await minted({ name: "deploy" });
    const problem = expectProblem(await mint({ name: "deploy" }), 409, "already_exists");
    expect(problem.detail).toBe(
      `The account ${OPERATOR_ACCOUNT} already has a token named "deploy" (names are never reused, even those of revoked tokens); choose another name.`,
    );
    ok(await api("DELETE", `/v1/tokens/${first.id}`), 204);
    expectProblem(await mint({ name: "deploy" }), 409, "already_exists");
    const { account } = await customer();
    expect((await minted({ name: "deploy", account: account.id })).account).toBe(account.id);
  });

  it("an Idempotency-Key replays the first answer without the secret, which is stored nowhere; another token's same key is its own request", async () => {
    const { token } = await customer();
    const other = await minted({ name: "second-of-customer" }, token.bearer);
    const key = { "idempotency-key": "mint-once" };
    const body = { name: "replayed", scope: "read" };
    const first = await api("POST", "/v1/tokens", { json: body, ...withToken(token, key) });
    const again = await api("POST", "/v1/tokens", { json: body, ...withToken(token, key) });
    const { secret, ...shown } = ok(first, 201);
    expect(ok(again, 201)).toEqual(shown);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    const stored = await env.DB.prepare("select body from idempotency_keys").all<{ body: string | null }>();
    expect(stored.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored.results)).not.toContain(secret.split(".")[1]);
    // Another token of the same account, same key and body: a request of its own (the name is taken).
    const foreign = await api("POST", "/v1/tokens", { json: body, ...withToken(other, key) });
    expect(foreign.headers.get("idempotent-replayed")).toBeNull();
    expect(expectProblem(foreign, 409, "already_exists").detail).toContain('"replayed"');
  });
});

describe("a new token belongs to the caller's account, and its parent is the calling token", () => {
  it("a customer's token mints for its own account, with itself as parent", async () => {
    const { account, token } = await customer();
    expect(token).toMatchObject({ account: account.id, parent: TEST_TOKENS.write.id });
    const child = await minted({ scope: "read" }, token.bearer);
    expect(child).toMatchObject({ account: account.id, parent: token.id, scope: "read" });
  });

  it("from a customer's token, `account` is 422 read_only_field, its own account's id too", async () => {
    const { account, token } = await customer();
    const problem = expectProblem(await mint({ account: account.id }, token.bearer), 422, "read_only_field");
    expect(problem.errors).toEqual([{ field: "account", message: "is read-only: only an operator's token names the account of a new token" }]);
  });

  it("an operator names an account that does not exist: 422 validation_failed on `account`", async () => {
    const problem = expectProblem(await mint({ account: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "account", message: 'no account has the id "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"' }]);
  });

  it("read-only fields of a token are 422 read_only_field", async () => {
    const problem = expectProblem(await mint({ id: "tok_mine", secret: "mine", parent: null }), 422, "read_only_field");
    expect(errorFields(problem)).toEqual(["id", "parent", "secret"]);
  });
});

describe("restrictions are validated and normalised like the rest of the API", () => {
  it("names become lowercase A-labels, types upper case, CIDRs canonical, expires_at UTC with milliseconds", async () => {
    const expires = new Date(Date.now() + 3_600_000);
    const offset = new Date(expires.getTime() + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    const token = await minted({
      zones: ["Example.COM.", "münchen.de"],
      domains: ["EXAMPLE.org"],
      records: [
        { name: "_acme-challenge", types: ["txt"] },
        { name: "*._DomainKey", types: ["TXT", "cname"] },
        { name: "@", types: ["A", "AAAA"] },
      ],
      allowed_ips: ["192.0.2.0/24", "2001:DB8:0::/32", "198.51.100.7"],
      expires_at: offset,
    });
    expect(token).toMatchObject({
      zones: ["example.com", "xn--mnchen-3ya.de"],
      domains: ["example.org"],
      records: [
        { name: "_acme-challenge", types: ["TXT"] },
        { name: "*._domainkey", types: ["TXT", "CNAME"] },
        { name: "@", types: ["A", "AAAA"] },
      ],
      allowed_ips: ["192.0.2.0/24", "2001:db8::/32", "198.51.100.7/32"],
      expires_at: expires.toISOString(),
    });
  });

  it("a record rule names types as records store them: TYPE1 is A, a type known only by number stays TYPEnnn (RFC 3597 §5)", async () => {
    const token = await minted({ records: [{ name: "_x", types: ["type65280", "TYPE1", "txt"] }] });
    expect(token.records).toEqual([{ name: "_x", types: ["TYPE65280", "A", "TXT"] }]);
    const problem = expectProblem(await mint({ records: [{ name: "_x", types: ["RRSIG", "SOA", "ANY", "TYPE46"] }] }), 422, "validation_failed");
    expect(problem.errors).toEqual([
      { field: "records[0].types[0]", message: '"RRSIG" is a DNSSEC signer\'s type: this service signs zones itself and keeps no RRSIG records' },
      { field: "records[0].types[1]", message: '"SOA" is the zone\'s own SOA, changed through PATCH /v1/zones/{zone}, never a record' },
      { field: "records[0].types[2]", message: '"ANY" is a meta-type (RFC 6895 §3.1), never data in a zone' },
      { field: "records[0].types[3]", message: '"TYPE46" is a DNSSEC signer\'s type: this service signs zones itself and keeps no RRSIG records' },
    ]);
  });

  it("one 422 names every bad entry", async () => {
    const problem = expectProblem(
      await mint({
        name: "bad name!",
        scope: "admin",
        zones: ["example.com", "EXAMPLE.com", "-bad-.com"],
        domains: ["com"],
        records: [
          { name: "www.example.com.", types: ["A"] },
          { name: "www", types: ["NOPE", "A", "a"] },
          { name: "x", types: [] },
        ],
        allowed_ips: ["192.0.2.1/24", "not-an-ip", "10.0.0.0/33"],
        expires_at: "tomorrow",
      }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(
      [
        "name",
        "scope",
        "records[2].types",
        "zones[1]",
        "zones[2]",
        "domains[0]",
        "records[0].name",
        "records[1].types[0]",
        "records[1].types[2]",
        "allowed_ips[0]",
        "allowed_ips[1]",
        "allowed_ips[2]",
        "expires_at",
      ].sort(),
    );
    const message = (field: string) => problem.errors.find((e: { field: string }) => e.field === field)?.message;
    expect(message("zones[1]")).toBe("repeats [0] (example.com)");
    expect(message("records[0].name")).toBe('"www.example.com." is absolute; write it relative to the zone (`www`, `_acme-challenge`, `@` for the apex)');
    expect(message("records[1].types[2]")).toBe("repeats [1] (A)");
    expect(message("allowed_ips[0]")).toBe('"192.0.2.1/24" is not a CIDR (`192.0.2.0/24`, `2001:db8::/32`, or one address) with its host bits zero');
  });

  it("an expires_at in the past, or not RFC 3339, is refused", async () => {
    const problem = expectProblem(await mint({ expires_at: "2020-01-01T00:00:00Z" }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "expires_at", message: "must be in the future" }]);
    const malformed = expectProblem(await mint({ expires_at: "2030-01-01 00:00" }), 422, "validation_failed");
    expect(malformed.errors).toEqual([{ field: "expires_at", message: "must be an RFC 3339 date-time such as 2026-11-22T09:30:00Z" }]);
  });

  it("the records rule names one owner pattern once", async () => {
    const problem = expectProblem(
      await mint({
        records: [
          { name: "www", types: ["A"] },
          { name: "WWW", types: ["AAAA"] },
        ],
      }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "records[1].name", message: "repeats records[0].name (www); list its types in one rule" }]);
  });
});

describe("attenuation: a token mints only tokens with at most its own rights (403 naming the widening)", () => {
  async function restricted(fields: Record<string, unknown>) {
    const { token } = await customer();
    return minted(fields, token.bearer);
  }

  it("a write token mints a read token; a token with an expiry cannot mint one that never expires or expires later", async () => {
    const { token } = await customer();
    expect((await minted({ scope: "read" }, token.bearer)).scope).toBe("read");
    const expiring = await minted({ expires_at: new Date(Date.now() + 3_600_000).toISOString() }, token.bearer);
    const never = expectProblem(await mint({}, expiring.bearer), 403, "forbidden");
    expect(never.detail).toBe(
      `This token cannot mint that token: the token would never expire, and this one expires at ${expiring.expires_at}. A token mints only tokens with at most its own rights.`,
    );
    const later = expectProblem(await mint({ expires_at: new Date(Date.now() + 7_200_000).toISOString() }, expiring.bearer), 403, "forbidden");
    expect(later.detail).toContain("is later than this token's");
    expect((await minted({ expires_at: new Date(Date.now() + 60_000).toISOString() }, expiring.bearer)).parent).toBe(expiring.id);
  });

  it("a token with records rules mints nothing (it writes records only); allowed_ips must lie inside the minter's", async () => {
    const dkim = await restricted({ records: [{ name: "*._domainkey", types: ["TXT"] }] });
    expect(expectProblem(await mint({ records: [{ name: "s1._domainkey", types: ["TXT"] }] }, dkim.bearer), 403, "forbidden").detail).toBe(
      "This token may write only records (*._domainkey TXT); POST /v1/tokens is not open to it.",
    );

    const office = await restricted({ allowed_ips: ["192.0.2.0/24"] });
    const from = { "cf-connecting-ip": "192.0.2.10" };
    const outside = await api("POST", "/v1/tokens", {
      json: { name: freshName(), scope: "write", allowed_ips: ["198.51.100.0/24"] },
      ...withToken(office, from),
    });
    expect(expectProblem(outside, 403, "forbidden").detail).toContain("allowed_ips 198.51.100.0/24 is not inside this token's 192.0.2.0/24");
    const inside = await api("POST", "/v1/tokens", {
      json: { name: freshName(), scope: "write", allowed_ips: ["192.0.2.128/25"] },
      ...withToken(office, from),
    });
    expect(ok(inside, 201).allowed_ips).toEqual(["192.0.2.128/25"]);
  });

  it("a customer's token cannot mint a dns token (it serves every account's zones)", async () => {
    const { token } = await customer();
    expect(expectProblem(await mint({ scope: "dns" }, token.bearer), 403, "forbidden").detail).toContain("scope dns");
    expect((await minted({ scope: "dns" })).scope).toBe("dns");
  });

  it("an operator's token mints for a customer account; the customer's token then mints within it", async () => {
    const { account, token } = await customer();
    const acme = await minted(
      { zones: ["example.com"], records: [{ name: "_acme-challenge", types: ["TXT"] }], expires_at: new Date(Date.now() + 3_600_000).toISOString() },
      token.bearer,
    );
    expect(acme).toMatchObject({ account: account.id, parent: token.id, zones: ["example.com"], domains: null });
  });
});

describe("a token restricted to zones or domains reaches no token but itself", () => {
  it("it cannot mint or list tokens, nor read or revoke another; it reads and revokes itself", async () => {
    const { token } = await customer();
    const acme = await minted({ zones: ["example.com"] }, token.bearer);
    const as = withToken(acme);
    const closed = (route: string) => `This token is restricted to named zones; ${route} is not open to such tokens.`;
    const onlySelf = (route: string) => `This token is restricted to named zones; it may use ${route} only on itself.`;
    expect(expectProblem(await mint({ zones: ["example.com"] }, acme.bearer), 403, "forbidden").detail).toBe(closed("POST /v1/tokens"));
    expect(expectProblem(await api("GET", "/v1/tokens", as), 403, "forbidden").detail).toBe(closed("GET /v1/tokens"));
    expect(expectProblem(await api("GET", `/v1/tokens/${token.id}`, as), 403, "forbidden").detail).toBe(onlySelf("GET /v1/tokens/{token}"));
    expect(expectProblem(await api("DELETE", `/v1/tokens/${token.id}`, as), 403, "forbidden").detail).toBe(onlySelf("DELETE /v1/tokens/{token}"));
    // The same answer whether the other token exists or not.
    expect(expectProblem(await api("GET", `/v1/tokens/${UNKNOWN_TOKEN}`, as), 403, "forbidden").detail).toBe(onlySelf("GET /v1/tokens/{token}"));
    const { secret: _secret, bearer: _bearer, ...shown } = acme;
    expect(ok(await api("GET", `/v1/tokens/${acme.id}`, as), 200)).toMatchObject({ ...shown, last_used_at: expect.any(String) });
    ok(await api("DELETE", `/v1/tokens/${acme.id}`, as), 204);
    expect(ok(await api("GET", `/v1/tokens/${token.id}`, withToken(token)), 200).revoked_at).toBeNull();
  });
});

describe("GET /v1/tokens lists tokens, never a secret", () => {
  it("a customer's token lists its own account's tokens only; another account's token is 404 to it", async () => {
    const { account, token } = await customer();
    const child = await minted({ scope: "read" }, token.bearer);
    const list = ok(await api("GET", "/v1/tokens", withToken(token)), 200);
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([token.id, child.id]);
    expect(JSON.stringify(list)).not.toMatch(/secret/);
    expect(ok(await api("GET", `/v1/tokens?account=${OPERATOR_ACCOUNT}`, withToken(token)), 200).data).toEqual([]);
    const problem = expectProblem(await api("GET", `/v1/tokens/${TEST_TOKENS.write.id}`, withToken(token)), 404, "not_found");
    expect(problem.detail).toBe(`No token has the id "${TEST_TOKENS.write.id}".`);
    expectProblem(await api("DELETE", `/v1/tokens/${TEST_TOKENS.read.id}`, withToken(token)), 404, "not_found");
    expect(ok(await api("GET", `/v1/tokens?account=${account.id}`), 200).data).toHaveLength(2);
  });

  it("an operator lists every account's tokens, filtered by account, scope and revoked, keyset-paginated", async () => {
    const { account, token } = await customer();
    const { items, pages } = await allPages("/v1/tokens?limit=2");
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.every((page) => page.data.length <= 2)).toBe(true);
    const ids = items.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([TEST_TOKENS.write.id, TEST_TOKENS.read.id, TEST_TOKENS.revoked.id, token.id]));
    expect(ids).toEqual([...ids].sort());
    expect(JSON.stringify(items)).not.toMatch(/secret|hash/);
    expect((await allPages(`/v1/tokens?account=${account.id}`)).items.map((t) => t.id)).toEqual([token.id]);
    const revoked = (await allPages("/v1/tokens?revoked=true")).items.map((t) => t.id);
    expect(revoked).toContain(TEST_TOKENS.revoked.id);
    expect(revoked).not.toContain(TEST_TOKENS.write.id);
    const active = (await allPages("/v1/tokens?revoked=false&scope=read")).items;
    expect(active.every((t) => t.revoked_at === null && t.scope === "read")).toBe(true);
    expect(active.map((t) => t.id)).toContain(TEST_TOKENS.read.id);
    expect(errorFields(expectProblem(await api("GET", "/v1/tokens?revoked=maybe&scope=root"), 400, "invalid_query"))).toEqual(["revoked", "scope"]);
  });
});

describe("DELETE /v1/tokens/{token} revokes the token and every token minted from it", () => {
  it("descendants, transitively, stop working (a token no isolate has checked yet: at once) and read as revoked; events record each", async () => {
    const { token: root } = await customer();
    const middle = await minted({}, root.bearer);
    const leaf = await minted({ scope: "read" }, middle.bearer);
    const sibling = await minted({ scope: "read" }, root.bearer);

    ok(await api("DELETE", `/v1/tokens/${middle.id}`, withToken(root)), 204);
    // `leaf` was never presented: no isolate trusts it from memory.
    const problem = expectProblem(await api("GET", "/v1/me", withToken(leaf)), 401, "unauthorized");
    expect(problem.detail).toBe("The bearer token has been revoked.");
    for (const id of [middle.id, leaf.id]) {
      expect(ok(await api("GET", `/v1/tokens/${id}`, withToken(root)), 200).revoked_at).toMatch(RFC3339_MS_UTC);
    }
    expect(ok(await api("GET", `/v1/tokens/${sibling.id}`, withToken(root)), 200).revoked_at).toBeNull();
    expect(ok(await api("GET", "/v1/me", withToken(sibling)), 200).token.id).toBe(sibling.id);

    const events = (await allPages(`/v1/events?type=token&operation=delete&token=${root.id}`)).items;
    expect(events.map((e) => e.resource)).toEqual([middle.id, leaf.id]);
    expect(events.every((e) => e.after === null && e.before.revoked_at === null)).toBe(true);

    // Again: nothing more to revoke, 204, no new event.
    ok(await api("DELETE", `/v1/tokens/${middle.id}`, withToken(root)), 204);
    expect((await allPages(`/v1/events?type=token&operation=delete&token=${root.id}`)).items).toHaveLength(2);
  });

  it("revoking a token revokes those it minted for other accounts too", async () => {
    const operatorChild = await minted({ name: freshName() });
    const { account } = await customer();
    const forCustomer = await minted({ account: account.id }, operatorChild.bearer);
    ok(await api("DELETE", `/v1/tokens/${operatorChild.id}`), 204);
    expect(ok(await api("GET", `/v1/tokens/${forCustomer.id}`), 200).revoked_at).toMatch(RFC3339_MS_UTC);
    expectProblem(await api("GET", "/v1/me", withToken(forCustomer)), 401, "unauthorized");
  });

  it("besides itself, a token revokes only tokens within its own rights (403)", async () => {
    const { token: root } = await customer();
    const expiring = await minted({ expires_at: new Date(Date.now() + 3_600_000).toISOString() }, root.bearer);
    const problem = expectProblem(await api("DELETE", `/v1/tokens/${root.id}`, withToken(expiring)), 403, "forbidden");
    expect(problem.detail).toBe(
      `This token cannot revoke ${root.id}: the token would never expire, and this one expires at ${expiring.expires_at}. Besides itself, a token revokes only tokens within its own rights.`,
    );
    expect(ok(await api("GET", `/v1/tokens/${root.id}`, withToken(root)), 200).revoked_at).toBeNull();
    ok(await api("DELETE", `/v1/tokens/${expiring.id}`, withToken(expiring)), 204);
  });

  it("If-Match: a stale ETag answers 412; the current one revokes", async () => {
    const token = await minted();
    expectProblem(await api("DELETE", `/v1/tokens/${token.id}`, { headers: { "if-match": '"1-stale"' } }), 412, "precondition_failed");
    const etag = (await api("GET", `/v1/tokens/${token.id}`)).headers.get("etag")!;
    ok(await api("DELETE", `/v1/tokens/${token.id}`, { headers: { "if-match": etag } }), 204);
    const revoked = await api("GET", `/v1/tokens/${token.id}`);
    expect(revoked.headers.get("etag")).not.toBe(etag);
  });

  it("an unknown token is 404", async () => {
    expectProblem(await api("GET", `/v1/tokens/${UNKNOWN_TOKEN}`), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/tokens/${UNKNOWN_TOKEN}`), 404, "not_found");
  });
});

describe("expires_at: afterwards the token is unknown (401)", () => {
  it("a token whose time has passed is refused", async () => {
    const token = await minted({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    // The clock cannot be moved inside the Worker: move the expiry instead (before any use).
    await env.DB.prepare("update api_tokens set expires_at = '2020-01-01T00:00:00.000Z' where id = ?").bind(token.id).run();
    expect(expectProblem(await api("GET", "/v1/me", withToken(token)), 401, "unauthorized").detail).toBe("The bearer token is unknown.");
  });
});
