// Accounts (docs/accounts.md): only operators' tokens list, create, change and delete them; a
// customer's token reads its own account and nothing else; suspension refuses every token
// of the account; an account that holds anything stays; GET /v1/me says who the caller is.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { allPages, api, type ApiResponse, createContact, createDomain, errorFields, expectProblem, RFC3339_MS_UTC } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";

const OPERATOR_ACCOUNT = "acc_00000000000000000000000000";
const ACCOUNT_ID = /^acc_[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_ACCOUNT = "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

let accounts = 0;
/** A new customer account, made by the operator's test token. */
async function createAccount(fields: Record<string, unknown> = {}) {
  return ok(await api("POST", "/v1/accounts", { json: { name: `Customer ${++accounts}`, ...fields } }), 201);
}

/** Mints a token (by default for `account`, with the operator's test token) and returns its bearer header and body. */
async function mintToken(fields: Record<string, unknown>, as = bearer("write")) {
  const token = ok(
    await api("POST", "/v1/tokens", { json: { scope: "write", name: `token-${crypto.randomUUID()}`, ...fields }, headers: { authorization: as } }),
    201,
  );
  return { ...token, bearer: `Bearer ${token.secret}` };
}

/** A customer account and a write token of it. */
async function customer() {
  const account = await createAccount();
  const token = await mintToken({ account: account.id });
  return { account, token, as: { authorization: token.bearer } };
}

async function eventsOf(resource: string) {
  return (await allPages(`/v1/events?resource=${resource}`)).items;
}

describe("only operators' tokens list, create, change and delete accounts", () => {
  it("an operator creates an account: 201 with Location, ETag, role customer and status active by default", async () => {
    const response = await api("POST", "/v1/accounts", { json: { name: "Example Reseller" } });
    const account = ok(response, 201);
    expect(account).toEqual({
      id: expect.stringMatching(ACCOUNT_ID),
      name: "Example Reseller",
      role: "customer",
      status: "active",
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: account.created_at,
    });
    expect(response.headers.get("location")).toBe(`/v1/accounts/${account.id}`);
    const read = await api("GET", `/v1/accounts/${account.id}`);
    expect(ok(read, 200)).toMatchObject(account);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
  });

  it("an operator lists every account, filtered by role and status, keyset-paginated", async () => {
    const suspended = await createAccount({ status: "suspended" });
    const operator = await createAccount({ role: "operator" });
    const { items, pages } = await allPages("/v1/accounts?limit=1");
    expect(pages.length).toBe(items.length);
    const ids = items.map((a) => a.id);
    expect(ids[0]).toBe(OPERATOR_ACCOUNT);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining([suspended.id, operator.id]));
    const operators = (await allPages("/v1/accounts?role=operator")).items;
    expect(operators.map((a) => a.id)).toEqual([OPERATOR_ACCOUNT, operator.id]);
    const suspendedOnes = (await allPages("/v1/accounts?status=suspended")).items;
    expect(suspendedOnes.map((a) => a.id)).toEqual([suspended.id]);
    const bad = expectProblem(await api("GET", "/v1/accounts?role=boss"), 400, "invalid_query");
    expect(errorFields(bad)).toEqual(["role"]);
  });

  it("an operator's read token lists and reads accounts, and cannot write them", async () => {
    expect(ok(await api("GET", "/v1/accounts", { headers: { authorization: bearer("read") } }), 200).data.length).toBeGreaterThan(0);
    const problem = expectProblem(await api("POST", "/v1/accounts", { json: { name: "Nope" }, headers: { authorization: bearer("read") } }), 403, "forbidden");
    expect(problem.detail).toContain("read scope");
  });

  it("a customer's token answers 403 forbidden to listing, creating, changing and deleting accounts", async () => {
    const { account, as } = await customer();
    for (const response of [
      await api("GET", "/v1/accounts", { headers: as }),
      await api("POST", "/v1/accounts", { json: { name: "Self Made" }, headers: as }),
      await api("PATCH", `/v1/accounts/${account.id}`, { json: { name: "Renamed" }, headers: as }),
      await api("DELETE", `/v1/accounts/${account.id}`, { headers: as }),
    ]) {
      const problem = expectProblem(response, 403, "forbidden");
      expect(problem.detail).toMatch(
        /^(GET|POST|PATCH|DELETE) \/v1\/accounts(\/\{account\})? is for the operator's tokens only; this token belongs to a customer account\.$/,
      );
    }
    expect(ok(await api("GET", `/v1/accounts/${account.id}`), 200)).toMatchObject({ name: account.name, status: "active" });
    expect((await allPages("/v1/accounts")).items.map((a) => a.name)).not.toContain("Self Made");
  });

  it("a customer's token reads its own account (200) and no other: another account is 404, as an unknown id is; changing any is 403 alike", async () => {
    const { account, as } = await customer();
    const other = await createAccount();
    expect(ok(await api("GET", `/v1/accounts/${account.id}`, { headers: as }), 200)).toMatchObject(account);
    for (const id of [other.id, OPERATOR_ACCOUNT, UNKNOWN_ACCOUNT]) {
      const problem = expectProblem(await api("GET", `/v1/accounts/${id}`, { headers: as }), 404, "not_found");
      expect(problem.detail).toBe(`No account has the id "${id}".`);
    }
    // The route is the operator's: the answer is the same whatever the id, so it tells nothing of other accounts.
    for (const id of [account.id, other.id, OPERATOR_ACCOUNT, UNKNOWN_ACCOUNT]) {
      for (const [method, json] of [
        ["PATCH", { name: "Taken Over" }],
        ["DELETE", undefined],
      ] as const) {
        const problem = expectProblem(await api(method, `/v1/accounts/${id}`, { json, headers: as }), 403, "forbidden");
        expect(problem.detail).toBe(`${method} /v1/accounts/{account} is for the operator's tokens only; this token belongs to a customer account.`);
      }
    }
    expect(ok(await api("GET", `/v1/accounts/${other.id}`), 200)).toMatchObject(other);
  });

  it("a token restricted to zones or domains has no access to accounts, its own included (403)", async () => {
    const { account, token } = await customer();
    const narrow = await mintToken({ zones: ["example.com"] }, token.bearer);
    const problem = expectProblem(await api("GET", `/v1/accounts/${account.id}`, { headers: { authorization: narrow.bearer } }), 403, "forbidden");
    expect(problem.detail).toBe("This token is restricted to named zones; GET /v1/accounts/{account} is not open to such tokens.");
    expectProblem(await api("GET", "/v1/accounts", { headers: { authorization: narrow.bearer } }), 403, "forbidden");
  });
});

