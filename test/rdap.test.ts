// RDAP views (RFC 9083, media type per RFC 7480 §4.2) of domains, hosts and contacts.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createContact, createDomain, createHost, RFC3339_MS_UTC, UNKNOWN_CONTACT } from "./helpers";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";

const RDAP = "application/rdap+json";
const rdap = (path: string, headers: Record<string, string> = {}) => api("GET", path, { headers: { accept: RDAP, ...headers } });

/** The jCard properties named `name`. */
const props = (entity: any, name: string) => entity.vcardArray[1].filter((p: unknown[]) => p[0] === name);

let registrant: any;
let tech: any;
let domain: any;
let host: any;

beforeAll(async () => {
  registrant = await createContact({
    name: "Ada Lovelace",
    organization: "Analytical Ltd",
    email: "ada@rdap.example",
    phone: "+44.2071234567",
    fax: "+44.2071234568",
    address: { street: ["12 Example Row", "Flat 3"], city: "London", state: "Greater London", postal_code: "N1 9GU", country_code: "GB" },
  });
  tech = await createContact({
    name: "Charles Babbage",
    organization: "Difference Engines",
    email: "charles@rdap.example",
    phone: "+44.2070000000",
    address: { street: ["1 Dorset Street"], city: "London", state: "Greater London", postal_code: "W1U 4EG", country_code: "GB" },
    privacy: true,
  });
  domain = await createDomain("rdap-example.com", {
    registrant: registrant.id,
    contacts: { admin: registrant.id, tech: tech.id },
    status: ["clientTransferProhibited"],
    auth_info: "Sekrit-Auth-Info-42",
  });
  host = await createHost("ns1.rdap-example.com", ["192.0.2.53", "2001:db8::53"]);
  const patched = await api("PATCH", `/v1/domains/${domain.id}`, { json: { nameservers: ["ns1.rdap-example.com", "ns.rdap-dns.net"] } });
  expect(patched.status, patched.text).toBe(200);
  domain = patched.body;
});

