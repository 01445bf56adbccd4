import { describe, expect, it } from "vitest";
import { api, expectProblem } from "./helpers";

describe("zones smoke", () => {
  it("creates, exports, imports, deletes", async () => {
    const created = await api("POST", "/v1/zones", { json: { name: "Example.com.", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "example.com", record_count: 2, default_ttl: 3600, soa: { mname: "ns1.example.net", rname: "hostmaster.example.com" } });
    const exported = await api("GET", "/v1/zones/example.com", { headers: { accept: "text/dns" } });
    expect(exported.status).toBe(200);
    console.log(exported.text);
    const imported = await api("POST", "/v1/zones?name=example.org", { body: exported.text.replace(/\$ORIGIN.*\n/, ""), headers: { "content-type": "text/dns" } });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body.record_count).toBe(2);
    const bad = await api("POST", "/v1/zones", { body: "$ORIGIN x.test.\n@ IN NS ns1.example.net.\nfoo IN A 999.1.1.1\nbar IN MX abc\n", headers: { "content-type": "text/dns" } });
    expectProblem(bad, 422, "validation_failed");
    console.log(JSON.stringify(bad.body.errors));
    const del = await api("DELETE", "/v1/zones/example.com");
    expect(del.status, del.text).toBe(204);
    const serial = await api("PATCH", "/v1/zones/example.org", { json: { default_ttl: 300 } });
    expect(serial.status, serial.text).toBe(200);
    console.log(serial.body.soa.serial, imported.body.soa.serial);
    const ro = await api("PATCH", "/v1/zones/example.org", { json: { soa: { serial: 5 } } });
    expectProblem(ro, 422, "read_only_field");
  });
});

describe("records smoke", () => {
  it("creates records with DNS rules", async () => {
    await api("POST", "/v1/zones", { json: { name: "example.net", nameservers: ["ns1.example.org"] } });
    const a = await api("POST", "/v1/records", { json: { zone: "example.net", name: "www", type: "a", content: "192.0.2.10" } });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({ name: "www", fqdn: "www.example.net", type: "A", content: "192.0.2.10", ttl: 3600 });
    const cname = await api("POST", "/v1/records", { json: { zone: "example.net", name: "www", type: "CNAME", content: "other.example.org" } });
    expectProblem(cname, 409, "rrset_conflict");
    const dup = await api("POST", "/v1/records", { json: { zone: "example.net", name: "www.example.net.", type: "A", content: "192.0.2.10" } });
    expectProblem(dup, 409, "already_exists");
    const mx = await api("POST", "/v1/records", { json: { zone: "example.net", type: "MX", content: "10 mail.example.net", ttl: 60 } });
    expect(mx.body.content).toBe("10 mail.example.net.");
    const b = await api("POST", "/v1/records", { json: { zone: "example.net", name: "www", type: "A", content: "192.0.2.11", ttl: 120 } });
    const list = await api("GET", "/v1/zones/example.net/records?name=www");
    expect(list.body.data.map((r: any) => r.ttl)).toEqual([120, 120]);
    const ns = (await api("GET", "/v1/zones/example.net/records?type=NS")).body.data[0];
    const last = await api("DELETE", `/v1/records/${ns.id}`);
    expectProblem(last, 409, "rrset_conflict");
    const zone = await api("GET", "/v1/zones/example.net");
    expect(zone.body.record_count).toBe(4);
    console.log(zone.body.soa.serial);
    const del = await api("DELETE", `/v1/records/${b.body.id}`);
    expect(del.status).toBe(204);
    const zone2 = await api("GET", "/v1/zones/example.net");
    expect(zone2.body.record_count).toBe(3);
    expect(zone2.body.soa.serial).toBeGreaterThan(zone.body.soa.serial);
    const zdel = await api("DELETE", "/v1/zones/example.net");
    expect(zdel.status, zdel.text).toBe(204);
    expect((await api("GET", `/v1/records/${a.body.id}`)).status).toBe(404);
  });
});
