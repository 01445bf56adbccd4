import { beforeAll, describe, expect, it } from "vitest";
import {
  allowedMethods,
  allPages,
  api,
  createContact,
  createDomain,
  createHost,
  DOMAIN_ID,
  errorFields,
  errorFor,
  expectProblem,
  HOST_ID,
  idsOf,
  namesOf,
  plusYears,
  UNKNOWN_CONTACT,
  customerAccount,
  withoutPrice,
} from "./helpers";

describe("registering a domain", () => {
  it("answers 201 with the domain, its extension, repository and expiry", async () => {
    const contact = await createContact();
    const response = await api("POST", "/v1/domains", {
      json: {
        name: "Example.COM",
        registrant: contact.id,
        contacts: { admin: contact.id },
        nameservers: ["ns1.example.net", "NS2.example.net."],
        period: 2,
        status: ["clientTransferProhibited"],
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      name: "example.com",
      unicode_name: "example.com",
      extension: "com",
      repository: "verisign",
      status: ["clientTransferProhibited"],
      registrant: contact.id,
      contacts: { admin: contact.id, tech: null, billing: null },
      nameservers: ["ns1.example.net", "ns2.example.net"],
      auto_renew: true,
      zone: null,
    });
    const created = new Date(response.body.created_at);
    const expires = new Date(response.body.expires_at);
    expect(expires.getUTCFullYear() - created.getUTCFullYear()).toBe(2);
    const byName = await api("GET", "/v1/domains/example.com");
    expect(byName.status).toBe(200);
    // The registration's answer says what it cost (two years of .com); the domain itself does not keep it.
    expect(response.body.price).toEqual({ currency: "USD", amount: "24.00" });
    expect(byName.body).toEqual(withoutPrice(response.body));
    const list = await api("GET", "/v1/domains?nameserver=ns1.example.net");
    expect(list.body.data.map((d: any) => d.name)).toEqual(["example.com"]);
    expect(list.body.data[0].auth_info).toBeUndefined();
    const hosts = await api("GET", "/v1/domains?status=inactive");
    expect(hosts.body.data).toEqual([]);
  });
  it("refuses deeper names", async () => {
    const r = await api("POST", "/v1/domains", { json: { name: "www.example.com" } });
    expectProblem(r, 422, "validation_failed");
    expect(r.body.errors[0].field).toBe("name");
  });
});

// --- docs/model.md#domains: registration -------------------------------------------------------

describe("the extension of a new domain", () => {
  it("is the longest catalog match: example.co.uk is under co.uk in nominet, example.uk under uk", async () => {
    const coUk = await createDomain("example.co.uk");
    expect(coUk).toMatchObject({ name: "example.co.uk", extension: "co.uk", repository: "nominet" });
    const uk = await createDomain("example.uk");
    expect(uk).toMatchObject({ name: "example.uk", extension: "uk", repository: "nominet" });
    const de = await createDomain("example.de", { nameservers: ["ns1.example.net", "ns2.example.net"] });
    expect(de).toMatchObject({ extension: "de", repository: "denic" });
  });

  it("a name under no catalog extension answers 422 naming the suffix", async () => {
    const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "example.invalid" } }), 422, "validation_failed");
    expect(problem.errors).toEqual([
      { field: "name", message: "example.invalid is under no extension offered here (.invalid is not one; GET /v1/extensions lists those that are)" },
    ]);
    const extension = expectProblem(await api("POST", "/v1/domains", { json: { name: "co.uk" } }), 422, "validation_failed");
    expect(errorFor(extension, "name").message).toBe("co.uk is an extension itself, not a registrable name: register a name under it, such as example.co.uk");
    const deeper = expectProblem(await api("POST", "/v1/domains", { json: { name: "example.foo.bar" } }), 422, "validation_failed");
    expect(errorFor(deeper, "name").message).toContain("bar");
    expect((await api("GET", "/v1/domains?name=example.invalid")).body.data).toEqual([]);
  });

  it("a name deeper than one label under its extension answers 422 not a registrable name", async () => {
    for (const name of ["www.example.com", "a.b.example.co.uk", "www.example.de"]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name } }), 422, "validation_failed");
      expect(problem.errors, name).toEqual([{ field: "name", message: expect.stringContaining("not a registrable name") }]);
    }
  });

  it("a bare extension is not registrable: co.uk, com, .uk and COM. answer 422 naming name", async () => {
    for (const name of ["co.uk", "CO.UK.", "com", ".uk", "COM."]) {
      const response = await api("POST", "/v1/domains", { json: { name } });
      const problem = expectProblem(response, 422, "validation_failed");
      expect(errorFields(problem), name).toEqual(["name"]);
    }
    expectProblem(await api("GET", "/v1/domains/co.uk"), 404, "not_found");
  });

  it("a malformed name answers 422 naming the label at fault", async () => {
    for (const [name, label] of [
      ["-bad.com", "-bad"],
      ["bad-.com", "bad-"],
      ["under_score.com", "under_score"],
      [`${"x".repeat(64)}.com`, "x".repeat(64)],
    ]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name } }), 422, "validation_failed");
      expect(problem.errors, name).toEqual([{ field: "name", message: expect.stringContaining(label!) }]);
    }
    const missing = expectProblem(await api("POST", "/v1/domains", { json: {} }), 422, "validation_failed");
    expect(errorFields(missing)).toEqual(["name"]);
  });
});

describe("a taken name", () => {
  it("answers 409 already_exists, in any case and with a trailing dot", async () => {
    const first = await createDomain("taken.com");
    for (const name of ["taken.com", "TAKEN.com", "taken.com.", "Taken.Com."]) {
      expectProblem(await api("POST", "/v1/domains", { json: { name } }), 409, "already_exists");
    }
    expect(idsOf(await api("GET", "/v1/domains?name=taken.com"))).toEqual([first.id]);
  });

  it("answers 409 for the other form of an IDN (U-label, A-label, upper case)", async () => {
    const first = await createDomain("bücher.de", { nameservers: ["ns1.example.net", "ns2.example.net"] });
    for (const name of ["xn--bcher-kva.de", "BÜCHER.de", "bücher.de."]) {
      expectProblem(await api("POST", "/v1/domains", { json: { name, nameservers: ["ns1.example.net", "ns2.example.net"] } }), 409, "already_exists");
    }
    expect(idsOf(await api("GET", "/v1/domains?name=xn--bcher-kva.de"))).toEqual([first.id]);
  });
});

