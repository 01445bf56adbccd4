// docs/model.md#extensions (extensions), §3 (repositories and their sub-listings) and what §0 says a
// repository holds.
import { beforeAll, describe, expect, it } from "vitest";
import { allowedMethods, allPages, api, createContact, createDomain, createHost, expectProblem, idsOf, namesOf, RFC3339_MS_UTC } from "./helpers";

const REQUIRED: Record<string, string> = {
  com: "verisign",
  net: "verisign",
  org: "pir",
  info: "identity-digital",
  io: "identity-digital",
  dev: "google",
  app: "google",
  uk: "nominet",
  "co.uk": "nominet",
  de: "denic",
  nl: "sidn",
  eu: "eurid",
  ch: "switch",
  xyz: "xyz",
};
const GENERIC = ["com", "net", "org", "info", "dev", "app", "xyz"];
const COUNTRY_CODE = ["io", "uk", "co.uk", "de", "nl", "eu", "ch"];

function expectExtensionShape(extension: any) {
  expect(Object.keys(extension).sort()).toEqual(
    [
      "created_at",
      "dnssec",
      "grace_periods",
      "id",
      "idn",
      "name",
      "nameservers",
      "periods",
      "repository",
      "type",
      "unicode_name",
      "updated_at",
      "transfer_lock_days",
      "pending_transfer_days",
      "prices",
    ].sort(),
  );
  // Prices for every period the extension allows, decimal strings in one currency.
  const years = Array.from({ length: extension.periods.max - extension.periods.min + 1 }, (_, i) => String(extension.periods.min + i));
  expect(Object.keys(extension.prices).sort()).toEqual(["currency", "register", "renew", "restore", "transfer"]);
  expect(extension.prices.currency).toBe("USD");
  for (const operation of ["register", "renew", "transfer"]) expect(Object.keys(extension.prices[operation]), operation).toEqual(years);
  for (const amount of [...Object.values<string>(extension.prices.register), extension.prices.restore]) expect(amount).toMatch(/^\d+\.\d\d$/);
  expect(extension.name).toBe(extension.id);
  expect(extension.unicode_name).toEqual(expect.any(String));
  expect(["generic", "country-code", "sponsored"]).toContain(extension.type);
  expect(extension.periods).toEqual({ min: expect.any(Number), max: expect.any(Number) });
  expect(Number.isInteger(extension.periods.min) && extension.periods.min >= 1).toBe(true);
  expect(extension.periods.max).toBeGreaterThanOrEqual(extension.periods.min);
  expect(extension.periods.max).toBeLessThanOrEqual(10);
  expect(Object.keys(extension.grace_periods).sort()).toEqual(["add", "auto_renew", "pending_delete", "redemption", "renew", "transfer"]);
  for (const days of Object.values(extension.grace_periods)) expect(Number.isInteger(days) && (days as number) >= 0).toBe(true);
  expect(extension.nameservers).toEqual({ min: expect.any(Number), max: expect.any(Number) });
  expect(extension.nameservers.min).toBeGreaterThanOrEqual(0);
  expect(extension.nameservers.max).toBeGreaterThanOrEqual(Math.max(1, extension.nameservers.min));
  expect(extension.nameservers.max).toBeLessThanOrEqual(13);
  expect(typeof extension.idn).toBe("boolean");
  expect(typeof extension.dnssec).toBe("boolean");
  expect(extension.created_at).toMatch(RFC3339_MS_UTC);
  expect(extension.updated_at).toMatch(RFC3339_MS_UTC);
}