describe("an account's fields", () => {
  it("role is set at creation and read-only afterwards (422 read_only_field)", async () => {
    const operator = await createAccount({ role: "operator" });
    expect(operator.role).toBe("operator");
    const problem = expectProblem(await api("PATCH", `/v1/accounts/${operator.id}`, { json: { role: "customer" } }), 422, "read_only_field");
    expect(problem.errors).toEqual([{ field: "role", message: "is read-only: the server sets it" }]);
    expect(ok(await api("GET", `/v1/accounts/${operator.id}`), 200).role).toBe("operator");
  });

  it("names are unique among accounts: creating or renaming to a taken name answers 409 already_exists", async () => {
    const first = await createAccount({ name: "Unique Name Ltd" });
    const problem = expectProblem(await api("POST", "/v1/accounts", { json: { name: "Unique Name Ltd" } }), 409, "already_exists");
    expect(problem.detail).toBe('An account named "Unique Name Ltd" already exists; account names are unique.');
    const second = await createAccount();
    expectProblem(await api("PATCH", `/v1/accounts/${second.id}`, { json: { name: first.name } }), 409, "already_exists");
  });

  it("refuses bad names, roles and statuses with one 422 naming each", async () => {
    const problem = expectProblem(await api("POST", "/v1/accounts", { json: { name: " ", role: "boss", status: "gone" } }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["name", "role", "status"]);
    const missing = expectProblem(await api("POST", "/v1/accounts", { json: {} }), 422, "validation_failed");
    expect(missing.errors).toEqual([{ field: "name", message: "is required" }]);
    const readOnly = expectProblem(await api("POST", "/v1/accounts", { json: { name: "With Id", id: "acc_mine" } }), 422, "read_only_field");
    expect(errorFields(readOnly)).toEqual(["id"]);
  });

  it("PATCH renames and changes status; an empty patch changes nothing; a stale If-Match answers 412", async () => {
    const account = await createAccount();
    const renamed = ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: { name: "Renamed Reseller" } }), 200);
    expect(renamed).toMatchObject({ id: account.id, name: "Renamed Reseller", status: "active" });
    expect(renamed.created_at).toBe(account.created_at);
    expect(renamed.updated_at >= account.updated_at).toBe(true);
    expect(ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: {} }), 200)).toEqual(renamed);
    expectProblem(
      await api("PATCH", `/v1/accounts/${account.id}`, { json: { status: "suspended" }, headers: { "if-match": '"1-stale"' } }),
      412,
      "precondition_failed",
    );
    expect(ok(await api("GET", `/v1/accounts/${account.id}`), 200)).toMatchObject(renamed);
  });

  it("every write of an account is an event of type account", async () => {
    const account = await createAccount();
    const renamed = ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: { name: `${account.name} renamed` } }), 200);
    ok(await api("DELETE", `/v1/accounts/${account.id}`), 204);
    const events = await eventsOf(account.id);
    expect(events).toMatchObject([
      { type: "account", operation: "create", token: TEST_TOKENS.write.id, before: null, after: account },
      { type: "account", operation: "update", before: account, after: renamed },
      { type: "account", operation: "delete", before: renamed, after: null },
    ]);
    expect(ok(await api("GET", "/v1/events?type=account&limit=1"), 200).data[0].type).toBe("account");
  });
});

