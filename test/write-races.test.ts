// Races decided at commit time (issue 10): each test lets another request commit between a
// write's reads and its batch (test/interleave.ts), which is exactly what a concurrent
// client can do, and checks that the rule the write checked still holds in what it commits.
import { describe, expect, it } from "vitest";
import { adaAddress, api, createContact, createDomain, createHost, errorFor, expectProblem } from "./helpers";
import { apiWithHooks, onceBeforeWriting } from "./interleave";

async function eventsFor(resource: string): Promise<any[]> {
  const response = await api("GET", `/v1/events?resource=${resource}&limit=200`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

async function deleteHost(name: string) {
  const response = await api("DELETE", `/v1/hosts/${name}`);
  expect(response.status, response.text).toBe(204);
}

describe("a domain write and the hosts it links commit together or not at all", () => {
  it("a create whose named host is deleted before its write still links every name server it answers with", async () => {
    const contact = await createContact();
    await createHost("ns2.six-a.net");
    const nameservers = ["ns1.six-a.net", "ns2.six-a.net"];
    const created = await apiWithHooks(
      "POST",
      "/v1/domains",
      onceBeforeWriting("domains", () => deleteHost("ns2.six-a.net")),
      { json: { name: "six-a.com", registrant: contact.id, nameservers } },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.nameservers).toEqual(nameservers);
    const stored = await api("GET", "/v1/domains/six-a.com");
    expect(stored.body.nameservers).toEqual(nameservers);
    const [create] = await eventsFor(created.body.id);
    expect(create.after.nameservers).toEqual(nameservers);
    // The vanished host came back as a new external host, with its own create event.
    const host = await api("GET", "/v1/hosts/ns2.six-a.net");
    expect(host.status).toBe(200);
    expect(host.body.domain).toBeNull();
  });

  it("a create whose named host under a managed domain is deleted before its write answers 422 and writes nothing", async () => {
    const contact = await createContact();
    await createDomain("six-b.com", { registrant: contact.id, nameservers: ["ns1.six-b-dns.net", "ns2.six-b-dns.net"] });
    await createHost("ns1.six-b.com", ["192.0.2.61"]);
    const response = await apiWithHooks(
      "POST",
      "/v1/domains",
      onceBeforeWriting("domains", () => deleteHost("ns1.six-b.com")),
      { json: { name: "six-b-user.com", registrant: contact.id, nameservers: ["ns1.six-b.com", "ns2.six-b-dns.net"] } },
    );
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFor(problem, "nameservers[0]").message).toContain("create the host with its addresses first");
    expect((await api("GET", "/v1/domains/six-b-user.com")).status).toBe(404);
  });

  it("a PATCH whose newly named host is deleted before its write still links every name server it answers with", async () => {
    const contact = await createContact();
    const domain = await createDomain("six-c.com", { registrant: contact.id, nameservers: ["ns1.six-c.net", "ns2.six-c.net"] });
    await createHost("ns3.six-c.net");
    const nameservers = ["ns1.six-c.net", "ns3.six-c.net"];
    const patched = await apiWithHooks(
      "PATCH",
      `/v1/domains/${domain.id}`,
      onceBeforeWriting("domains", () => deleteHost("ns3.six-c.net")),
      { json: { nameservers } },
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.nameservers).toEqual(nameservers);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.nameservers).toEqual(nameservers);
    const events = await eventsFor(domain.id);
    expect(events.at(-1).after.nameservers).toEqual(nameservers);
  });
});