describe("the extension catalog", () => {
  it("lists every required extension with the shape of §2 and its repository", async () => {
    const response = await api("GET", "/v1/extensions");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.body.next_cursor).toBeNull();
    const byId = new Map<string, any>(response.body.data.map((e: any) => [e.id, e]));
    for (const [id, repository] of Object.entries(REQUIRED)) {
      const extension = byId.get(id);
      expect(extension, id).toBeDefined();
      expectExtensionShape(extension);
      expect(extension.repository, id).toBe(repository);
      expect(extension.unicode_name, id).toBe(id);
    }
    for (const id of GENERIC) expect(byId.get(id).type, id).toBe("generic");
    for (const id of COUNTRY_CODE) expect(byId.get(id).type, id).toBe("country-code");
  });

  it("follows the registries' published figures: gTLDs 1–10 years with ICANN grace periods, .de one year and two name servers", async () => {
    const com = (await api("GET", "/v1/extensions/com")).body;
    expect(com).toMatchObject({
      periods: { min: 1, max: 10 },
      grace_periods: { add: 5, renew: 5, auto_renew: 45, transfer: 5, redemption: 30, pending_delete: 5 },
      idn: true,
      dnssec: true,
    });
    const de = (await api("GET", "/v1/extensions/de")).body;
    expect(de.periods).toEqual({ min: 1, max: 1 });
    expect(de.nameservers.min).toBeGreaterThanOrEqual(2);
    expect(de.idn).toBe(true);
  });

  it("prices every period: n years of registration are the first year and n-1 renewals, a transfer adds a year at its own price", async () => {
    const com = (await api("GET", "/v1/extensions/com")).body;
    expect(com.prices.register).toMatchObject({ "1": "12.00", "2": "24.00", "10": "120.00" });
    expect(com.prices.renew).toMatchObject({ "1": "12.00", "3": "36.00" });
    expect(com.prices.restore).toBe("40.00");
    // .xyz: a cheap first year, a dearer renewal.
    const xyz = (await api("GET", "/v1/extensions/xyz")).body;
    expect(xyz.prices.register).toMatchObject({ "1": "3.00", "2": "18.00", "10": "138.00" });
    expect(xyz.prices.renew).toMatchObject({ "1": "15.00", "2": "30.00" });
    expect(xyz.prices.transfer).toMatchObject({ "1": "15.00", "2": "30.00" });
    // .de registers for exactly one year: one price each.
    const de = (await api("GET", "/v1/extensions/de")).body;
    expect(de.prices).toEqual({ currency: "USD", register: { "1": "9.00" }, renew: { "1": "9.00" }, transfer: { "1": "9.00" }, restore: "25.00" });
  });

  it("is in id order and pages with limit, next_cursor and Link like every list", async () => {
    const all = idsOf(await api("GET", "/v1/extensions?limit=200"));
    expect(all).toEqual([...all].sort());
    const first = await api("GET", "/v1/extensions?limit=4");
    expect(first.body.data).toHaveLength(4);
    expect(first.headers.get("link")).toBe(`</v1/extensions?limit=4&cursor=${first.body.next_cursor}>; rel="next"`);
    const { items, pages } = await allPages("/v1/extensions?limit=4");
    expect(items.map((e) => e.id)).toEqual(all);
    expect(pages[pages.length - 1]!.link).toBeNull();
  });
});

describe("extension list filters", () => {
  it("repository keeps that repository's extensions", async () => {
    expect(idsOf(await api("GET", "/v1/extensions?repository=nominet")).sort()).toEqual(["co.uk", "uk"]);
    expect(idsOf(await api("GET", "/v1/extensions?repository=verisign"))).toEqual(expect.arrayContaining(["com", "net"]));
    for (const e of (await api("GET", "/v1/extensions?repository=google")).body.data) expect(e.repository).toBe("google");
    expect((await api("GET", "/v1/extensions?repository=nowhere")).body.data).toEqual([]);
  });

  it("type keeps extensions of that type", async () => {
    for (const type of ["generic", "country-code", "sponsored"]) {
      const data = (await api("GET", `/v1/extensions?type=${type}`)).body.data;
      for (const e of data) expect(e.type, e.id).toBe(type);
      if (type === "generic") expect(data.map((e: any) => e.id)).toEqual(expect.arrayContaining(GENERIC));
      if (type === "country-code") expect(data.map((e: any) => e.id)).toEqual(expect.arrayContaining(COUNTRY_CODE));
    }
  });

  it("idn=true and idn=false split the catalog", async () => {
    const yes = (await api("GET", "/v1/extensions?idn=true")).body.data;
    const no = (await api("GET", "/v1/extensions?idn=false")).body.data;
    for (const e of yes) expect(e.idn, e.id).toBe(true);
    for (const e of no) expect(e.idn, e.id).toBe(false);
    expect(yes.map((e: any) => e.id)).toEqual(expect.arrayContaining(["com", "de"]));
    expect(no.map((e: any) => e.id)).toContain("io");
    const all = idsOf(await api("GET", "/v1/extensions?limit=200"));
    expect([...yes, ...no].map((e: any) => e.id).sort()).toEqual([...all].sort());
  });

  it("combine with AND", async () => {
    const data = (await api("GET", "/v1/extensions?repository=identity-digital&idn=false")).body.data;
    expect(data.map((e: any) => e.id)).toEqual(["io"]);
  });

  it("bad values and unknown parameters answer 400 invalid_query naming them", async () => {
    for (const [query, field] of [
      ["type=tld", "type"],
      ["idn=yes", "idn"],
      ["idn=1", "idn"],
      ["limit=0", "limit"],
      ["color=red", "color"],
    ] as const) {
      const problem = expectProblem(await api("GET", `/v1/extensions?${query}`), 400, "invalid_query");
      expect(
        problem.errors.map((e: any) => e.field),
        query,
      ).toContain(field);
    }
  });
});

