import { describe, expect, it } from "vitest";
import { api, createContact, expectProblem } from "./helpers";

describe("registering a domain", () => {
  it("answers 201 with the domain, its extension, repository and expiry", async () => {
    const contact = await createContact();
    const response = await api("POST", "/v1/domains", {
      json: { name: "Example.COM", registrant: contact.id, contacts: { admin: contact.id }, nameservers: ["ns1.example.net", "NS2.example.net."], period: 2, status: ["clientTransferProhibited"] },
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
    expect(byName.body).toEqual(response.body);
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