describe("IDN domain names", () => {
  it("münchen.de is stored as xn--mnchen-3ya.de with unicode_name münchen.de", async () => {
    const response = await api("POST", "/v1/domains", { json: { name: "münchen.de", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ name: "xn--mnchen-3ya.de", unicode_name: "münchen.de", extension: "de", repository: "denic" });
    expect(response.headers.get("location")).toBe(`/v1/domains/${response.body.id}`);
  });

  it("is addressable by either name in the path, and by the U-label in filters", async () => {
    const domain = (await api("GET", "/v1/domains/xn--mnchen-3ya.de")).body;
    expect(domain.unicode_name).toBe("münchen.de");
    for (const segment of [encodeURIComponent("münchen.de"), encodeURIComponent("MÜNCHEN.de."), "XN--MNCHEN-3YA.DE", domain.id]) {
      const response = await api("GET", `/v1/domains/${segment}`);
      expect(response.status, segment).toBe(200);
      expect(response.body, segment).toEqual(domain);
    }
    expect(idsOf(await api("GET", `/v1/domains?name=${encodeURIComponent("münchen.de")}`))).toEqual([domain.id]);
    const patched = await api("PATCH", `/v1/domains/${encodeURIComponent("münchen.de")}`, { json: { auto_renew: false } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.id).toBe(domain.id);
  });

  it("at an extension without IDN support (.io) answers 422 policy_violation naming name", async () => {
    for (const name of ["münchen.io", "xn--mnchen-3ya.io"]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name } }), 422, "policy_violation");
      expect(problem.errors, name).toEqual([{ field: "name", message: expect.stringContaining("io") }]);
    }
    expect(namesOf(await api("GET", "/v1/domains?extension=io"))).toEqual([]);
  });

  it("an ASCII name at an extension without IDN support is fine", async () => {
    expect(await createDomain("plain.io")).toMatchObject({ extension: "io", repository: "identity-digital" });
  });

  it("a malformed A-label answers 422", async () => {
    const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "xn--zz-.com" } }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["name"]);
  });
});

describe("the registration period", () => {
  it("defaults to the extension's minimum: expires_at is one year after created_at", async () => {
    const domain = await createDomain("period-default.com");
    expect(domain.expires_at).toBe(plusYears(domain.created_at, 1));
  });

  it("sets expires_at to created_at plus the period in years", async () => {
    for (const period of [2, 10]) {
      const domain = await createDomain(`period-${period}.com`, { period });
      expect(domain.expires_at, String(period)).toBe(plusYears(domain.created_at, period));
      expect((await api("GET", `/v1/domains/${domain.id}`)).body.expires_at).toBe(domain.expires_at);
    }
  });

  it(".de registers for exactly one year", async () => {
    const ns = ["ns1.example.net", "ns2.example.net"];
    const domain = await createDomain("one-year.de", { period: 1, nameservers: ns });
    expect(domain.expires_at).toBe(plusYears(domain.created_at, 1));
    const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "two-years.de", period: 2, nameservers: ns } }), 422, "policy_violation");
    expect(problem.errors).toEqual([{ field: "period", message: expect.stringContaining("1 year") }]);
  });

  it("outside the extension's range answers 422 policy_violation naming period", async () => {
    for (const period of [0, 11, -1, 100]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "out-of-range.com", period } }), 422, "policy_violation");
      expect(problem.errors, String(period)).toEqual([{ field: "period", message: expect.stringContaining("1 to 10") }]);
    }
    expectProblem(await api("GET", "/v1/domains/out-of-range.com"), 404, "not_found");
  });

  it("that is not a whole number answers 422 validation_failed naming period", async () => {
    for (const period of [1.5, "2", null, true, [1]]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "fraction.com", period } }), 422, "validation_failed");
      expect(errorFields(problem), JSON.stringify(period)).toEqual(["period"]);
    }
  });
});

describe("the registrant and contacts of a new domain", () => {
  it("are returned as given, in every role", async () => {
    const [registrant, admin, tech, billing] = await Promise.all([
      createContact({ email: "role-registrant@example.org" }),
      createContact({ email: "role-admin@example.org" }),
      createContact({ email: "role-tech@example.org" }),
      createContact({ email: "role-billing@example.org" }),
    ]);
    const domain = await createDomain("roles.com", { registrant: registrant.id, contacts: { admin: admin.id, tech: tech.id, billing: billing.id } });
    expect(domain).toMatchObject({ registrant: registrant.id, contacts: { admin: admin.id, tech: tech.id, billing: billing.id } });
  });

  it("are optional: without them the roles are null", async () => {
    const domain = await createDomain("no-contacts.com");
    expect(domain).toMatchObject({ registrant: null, contacts: { admin: null, tech: null, billing: null } });
  });

  it("must exist: 422 naming registrant and contacts.admin (every unknown one)", async () => {
    const known = await createContact({ email: "role-known@example.org" });
    const response = await api("POST", "/v1/domains", {
      json: { name: "ghost-contacts.com", registrant: UNKNOWN_CONTACT, contacts: { admin: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C", tech: known.id, billing: "nope" } },
    });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["contacts.admin", "contacts.billing", "registrant"]);
    expect(errorFor(problem, "registrant").message).toContain(UNKNOWN_CONTACT);
    expectProblem(await api("GET", "/v1/domains/ghost-contacts.com"), 404, "not_found");
  });

  it("an unknown role in contacts answers 422 unknown_field naming it", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "owner-role.com", contacts: { owner: UNKNOWN_CONTACT } } }),
      422,
      "unknown_field",
    );
    expect(errorFields(problem)).toEqual(["contacts.owner"]);
  });
});