describe("looking up an extension", () => {
  it("answers 200 with the extension and an ETag, by id", async () => {
    const response = await api("GET", "/v1/extensions/co.uk");
    expect(response.status).toBe(200);
    expectExtensionShape(response.body);
    expect(response.body).toMatchObject({ id: "co.uk", name: "co.uk", repository: "nominet" });
    expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
    const cached = await api("GET", "/v1/extensions/co.uk", { headers: { "if-none-match": response.headers.get("etag")! } });
    expect(cached.status).toBe(304);
  });

  it("normalises the name: .CO.UK and co.uk. find co.uk", async () => {
    const canonical = (await api("GET", "/v1/extensions/co.uk")).body;
    for (const segment of [".CO.UK", "co.uk.", "Co.Uk", ".co.uk."]) {
      const response = await api("GET", `/v1/extensions/${segment}`);
      expect(response.status, segment).toBe(200);
      expect(response.body, segment).toEqual(canonical);
    }
    expect((await api("GET", "/v1/extensions/.COM")).body.id).toBe("com");
  });

  it("an unknown extension answers 404 not_found", async () => {
    for (const segment of ["example", "uk.co", "example.com", "nope..x", "-"]) {
      expectProblem(await api("GET", `/v1/extensions/${segment}`), 404, "not_found");
    }
  });
});

describe("the catalog is read-only", () => {
  it("POST, PUT, PATCH and DELETE on extensions and repositories answer 405 with Allow", async () => {
    const cases: [string, string][] = [
      ["POST", "/v1/extensions"],
      ["PUT", "/v1/extensions"],
      ["DELETE", "/v1/extensions"],
      ["POST", "/v1/extensions/com"],
      ["PUT", "/v1/extensions/com"],
      ["PATCH", "/v1/extensions/com"],
      ["DELETE", "/v1/extensions/com"],
      ["POST", "/v1/repositories"],
      ["POST", "/v1/repositories/verisign"],
      ["PUT", "/v1/repositories/verisign"],
      ["PATCH", "/v1/repositories/verisign"],
      ["DELETE", "/v1/repositories/verisign"],
      ["POST", "/v1/repositories/verisign/domains"],
      ["DELETE", "/v1/repositories/verisign/contacts"],
      ["PUT", "/v1/repositories/verisign/hosts"],
    ];
    for (const [method, path] of cases) {
      const response = await api(method, path, { json: { id: "shop", repository: "verisign" } });
      expectProblem(response, 405, "method_not_allowed");
      expect(allowedMethods(response), `${method} ${path}`).toEqual(["GET", "HEAD", "OPTIONS"]);
    }
    expectProblem(await api("GET", "/v1/extensions/shop"), 404, "not_found");
    expect((await api("GET", "/v1/extensions/com")).body.periods).toEqual({ min: 1, max: 10 });
  });
});