describe("an account that holds objects or tokens stays", () => {
  it("deleting an account with active tokens answers 409 object_linked counting them; once revoked, it goes (204)", async () => {
    const { account, token } = await customer();
    const second = await mintToken({ account: account.id });
    const problem = expectProblem(await api("DELETE", `/v1/accounts/${account.id}`), 409, "object_linked");
    expect(problem.detail).toBe(
      `The account ${account.id} ("${account.name}") still holds 2 active tokens; delete those objects and revoke those tokens first.`,
    );
    ok(await api("DELETE", `/v1/tokens/${token.id}`), 204);
    expect(expectProblem(await api("DELETE", `/v1/accounts/${account.id}`), 409, "object_linked").detail).toContain("still holds 1 active token;");
    ok(await api("DELETE", `/v1/tokens/${second.id}`), 204);
    ok(await api("DELETE", `/v1/accounts/${account.id}`), 204);
    expectProblem(await api("GET", `/v1/accounts/${account.id}`), 404, "not_found");
    // Its revoked tokens stay, as history.
    expect(ok(await api("GET", `/v1/tokens/${token.id}`), 200)).toMatchObject({ account: account.id, revoked_at: expect.stringMatching(RFC3339_MS_UTC) });
  });

  it("deleting an account that holds contacts, domains, hosts or zones answers 409 object_linked naming them", async () => {
    const { account, as } = await customer();
    ok(await api("POST", "/v1/contacts", { json: { name: "Owned Contact", email: "owned@example.org" }, headers: as }), 201);
    ok(await api("POST", "/v1/zones", { json: { name: "owned-by-customer.test" }, headers: as }), 201);
    const problem = expectProblem(await api("DELETE", `/v1/accounts/${account.id}`), 409, "object_linked");
    expect(problem.detail).toBe(
      `The account ${account.id} ("${account.name}") still holds 1 contact, 1 zone and 1 active token; delete those objects and revoke those tokens first.`,
    );
  });

  it("the built-in operator account cannot be suspended or deleted (422 policy_violation)", async () => {
    const suspend = expectProblem(await api("PATCH", `/v1/accounts/${OPERATOR_ACCOUNT}`, { json: { status: "suspended" } }), 422, "policy_violation");
    expect(suspend.errors).toEqual([{ field: "status", message: "cannot be suspended: this is the built-in operator account" }]);
    const remove = expectProblem(await api("DELETE", `/v1/accounts/${OPERATOR_ACCOUNT}`), 422, "policy_violation");
    expect(remove.detail).toContain("cannot be deleted");
    expect(ok(await api("GET", `/v1/accounts/${OPERATOR_ACCOUNT}`), 200)).toMatchObject({ role: "operator", status: "active" });
    // It can be renamed.
    expect(ok(await api("PATCH", `/v1/accounts/${OPERATOR_ACCOUNT}`, { json: { name: "The Registrar" } }), 200).name).toBe("The Registrar");
  });

  it("an unknown account is 404 to PATCH and DELETE", async () => {
    expectProblem(await api("PATCH", `/v1/accounts/${UNKNOWN_ACCOUNT}`, { json: { name: "Nobody" } }), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/accounts/${UNKNOWN_ACCOUNT}`), 404, "not_found");
  });
});

describe("every token of a suspended account gets 403 forbidden", () => {
  it("suspending refuses the account's tokens (one this isolate has not seen yet: at once) and keeps its data; reactivating admits them again", async () => {
    const { account, token } = await customer();
    const later = await mintToken({ account: account.id });
    const again = await mintToken({ account: account.id });
    expect(ok(await api("GET", "/v1/me", { headers: { authorization: token.bearer } }), 200).account.id).toBe(account.id);

    const suspended = ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: { status: "suspended" } }), 200);
    expect(suspended.status).toBe("suspended");
    // `later` was never presented, so no isolate holds it: its first check reads the suspension.
    const problem = expectProblem(await api("GET", "/v1/me", { headers: { authorization: later.bearer } }), 403, "forbidden");
    expect(problem.detail).toBe("The token's account is suspended; its data is kept, but no token of it may be used.");
    expectProblem(
      await api("POST", "/v1/tokens", { json: { name: "while-suspended", scope: "read" }, headers: { authorization: later.bearer } }),
      403,
      "forbidden",
    );
    // Its data is kept.
    expect(ok(await api("GET", `/v1/tokens?account=${account.id}`), 200).data).toHaveLength(3);

    ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: { status: "active" } }), 200);
    expect(ok(await api("GET", "/v1/me", { headers: { authorization: again.bearer } }), 200).account).toMatchObject({ id: account.id, status: "active" });
  });
});

describe("GET /v1/me says who the caller is", () => {
  it("the operator's test token: the operator account and the token, without secret or hash", async () => {
    const me = ok(await api("GET", "/v1/me"), 200);
    expect(me.account).toMatchObject({ id: OPERATOR_ACCOUNT, role: "operator", status: "active" });
    expect(me.token).toEqual({
      id: TEST_TOKENS.write.id,
      name: TEST_TOKENS.write.name,
      account: OPERATOR_ACCOUNT,
      scope: "write",
      parent: null,
      zones: null,
      domains: null,
      records: null,
      allowed_ips: null,
      expires_at: null,
      last_used_at: expect.stringMatching(RFC3339_MS_UTC),
      revoked_at: null,
      created_at: "2026-01-01T00:00:00.000Z",
    });
    expect(JSON.stringify(me)).not.toContain(TEST_TOKENS.write.secret);
    expect(JSON.stringify(me)).not.toContain(TEST_TOKENS.write.secretHash);
  });

  it("a customer's token, and one restricted to a zone: their own account and token", async () => {
    const { account, token } = await customer();
    const me = ok(await api("GET", "/v1/me", { headers: { authorization: token.bearer } }), 200);
    expect(me.account).toMatchObject(account);
    expect(me.token).toMatchObject({ id: token.id, account: account.id, parent: TEST_TOKENS.write.id });
    expect(me.token).not.toHaveProperty("secret");
    const narrow = await mintToken({ zones: ["example.com"], scope: "read" }, token.bearer);
    const narrowMe = ok(await api("GET", "/v1/me", { headers: { authorization: narrow.bearer } }), 200);
    expect(narrowMe).toMatchObject({ account: { id: account.id }, token: { id: narrow.id, zones: ["example.com"], scope: "read", parent: token.id } });
  });

  it("without a token: 401", async () => {
    expectProblem(await api("GET", "/v1/me", { auth: false }), 401, "unauthorized");
  });

  it("the stored row has the account the token acts for", async () => {
    const { account, token } = await customer();
    const row = await env.DB.prepare("select account_id, parent_id from api_tokens where id = ?").bind(token.id).first();
    expect(row).toEqual({ account_id: account.id, parent_id: TEST_TOKENS.write.id });
  });
});

describe("an account that took part in a transfer is kept: DELETE answers 409 object_linked, not a conflict to retry", () => {
  it("a gaining account whose transfer was cancelled, holding nothing else, is refused with the transfer named; suspending it works", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "transferred-once" } });
    expect(account.status, account.text).toBe(201);
    const token = await api("POST", "/v1/tokens", { json: { name: "transferred-once-token", scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    const auth = { authorization: `Bearer ${token.body.secret}` };
    const contact = await createContact();
    const domain = await createDomain("kept-history.de", {
      registrant: contact.id,
      contacts: { admin: contact.id, tech: contact.id },
      nameservers: ["ns1.example.net", "ns2.example.net"],
    });
    const asked = await api("POST", "/v1/domains/kept-history.de/transfer", { headers: auth, json: { auth_info: domain.auth_info } });
    expect(asked.status, asked.text).toBe(201);
    expect((await api("POST", "/v1/domains/kept-history.de/transfer/cancel", { headers: auth })).status).toBe(200);
    expect((await api("DELETE", `/v1/tokens/${token.body.id}`)).status).toBe(204);

    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = expectProblem(await api("DELETE", `/v1/accounts/${account.body.id}`), 409, "object_linked");
      expect(refused.detail).toBe(
        `The account ${account.body.id} ("transferred-once") took part in 1 domain transfer, which the domains' history keeps (the other account's too), so it cannot be deleted; suspend it instead (PATCH /v1/accounts/${account.body.id} {"status": "suspended"}).`,
      );
    }
    expect((await api("PATCH", `/v1/accounts/${account.body.id}`, { json: { status: "suspended" } })).status).toBe(200);
    expect((await api("GET", "/v1/domains/kept-history.de/transfer")).body.gaining_account).toBe(account.body.id);
  });
});