describe("the name servers of a new domain", () => {
  it("are stored lowercase without the trailing dot, in the order given", async () => {
    const domain = await createDomain("ns-order.com", { nameservers: ["NS2.Order-DNS.net.", "ns1.order-dns.net"] });
    expect(domain.nameservers).toEqual(["ns2.order-dns.net", "ns1.order-dns.net"]);
  });

  it("must be unique: a name listed twice (in any spelling) answers 422 naming nameservers[1]", async () => {
    for (const second of ["ns1.dup-dns.net", "NS1.DUP-DNS.NET", "ns1.dup-dns.net."]) {
      const problem = expectProblem(
        await api("POST", "/v1/domains", { json: { name: "dup-ns.com", nameservers: ["ns1.dup-dns.net", second] } }),
        422,
        "validation_failed",
      );
      expect(problem.errors, second).toEqual([{ field: "nameservers[1]", message: expect.any(String) }]);
    }
    expectProblem(await api("GET", "/v1/hosts/ns1.dup-dns.net"), 404, "not_found");
  });

  it("a malformed host name answers 422 naming its index", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "bad-ns.com", nameservers: ["ns1.ok-dns.net", "ns_2.bad-dns.net", "localhost"] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["nameservers[1]", "nameservers[2]"]);
    expect(errorFor(problem, "nameservers[1]").message).toContain("ns_2");
  });

  it("their count must lie in the extension's range: .de needs at least 2 (422 policy_violation naming nameservers)", async () => {
    for (const nameservers of [[], ["ns1.example.net"]]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "too-few.de", nameservers } }), 422, "policy_violation");
      expect(problem.errors, JSON.stringify(nameservers)).toEqual([{ field: "nameservers", message: expect.any(String) }]);
    }
    const many = Array.from({ length: 14 }, (_, i) => `ns${i}.many-dns.net`);
    const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "too-many.com", nameservers: many } }), 422, "policy_violation");
    expect(errorFields(problem)).toEqual(["nameservers"]);
    expect(namesOf(await api("GET", "/v1/hosts?q=many-dns"))).toEqual([]);
  });

  it("the extension's maximum is accepted: 13 new name servers for a .com domain", async () => {
    const thirteen = Array.from({ length: 13 }, (_, i) => `ns${i}.thirteen-dns.net`);
    expect((await createDomain("thirteen.com", { nameservers: thirteen })).nameservers).toEqual(thirteen);
    expect(namesOf(await api("GET", "/v1/hosts?q=thirteen-dns&limit=200"))).toEqual(thirteen);
  });

  it("the extension's maximum is accepted on PATCH too: 13 new name servers replace the old ones", async () => {
    const other = await createDomain("thirteen-later.com", { nameservers: ["ns1.example.net"] });
    const replaced = Array.from({ length: 13 }, (_, i) => `ns${i}.thirteen-patch-dns.net`);
    const patched = await api("PATCH", `/v1/domains/${other.id}`, { json: { nameservers: replaced } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.nameservers).toEqual(replaced);
  });

  it("an unknown external name creates its host object: domain null, status linked", async () => {
    const domain = await createDomain("makes-hosts.com", { nameservers: ["ns1.fresh-dns.net", "ns2.fresh-dns.net"] });
    const hosts = await api("GET", "/v1/hosts?q=fresh-dns");
    expect(hosts.body.data).toEqual([
      expect.objectContaining({ id: expect.stringMatching(HOST_ID), name: "ns1.fresh-dns.net", addresses: [], domain: null, status: ["linked"] }),
      expect.objectContaining({ name: "ns2.fresh-dns.net", addresses: [], domain: null, status: ["linked"] }),
    ]);
    expect(domain.nameservers).toEqual(["ns1.fresh-dns.net", "ns2.fresh-dns.net"]);
  });

  it("an existing host is linked, not duplicated", async () => {
    const host = await createHost("ns.existing-dns.net");
    expect(host.status).toEqual(["ok"]);
    await createDomain("uses-existing.com", { nameservers: ["NS.existing-dns.net"] });
    const hosts = await api("GET", "/v1/hosts?q=existing-dns");
    expect(hosts.body.data).toEqual([expect.objectContaining({ id: host.id, name: "ns.existing-dns.net", status: ["linked"] })]);
    // A subordinate host with its glue is linked the same way.
    await createDomain("glue-parent.com");
    const glued = await createHost("ns1.glue-parent.com", ["192.0.2.10"]);
    const child = await createDomain("glue-child.net", { nameservers: ["ns1.glue-parent.com"] });
    expect(child.nameservers).toEqual(["ns1.glue-parent.com"]);
    expect((await api("GET", `/v1/hosts/${glued.id}`)).body).toMatchObject({
      domain: expect.stringMatching(DOMAIN_ID),
      status: ["linked"],
      addresses: ["192.0.2.10"],
    });
  });

  it("an unknown name under a domain managed here answers 422 telling to create the host first", async () => {
    await createDomain("managed-here.com");
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "wants-glue.net", nameservers: ["ns.outside-dns.net", "ns1.managed-here.com"] } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "nameservers[1]", message: expect.stringMatching(/create the host/i) }]);
    expectProblem(await api("GET", "/v1/domains/wants-glue.net"), 404, "not_found");
    expectProblem(await api("GET", "/v1/hosts/ns1.managed-here.com"), 404, "not_found");
    expectProblem(await api("GET", "/v1/hosts/ns.outside-dns.net"), 404, "not_found");
  });

  it("an unknown name under the domain being registered answers 422 too", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "self-glue.com", nameservers: ["ns1.self-glue.com", "ns2.SELF-GLUE.com"] } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      { field: "nameservers[0]", message: expect.stringMatching(/create the host/i) },
      { field: "nameservers[1]", message: expect.stringMatching(/create the host/i) },
    ]);
    expectProblem(await api("GET", "/v1/domains/self-glue.com"), 404, "not_found");
  });

  it("a name under an unregistered domain of a catalog extension is external and is created", async () => {
    const domain = await createDomain("points-elsewhere.org", { nameservers: ["ns1.not-registered-here.com"] });
    expect(domain.nameservers).toEqual(["ns1.not-registered-here.com"]);
    expect((await api("GET", "/v1/hosts/ns1.not-registered-here.com")).body).toMatchObject({ domain: null, status: ["linked"] });
  });
});

describe("client statuses of a new domain", () => {
  it("every client status is accepted", async () => {
    const all = ["clientDeleteProhibited", "clientHold", "clientRenewProhibited", "clientTransferProhibited", "clientUpdateProhibited"];
    const domain = await createDomain("all-statuses.com", { status: [...all].reverse(), nameservers: ["ns1.example.net"] });
    expect([...domain.status].sort()).toEqual(all);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.status).toEqual(domain.status);
  });

  it("pending and computed statuses answer 422 'cannot be set by clients' naming each", async () => {
    const refused = ["pendingDelete", "pendingTransfer", "ok", "inactive", "linked"];
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "server-status.com", status: ["clientHold", ...refused] } }),
      422,
      "validation_failed",
    );
    // The test's token is the operator's, who may set the registry lock but not what the registry computes.
    expect(problem.errors).toEqual(
      refused.map((status, i) => ({ field: `status[${i + 1}]`, message: `"${status}" is the registry's to compute, not to set` })),
    );
    expectProblem(await api("GET", "/v1/domains/server-status.com"), 404, "not_found");
  });

  it("the registry lock's statuses from a customer answer 422 read_only_field naming each, with the other problems", async () => {
    const customer = await customerAccount("status-lock-customer");
    const problem = expectProblem(
      await api("POST", "/v1/domains", {
        json: { name: "server-status-customer.com", status: ["clientHold", "serverHold", "serverUpdateProhibited", "ok"] },
        headers: { authorization: customer.auth },
      }),
      422,
      "read_only_field",
    );
    expect(errorFields(problem)).toEqual(["status[1]", "status[2]", "status[3]"]);
    expect(errorFor(problem, "status[1]").message).toContain("only the registry's operator");
    expect(errorFor(problem, "status[3]").message).toContain("cannot be set by clients");
    expectProblem(await api("GET", "/v1/domains/server-status-customer.com"), 404, "not_found");
  });

  it("an unknown status answers 422 naming it", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "odd-status.com", status: ["clienthold", "frozen"] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["status[0]", "status[1]"]);
    expect(errorFor(problem, "status[1]").message).toContain("frozen");
  });
});