describe("the repository catalog", () => {
  it("lists every required repository with the shape of §3 and the extensions it runs", async () => {
    const response = await api("GET", "/v1/repositories");
    expect(response.status).toBe(200);
    const repositories = response.body.data;
    const ids = repositories.map((r: any) => r.id);
    expect(ids).toEqual([...ids].sort());
    const extensions = (await api("GET", "/v1/extensions?limit=200")).body.data;
    for (const id of new Set(Object.values(REQUIRED))) expect(ids, id).toContain(id);
    for (const repository of repositories) {
      expect(Object.keys(repository).sort()).toEqual(["created_at", "extensions", "id", "name", "roid_suffix", "updated_at"]);
      expect(repository.id).toMatch(/^[a-z0-9-]+$/);
      expect(repository.name.length).toBeGreaterThan(0);
      expect(repository.roid_suffix).toMatch(/^[A-Z0-9]{1,8}$/);
      expect(repository.created_at).toMatch(RFC3339_MS_UTC);
      // Its extensions are exactly the extensions that name it.
      const own = extensions.filter((e: any) => e.repository === repository.id).map((e: any) => e.id);
      expect([...repository.extensions].sort(), repository.id).toEqual(own.sort());
    }
    const verisign = repositories.find((r: any) => r.id === "verisign");
    expect(verisign).toMatchObject({ name: "Verisign", roid_suffix: "VRSN" });
    expect([...verisign.extensions].sort()).toEqual(["com", "net"]);
    expect([...repositories.find((r: any) => r.id === "nominet").extensions].sort()).toEqual(["co.uk", "uk"]);
  });

  it("answers one repository by id with an ETag", async () => {
    const response = await api("GET", "/v1/repositories/google");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: "google", roid_suffix: expect.any(String) });
    expect([...response.body.extensions].sort()).toEqual(["app", "dev"]);
    expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
  });

  it("one repository lists its premium names with their prices and its reserved names; the list does not", async () => {
    const verisign = (await api("GET", "/v1/repositories/verisign")).body;
    expect(verisign.reserved_names).toEqual(["nic.com", "nic.net", "whois.com", "whois.net"]);
    expect(verisign.premium_names.map((p: any) => p.name)).toEqual(["hotels.net", "vacation.com"]);
    const vacation = verisign.premium_names.find((p: any) => p.name === "vacation.com");
    expect(vacation).toMatchObject({ unicode_name: "vacation.com", extension: "com" });
    expect(vacation.prices.register).toMatchObject({ "1": "2500.00", "2": "5000.00" });
    expect(Object.keys(vacation.prices.register)).toHaveLength(10);
    expect(vacation.prices.restore).toBe("40.00");
    // A premium name may renew at the extension's price: travel.info costs 600.00 the first year, 24.00 a renewal.
    const info = (await api("GET", "/v1/repositories/identity-digital")).body;
    expect(info.premium_names.find((p: any) => p.name === "travel.info").prices).toMatchObject({
      register: { "1": "600.00", "2": "624.00" },
      renew: { "1": "24.00" },
    });
    const listed = (await api("GET", "/v1/repositories")).body.data.find((r: any) => r.id === "verisign");
    expect(listed).not.toHaveProperty("premium_names");
    expect(listed).not.toHaveProperty("reserved_names");
  });

  it("pages with limit and cursor", async () => {
    const all = idsOf(await api("GET", "/v1/repositories?limit=200"));
    const { items, pages } = await allPages("/v1/repositories?limit=3");
    expect(items.map((r) => r.id)).toEqual(all);
    expect(pages.length).toBe(Math.ceil(all.length / 3));
  });

  it("an unknown repository answers 404, and so do its sub-listings", async () => {
    for (const path of [
      "/v1/repositories/nowhere",
      "/v1/repositories/nowhere/domains",
      "/v1/repositories/nowhere/contacts",
      "/v1/repositories/nowhere/hosts",
      "/v1/repositories/nowhere/domains?limit=5",
      "/v1/repositories/VERISIGNX/hosts",
    ]) {
      expectProblem(await api("GET", path), 404, "not_found");
    }
  });
});

