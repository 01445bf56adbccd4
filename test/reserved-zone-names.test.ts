// Names no customer may hold (docs/accounts.md, src/registry/reserved-zone-names.ts): a
// customer's zone is at no public suffix (the Public Suffix List, both sections), under
// `arpa` only where an operator delegated it, and at or under no special-use name
// (`localhost`, `invalid`, `local`, `onion`, `home.arpa`; `test` only on a deployment made
// for tests): 422 policy_violation naming the reason. Operators may create them, for their
// own account or a customer's: an operator's zone in a customer's account is the
// delegation, which the customer then manages, sub-zones included.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { api, type ApiResponse, expectProblem } from "./helpers";

function created(response: ApiResponse) {
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A customer account with a write token. */
let customers = 0;
async function customer() {
  const account = created(await api("POST", "/v1/accounts", { json: { name: `Reserved names customer ${++customers}` } }));
  const token = created(await api("POST", "/v1/tokens", { json: { name: "w", scope: "write", account: account.id } }));
  const authorization = `Bearer ${token.secret}`;
  return {
    id: account.id as string,
    authorization,
    call: (method: string, path: string, json?: unknown) => api(method, path, { json, headers: { authorization } }),
    zone: (name: string) => api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"] }, headers: { authorization } }),
    import: (name: string) =>
      api("POST", "/v1/zones", { body: `$ORIGIN ${name}.\n$TTL 300\n@ NS ns1.example.net.\n`, headers: { authorization, "content-type": "text/dns" } }),
  };
}

const operatorZone = (name: string, account?: string) => api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"], account } });

/** The 422 for a reserved name, with the reason as the one error on `name`. */
function expectRefused(response: ApiResponse, reason: string) {
  const problem = expectProblem(response, 422, "policy_violation");
  expect(problem.detail).toBe(`name: ${reason}.`);
  expect(problem.errors).toEqual([{ field: "name", message: reason }]);
}

const suffixReason = (name: string, section: string, rule = name) =>
  `${name} is a public suffix (the Public Suffix List's ${section} section, rule ${rule}): a zone there would take the names its registry hands out to others; an operator may create it for the account that runs it`;
const arpaReason = (name: string) =>
  `${name} lies under arpa, the Internet's infrastructure domain (RFC 3172): a reverse zone is delegated with the addresses it maps, so an operator creates it for the account that holds them`;

describe("a customer's zone at a public suffix answers 422 policy_violation", () => {
  it.each([
    ["ac.uk", "ICANN", "ac.uk"],
    ["gov.uk", "ICANN", "gov.uk"],
    ["anything.ck", "ICANN", "*.ck"],
    ["github.io", "PRIVATE", "github.io"],
    ["uk.com", "PRIVATE", "uk.com"],
  ])("%s (%s section), by JSON and by master file", async (name, section, rule) => {
    const squatter = await customer();
    for (const response of [await squatter.zone(name), await squatter.import(name)]) expectRefused(response, suffixReason(name, section, rule));
    expect((await api("GET", `/v1/zones/${name}`)).status).toBe(404);
  });

  it("so nobody squats the names under it: another account's cam.ac.uk and alice.github.io are made", async () => {
    const squatter = await customer();
    const alice = await customer();
    expectRefused(await squatter.zone("ac.uk"), suffixReason("ac.uk", "ICANN"));
    expect(created(await alice.zone("cam.ac.uk")).account).toBe(alice.id);
    expect(created(await alice.zone("alice.github.io")).account).toBe(alice.id);
  });

  it("an operator may create a public suffix's zone, for the account that runs it; the names under it are then that account's", async () => {
    const registry = await customer();
    const other = await customer();
    expect(created(await operatorZone("ltd.uk", registry.id)).account).toBe(registry.id);
    expect(created(await registry.zone("acme.ltd.uk")).account).toBe(registry.id);
    const held = expectProblem(await other.zone("other.ltd.uk"), 409, "already_exists");
    expect(held.errors).toEqual([{ field: "name", message: "is held by another account" }]);
    expect(created(await operatorZone("blogspot.com")).account).toBe("acc_00000000000000000000000000");
  });
});

describe("a customer's zone under arpa answers 422 policy_violation unless an operator delegated it", () => {
  it.each(["in-addr.arpa", "ip6.arpa", "2.0.192.in-addr.arpa", "8.b.d.0.1.0.0.2.ip6.arpa", "4.4.e164.arpa"])("%s", async (name) => {
    const squatter = await customer();
    for (const response of [await squatter.zone(name), await squatter.import(name)]) expectRefused(response, arpaReason(name));
  });

  it("an operator may create in-addr.arpa for an account, and the customer then manages it: records, settings, zones inside it", async () => {
    const rir = await customer();
    const zone = created(await operatorZone("in-addr.arpa", rir.id));
    expect(zone.account).toBe(rir.id);
    const record = await rir.call("POST", "/v1/records", { zone: "in-addr.arpa", name: "1.2.0.192", type: "PTR", content: "host.example.net." });
    expect(record.status, record.text).toBe(201);
    expect(record.body).toMatchObject({ zone: zone.id, name: "1.2.0.192", type: "PTR", content: "host.example.net." });
    const patched = await rir.call("PATCH", "/v1/zones/in-addr.arpa", { default_ttl: 7200 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.default_ttl).toBe(7200);
    // Inside its own delegated zone the names are the account's: a reverse zone of a /24.
    expect(created(await rir.zone("2.0.192.in-addr.arpa")).account).toBe(rir.id);
    expect(created(await rir.import("3.0.192.in-addr.arpa")).account).toBe(rir.id);
    // Nobody else's, as under any zone of another account.
    const other = await customer();
    expectRefused(await other.zone("4.0.192.in-addr.arpa"), arpaReason("4.0.192.in-addr.arpa"));
    expect((await rir.call("DELETE", "/v1/zones/2.0.192.in-addr.arpa")).status).toBe(204);
  });

  it("an operator's reverse zone in its own account: the customers' names under it stay refused", async () => {
    expect(created(await operatorZone("8.b.d.0.1.0.0.2.ip6.arpa")).account).toBe("acc_00000000000000000000000000");
    const customerOne = await customer();
    expectRefused(await customerOne.zone("1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"), arpaReason("1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"));
  });
});

describe("a customer's zone at or under a special-use name answers 422 policy_violation", () => {
  it.each([
    ["localhost", "localhost", "RFC 6761 §6.3: localhost names are the loopback address, never delegated"],
    ["x.localhost", "localhost", "RFC 6761 §6.3: localhost names are the loopback address, never delegated"],
    ["anything.invalid", "invalid", "RFC 6761 §6.4: invalid names must not resolve"],
    ["printer.local", "local", "RFC 6762 §3: .local names are resolved by Multicast DNS on the local link"],
    ["hidden.onion", "onion", "RFC 7686 §2: .onion names are Tor's, and the DNS answers them NXDOMAIN"],
    ["router.home.arpa", "home.arpa", "RFC 8375: home.arpa names are a home network's own, meaningful only inside it"],
  ])("%s", async (name, special, why) => {
    const squatter = await customer();
    // `localhost` is a top-level name first (docs/accounts.md rule 1); the others are special-use names.
    const reason =
      name === "localhost"
        ? "localhost is a top-level name; a zone there is an operator's"
        : `${name} lies under the special-use name ${special} (${why}); an operator may create it`;
    const problem = expectProblem(await squatter.zone(name), 422, "policy_violation");
    expect(problem.errors).toEqual([{ field: "name", message: reason }]);
    expectProblem(await squatter.import(name), 422, "policy_violation");
  });

  it("an operator may create them", async () => {
    const holder = await customer();
    expect(created(await operatorZone("dev.localhost")).account).toBe("acc_00000000000000000000000000");
    expect(created(await operatorZone("lab.local", holder.id)).account).toBe(holder.id);
  });

  it("example names are any customer's (RFC 6761 §6.5 asks no special treatment of them)", async () => {
    const shop = await customer();
    expect(created(await shop.zone("shop.example")).name).toBe("shop.example");
  });
});

/** A zone created by `authorization` through the Worker, with the runtime's bindings changed by `vars`. */
async function createThrough(url: string, authorization: string, name: string, vars: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const request = new Request(url, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", ...headers },
    body: JSON.stringify({ name, nameservers: ["ns1.example.net"] }),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text } as ApiResponse;
}

describe("a customer's zone under `test` only on a loopback deployment, or a test runtime no network reaches", () => {
  const reason = (name: string) =>
    `${name} lies under the special-use name test (RFC 6761 §6.2: test names get negative answers unless a deployment is configured for tests); an operator may create it`;

  it("a deployment that is neither answers 422 policy_violation", async () => {
    const tester = await customer();
    expectRefused(
      await createThrough("http://api.test/v1/zones", tester.authorization, "deployed.test", { TEST_ZONES_ALLOWED: undefined }),
      reason("deployed.test"),
    );
    // The setting is not obeyed for a request a connection brought (a deployed Worker's always carry CF-Connecting-IP).
    expectRefused(
      await createThrough(
        "http://api.test/v1/zones",
        tester.authorization,
        "connected.test",
        { TEST_ZONES_ALLOWED: "true" },
        { "cf-connecting-ip": "203.0.113.9" },
      ),
      reason("connected.test"),
    );
  });

  it("local development (npm start: a loopback host, from loopback) takes them; so does this suite's runtime (TEST_ZONES_ALLOWED)", async () => {
    const tester = await customer();
    expect(created(await createThrough("http://127.0.0.1:8787/v1/zones", tester.authorization, "loopback.test", { TEST_ZONES_ALLOWED: undefined })).name).toBe(
      "loopback.test",
    );
    expect(created(await tester.zone("suite.test")).name).toBe("suite.test");
  });

  it("an operator may anywhere", async () => {
    const operator = await createThrough(
      "http://api.test/v1/zones",
      `Bearer ${"tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"}.test-write-secret-0123456789abcdef`,
      "operator.test",
      {
        TEST_ZONES_ALLOWED: undefined,
      },
    );
    expect(created(operator).account).toBe("acc_00000000000000000000000000");
  });
});