describe("auth_info", () => {
  it("of 12 to 32 characters from 3 classes is accepted and returned by POST, GET and PATCH", async () => {
    for (const authInfo of ["abcdef-12345", "Aa1-".repeat(8)]) {
      const domain = await createDomain(`auth-${authInfo.length}.com`, { auth_info: authInfo });
      expect(domain.auth_info).toBe(authInfo);
      expect((await api("GET", `/v1/domains/${domain.id}`)).body.auth_info).toBe(authInfo);
      const patched = await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: "Changed-Key-42" } });
      expect(patched.status).toBe(200);
      expect(patched.body.auth_info).toBe("Changed-Key-42");
      const untouched = await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: false } });
      expect(untouched.body.auth_info).toBe("Changed-Key-42");
    }
  });

  it("too short, too long or with spaces answers 422 naming auth_info", async () => {
    for (const authInfo of ["abc12", "", "x".repeat(33), "has space!", 123456]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "bad-auth.com", auth_info: authInfo } }), 422, "validation_failed");
      expect([...new Set(errorFields(problem))], String(authInfo)).toEqual(["auth_info"]);
    }
    const domain = await createDomain("bad-auth-patch.com");
    const problem = expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: "short" } }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["auth_info"]);
  });

  it("is generated when absent: at least 16 characters, different for each domain", async () => {
    const a = await createDomain("generated-a.com");
    const b = await createDomain("generated-b.com");
    expect(a.auth_info).toEqual(expect.any(String));
    expect(a.auth_info.length).toBeGreaterThanOrEqual(16);
    expect(a.auth_info.length).toBeLessThanOrEqual(32);
    expect(a.auth_info).not.toBe(b.auth_info);
  });

  it("never appears in list items", async () => {
    const domain = await createDomain("secret-list.com", { auth_info: "list-secret-1" });
    const lists = [
      "/v1/domains?limit=200",
      "/v1/domains?name=secret-list.com",
      "/v1/domains?sort=-name&limit=200",
      "/v1/repositories/verisign/domains?limit=200",
    ];
    for (const path of lists) {
      const response = await api("GET", path);
      expect(response.status, path).toBe(200);
      expect(
        response.body.data.map((d: any) => d.id),
        path,
      ).toContain(domain.id);
      for (const item of response.body.data) expect(item, path).not.toHaveProperty("auth_info");
      expect(response.text, path).not.toContain("list-secret-1");
    }
  });
});

describe("the status a domain shows", () => {
  it("is inactive when it has no name servers", async () => {
    expect((await createDomain("bare.com")).status).toEqual(["inactive"]);
    const held = await createDomain("held-bare.com", { status: ["clientHold"] });
    expect([...held.status].sort()).toEqual(["clientHold", "inactive"]);
  });

  it("is ok alone when it has name servers and no client statuses", async () => {
    expect((await createDomain("served.com", { nameservers: ["ns1.example.net"] })).status).toEqual(["ok"]);
    expect((await createDomain("served-held.com", { nameservers: ["ns1.example.net"], status: ["clientHold"] })).status).toEqual(["clientHold"]);
  });
});

describe("a 422 on registration", () => {
  it("lists every problem at once: period, status, contact and name servers", async () => {
    const response = await api("POST", "/v1/domains", {
      json: {
        name: "many-problems.com",
        period: 11,
        status: ["clientHold", "pendingDelete"],
        registrant: UNKNOWN_CONTACT,
        nameservers: ["ns1.example.net", "NS1.example.net"],
      },
    });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["nameservers[1]", "period", "registrant", "status[1]"]);
    expect(problem.detail).toContain("4");
    expectProblem(await api("GET", "/v1/domains/many-problems.com"), 404, "not_found");
  });

  it("lists problems of form and of registry rules together (a fractional period with a bad status and contact)", async () => {
    const response = await api("POST", "/v1/domains", {
      json: { name: "mixed-problems.com", period: 1.5, status: ["inactive"], registrant: UNKNOWN_CONTACT },
    });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["period", "registrant", "status[0]"]);
  });

  it("is policy_violation when only registry policy refuses the values", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "policy-only.de", period: 3, nameservers: ["ns1.example.net"] } }),
      422,
      "policy_violation",
    );
    expect(errorFields(problem)).toEqual(["nameservers", "period"]);
  });
});

// --- docs/model.md#domains: update -------------------------------------------------------------

describe("read-only and unknown fields of a domain", () => {
  it("name, extension, repository and expires_at answer 422 read_only_field naming each", async () => {
    const domain = await createDomain("readonly.com");
    const response = await api("PATCH", `/v1/domains/${domain.id}`, {
      json: { name: "renamed.com", extension: "net", repository: "pir", expires_at: "2099-01-01T00:00:00.000Z" },
    });
    const problem = expectProblem(response, 422, "read_only_field");
    expect(errorFields(problem)).toEqual(["expires_at", "extension", "name", "repository"]);
    for (const field of ["name", "extension", "repository", "expires_at"]) {
      const single = expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: { [field]: domain[field] } }), 422, "read_only_field");
      expect(errorFields(single)).toEqual([field]);
    }
    expect((await api("GET", `/v1/domains/${domain.id}`)).body).toEqual(domain);
  });

  it("period answers 422 unknown_field on PATCH", async () => {
    const domain = await createDomain("no-period-patch.com");
    const problem = expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: { period: 2 } }), 422, "unknown_field");
    expect(errorFields(problem)).toEqual(["period"]);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.expires_at).toBe(domain.expires_at);
  });

  it("read-only fields on POST answer 422 read_only_field", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", { json: { name: "readonly-post.com", extension: "net", expires_at: "2099-01-01T00:00:00.000Z" } }),
      422,
      "read_only_field",
    );
    expect(errorFields(problem)).toEqual(["expires_at", "extension"]);
  });
});

