// Races decided at commit time (issue 10): each test lets another request commit between a
// write's reads and its batch (test/interleave.ts), which is exactly what a concurrent
// client can do, and checks that the rule the write checked still holds in what it commits.
import { describe, expect, it } from "vitest";
import { adaAddress, api, createContact, createDomain, createHost, createRecord, createZone, errorFor, expectProblem } from "./helpers";
import { apiWithHooks, onceBeforeWriting, writesTo } from "./interleave";

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

describe("a registrant, admin or tech contact keeps its city and country at commit time", () => {
  it("a contact that loses its city before a domain create using it commits: the create answers 422 policy_violation", async () => {
    const contact = await createContact();
    const response = await apiWithHooks(
      "POST",
      "/v1/domains",
      onceBeforeWriting("domains", async () => {
        const patched = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { city: null } } });
        expect(patched.status, patched.text).toBe(200);
      }),
      { json: { name: "seven-a.com", registrant: contact.id, nameservers: ["ns1.seven.net", "ns2.seven.net"] } },
    );
    const problem = expectProblem(response, 422, "policy_violation");
    expect(errorFor(problem, "registrant").message).toContain("lacks address.city");
    expect((await api("GET", "/v1/domains/seven-a.com")).status).toBe(404);
  });

  it("a domain that makes the contact its registrant before the contact's PATCH commits: the PATCH answers 422 policy_violation", async () => {
    const contact = await createContact();
    const response = await apiWithHooks(
      "PATCH",
      `/v1/contacts/${contact.id}`,
      onceBeforeWriting("contacts", () => createDomain("seven-b.com", { registrant: contact.id, nameservers: ["ns1.seven.net", "ns2.seven.net"] })),
      { json: { address: { city: null } } },
    );
    const problem = expectProblem(response, 422, "policy_violation");
    expect(problem.detail).toContain("seven-b.com");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.address).toEqual({ ...adaAddress, state: null });
  });

  it("with If-Match the same race answers 412 (the contact became linked, so its ETag changed) and the contact keeps its country", async () => {
    const contact = await createContact();
    const etag = (await api("GET", `/v1/contacts/${contact.id}`)).headers.get("etag")!;
    const response = await apiWithHooks(
      "PATCH",
      `/v1/contacts/${contact.id}`,
      onceBeforeWriting("contacts", () => createDomain("seven-c.com", { registrant: contact.id, nameservers: ["ns1.seven.net", "ns2.seven.net"] })),
      { json: { address: { country_code: null } }, headers: { "if-match": etag } },
    );
    expectProblem(response, 412, "precondition_failed");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.address.country_code).toBe("GB");
  });
});

describe("a write whose guard failed reads again and decides again, If-Match included", () => {
  it("a PATCH with If-Match whose named host vanished before its write answers 200: the domain itself did not change", async () => {
    const contact = await createContact();
    const domain = await createDomain("guard-if-match.com", { registrant: contact.id, nameservers: ["ns1.guard-if-match.net", "ns2.guard-if-match.net"] });
    await createHost("ns3.guard-if-match.net");
    const etag = (await api("GET", `/v1/domains/${domain.id}`)).headers.get("etag")!;
    const nameservers = ["ns1.guard-if-match.net", "ns3.guard-if-match.net"];
    const patched = await apiWithHooks(
      "PATCH",
      `/v1/domains/${domain.id}`,
      onceBeforeWriting("domains", () => deleteHost("ns3.guard-if-match.net")),
      { json: { nameservers }, headers: { "if-match": etag } },
    );
    expect(patched.status, patched.text).toBe(200);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.nameservers).toEqual(nameservers);
  });
});

describe("an unconditional write that keeps losing to other writes answers 409 write_conflict with Retry-After, never 412", () => {
  it("a PATCH without If-Match that another PATCH beats on every attempt answers 409 write_conflict", async () => {
    const contact = await createContact();
    let rivals = 0;
    const response = await apiWithHooks(
      "PATCH",
      `/v1/contacts/${contact.id}`,
      {
        beforeBatch: async (sql) => {
          if (!writesTo(sql, "contacts")) return;
          rivals++;
          const rival = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: `Rival ${rivals}` } });
          expect(rival.status, rival.text).toBe(200);
        },
      },
      { json: { name: "Loser" } },
    );
    expectProblem(response, 409, "write_conflict");
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(rivals).toBeGreaterThan(1);
    const now = await api("GET", `/v1/contacts/${contact.id}`);
    expect(now.body).toMatchObject({ name: "Ada Lovelace", organization: `Rival ${rivals}` });
  });

  it("a DELETE without If-Match that a PATCH beats once deletes what is current: 204", async () => {
    const contact = await createContact();
    const response = await apiWithHooks(
      "DELETE",
      `/v1/contacts/${contact.id}`,
      onceBeforeWriting("contacts", async () => {
        expect((await api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: "Moved on" } })).status).toBe(200);
      }),
    );
    expect(response.status, response.text).toBe(204);
    expect((await api("GET", `/v1/contacts/${contact.id}`)).status).toBe(404);
  });

  it("a DELETE with If-Match that a PATCH beats answers 412: the ETag it named is gone", async () => {
    const contact = await createContact();
    const etag = (await api("GET", `/v1/contacts/${contact.id}`)).headers.get("etag")!;
    const response = await apiWithHooks(
      "DELETE",
      `/v1/contacts/${contact.id}`,
      onceBeforeWriting("contacts", async () => {
        expect((await api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: "Moved on" } })).status).toBe(200);
      }),
      { headers: { "if-match": etag } },
    );
    expectProblem(response, 412, "precondition_failed");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).status).toBe(200);
  });
});