describe("what a repository holds", () => {
  // Verisign holds alpha.com and gamma.net; Nominet holds beta.co.uk and delta.uk.
  const fixture: Record<string, any> = {};

  beforeAll(async () => {
    const contact = (name: string, email: string) => createContact({ name, email });
    fixture.registrant = await contact("Holds Registrant", "holds-registrant@example.org");
    fixture.billing = await contact("Holds Billing", "holds-billing@example.org");
    fixture.tech = await contact("Holds Tech", "holds-tech@example.org");
    fixture.nominetOnly = await contact("Holds Nominet", "holds-nominet@example.org");
    fixture.unused = await contact("Holds Unused", "holds-unused@example.org");
    fixture.alpha = await createDomain("alpha.com", {
      registrant: fixture.registrant.id,
      contacts: { billing: fixture.billing.id },
      nameservers: ["ns.external-dns.net"],
    });
    fixture.sub = await createHost("sub1.alpha.com", ["192.0.2.1"]);
    fixture.subUnused = await createHost("sub2.alpha.com", ["192.0.2.2"]);
    fixture.gamma = await createDomain("gamma.net", { contacts: { tech: fixture.tech.id } });
    fixture.beta = await createDomain("beta.co.uk", { registrant: fixture.nominetOnly.id, nameservers: ["sub1.alpha.com", "ns.uk-dns.net"] });
    fixture.delta = await createDomain("delta.uk", { contacts: { admin: fixture.registrant.id } });
    fixture.lonely = await createHost("lonely.example.org");
  });

  it("domains: those registered under its extensions, in creation order", async () => {
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains"))).toEqual(["alpha.com", "gamma.net"]);
    expect(namesOf(await api("GET", "/v1/repositories/nominet/domains"))).toEqual(["beta.co.uk", "delta.uk"]);
    expect((await api("GET", "/v1/repositories/pir/domains")).body).toEqual({ data: [], next_cursor: null });
  });

  it("domains are the same items as /v1/domains, without auth_info", async () => {
    const held = await api("GET", "/v1/repositories/verisign/domains");
    const top = await api("GET", "/v1/domains?repository=verisign");
    expect(held.body).toEqual(top.body);
    for (const domain of held.body.data) expect(domain).not.toHaveProperty("auth_info");
    const { auth_info: _secret, ...alpha } = fixture.alpha;
    expect(held.body.data[0]).toEqual(alpha);
  });

  it("contacts: those its domains use in any role, billing included", async () => {
    expect(idsOf(await api("GET", "/v1/repositories/verisign/contacts"))).toEqual([fixture.registrant.id, fixture.billing.id, fixture.tech.id]);
    expect(idsOf(await api("GET", "/v1/repositories/nominet/contacts"))).toEqual([fixture.registrant.id, fixture.nominetOnly.id]);
    expect((await api("GET", "/v1/repositories/pir/contacts")).body).toEqual({ data: [], next_cursor: null });
    const held = (await api("GET", "/v1/repositories/verisign/contacts")).body.data[0];
    expect(held).toEqual((await api("GET", `/v1/contacts/${fixture.registrant.id}`)).body);
  });

  it("hosts: those its domains use as name servers, and those subordinate to its domains", async () => {
    // sub2.alpha.com is used by no domain but is subordinate to alpha.com.
    expect(namesOf(await api("GET", "/v1/repositories/verisign/hosts"))).toEqual(["ns.external-dns.net", "sub1.alpha.com", "sub2.alpha.com"]);
    // sub1.alpha.com is a Verisign domain's host, but a Nominet domain uses it too.
    expect(namesOf(await api("GET", "/v1/repositories/nominet/hosts"))).toEqual(["sub1.alpha.com", "ns.uk-dns.net"]);
    expect((await api("GET", "/v1/repositories/pir/hosts")).body).toEqual({ data: [], next_cursor: null });
    const all = namesOf(await api("GET", "/v1/hosts"));
    expect(all).toContain("lonely.example.org");
  });

  it("sub-listings take the same filters as the top-level lists", async () => {
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains?extension=net"))).toEqual(["gamma.net"]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains?q=ALP"))).toEqual(["alpha.com"]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains?status=inactive"))).toEqual(["gamma.net"]);
    expect(namesOf(await api("GET", `/v1/repositories/nominet/domains?contact=${fixture.registrant.id}`))).toEqual(["delta.uk"]);
    expect(namesOf(await api("GET", "/v1/repositories/nominet/domains?nameserver=sub1.alpha.com"))).toEqual(["beta.co.uk"]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains?repository=nominet"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/domains?sort=-name"))).toEqual(["gamma.net", "alpha.com"]);
    expect(idsOf(await api("GET", "/v1/repositories/verisign/contacts?email=holds-billing@example.org"))).toEqual([fixture.billing.id]);
    expect(idsOf(await api("GET", "/v1/repositories/verisign/contacts?q=tech"))).toEqual([fixture.tech.id]);
    expect(idsOf(await api("GET", "/v1/repositories/verisign/contacts?q=nominet"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/hosts?domain=alpha.com"))).toEqual(["sub1.alpha.com", "sub2.alpha.com"]);
    expect(namesOf(await api("GET", `/v1/repositories/nominet/hosts?domain=${fixture.alpha.id}`))).toEqual(["sub1.alpha.com"]);
    expect(namesOf(await api("GET", "/v1/repositories/nominet/hosts?address=192.0.2.1"))).toEqual(["sub1.alpha.com"]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/hosts?q=EXTERNAL"))).toEqual(["ns.external-dns.net"]);
    expect(namesOf(await api("GET", "/v1/repositories/verisign/hosts?name=ns.uk-dns.net"))).toEqual([]);
  });

  it("sub-listings refuse unknown parameters and bad values with 400 invalid_query", async () => {
    for (const path of [
      "/v1/repositories/verisign/domains?colour=red",
      "/v1/repositories/verisign/domains?sort=registrant",
      "/v1/repositories/verisign/contacts?domain=alpha.com",
      "/v1/repositories/verisign/hosts?address=not-an-ip",
      "/v1/repositories/verisign/hosts?limit=201",
    ]) {
      expectProblem(await api("GET", path), 400, "invalid_query");
    }
  });

  it("follow what domains do: a deleted domain's links leave the repository", async () => {
    const temp = await createContact({ name: "Holds Temporary", email: "holds-temporary@example.org" });
    await createDomain("temporary.org", { registrant: temp.id, nameservers: ["ns.temporary-dns.net"] });
    expect(idsOf(await api("GET", "/v1/repositories/pir/contacts"))).toEqual([temp.id]);
    expect(namesOf(await api("GET", "/v1/repositories/pir/hosts"))).toEqual(["ns.temporary-dns.net"]);
    expect((await api("DELETE", "/v1/domains/temporary.org")).status).toBe(204);
    expect(idsOf(await api("GET", "/v1/repositories/pir/contacts"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/repositories/pir/hosts"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/repositories/pir/domains"))).toEqual([]);
  });
});

