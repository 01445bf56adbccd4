// `q` on every list: a case-insensitive substring of the name, matched literally (no
// wildcards), accepted up to its documented length in any script, and for DNS names in
// both forms: the stored A-labels and the Unicode a person types (RFC 5890 §2.3.2.1).
import { beforeAll, describe, expect, it } from "vitest";
import { api, createContact, createDomain, createHost, expectProblem } from "./helpers";

/** The documented limit: 255 characters (Unicode code points). */
const MAX_Q = 255;

/** Every list that takes `q`, with its repository sub-listings and a zone's records. */
const LISTS = [
  "/v1/contacts",
  "/v1/domains",
  "/v1/hosts",
  "/v1/zones",
  "/v1/records",
  "/v1/zones/search-lists.example/records",
  "/v1/repositories/verisign/contacts",
  "/v1/repositories/verisign/domains",
  "/v1/repositories/verisign/hosts",
];

/** One character of each class; `%`, `_` and `\` are LIKE's specials, the others take 2 to 4 bytes in UTF-8. */
const CLASSES: [string, string][] = [
  ["ASCII letters", "a"],
  ["percent signs", "%"],
  ["underscores", "_"],
  ["backslashes", "\\"],
  ["two-byte UTF-8 (ü)", "ü"],
  ["three-byte UTF-8 (中)", "中"],
  ["emoji (four bytes, two UTF-16 units)", "😀"],
];

function listUrl(list: string, q: string): string {
  return `${list}?q=${encodeURIComponent(q)}`;
}

async function names(list: string, q: string): Promise<string[]> {
  const response = await api("GET", listUrl(list, q));
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((item: { name: string }) => item.name);
}

beforeAll(async () => {
  const contact = await createContact({ name: "Search Lists" });
  await createDomain("search-lists.com", { registrant: contact.id, nameservers: ["ns1.search-lists.net", "ns2.search-lists.net"] });
  const zone = await api("POST", "/v1/zones", { json: { name: "search-lists.example", nameservers: ["ns1.example.net", "ns2.example.net"] } });
  expect(zone.status, zone.text).toBe(201);
});

describe("q of the longest allowed length, in every character class, answers 200 on every list", () => {
  for (const [label, ch] of CLASSES) {
    it.each(LISTS)(`${label}: %s`, async (list) => {
      const q = ch.repeat(MAX_Q);
      const response = await api("GET", listUrl(list, q));
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ data: [], next_cursor: null });
    });
  }
});

describe("q over the limit answers 400 invalid_query naming q", () => {
  for (const [label, ch] of CLASSES) {
    it.each(LISTS)(`${label}: %s`, async (list) => {
      const body = expectProblem(await api("GET", listUrl(list, ch.repeat(MAX_Q + 1))), 400, "invalid_query");
      expect(body.errors).toEqual([{ field: "q", message: `must be at most ${MAX_Q} characters` }]);
    });
  }

  it("an empty q is refused too", async () => {
    const body = expectProblem(await api("GET", "/v1/domains?q="), 400, "invalid_query");
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["q"]);
  });

  it("the limit is in the OpenAPI document of every list that takes q", async () => {
    const doc = (await api("GET", "/v1/openapi.json")).body;
    const paths = ["/contacts", "/domains", "/hosts", "/zones", "/records", "/zones/{zone}/records", "/repositories/{repository}/domains"];
    for (const path of paths) {
      const q = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === "q");
      expect(q?.schema, path).toMatchObject({ type: "string", minLength: 1, maxLength: MAX_Q });
      expect(q.description, path).toContain(`${MAX_Q} characters`);
    }
  });

  it("/v1/events takes no q", async () => {
    const body = expectProblem(await api("GET", "/v1/events?q=a"), 400, "invalid_query");
    expect(body.errors).toEqual([{ field: "q", message: "is not a parameter of this operation" }]);
  });
});