describe("an RRset keeps one TTL at commit (RFC 2181 §5.2)", () => {
  it("a TTL PATCH of a lone record, raced by a create that joins its RRset with the old TTL, leaves one TTL", async () => {
    const zone = await createZone("ttl-race-a.example");
    const first = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", ttl: 50 });
    const patched = await apiWithHooks(
      "PATCH",
      `/v1/records/${first.id}`,
      onceBeforeWriting("records", () => createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.2" })),
      { json: { ttl: 300 } },
    );
    expect(patched.status, patched.text).toBe(200);
    const rrset = (await api("GET", `/v1/zones/${zone.id}/records?name=www&type=A`)).body.data;
    expect(rrset.map((r: { ttl: number }) => r.ttl)).toEqual([300, 300]);
    // The sibling's TTL change is the RRset's, with its one rrset event (resource: the zone).
    const sibling = rrset.find((r: { id: string }) => r.id !== first.id);
    expect((await eventsFor(sibling.id)).map((e) => [e.operation, e.after.ttl])).toEqual([["create", 50]]);
    expect((await eventsFor(zone.id)).filter((e) => e.type === "rrset").map((e) => [e.before.ttl, e.after.ttl, e.after.records])).toEqual([[50, 300, 1]]);
  });

  it("a create that adopts the RRset's TTL, raced by a PATCH that changes it, leaves one TTL and an event for every change", async () => {
    const zone = await createZone("ttl-race-b.example");
    const first = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", ttl: 50 });
    const created = await apiWithHooks(
      "POST",
      "/v1/records",
      onceBeforeWriting("records", async () => expect((await api("PATCH", `/v1/records/${first.id}`, { json: { ttl: 300 } })).status).toBe(200)),
      { json: { zone: zone.id, name: "www", type: "A", content: "192.0.2.2" } },
    );
    expect(created.status, created.text).toBe(201);
    const rrset = (await api("GET", `/v1/zones/${zone.id}/records?name=www&type=A`)).body.data;
    expect(new Set(rrset.map((r: { ttl: number }) => r.ttl)).size).toBe(1);
    const now = rrset.find((r: { id: string }) => r.id === first.id);
    expect((await eventsFor(first.id)).at(-1).after.ttl).toBe(now.ttl);
  });
});

describe("a zone stays loadable at commit: a record write's integrity check holds for what it commits", () => {
  it("an NS added to a name whose address record another write deletes meanwhile reads again and answers 422; the address stays deleted", async () => {
    const zone = await createZone("race-ns.test");
    const glue = await createRecord(zone.id, { name: "ns1", type: "A", content: "192.0.2.53" });
    const response = await apiWithHooks(
      "POST",
      "/v1/records",
      onceBeforeWriting("records", async () => {
        const deleted = await api("DELETE", `/v1/records/${glue.id}`);
        expect(deleted.status, deleted.text).toBe(204);
      }),
      { json: { zone: "race-ns.test", name: "@", type: "NS", content: "ns1.race-ns.test" } },
    );
    const problem = expectProblem(response, 422, "validation_failed");
    expect(errorFor(problem, "content").message).toContain("ns1.race-ns.test");
    const apexNs = await api("GET", "/v1/zones/race-ns.test/records?name=@&type=NS");
    expect(apexNs.body.data.map((r: { content: string }) => r.content)).not.toContain("ns1.race-ns.test.");
  });

  it("an address record deleted while another write adds the NS that needs it reads again and answers 409; the NS and its address stay", async () => {
    const zone = await createZone("race-glue.test");
    const glue = await createRecord(zone.id, { name: "ns1", type: "A", content: "192.0.2.54" });
    const response = await apiWithHooks(
      "DELETE",
      `/v1/records/${glue.id}`,
      onceBeforeWriting("records", async () => {
        await createRecord(zone.id, { name: "@", type: "NS", content: "ns1.race-glue.test" });
      }),
    );
    const problem = expectProblem(response, 409, "rrset_conflict");
    expect(problem.detail).toContain("ns1.race-glue.test");
    expect((await api("GET", `/v1/records/${glue.id}`)).status).toBe(200);
  });
});