describe("sub-listing pagination", () => {
  beforeAll(async () => {
    const owner = await createContact({ name: "Pager Owner", email: "pager-owner@example.org" });
    for (let i = 1; i <= 5; i++) {
      const contact = await createContact({ name: `Pager Contact ${i}`, email: `pager-contact${i}@example.org` });
      await createDomain(`pager${i}.dev`, { registrant: owner.id, contacts: { tech: contact.id }, nameservers: [`ns${i}.pager-dns.net`] });
    }
  });

  it("domains page with limit, next_cursor and a Link to the sub-listing, without duplicates or gaps", async () => {
    const first = await api("GET", "/v1/repositories/google/domains?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.headers.get("link")).toBe(`</v1/repositories/google/domains?limit=2&cursor=${first.body.next_cursor}>; rel="next"`);
    const { items, pages } = await allPages("/v1/repositories/google/domains?limit=2");
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(items.map((d) => d.name)).toEqual(["pager1.dev", "pager2.dev", "pager3.dev", "pager4.dev", "pager5.dev"]);
    expect(pages[2]!.next_cursor).toBeNull();
    expect(pages[2]!.link).toBeNull();
    // Following the Link header gives the second page.
    const link = first.headers.get("link")!;
    const next = await api("GET", link.slice(1, link.indexOf(">")));
    expect(next.body.data).toEqual(pages[1]!.data);
  });

  it("domains page in a sort order too", async () => {
    const { items } = await allPages("/v1/repositories/google/domains?limit=2&sort=-name");
    expect(items.map((d) => d.name)).toEqual(["pager5.dev", "pager4.dev", "pager3.dev", "pager2.dev", "pager1.dev"]);
  });

  it("contacts and hosts page the same way", async () => {
    const contacts = await allPages("/v1/repositories/google/contacts?limit=2");
    expect(contacts.items.map((c) => c.name)).toEqual([
      "Pager Owner",
      "Pager Contact 1",
      "Pager Contact 2",
      "Pager Contact 3",
      "Pager Contact 4",
      "Pager Contact 5",
    ]);
    expect(contacts.pages[0]!.link).toBe(`</v1/repositories/google/contacts?limit=2&cursor=${contacts.pages[0]!.next_cursor}>; rel="next"`);
    const hosts = await allPages("/v1/repositories/google/hosts?limit=2&q=pager");
    expect(hosts.items.map((h) => h.name)).toEqual(["ns1.pager-dns.net", "ns2.pager-dns.net", "ns3.pager-dns.net", "ns4.pager-dns.net", "ns5.pager-dns.net"]);
    expect(hosts.pages[0]!.link).toBe(`</v1/repositories/google/hosts?limit=2&q=pager&cursor=${hosts.pages[0]!.next_cursor}>; rel="next"`);
  });

  it("a cursor of the top-level list or another repository answers 400 invalid_cursor", async () => {
    const top = await api("GET", "/v1/domains?limit=1");
    expectProblem(await api("GET", `/v1/repositories/google/domains?limit=1&cursor=${top.body.next_cursor}`), 400, "invalid_cursor");
    const google = await api("GET", "/v1/repositories/google/hosts?limit=1");
    expectProblem(await api("GET", `/v1/repositories/verisign/hosts?limit=1&cursor=${google.body.next_cursor}`), 400, "invalid_cursor");
    expectProblem(await api("GET", `/v1/hosts?limit=1&cursor=${google.body.next_cursor}`), 400, "invalid_cursor");
  });
});