describe("content negotiation", () => {
  it("answers application/rdap+json when asked for it, with Vary: Accept", async () => {
    const response = await rdap("/v1/domains/rdap-example.com");
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe(RDAP);
    expect(response.headers.get("vary")).toContain("Accept");
    expect(response.body.objectClassName).toBe("domain");
  });

  it("keeps plain JSON the default: no Accept, */*, application/json, and JSON ranked higher", async () => {
    for (const accept of [undefined, "*/*", "application/json", "application/*", `${RDAP};q=0.5, application/json`, `${RDAP};q=0, */*`]) {
      const response = await api("GET", `/v1/domains/${domain.id}`, accept === undefined ? {} : { headers: { accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(response.body.objectClassName, accept).toBeUndefined();
      expect(response.body.auth_info).toBe("Sekrit-Auth-Info-42");
    }
  });

  it("answers RDAP when it is named at least as high as JSON", async () => {
    for (const accept of [`${RDAP}, application/json`, `application/json;q=0.9, ${RDAP}`, `${RDAP}, */*;q=0.1`]) {
      const response = await api("GET", `/v1/contacts/${registrant.id}`, { headers: { accept } });
      expect(response.headers.get("content-type"), accept).toBe(RDAP);
    }
  });

  it("HEAD answers the RDAP media type too", async () => {
    const response = await api("HEAD", `/v1/hosts/${host.id}`, { headers: { accept: RDAP } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(RDAP);
  });
});

describe("the domain object (RFC 9083 §5.3)", () => {
  let body: any;
  beforeAll(async () => {
    body = (await rdap(`/v1/domains/${domain.id}`)).body;
  });

  it("has its class, handle with the repository's ROID suffix, names and conformance", () => {
    expect(body.objectClassName).toBe("domain");
    expect(body.handle).toBe(`${domain.id}-VRSN`);
    expect(body.ldhName).toBe("rdap-example.com");
    expect(body.unicodeName).toBe("rdap-example.com");
    expect(body.rdapConformance).toContain("rdap_level_0");
  });

  it("shows statuses in RDAP wording (RFC 8056)", () => {
    expect(body.status).toEqual(["client transfer prohibited"]);
  });

  it("has registration, expiration and last changed events", () => {
    expect(body.events).toEqual([
      { eventAction: "registration", eventDate: domain.created_at },
      { eventAction: "expiration", eventDate: domain.expires_at },
      { eventAction: "last changed", eventDate: domain.updated_at },
    ]);
    for (const event of body.events) expect(event.eventDate).toMatch(RFC3339_MS_UTC);
  });

  it("links to itself", () => {
    const href = "http://api.test/v1/domains/rdap-example.com";
    expect(body.links).toEqual([{ value: href, rel: "self", href, type: RDAP }]);
  });

  it("lists its name servers in order, each as the host's own nameserver object", async () => {
    expect(body.nameservers.map((ns: any) => ns.ldhName)).toEqual(["ns1.rdap-example.com", "ns.rdap-dns.net"]);
    const [glue, external] = body.nameservers;
    const { rdapConformance: _, ...standalone } = (await rdap(`/v1/hosts/${host.id}`)).body;
    expect(glue).toEqual(standalone);
    expect(glue.ipAddresses).toEqual({ v4: ["192.0.2.53"], v6: ["2001:db8::53"] });
    expect(external).toMatchObject({ objectClassName: "nameserver", ldhName: "ns.rdap-dns.net", ipAddresses: { v4: [], v6: [] }, status: ["associated"] });
    expect(external.links[0].href).toBe("http://api.test/v1/hosts/ns.rdap-dns.net");
  });

  it("has one entity per contact, with every role it holds, then the registrar", () => {
    expect(body.entities.map((e: any) => [e.handle, e.roles])).toEqual([
      [registrant.id, ["registrant", "administrative"]],
      [tech.id, ["technical"]],
      [OPERATOR_ACCOUNT_ID, ["registrar"]],
    ]);
    for (const entity of body.entities.filter((e: any) => !e.roles.includes("registrar"))) {
      expect(entity.objectClassName).toBe("entity");
      expect(entity.status).toEqual(["associated"]);
      expect(entity.links[0]).toMatchObject({ rel: "self", href: `http://api.test/v1/contacts/${entity.handle}`, type: RDAP });
    }
  });

  it("names the sponsoring account as its registrar entity (RFC 9083 §10.2.4), with the account's name and link", async () => {
    const me = (await api("GET", "/v1/me")).body;
    const registrar = body.entities.find((e: any) => e.roles.includes("registrar"));
    expect(registrar).toEqual({
      objectClassName: "entity",
      handle: OPERATOR_ACCOUNT_ID,
      vcardArray: [
        "vcard",
        [
          ["version", {}, "text", "4.0"],
          ["fn", {}, "text", me.account.name],
          ["kind", {}, "text", "org"],
        ],
      ],
      roles: ["registrar"],
      status: ["active"],
      events: [],
      links: [expect.objectContaining({ rel: "self", href: `http://api.test/v1/accounts/${OPERATOR_ACCOUNT_ID}` })],
    });
  });

  it("gives a public contact a full jCard (RFC 7095)", () => {
    const entity = body.entities[0];
    expect(entity.vcardArray).toEqual([
      "vcard",
      [
        ["version", {}, "text", "4.0"],
        ["fn", {}, "text", "Ada Lovelace"],
        ["org", {}, "text", "Analytical Ltd"],
        ["email", {}, "text", "ada@rdap.example"],
        ["tel", { type: "voice" }, "uri", "tel:+44.2071234567"],
        ["tel", { type: "fax" }, "uri", "tel:+44.2071234568"],
        ["adr", { cc: "GB" }, "text", ["", "", ["12 Example Row", "Flat 3"], "London", "Greater London", "N1 9GU", "GB"]],
      ],
    ]);
  });

  it("redacts a private contact (RFC 9537) and says so", () => {
    const entity = body.entities[1];
    expect(props(entity, "fn")).toEqual([["fn", {}, "text", ""]]);
    for (const name of ["org", "email", "tel"]) expect(props(entity, name), name).toEqual([]);
    expect(props(entity, "adr")).toEqual([["adr", { cc: "GB" }, "text", ["", "", "", "", "Greater London", "", "GB"]]]);
    expect(JSON.stringify(entity)).not.toMatch(/Charles|Babbage|Difference|charles@|2070000000|Dorset|W1U/);

    expect(body.rdapConformance).toEqual(["rdap_level_0", "redacted"]);
    const at = `$.entities[?(@.handle=='${tech.id}')].vcardArray[1]`;
    expect(body.redacted).toEqual([
      { name: { type: "Tech Name" }, postPath: `${at}[?(@[0]=='fn')][3]`, pathLang: "jsonpath", method: "emptyValue", reason: expect.any(Object) },
      { name: { description: "Tech Organization" }, prePath: `${at}[?(@[0]=='org')]`, pathLang: "jsonpath", method: "removal", reason: expect.any(Object) },
      { name: { type: "Tech Email" }, prePath: `${at}[?(@[0]=='email')]`, pathLang: "jsonpath", method: "removal", reason: expect.any(Object) },
      {
        name: { type: "Tech Phone" },
        prePath: `${at}[?(@[0]=='tel' && @[1].type=='voice')]`,
        pathLang: "jsonpath",
        method: "removal",
        reason: expect.any(Object),
      },
      { name: { description: "Tech Street" }, postPath: `${at}[?(@[0]=='adr')][3][2]`, pathLang: "jsonpath", method: "emptyValue", reason: expect.any(Object) },
      { name: { description: "Tech City" }, postPath: `${at}[?(@[0]=='adr')][3][3]`, pathLang: "jsonpath", method: "emptyValue", reason: expect.any(Object) },
      {
        name: { description: "Tech Postal Code" },
        postPath: `${at}[?(@[0]=='adr')][3][5]`,
        pathLang: "jsonpath",
        method: "emptyValue",
        reason: expect.any(Object),
      },
    ]);
    expect(body.redacted[0].reason.description).toEqual(expect.any(String));
  });

  it("never shows auth_info", async () => {
    const response = await rdap("/v1/domains/rdap-example.com");
    expect(response.text).not.toContain("Sekrit-Auth-Info-42");
    expect(response.text).not.toMatch(/auth_?info/i);
  });

  it("shows inactive and active in RDAP wording", async () => {
    const bare = await createDomain("rdap-bare.com");
    expect((await rdap(`/v1/domains/${bare.id}`)).body.status).toEqual(["inactive"]);
    await api("PATCH", `/v1/domains/${bare.id}`, { json: { nameservers: ["ns.rdap-dns.net"] } });
    const active = (await rdap(`/v1/domains/${bare.id}`)).body;
    expect(active.status).toEqual(["active"]);
    expect(active.entities.map((e: any) => e.roles)).toEqual([["registrar"]]);
    expect(active.rdapConformance).toEqual(["rdap_level_0"]);
    expect(active.redacted).toBeUndefined();
  });
});

describe("the domain object shows every name server, another account's host by its name only", () => {
  it("a customer's domain naming its own host and the operator's: both listed in order, the other's without handle, addresses, status or link", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "rdap-ns-customer" } });
    expect(account.status, account.text).toBe(201);
    const token = await api("POST", "/v1/tokens", { json: { name: "rdap-ns-token", scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    const customer = { authorization: `Bearer ${token.body.secret}` };
    await createDomain("rdap-operator.com");
    const operatorsHost = await createHost("ns1.rdap-operator.com", ["192.0.2.77"]);
    const ownHost = await api("POST", "/v1/hosts", { json: { name: "ns1.rdap-customer.net" }, headers: customer });
    expect(ownHost.status, ownHost.text).toBe(201);
    const created = await api("POST", "/v1/domains", {
      json: { name: "rdap-mixed.com", nameservers: ["ns1.rdap-operator.com", "ns1.rdap-customer.net"] },
      headers: customer,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.nameservers).toEqual(["ns1.rdap-operator.com", "ns1.rdap-customer.net"]);

    const response = await rdap("/v1/domains/rdap-mixed.com", customer);
    expect(response.status, response.text).toBe(200);
    const [other, own] = response.body.nameservers;
    expect(response.body.nameservers).toHaveLength(2);
    expect(other).toEqual({ objectClassName: "nameserver", ldhName: "ns1.rdap-operator.com", unicodeName: "ns1.rdap-operator.com" });
    expect(JSON.stringify(response.body)).not.toContain(operatorsHost.id);
    expect(JSON.stringify(response.body)).not.toContain("192.0.2.77");
    const { rdapConformance: _, ...standalone } = (await rdap(`/v1/hosts/${ownHost.body.id}`, customer)).body;
    expect(own).toEqual(standalone);
    // The operator sees every account's hosts: both as host objects.
    const byOperator = await rdap("/v1/domains/rdap-mixed.com");
    expect(byOperator.body.nameservers.map((ns: any) => [ns.ldhName, ns.handle])).toEqual([
      ["ns1.rdap-operator.com", operatorsHost.id],
      ["ns1.rdap-customer.net", ownHost.body.id],
    ]);
  });
});

describe("the nameserver object (RFC 9083 §5.2)", () => {
  it("has its class, handle, names, addresses, status, events and links", async () => {
    const response = await rdap("/v1/hosts/ns1.rdap-example.com");
    expect(response.status).toBe(200);
    const self = "http://api.test/v1/hosts/ns1.rdap-example.com";
    expect(response.body).toEqual({
      objectClassName: "nameserver",
      handle: host.id,
      ldhName: "ns1.rdap-example.com",
      unicodeName: "ns1.rdap-example.com",
      ipAddresses: { v4: ["192.0.2.53"], v6: ["2001:db8::53"] },
      status: ["associated"],
      events: [
        { eventAction: "registration", eventDate: host.created_at },
        { eventAction: "last changed", eventDate: expect.stringMatching(RFC3339_MS_UTC) },
      ],
      links: [{ value: self, rel: "self", href: self, type: RDAP }],
      rdapConformance: ["rdap_level_0"],
    });
  });

  it("shows an unused host as active", async () => {
    const unused = await createHost("ns9.rdap-unused.net");
    expect((await rdap(`/v1/hosts/${unused.id}`)).body.status).toEqual(["active"]);
  });
});

describe("the entity object (RFC 9083 §5.1)", () => {
  it("has its class, handle, jCard, status, events and links, and no roles outside a domain", async () => {
    const response = await rdap(`/v1/contacts/${registrant.id}`);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ objectClassName: "entity", handle: registrant.id, status: ["associated"], rdapConformance: ["rdap_level_0"] });
    expect(body.roles).toBeUndefined();
    expect(body.redacted).toBeUndefined();
    expect(body.vcardArray[0]).toBe("vcard");
    expect(props(body, "fn")).toEqual([["fn", {}, "text", "Ada Lovelace"]]);
    expect(props(body, "email")).toEqual([["email", {}, "text", "ada@rdap.example"]]);
    expect(body.events).toEqual([
      { eventAction: "registration", eventDate: registrant.created_at },
      { eventAction: "last changed", eventDate: registrant.updated_at },
    ]);
    const self = `http://api.test/v1/contacts/${registrant.id}`;
    expect(body.links).toEqual([{ value: self, rel: "self", href: self, type: RDAP }]);
  });

  it("redacts a private contact with paths from the entity's root", async () => {
    const body = (await rdap(`/v1/contacts/${tech.id}`)).body;
    expect(body.rdapConformance).toEqual(["rdap_level_0", "redacted"]);
    expect(props(body, "fn")).toEqual([["fn", {}, "text", ""]]);
    expect(props(body, "email")).toEqual([]);
    expect(body.redacted.map((r: any) => [r.name.description, r.method, r.prePath ?? r.postPath])).toEqual([
      ["Contact Name", "emptyValue", "$.vcardArray[1][?(@[0]=='fn')][3]"],
      ["Contact Organization", "removal", "$.vcardArray[1][?(@[0]=='org')]"],
      ["Contact Email", "removal", "$.vcardArray[1][?(@[0]=='email')]"],
      ["Contact Phone", "removal", "$.vcardArray[1][?(@[0]=='tel' && @[1].type=='voice')]"],
      ["Contact Street", "emptyValue", "$.vcardArray[1][?(@[0]=='adr')][3][2]"],
      ["Contact City", "emptyValue", "$.vcardArray[1][?(@[0]=='adr')][3][3]"],
      ["Contact Postal Code", "emptyValue", "$.vcardArray[1][?(@[0]=='adr')][3][5]"],
    ]);
  });

  it("uses the registered redaction names for a registrant", async () => {
    const hidden = await createContact({
      name: "Hidden Registrant",
      email: "hidden@rdap.example",
      address: { city: "Paris", country_code: "FR" },
      privacy: true,
    });
    const registered = await createDomain("rdap-private.com", { registrant: hidden.id });
    const body = (await rdap(`/v1/domains/${registered.id}`)).body;
    expect(body.redacted.map((r: any) => r.name)).toEqual([{ type: "Registrant Name" }, { type: "Registrant Email" }, { type: "Registrant City" }]);
    expect(props(body.entities[0], "adr")).toEqual([["adr", { cc: "FR" }, "text", ["", "", "", "", "", "", "FR"]]]);
  });
});

describe("errors in RDAP form (RFC 9083 §6)", () => {
  const expectRdapError = (response: Awaited<ReturnType<typeof api>>, status: number) => {
    expect(response.status, response.text).toBe(status);
    expect(response.headers.get("content-type")).toBe(RDAP);
    expect(response.body).toEqual({ rdapConformance: ["rdap_level_0"], errorCode: status, title: expect.any(String), description: [expect.any(String)] });
    expect(response.headers.get("x-request-id")).toEqual(expect.any(String));
  };

  it("answers 404 for unknown domains, hosts and contacts", async () => {
    for (const path of [
      "/v1/domains/nothing-here.com",
      "/v1/domains/dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
      "/v1/hosts/ns.nothing-here.com",
      `/v1/contacts/${UNKNOWN_CONTACT}`,
    ]) {
      const response = await rdap(path);
      expectRdapError(response, 404);
      expect(response.body.title).toBe("Not found");
    }
  });

  it("answers 401 without a token and 400 for an unknown query parameter", async () => {
    expectRdapError(await api("GET", `/v1/contacts/${registrant.id}`, { auth: false, headers: { accept: RDAP } }), 401);
    expectRdapError(await rdap(`/v1/contacts/${registrant.id}?bogus=1`), 400);
  });

  it("keeps problem details for JSON clients", async () => {
    const response = await api("GET", "/v1/domains/nothing-here.com");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  });
});

describe("the OpenAPI document", () => {
  it("documents the RDAP variant of the three reads and their errors", async () => {
    const doc = (await api("GET", "/v1/openapi.json")).body;
    for (const [path, schema] of [
      ["/domains/{domain}", "RdapDomain"],
      ["/hosts/{host}", "RdapNameserverResponse"],
      ["/contacts/{contact}", "RdapEntityResponse"],
    ] as const) {
      const get = doc.paths[path].get;
      expect(get.responses["200"].content[RDAP].schema.$ref, path).toBe(`#/components/schemas/${schema}`);
      expect(get.responses["404"].content[RDAP].schema.$ref, path).toBe("#/components/schemas/RdapError");
    }
    expect(JSON.stringify(doc.components.schemas.RdapDomain)).not.toContain("auth_info");
  });
});