describe("q matches literally: %, _ and \\ are characters, not wildcards", () => {
  it("a contact name holding them is found by them, and they match nothing else", async () => {
    await createContact({ name: "Percent 100% under_score back\\slash" });
    await createContact({ name: "Percent 1000 underscore backslash" });
    expect(await names("/v1/contacts", "100%")).toEqual(["Percent 100% under_score back\\slash"]);
    expect(await names("/v1/contacts", "r_s")).toEqual(["Percent 100% under_score back\\slash"]);
    expect(await names("/v1/contacts", "k\\s")).toEqual(["Percent 100% under_score back\\slash"]);
    expect(await names("/v1/contacts", "%")).toEqual(["Percent 100% under_score back\\slash"]);
  });

  it("a contact's name is matched case-insensitively in any script", async () => {
    await createContact({ name: "Łukasz Żółć" });
    expect(await names("/v1/contacts", "ŁUKASZ żÓŁć")).toEqual(["Łukasz Żółć"]);
  });

  it("a long q that matches finds its row (no pattern limit)", async () => {
    const long = `x${"y".repeat(60)}`;
    await createContact({ name: `Long ${long} Name` });
    expect(await names("/v1/contacts", long.toUpperCase())).toEqual([`Long ${long} Name`]);
  });
});

describe("names are searched in both forms, A-label and Unicode", () => {
  beforeAll(async () => {
    const contact = await createContact({ name: "IDN Holder" });
    await createDomain("münchen.de", { registrant: contact.id, nameservers: ["ns1.münchen-dns.net", "ns2.example.net"] });
    const zone = await api("POST", "/v1/zones", { json: { name: "bücher-suche.example", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(zone.status, zone.text).toBe(201);
    const record = await api("POST", "/v1/records", { json: { zone: "bücher-suche.example", name: "café", type: "A", content: "192.0.2.7" } });
    expect(record.status, record.text).toBe(201);
    await createHost("ns1.grüße-suche.net");
  });

  it("domains: the Unicode name, any case, its A-label and a part of the A-label all find it", async () => {
    const expected = ["xn--mnchen-3ya.de"];
    expect(await names("/v1/domains", "münchen")).toEqual(expected);
    expect(await names("/v1/domains", "MÜNCHEN.DE")).toEqual(expected);
    expect(await names("/v1/domains", "münchen.d")).toEqual(expected);
    expect(await names("/v1/domains", "xn--mnchen-3ya")).toEqual(expected);
    expect(await names("/v1/domains", "mnchen")).toEqual(expected);
    expect(await names("/v1/repositories/denic/domains", "münchen")).toEqual(expected);
    expect(await names("/v1/domains", "münchen-other")).toEqual([]);
  });

  it("hosts: by the Unicode form of a label, whole or of the name", async () => {
    expect(await names("/v1/hosts", "grüße-suche")).toEqual(["ns1.xn--gre-suche-h1a23a.net"]);
    expect(await names("/v1/hosts", "ns1.grüße-suche.net")).toEqual(["ns1.xn--gre-suche-h1a23a.net"]);
    expect(await names("/v1/hosts", "münchen-dns")).toEqual(["ns1.xn--mnchen-dns-9db.net"]);
  });

  it("zones: by the Unicode name", async () => {
    expect(await names("/v1/zones", "bücher-suche")).toEqual(["xn--bcher-suche-thb.example"]);
    expect(await names("/v1/zones", "BÜCHER-SUCHE.example")).toEqual(["xn--bcher-suche-thb.example"]);
  });

  it("records: by the Unicode owner name, in the zone's list and the global one", async () => {
    expect(await names("/v1/zones/bücher-suche.example/records", "café")).toEqual(["xn--caf-dma"]);
    expect(await names("/v1/records", "CAFÉ")).toEqual(["xn--caf-dma"]);
    expect(await names("/v1/records", "caf")).toEqual(["xn--caf-dma"]);
  });

  it("a contact's q is a person's name, not a DNS name: no A-label form is searched", async () => {
    await createContact({ name: "xn--mnchen-3ya Person" });
    expect(await names("/v1/contacts", "münchen")).toEqual([]);
  });
});