describe("updating a domain's name servers", () => {
  it("replaces them whole, in the order given", async () => {
    const domain = await createDomain("ns-replace.com", { nameservers: ["ns1.replace-dns.net", "ns2.replace-dns.net"] });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { nameservers: ["ns3.replace-dns.net", "NS1.replace-dns.net."] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.nameservers).toEqual(["ns3.replace-dns.net", "ns1.replace-dns.net"]);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.nameservers).toEqual(["ns3.replace-dns.net", "ns1.replace-dns.net"]);
    expect((await api("GET", "/v1/hosts/ns2.replace-dns.net")).body.status).toEqual(["ok"]);
    expect((await api("GET", "/v1/hosts/ns3.replace-dns.net")).body).toMatchObject({ domain: null, status: ["linked"] });
  });

  it("null or [] clears them and the status becomes inactive", async () => {
    for (const [i, cleared] of [null, []].entries()) {
      const domain = await createDomain(`ns-clear-${i}.com`, { nameservers: ["ns1.clear-dns.net"] });
      expect(domain.status).toEqual(["ok"]);
      const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { nameservers: cleared } });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ nameservers: [], status: ["inactive"] });
    }
    expect((await api("GET", "/v1/hosts/ns1.clear-dns.net")).body.status).toEqual(["ok"]);
  });

  it("follows the same rules as on registration: duplicates, count and unknown subordinate names answer 422", async () => {
    const ns = ["ns1.example.net", "ns2.example.net"];
    const de = await createDomain("ns-rules.de", { nameservers: ns });
    const few = expectProblem(await api("PATCH", `/v1/domains/${de.id}`, { json: { nameservers: ["ns1.example.net"] } }), 422, "policy_violation");
    expect(errorFields(few)).toEqual(["nameservers"]);
    const cleared = expectProblem(await api("PATCH", `/v1/domains/${de.id}`, { json: { nameservers: null } }), 422, "policy_violation");
    expect(errorFields(cleared)).toEqual(["nameservers"]);
    const dup = expectProblem(
      await api("PATCH", `/v1/domains/${de.id}`, { json: { nameservers: ["ns1.example.net", "NS1.example.net"] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(dup)).toContain("nameservers[1]");
    const own = expectProblem(
      await api("PATCH", `/v1/domains/${de.id}`, { json: { nameservers: ["ns1.ns-rules.de", "ns2.example.net"] } }),
      422,
      "validation_failed",
    );
    expect(own.errors).toEqual([{ field: "nameservers[0]", message: expect.stringMatching(/create the host/i) }]);
    expect((await api("GET", `/v1/domains/${de.id}`)).body.nameservers).toEqual(ns);
  });
});

describe("updating a domain's client statuses", () => {
  it("status replaces the client statuses whole", async () => {
    const domain = await createDomain("status-replace.com", { status: ["clientHold", "clientTransferProhibited"], nameservers: ["ns1.example.net"] });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: ["clientRenewProhibited"] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.status).toEqual(["clientRenewProhibited"]);
    const cleared = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: [] } });
    expect(cleared.body.status).toEqual(["ok"]);
    const viaNull = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: ["clientHold"] } });
    expect(viaNull.body.status).toEqual(["clientHold"]);
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: null } })).body.status).toEqual(["ok"]);
  });

  it("server and unknown statuses answer 422 on PATCH too", async () => {
    const domain = await createDomain("status-patch-bad.com");
    const problem = expectProblem(
      await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: ["clientHold", "pendingTransfer", "nonsense"] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["status[1]", "status[2]"]);
    expect(errorFor(problem, "status[1]").message).toBe('"pendingTransfer" is the registry\'s to compute, not to set');
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.status).toEqual(["inactive"]);
  });
});

describe("clientUpdateProhibited", () => {
  it("any PATCH that does not remove it answers 409 status_prohibits, the empty patch included", async () => {
    const other = await createContact({ email: "locked-other@example.org" });
    const domain = await createDomain("locked.com", { status: ["clientUpdateProhibited"], nameservers: ["ns1.example.net"] });
    const patches = [
      {},
      { auto_renew: false },
      { auth_info: "Another-Key-2026" },
      { nameservers: ["ns2.example.net"] },
      { registrant: other.id },
      { contacts: { tech: other.id } },
      { status: ["clientUpdateProhibited", "clientHold"] },
      { status: ["clientUpdateProhibited"] },
    ];
    for (const patch of patches) {
      const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: patch });
      const problem = expectProblem(response, 409, "status_prohibits");
      expect(problem.detail, JSON.stringify(patch)).toContain("clientUpdateProhibited");
    }
    expect((await api("GET", `/v1/domains/${domain.id}`)).body).toEqual(domain);
  });

  it("a PATCH that removes it is accepted, with other changes in the same patch", async () => {
    const domain = await createDomain("unlock.com", { status: ["clientUpdateProhibited", "clientHold"], nameservers: ["ns1.example.net"] });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: ["clientHold"], auto_renew: false, nameservers: ["ns2.example.net"] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ status: ["clientHold"], auto_renew: false, nameservers: ["ns2.example.net"] });
    // Unlocked: ordinary patches work again.
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: true } })).status).toBe(200);
  });

  it("status: null removes it too", async () => {
    const domain = await createDomain("unlock-null.com", { status: ["clientUpdateProhibited"], nameservers: ["ns1.example.net"] });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: null } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.status).toEqual(["ok"]);
  });

  it("can be set by a PATCH, which then locks the domain", async () => {
    const domain = await createDomain("lock-later.com", { nameservers: ["ns1.example.net"] });
    const locked = await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: ["clientUpdateProhibited"], auto_renew: false } });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ status: ["clientUpdateProhibited"], auto_renew: false });
    expectProblem(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: true } }), 409, "status_prohibits");
  });
});

