import { describe, expect, it } from "vitest";
import { api, createContact, expectProblem } from "./helpers";

describe("subordinate and external hosts", () => {
  it("a host under a domain managed here is subordinate and needs addresses", async () => {
    const contact = await createContact();
    const domain = (await api("POST", "/v1/domains", { json: { name: "example.com", registrant: contact.id } })).body;
    const missing = await api("POST", "/v1/hosts", { json: { name: "ns1.example.com" } });
    expectProblem(missing, 422, "policy_violation");
    const created = await api("POST", "/v1/hosts", { json: { name: "NS1.example.com", addresses: ["192.0.2.53", "2001:DB8:0:0::53"] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "ns1.example.com", domain: domain.id, addresses: ["192.0.2.53", "2001:db8::53"], status: ["ok"] });
    const patched = await api("PATCH", "/v1/domains/example.com", { json: { nameservers: ["ns1.example.com", "ns.other.net"] } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.nameservers).toEqual(["ns1.example.com", "ns.other.net"]);
    const renamed = await api("PATCH", "/v1/hosts/ns1.example.com", { json: { name: "dns1.example.com" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api("GET", "/v1/domains/example.com")).body.nameservers).toEqual(["dns1.example.com", "ns.other.net"]);
    const del = await api("DELETE", "/v1/domains/example.com");
    expectProblem(del, 409, "object_linked");
    const held = await api("GET", "/v1/repositories/verisign/hosts");
    expect(held.body.data.map((h: any) => h.name)).toEqual(["dns1.example.com", "ns.other.net"]);
    const byAddr = await api("GET", "/v1/hosts?address=2001:db8:0::53");
    expect(byAddr.body.data.map((h: any) => h.name)).toEqual(["dns1.example.com"]);
  });
});