describe("updating a domain's contacts", () => {
  it("contacts merge per role: {tech} changes tech and keeps admin and billing", async () => {
    const [admin, tech, billing, newTech] = await Promise.all(
      ["merge-admin", "merge-tech", "merge-billing", "merge-newtech"].map((e) => createContact({ email: `${e}@example.org` })),
    );
    const domain = await createDomain("contacts-merge.com", { registrant: admin!.id, contacts: { admin: admin!.id, tech: tech!.id, billing: billing!.id } });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { contacts: { tech: newTech!.id } } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ registrant: admin!.id, contacts: { admin: admin!.id, tech: newTech!.id, billing: billing!.id } });
    const cleared = await api("PATCH", `/v1/domains/${domain.id}`, { json: { contacts: { billing: null } } });
    expect(cleared.body.contacts).toEqual({ admin: admin!.id, tech: newTech!.id, billing: null });
  });

  it("contacts: null clears admin, tech and billing and keeps the registrant", async () => {
    const contact = await createContact({ email: "clear-all@example.org" });
    const domain = await createDomain("contacts-null.com", { registrant: contact.id, contacts: { admin: contact.id, tech: contact.id, billing: contact.id } });
    const response = await api("PATCH", `/v1/domains/${domain.id}`, { json: { contacts: null } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ registrant: contact.id, contacts: { admin: null, tech: null, billing: null } });
    const noRegistrant = await api("PATCH", `/v1/domains/${domain.id}`, { json: { registrant: null } });
    expect(noRegistrant.body.registrant).toBeNull();
  });

  it("unknown contacts answer 422 naming registrant and contacts.admin and change nothing", async () => {
    const domain = await createDomain("contacts-ghost.com");
    const problem = expectProblem(
      await api("PATCH", `/v1/domains/${domain.id}`, { json: { registrant: UNKNOWN_CONTACT, contacts: { admin: UNKNOWN_CONTACT } } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["contacts.admin", "registrant"]);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body).toEqual(domain);
  });
});

describe("updating a domain", () => {
  it("answers 200 with the new domain and ETag; an empty patch changes nothing", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "plain-update.com" } });
    const same = await api("PATCH", `/v1/domains/${created.body.id}`, { json: {} });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(withoutPrice(created.body));
    expect(same.headers.get("etag")).toBe(created.headers.get("etag"));
    const changed = await api("PATCH", "/v1/domains/plain-update.com", { json: { auto_renew: false } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: created.body.id, auto_renew: false, created_at: created.body.created_at, expires_at: created.body.expires_at });
    expect(changed.headers.get("etag")).not.toBe(created.headers.get("etag"));
    expect((await api("GET", `/v1/domains/${created.body.id}`)).headers.get("etag")).toBe(changed.headers.get("etag"));
  });

  it("an unknown domain answers 404", async () => {
    expectProblem(await api("PATCH", "/v1/domains/never-registered.com", { json: { auto_renew: false } }), 404, "not_found");
    expectProblem(await api("PATCH", "/v1/domains/dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { json: {} }), 404, "not_found");
  });

  it("PUT answers 405 with Allow", async () => {
    const domain = await createDomain("put-domain.com");
    const response = await api("PUT", `/v1/domains/${domain.id}`, { json: { auto_renew: false } });
    expectProblem(response, 405, "method_not_allowed");
    expect(allowedMethods(response)).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
  });
});

describe("If-Match on domains", () => {
  it("PATCH with a stale ETag answers 412 precondition_failed and changes nothing; the current one 200", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "etag-domain.com" } });
    const stale = created.headers.get("etag")!;
    const first = await api("PATCH", `/v1/domains/${created.body.id}`, { json: { auto_renew: false }, headers: { "if-match": stale } });
    expect(first.status, first.text).toBe(200);
    expectProblem(
      await api("PATCH", `/v1/domains/${created.body.id}`, { json: { auto_renew: true }, headers: { "if-match": stale } }),
      412,
      "precondition_failed",
    );
    expect((await api("GET", `/v1/domains/${created.body.id}`)).body.auto_renew).toBe(false);
    const second = await api("PATCH", `/v1/domains/${created.body.id}`, { json: { auto_renew: true }, headers: { "if-match": first.headers.get("etag")! } });
    expect(second.status).toBe(200);
  });

  it("DELETE with a stale ETag answers 412 and keeps the domain", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "etag-delete.com" } });
    await api("PATCH", `/v1/domains/${created.body.id}`, { json: { auto_renew: false } });
    expectProblem(await api("DELETE", `/v1/domains/${created.body.id}`, { headers: { "if-match": created.headers.get("etag")! } }), 412, "precondition_failed");
    expect((await api("GET", `/v1/domains/${created.body.id}`)).status).toBe(200);
  });

  it("GET with a matching If-None-Match answers 304", async () => {
    const created = await api("POST", "/v1/domains", { json: { name: "etag-cached.com" } });
    expect((await api("GET", `/v1/domains/${created.body.id}`)).headers.get("etag")).toBe(created.headers.get("etag"));
    const cached = await api("GET", "/v1/domains/etag-cached.com", { headers: { "if-none-match": created.headers.get("etag")! } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
  });
});

// --- docs/model.md#domains: delete -------------------------------------------------------------

describe("deleting a domain", () => {
  it("under clientDeleteProhibited answers 409 status_prohibits and keeps it", async () => {
    const domain = await createDomain("no-delete.com", { status: ["clientDeleteProhibited"] });
    const problem = expectProblem(await api("DELETE", `/v1/domains/${domain.id}`), 409, "status_prohibits");
    expect(problem.detail).toContain("clientDeleteProhibited");
    expect((await api("GET", `/v1/domains/${domain.id}`)).status).toBe(200);
    expect((await api("PATCH", `/v1/domains/${domain.id}`, { json: { status: [] } })).status).toBe(200);
    expect((await api("DELETE", `/v1/domains/${domain.id}`)).status).toBe(204);
  });

  it("with subordinate hosts answers 409 object_linked naming them", async () => {
    const domain = await createDomain("has-hosts.com");
    await createHost("ns1.has-hosts.com", ["192.0.2.1"]);
    await createHost("deep.ns2.has-hosts.com", ["2001:db8::2"]);
    const problem = expectProblem(await api("DELETE", "/v1/domains/has-hosts.com"), 409, "object_linked");
    expect(problem.detail).toContain("ns1.has-hosts.com");
    expect(problem.detail).toContain("deep.ns2.has-hosts.com");
    expect((await api("GET", `/v1/domains/${domain.id}`)).status).toBe(200);
    // Once the hosts are gone, the domain goes.
    expect((await api("DELETE", "/v1/hosts/ns1.has-hosts.com")).status).toBe(204);
    expect((await api("PATCH", "/v1/hosts/deep.ns2.has-hosts.com", { json: { name: "moved.elsewhere-dns.net", addresses: [] } })).status).toBe(200);
    expect((await api("DELETE", "/v1/domains/has-hosts.com")).status).toBe(204);
  });

  it("otherwise answers 204 with no body, and GET then answers 404 by id and by name", async () => {
    const domain = await createDomain("goes-away.com");
    const response = await api("DELETE", `/v1/domains/${domain.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectProblem(await api("GET", `/v1/domains/${domain.id}`), 404, "not_found");
    expectProblem(await api("GET", "/v1/domains/goes-away.com"), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/domains/${domain.id}`), 404, "not_found");
    expect((await api("GET", "/v1/domains?name=goes-away.com")).body.data).toEqual([]);
  });

  it("works by name, and the name can be registered again", async () => {
    await createDomain("again.com");
    expect((await api("DELETE", "/v1/domains/AGAIN.com.")).status).toBe(204);
    expect((await createDomain("again.com")).name).toBe("again.com");
  });

  it("leaves the external hosts it used, with status back to ok", async () => {
    await createDomain("used-hosts.com", { nameservers: ["ns1.left-dns.net", "ns2.left-dns.net"] });
    await createDomain("also-uses.com", { nameservers: ["ns2.left-dns.net"] });
    expect((await api("DELETE", "/v1/domains/used-hosts.com")).status).toBe(204);
    expect((await api("GET", "/v1/hosts/ns1.left-dns.net")).body).toMatchObject({ name: "ns1.left-dns.net", domain: null, status: ["ok"] });
    expect((await api("GET", "/v1/hosts/ns2.left-dns.net")).body.status).toEqual(["linked"]);
    expect(namesOf(await api("GET", "/v1/domains?nameserver=ns2.left-dns.net"))).toEqual(["also-uses.com"]);
  });
});

// --- docs/model.md#domains: list filters and sorting ------------------------------------------

describe("domain list filters", () => {
  // The domains of this describe all contain "filt"; other tests use no such name.
  const f: Record<string, any> = {};

  beforeAll(async () => {
    f.reg1 = await createContact({ email: "filt-reg1@example.org" });
    f.reg2 = await createContact({ email: "filt-reg2@example.org" });
    f.bill = await createContact({ email: "filt-bill@example.org" });
    f.alpha = await createDomain("filt-alpha.com", { registrant: f.reg1.id, nameservers: ["ns1.filt-dns.net"], status: ["clientHold"], period: 1 });
    f.beta = await createDomain("filt-beta.net", { registrant: f.reg2.id, contacts: { billing: f.bill.id }, period: 3 });
    f.gamma = await createDomain("filt-gamma.co.uk", { registrant: f.reg1.id, nameservers: ["ns2.filt-dns.net"], period: 2 });
    f.delta = await createDomain("filt-delta.org", { nameservers: ["ns1.filt-dns.net", "ns2.filt-dns.net"], period: 5 });
    f.epsilon = await createDomain("filt-epsilon.com", { contacts: { tech: f.reg2.id }, nameservers: ["ns2.filt-dns.net"], period: 4 });
  });

  const list = async (query: string) => namesOf(await api("GET", `/v1/domains?q=filt&limit=200&${query}`));

  it("without filters lists in creation order", async () => {
    expect(await list("")).toEqual(["filt-alpha.com", "filt-beta.net", "filt-gamma.co.uk", "filt-delta.org", "filt-epsilon.com"]);
  });

  it("name matches exactly, normalised like a body name", async () => {
    for (const name of ["filt-alpha.com", "FILT-ALPHA.com", "filt-alpha.com."]) {
      expect(namesOf(await api("GET", `/v1/domains?name=${name}`)), name).toEqual(["filt-alpha.com"]);
    }
    expect(namesOf(await api("GET", "/v1/domains?name=filt-alpha.net"))).toEqual([]);
    expectProblem(await api("GET", "/v1/domains?name=bad_name..com"), 400, "invalid_query");
  });

  it("q is a case-insensitive substring of the name", async () => {
    expect(namesOf(await api("GET", "/v1/domains?q=FILT-E"))).toEqual(["filt-epsilon.com"]);
    expect(namesOf(await api("GET", "/v1/domains?q=MMA.CO"))).toEqual(["filt-gamma.co.uk"]);
    expect(namesOf(await api("GET", "/v1/domains?q=%25"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/domains?q=_"))).toEqual([]);
  });

  it("extension takes the id with or without the leading dot", async () => {
    expect(await list("extension=co.uk")).toEqual(["filt-gamma.co.uk"]);
    expect(await list("extension=.co.uk")).toEqual(["filt-gamma.co.uk"]);
    expect(await list("extension=CO.UK")).toEqual(["filt-gamma.co.uk"]);
    expect(await list("extension=uk")).toEqual([]);
    expect(await list("extension=com")).toEqual(["filt-alpha.com", "filt-epsilon.com"]);
  });

  it("repository keeps the domains of that repository", async () => {
    expect(await list("repository=verisign")).toEqual(["filt-alpha.com", "filt-beta.net", "filt-epsilon.com"]);
    expect(await list("repository=nominet")).toEqual(["filt-gamma.co.uk"]);
    expect(await list("repository=nowhere")).toEqual([]);
  });

  it("status matches a client status, a lock status, inactive or ok", async () => {
    expect(await list("status=clientHold")).toEqual(["filt-alpha.com"]);
    expect(await list("status=inactive")).toEqual(["filt-beta.net"]);
    expect(await list("status=ok")).toEqual(["filt-gamma.co.uk", "filt-delta.org", "filt-epsilon.com"]);
    expect(await list("status=clientDeleteProhibited")).toEqual([]);
    expect(await list("status=serverHold")).toEqual([]);
    for (const status of ["frozen", "linked", "pendingCreate"]) {
      expectProblem(await api("GET", `/v1/domains?status=${status}`), 400, "invalid_query");
    }
  });

  it("registrant matches the registrant only", async () => {
    expect(await list(`registrant=${f.reg1.id}`)).toEqual(["filt-alpha.com", "filt-gamma.co.uk"]);
    expect(await list(`registrant=${f.reg2.id}`)).toEqual(["filt-beta.net"]);
    expect(await list(`registrant=${f.bill.id}`)).toEqual([]);
  });

  it("contact matches any role, billing included", async () => {
    expect(await list(`contact=${f.bill.id}`)).toEqual(["filt-beta.net"]);
    expect(await list(`contact=${f.reg2.id}`)).toEqual(["filt-beta.net", "filt-epsilon.com"]);
    expect(await list(`contact=${UNKNOWN_CONTACT}`)).toEqual([]);
  });

  it("nameserver matches a host name, normalised", async () => {
    expect(await list("nameserver=ns2.filt-dns.net")).toEqual(["filt-gamma.co.uk", "filt-delta.org", "filt-epsilon.com"]);
    expect(await list("nameserver=NS1.FILT-DNS.NET.")).toEqual(["filt-alpha.com", "filt-delta.org"]);
    expect(await list("nameserver=ns9.filt-dns.net")).toEqual([]);
  });

  it("expires_before and expires_after bound the expiry date", async () => {
    // Between the 2-year and the 3-year registrations.
    const middle = new Date((Date.parse(f.gamma.expires_at) + Date.parse(f.beta.expires_at)) / 2).toISOString();
    expect(await list(`expires_before=${middle}`)).toEqual(["filt-alpha.com", "filt-gamma.co.uk"]);
    expect(await list(`expires_after=${middle}`)).toEqual(["filt-beta.net", "filt-delta.org", "filt-epsilon.com"]);
    const upper = new Date(Date.parse(f.epsilon.expires_at) + 1000).toISOString();
    expect(await list(`expires_after=${middle}&expires_before=${upper}`)).toEqual(["filt-beta.net", "filt-epsilon.com"]);
    // Offsets other than Z mean the same instant.
    const year = new Date(f.gamma.expires_at).getUTCFullYear();
    expect(await list(`expires_before=${encodeURIComponent(`${year + 1}-01-01T01:00:00+01:00`)}`)).toEqual(
      expect.arrayContaining(["filt-alpha.com", "filt-gamma.co.uk"]),
    );
  });

  it("a bad date answers 400 invalid_query naming the parameter", async () => {
    for (const value of ["tomorrow", "2027-13-01T00:00:00Z", "2027-01-01", "1700000000", ""]) {
      const problem = expectProblem(await api("GET", `/v1/domains?expires_before=${value}`), 400, "invalid_query");
      expect(errorFields(problem), value).toEqual(["expires_before"]);
    }
    const problem = expectProblem(await api("GET", "/v1/domains?expires_after=soon"), 400, "invalid_query");
    expect(errorFields(problem)).toEqual(["expires_after"]);
  });

  it("filters combine with AND", async () => {
    expect(await list(`registrant=${f.reg1.id}&extension=com`)).toEqual(["filt-alpha.com"]);
    expect(await list(`nameserver=ns2.filt-dns.net&repository=verisign&status=ok`)).toEqual(["filt-epsilon.com"]);
    expect(await list(`contact=${f.reg2.id}&status=inactive`)).toEqual(["filt-beta.net"]);
  });

  it("an unknown parameter answers 400 invalid_query naming it", async () => {
    const problem = expectProblem(await api("GET", "/v1/domains?owner=me"), 400, "invalid_query");
    expect(errorFields(problem)).toEqual(["owner"]);
  });
});

describe("domain list sorting", () => {
  // Sorted lists of this describe are restricted with q=sortbed.
  const created: any[] = [];

  beforeAll(async () => {
    const plan: [string, number][] = [
      ["m-sortbed.com", 3],
      ["c-sortbed.net", 7],
      ["x-sortbed.org", 1],
      ["a-sortbed.com", 5],
      ["q-sortbed.info", 2],
      ["e-sortbed.xyz", 10],
      ["k-sortbed.app", 4],
    ];
    for (const [name, period] of plan) created.push(await createDomain(name, { period }));
  });

  const byName = () => [...created].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byExpiry = () => [...created].sort((a, b) => (a.expires_at < b.expires_at ? -1 : a.expires_at > b.expires_at ? 1 : 0));

  const cases: [string, () => any[]][] = [
    ["created_at", () => created],
    ["-created_at", () => [...created].reverse()],
    ["name", byName],
    ["-name", () => byName().reverse()],
    ["expires_at", byExpiry],
    ["-expires_at", () => byExpiry().reverse()],
  ];

  for (const [sort, expected] of cases) {
    it(`sort=${sort} orders the list and pages through it without duplicates or gaps`, async () => {
      const want = expected().map((d) => d.name);
      expect(namesOf(await api("GET", `/v1/domains?q=sortbed&sort=${sort}&limit=200`))).toEqual(want);
      const { items, pages } = await allPages(`/v1/domains?q=sortbed&sort=${encodeURIComponent(sort)}&limit=2`);
      expect(pages.map((p) => p.data.length)).toEqual([2, 2, 2, 1]);
      expect(items.map((d) => d.name)).toEqual(want);
      expect(pages[0]!.link).toContain(`sort=${sort}`);
    });
  }

  it("without sort, the order is creation order", async () => {
    expect(namesOf(await api("GET", "/v1/domains?q=sortbed"))).toEqual(created.map((d) => d.name));
  });

  it("a domain registered while paging by name is neither repeated nor skipped", async () => {
    const first = await api("GET", "/v1/domains?q=sortbed&sort=name&limit=3");
    const seen = namesOf(first);
    await createDomain("z-sortbed-late.com");
    await createDomain("b-sortbed-late.com"); // sorts before the cursor: not on later pages
    let cursor = first.body.next_cursor;
    while (cursor) {
      const page = await api("GET", `/v1/domains?q=sortbed&sort=name&limit=3&cursor=${cursor}`);
      seen.push(...namesOf(page));
      cursor = page.body.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...byName().map((d) => d.name), "z-sortbed-late.com"]);
    expect((await api("DELETE", "/v1/domains/z-sortbed-late.com")).status).toBe(204);
    expect((await api("DELETE", "/v1/domains/b-sortbed-late.com")).status).toBe(204);
  });

  it("an invalid sort answers 400 invalid_query naming sort", async () => {
    for (const sort of ["registrant", "+name", "--name", "NAME", "name,-expires_at", ""]) {
      const problem = expectProblem(await api("GET", `/v1/domains?sort=${encodeURIComponent(sort)}`), 400, "invalid_query");
      expect(errorFields(problem), sort).toEqual(["sort"]);
    }
  });

  it("a cursor of another sort order answers 400 invalid_cursor", async () => {
    const byNamePage = await api("GET", "/v1/domains?q=sortbed&sort=name&limit=2");
    expectProblem(await api("GET", `/v1/domains?q=sortbed&sort=-name&limit=2&cursor=${byNamePage.body.next_cursor}`), 400, "invalid_cursor");
    expectProblem(await api("GET", `/v1/domains?q=sortbed&limit=2&cursor=${byNamePage.body.next_cursor}`), 400, "invalid_cursor");
  });
});
