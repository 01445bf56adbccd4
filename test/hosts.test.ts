import { beforeAll, describe, expect, it } from "vitest";
import {
  allPages,
  api,
  createContact,
  createDomain,
  createHost,
  DOMAIN_ID,
  errorFields,
  expectProblem,
  HOST_ID,
  idsOf,
  namesOf,
  RFC3339_MS_UTC,
} from "./helpers";

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

// --- docs/model.md#hosts ---------------------------------------------------------------------

describe("creating a host", () => {
  it("answers 201 with the host, Location and ETag", async () => {
    const response = await api("POST", "/v1/hosts", { json: { name: "NS.Create-DNS.net." } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(HOST_ID),
      name: "ns.create-dns.net",
      addresses: [],
      domain: null,
      status: ["ok"],
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get("location")).toBe(`/v1/hosts/${response.body.id}`);
    expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
    for (const segment of [response.body.id, "ns.create-dns.net", "NS.CREATE-DNS.NET."]) {
      const read = await api("GET", `/v1/hosts/${segment}`);
      expect(read.status, segment).toBe(200);
      expect(read.body).toEqual(response.body);
    }
  });

  it("read-only and unknown fields answer 422 naming them", async () => {
    const readOnly = expectProblem(
      await api("POST", "/v1/hosts", { json: { name: "ro.create-dns.net", domain: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", status: ["ok"] } }),
      422,
      "read_only_field",
    );
    expect(errorFields(readOnly)).toEqual(["domain", "status"]);
    const unknown = expectProblem(await api("POST", "/v1/hosts", { json: { name: "uk.create-dns.net", ttl: 300 } }), 422, "unknown_field");
    expect(errorFields(unknown)).toEqual(["ttl"]);
  });
});

describe("host names", () => {
  it("need at least two labels: 422 naming name", async () => {
    for (const name of ["localhost", "ns1", "ns1."]) {
      const problem = expectProblem(await api("POST", "/v1/hosts", { json: { name } }), 422, "validation_failed");
      expect(errorFields(problem), name).toEqual(["name"]);
    }
    const missing = expectProblem(await api("POST", "/v1/hosts", { json: {} }), 422, "validation_failed");
    expect(errorFields(missing)).toEqual(["name"]);
  });

  it("follow the LDH rules; the error names the label at fault", async () => {
    const cases: [string, string][] = [
      ["ns_1.example.net", "ns_1"],
      ["-ns.example.net", "-ns"],
      ["ns-.example.net", "ns-"],
      ["ns1.ex ample.net", "ex ample"],
      [`${"a".repeat(64)}.example.net`, "a".repeat(64)],
      ["ns1.ab--cd.net", "ab--cd"],
      ["xn--zz-.example.net", "xn--zz-"],
    ];
    for (const [name, label] of cases) {
      const problem = expectProblem(await api("POST", "/v1/hosts", { json: { name } }), 422, "validation_failed");
      expect(problem.errors, name).toEqual([{ field: "name", message: expect.stringContaining(label) }]);
    }
    for (const name of ["ns1..example.net", `${"a.".repeat(127)}net`]) {
      const problem = expectProblem(await api("POST", "/v1/hosts", { json: { name } }), 422, "validation_failed");
      expect(errorFields(problem), name).toEqual(["name"]);
    }
  });

  it("accept IDN names as A-labels", async () => {
    const host = await createHost("ns.bücher-dns.net");
    expect(host.name).toBe("ns.xn--bcher-dns-q9a.net");
    expect((await api("GET", `/v1/hosts/${encodeURIComponent("ns.bücher-dns.net")}`)).body.id).toBe(host.id);
  });

  it("are unique, case-insensitively: 409 already_exists", async () => {
    const host = await createHost("ns.unique-dns.net");
    for (const name of ["ns.unique-dns.net", "NS.Unique-DNS.net", "ns.unique-dns.net."]) {
      expectProblem(await api("POST", "/v1/hosts", { json: { name } }), 409, "already_exists");
    }
    expect(idsOf(await api("GET", "/v1/hosts?q=unique-dns"))).toEqual([host.id]);
  });
});

describe("subordinate and external placement", () => {
  beforeAll(async () => {
    await createDomain("placed.com");
  });

  it("a host under a domain managed here has that domain; any other host has domain null", async () => {
    const domain = (await api("GET", "/v1/domains/placed.com")).body;
    expect((await createHost("ns1.placed.com", ["192.0.2.1"])).domain).toBe(domain.id);
    expect((await createHost("a.b.c.placed.com", ["192.0.2.2"])).domain).toBe(domain.id);
    expect((await createHost("ns1.placed.net")).domain).toBeNull();
    expect((await createHost("ns1.notplaced.com")).domain).toBeNull();
    expect((await createHost("ns1.placed.com.example.org")).domain).toBeNull();
  });

  it("a subordinate host without addresses answers 422 policy_violation naming addresses", async () => {
    for (const json of [{ name: "ns2.placed.com" }, { name: "ns2.placed.com", addresses: [] }]) {
      const problem = expectProblem(await api("POST", "/v1/hosts", { json }), 422, "policy_violation");
      expect(errorFields(problem)).toEqual(["addresses"]);
    }
    expectProblem(await api("GET", "/v1/hosts/ns2.placed.com"), 404, "not_found");
  });

  it("a subordinate host takes 1 to 13 addresses; 14 answer 422 naming addresses", async () => {
    const thirteen = Array.from({ length: 13 }, (_, i) => `192.0.2.${i + 10}`);
    expect((await createHost("ns13.placed.com", thirteen)).addresses).toEqual(thirteen);
    const fourteen = Array.from({ length: 14 }, (_, i) => `198.51.100.${i + 10}`);
    const response = await api("POST", "/v1/hosts", { json: { name: "ns14.placed.com", addresses: fourteen } });
    expect(response.status, response.text).toBe(422);
    expect(["validation_failed", "policy_violation"]).toContain(response.body.code);
    expect([...new Set(errorFields(response.body))]).toEqual(["addresses"]);
  });

  it("an external host with addresses answers 422 policy_violation: glue belongs to subordinate hosts", async () => {
    const problem = expectProblem(await api("POST", "/v1/hosts", { json: { name: "ns.glueless.net", addresses: ["192.0.2.1"] } }), 422, "policy_violation");
    expect(problem.errors).toEqual([{ field: "addresses", message: expect.stringMatching(/subordinate|external/) }]);
    expectProblem(await api("GET", "/v1/hosts/ns.glueless.net"), 404, "not_found");
  });
});

describe("host addresses", () => {
  beforeAll(async () => {
    await createDomain("addr.com");
  });

  it("are returned canonical: IPv6 compressed and lowercase", async () => {
    const host = await createHost("canon.addr.com", ["2001:DB8:0:0:0:0:0:53", "2001:0db8:0000:0000:0001:0000:0000:0001", "192.0.2.1", "2001:db8:0:1::"]);
    expect(host.addresses).toEqual(["2001:db8::53", "2001:db8::1:0:0:1", "192.0.2.1", "2001:db8:0:1::"]);
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.addresses).toEqual(host.addresses);
  });

  it("listed twice after canonicalisation answer 422 naming the second", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/hosts", { json: { name: "dup.addr.com", addresses: ["2001:db8::53", "2001:DB8:0::53"] } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "addresses[1]", message: expect.any(String) }]);
  });

  it("unspecified, loopback, multicast, link-local and IPv4-mapped addresses answer 422 naming addresses[i]", async () => {
    const bad = ["0.0.0.0", "::", "127.0.0.1", "::1", "224.0.0.1", "ff02::1", "169.254.1.1", "fe80::1", "::ffff:192.0.2.1"];
    for (const address of bad) {
      const problem = expectProblem(
        await api("POST", "/v1/hosts", { json: { name: "bad.addr.com", addresses: ["192.0.2.1", address] } }),
        422,
        "validation_failed",
      );
      expect(problem.errors, address).toEqual([{ field: "addresses[1]", message: expect.any(String) }]);
    }
    const all = expectProblem(await api("POST", "/v1/hosts", { json: { name: "bad.addr.com", addresses: bad.slice(0, 4) } }), 422, "validation_failed");
    expect(errorFields(all)).toEqual(["addresses[0]", "addresses[1]", "addresses[2]", "addresses[3]"]);
    expectProblem(await api("GET", "/v1/hosts/bad.addr.com"), 404, "not_found");
  });

  it("that are not IP addresses answer 422 naming them", async () => {
    for (const address of ["not-an-ip", "256.1.1.1", "192.0.2", "192.0.2.010", "2001:db8::1::2", "2001:db8:::1", "", "192.0.2.1/24"]) {
      const problem = expectProblem(await api("POST", "/v1/hosts", { json: { name: "junk.addr.com", addresses: [address] } }), 422, "validation_failed");
      expect(errorFields(problem), address).toEqual(["addresses[0]"]);
    }
  });

  it("PATCH addresses replaces the list", async () => {
    const host = await createHost("swap.addr.com", ["203.0.113.20", "2001:db8::20"]);
    const response = await api("PATCH", `/v1/hosts/${host.id}`, { json: { addresses: ["198.51.100.20"] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.addresses).toEqual(["198.51.100.20"]);
    expect(namesOf(await api("GET", "/v1/hosts?address=203.0.113.20"))).toEqual([]);
    expect(namesOf(await api("GET", "/v1/hosts?address=198.51.100.20"))).toEqual(["swap.addr.com"]);
  });

  it("PATCH addresses is validated as on create", async () => {
    const host = await createHost("patchbad.addr.com", ["192.0.2.30"]);
    const cleared = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { addresses: [] } }), 422, "policy_violation");
    expect(errorFields(cleared)).toEqual(["addresses"]);
    expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { addresses: null } }), 422, "policy_violation");
    const loopback = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { addresses: ["192.0.2.31", "127.0.0.1"] } }), 422, "validation_failed");
    expect(errorFields(loopback)).toEqual(["addresses[1]"]);
    const external = await createHost("ns.patch-external.net");
    expectProblem(await api("PATCH", `/v1/hosts/${external.id}`, { json: { addresses: ["192.0.2.32"] } }), 422, "policy_violation");
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.addresses).toEqual(["192.0.2.30"]);
  });
});

describe("registering a domain over existing external hosts", () => {
  it("makes the hosts under it subordinate to the new domain", async () => {
    const direct = await createHost("ns1.adopt-me.com");
    const deep = await createHost("a.b.adopt-me.com");
    const sibling = await createHost("ns1.adopt-me.net");
    const lookalike = await createHost("ns1.xadopt-me.com");
    const domain = await createDomain("adopt-me.com", { nameservers: ["ns.adopt-dns.net"] });
    expect((await api("GET", `/v1/hosts/${direct.id}`)).body.domain).toBe(domain.id);
    expect((await api("GET", `/v1/hosts/${deep.id}`)).body.domain).toBe(domain.id);
    expect((await api("GET", `/v1/hosts/${sibling.id}`)).body.domain).toBeNull();
    expect((await api("GET", `/v1/hosts/${lookalike.id}`)).body.domain).toBeNull();
    expect(idsOf(await api("GET", "/v1/hosts?domain=adopt-me.com"))).toEqual([direct.id, deep.id]);
    // Now subordinate, it blocks the domain's deletion.
    expectProblem(await api("DELETE", "/v1/domains/adopt-me.com"), 409, "object_linked");
  });

  it("a domain that uses its own adopted host keeps it linked", async () => {
    const host = await createHost("ns1.self-adopt.com");
    const domain = await createDomain("self-adopt.com", { nameservers: ["ns1.self-adopt.com", "ns.adopt-dns.net"] });
    expect(domain.nameservers).toEqual(["ns1.self-adopt.com", "ns.adopt-dns.net"]);
    expect((await api("GET", `/v1/hosts/${host.id}`)).body).toMatchObject({ domain: domain.id, status: ["linked"] });
  });
});

describe("host status", () => {
  it("is ok until a domain uses it, linked while used, and ok again after", async () => {
    const host = await createHost("ns.status-dns.net");
    expect(host.status).toEqual(["ok"]);
    const first = await createDomain("status-user1.com", { nameservers: ["ns.status-dns.net"] });
    await createDomain("status-user2.com", { nameservers: ["ns.status-dns.net"] });
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.status).toEqual(["linked"]);
    expect((await api("GET", "/v1/hosts?q=status-dns")).body.data[0].status).toEqual(["linked"]);
    await api("PATCH", `/v1/domains/${first.id}`, { json: { nameservers: [] } });
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.status).toEqual(["linked"]);
    expect((await api("DELETE", "/v1/domains/status-user2.com")).status).toBe(204);
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.status).toEqual(["ok"]);
  });
});

describe("renaming a host", () => {
  beforeAll(async () => {
    await createDomain("rename-parent.com");
  });

  it("domains that use it follow the new name", async () => {
    const host = await createHost("ns.old-name-dns.net");
    await createDomain("follows1.com", { nameservers: ["ns.old-name-dns.net", "ns.other-dns.net"] });
    await createDomain("follows2.org", { nameservers: ["ns.old-name-dns.net"] });
    const response = await api("PATCH", "/v1/hosts/ns.old-name-dns.net", { json: { name: "NS.New-Name-DNS.net." } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: host.id, name: "ns.new-name-dns.net", status: ["linked"] });
    expect((await api("GET", "/v1/domains/follows1.com")).body.nameservers).toEqual(["ns.new-name-dns.net", "ns.other-dns.net"]);
    expect((await api("GET", "/v1/domains/follows2.org")).body.nameservers).toEqual(["ns.new-name-dns.net"]);
    expect(namesOf(await api("GET", "/v1/domains?nameserver=ns.new-name-dns.net"))).toEqual(["follows1.com", "follows2.org"]);
    expect(namesOf(await api("GET", "/v1/domains?nameserver=ns.old-name-dns.net"))).toEqual([]);
    expectProblem(await api("GET", "/v1/hosts/ns.old-name-dns.net"), 404, "not_found");
  });

  it("to a taken name answers 409 already_exists, in any case", async () => {
    await createHost("ns.taken-a-dns.net");
    const b = await createHost("ns.taken-b-dns.net");
    for (const name of ["ns.taken-a-dns.net", "NS.TAKEN-A-DNS.NET."]) {
      expectProblem(await api("PATCH", `/v1/hosts/${b.id}`, { json: { name } }), 409, "already_exists");
    }
    expect((await api("GET", `/v1/hosts/${b.id}`)).body.name).toBe("ns.taken-b-dns.net");
  });

  it("to its own name in another spelling is a no-op", async () => {
    const created = await api("POST", "/v1/hosts", { json: { name: "ns.same-dns.net" } });
    const response = await api("PATCH", `/v1/hosts/${created.body.id}`, { json: { name: "NS.Same-DNS.net." } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
  });

  it("from external to subordinate without addresses answers 422 policy_violation", async () => {
    const host = await createHost("ns.moving-in-dns.net");
    const problem = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { name: "ns1.rename-parent.com" } }), 422, "policy_violation");
    expect(errorFields(problem)).toEqual(["addresses"]);
    expect((await api("GET", `/v1/hosts/${host.id}`)).body).toEqual(host);
  });

  it("from external to subordinate with addresses in the same patch sets domain", async () => {
    const parent = (await api("GET", "/v1/domains/rename-parent.com")).body;
    const host = await createHost("ns.moving-in2-dns.net");
    const response = await api("PATCH", `/v1/hosts/${host.id}`, { json: { name: "ns2.rename-parent.com", addresses: ["192.0.2.53"] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ name: "ns2.rename-parent.com", domain: parent.id, addresses: ["192.0.2.53"] });
  });

  it("from subordinate to external must drop its addresses", async () => {
    const host = await createHost("ns3.rename-parent.com", ["192.0.2.54"]);
    const problem = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { name: "ns.moving-out-dns.net" } }), 422, "policy_violation");
    expect(errorFields(problem)).toEqual(["addresses"]);
    const response = await api("PATCH", `/v1/hosts/${host.id}`, { json: { name: "ns.moving-out-dns.net", addresses: [] } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ name: "ns.moving-out-dns.net", domain: null, addresses: [] });
  });

  it("to an invalid name answers 422 naming name", async () => {
    const host = await createHost("ns.rename-bad-dns.net");
    for (const name of ["single", "ns_1.example.net", ""]) {
      const problem = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { name } }), 422, "validation_failed");
      expect(errorFields(problem), name).toEqual(["name"]);
    }
  });

  it("domain is read-only on PATCH", async () => {
    const host = await createHost("ns.ro-dns.net");
    const problem = expectProblem(await api("PATCH", `/v1/hosts/${host.id}`, { json: { domain: null } }), 422, "read_only_field");
    expect(errorFields(problem)).toEqual(["domain"]);
  });
});

describe("If-Match on hosts", () => {
  it("a stale ETag answers 412 on PATCH and DELETE", async () => {
    const created = await api("POST", "/v1/hosts", { json: { name: "ns.etag-dns.net" } });
    const stale = created.headers.get("etag")!;
    const renamed = await api("PATCH", `/v1/hosts/${created.body.id}`, { json: { name: "ns2.etag-dns.net" }, headers: { "if-match": stale } });
    expect(renamed.status).toBe(200);
    expectProblem(
      await api("PATCH", `/v1/hosts/${created.body.id}`, { json: { name: "ns3.etag-dns.net" }, headers: { "if-match": stale } }),
      412,
      "precondition_failed",
    );
    expectProblem(await api("DELETE", `/v1/hosts/${created.body.id}`, { headers: { "if-match": stale } }), 412, "precondition_failed");
    expect((await api("DELETE", `/v1/hosts/${created.body.id}`, { headers: { "if-match": renamed.headers.get("etag")! } })).status).toBe(204);
  });
});

describe("deleting a host", () => {
  it("deleting a linked host answers 409 object_linked naming the domains", async () => {
    const host = await createHost("ns.busy-dns.net");
    await createDomain("busy-one.com", { nameservers: ["ns.busy-dns.net"] });
    await createDomain("busy-two.co.uk", { nameservers: ["ns.busy-dns.net"] });
    const problem = expectProblem(await api("DELETE", `/v1/hosts/${host.id}`), 409, "object_linked");
    expect(problem.detail).toContain("busy-one.com");
    expect(problem.detail).toContain("busy-two.co.uk");
    expectProblem(await api("DELETE", "/v1/hosts/ns.busy-dns.net"), 409, "object_linked");
    expect((await api("GET", `/v1/hosts/${host.id}`)).body.status).toEqual(["linked"]);
  });

  it("deleting an unlinked host answers 204 and GET then answers 404", async () => {
    const host = await createHost("ns.idle-dns.net");
    const response = await api("DELETE", `/v1/hosts/${host.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectProblem(await api("GET", `/v1/hosts/${host.id}`), 404, "not_found");
    expectProblem(await api("GET", "/v1/hosts/ns.idle-dns.net"), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/hosts/${host.id}`), 404, "not_found");
  });

  it("a host no longer used can be deleted, by name", async () => {
    await createDomain("releases.com", { nameservers: ["ns.released-dns.net"] });
    expectProblem(await api("DELETE", "/v1/hosts/ns.released-dns.net"), 409, "object_linked");
    await api("PATCH", "/v1/domains/releases.com", { json: { nameservers: null } });
    expect((await api("DELETE", "/v1/hosts/NS.Released-DNS.net.")).status).toBe(204);
  });

  it("deleting a subordinate host unblocks its domain's deletion", async () => {
    await createDomain("parent-del.com");
    await createHost("ns1.parent-del.com", ["192.0.2.77"]);
    expectProblem(await api("DELETE", "/v1/domains/parent-del.com"), 409, "object_linked");
    expect((await api("DELETE", "/v1/hosts/ns1.parent-del.com")).status).toBe(204);
    expect((await api("DELETE", "/v1/domains/parent-del.com")).status).toBe(204);
  });
});

describe("host list filters", () => {
  // The hosts of this describe all contain "hf"; lists are restricted with q=hf- where needed.
  const f: Record<string, any> = {};

  beforeAll(async () => {
    f.one = await createDomain("hf-one.com");
    f.two = await createDomain("hf-two.net");
    f.a = await createHost("ns1.hf-one.com", ["192.0.2.101", "2001:db8::101"]);
    f.b = await createHost("ns2.hf-one.com", ["192.0.2.102"]);
    f.c = await createHost("ns1.hf-two.net", ["2001:db8::101"]);
    f.d = await createHost("ns.hf-external.org");
  });

  it("name matches exactly, normalised", async () => {
    expect(idsOf(await api("GET", "/v1/hosts?name=ns1.hf-one.com"))).toEqual([f.a.id]);
    expect(idsOf(await api("GET", "/v1/hosts?name=NS1.HF-ONE.COM."))).toEqual([f.a.id]);
    expect(idsOf(await api("GET", "/v1/hosts?name=hf-one.com"))).toEqual([]);
  });

  it("q is a case-insensitive substring of the name", async () => {
    expect(idsOf(await api("GET", "/v1/hosts?q=HF-"))).toEqual([f.a.id, f.b.id, f.c.id, f.d.id]);
    expect(idsOf(await api("GET", "/v1/hosts?q=ns1.hf"))).toEqual([f.a.id, f.c.id]);
    expect(idsOf(await api("GET", "/v1/hosts?q=hf-external"))).toEqual([f.d.id]);
  });

  it("domain takes the superordinate domain by id or by name", async () => {
    expect(idsOf(await api("GET", `/v1/hosts?domain=${f.one.id}`))).toEqual([f.a.id, f.b.id]);
    expect(idsOf(await api("GET", "/v1/hosts?domain=hf-one.com"))).toEqual([f.a.id, f.b.id]);
    expect(idsOf(await api("GET", "/v1/hosts?domain=HF-TWO.NET."))).toEqual([f.c.id]);
    expect(idsOf(await api("GET", "/v1/hosts?domain=hf-external.org"))).toEqual([]);
    expect(idsOf(await api("GET", "/v1/hosts?domain=dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"))).toEqual([]);
  });

  it("address matches in any notation", async () => {
    for (const address of ["2001:db8::101", "2001:DB8:0:0:0:0:0:101", "2001:0db8::0101"]) {
      expect(idsOf(await api("GET", `/v1/hosts?address=${encodeURIComponent(address)}`)), address).toEqual([f.a.id, f.c.id]);
    }
    expect(idsOf(await api("GET", "/v1/hosts?address=192.0.2.102"))).toEqual([f.b.id]);
    expect(idsOf(await api("GET", "/v1/hosts?address=192.0.2.199"))).toEqual([]);
    const problem = expectProblem(await api("GET", "/v1/hosts?address=not-an-ip"), 400, "invalid_query");
    expect(errorFields(problem)).toEqual(["address"]);
  });

  it("filters combine with AND", async () => {
    expect(idsOf(await api("GET", "/v1/hosts?domain=hf-one.com&address=2001:db8::101"))).toEqual([f.a.id]);
    expect(idsOf(await api("GET", "/v1/hosts?q=ns2&domain=hf-two.net"))).toEqual([]);
  });

  it("an unknown parameter answers 400 invalid_query", async () => {
    const problem = expectProblem(await api("GET", "/v1/hosts?status=linked"), 400, "invalid_query");
    expect(errorFields(problem)).toEqual(["status"]);
  });

  it("page in creation order with cursor and Link", async () => {
    const first = await api("GET", "/v1/hosts?q=hf-&limit=3");
    expect(first.headers.get("link")).toBe(`</v1/hosts?q=hf-&limit=3&cursor=${first.body.next_cursor}>; rel="next"`);
    const { items } = await allPages("/v1/hosts?q=hf-&limit=3");
    expect(items.map((h) => h.id)).toEqual([f.a.id, f.b.id, f.c.id, f.d.id]);
    for (const item of items) expect(item.domain === null || DOMAIN_ID.test(item.domain)).toBe(true);
  });
});

/** A customer account with a write token, and a way to call the API as it. */
async function customer(name: string) {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", { json: { name: `${name.replace(/\W/g, "-")}-token`, scope: "write", account: account.body.id } });
  expect(token.status, token.text).toBe(201);
  const authorization = `Bearer ${token.body.secret}`;
  return {
    id: account.body.id as string,
    call: (method: string, path: string, json?: unknown) => api(method, path, { json, headers: { authorization } }),
  };
}

function ok(response: { status: number; text: string; body: any }, status = 200) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

describe("a host that other accounts' domains use cannot be renamed or re-addressed: 409 object_linked naming nothing of theirs", () => {
  it("Bob's rename of the host Alice's domain names is refused, and her delegation is unchanged", async () => {
    const alice = await customer("Alice host rename");
    const bob = await customer("Bob host rename");
    const host = ok(await bob.call("POST", "/v1/hosts", { name: "ns1.popular-dns.net" }), 201);
    const domain = ok(await alice.call("POST", "/v1/domains", { name: "alice-uses-bob.com", nameservers: ["ns1.popular-dns.net"] }), 201);
    const response = await bob.call("PATCH", `/v1/hosts/${host.id}`, { name: "ns1.bob-evil.net" });
    const problem = expectProblem(response, 409, "object_linked");
    expect(problem.detail).toBe(
      "The host ns1.popular-dns.net is a name server of a domain of another account: its name and addresses are part of that domain's delegation and cannot change while it uses the host. Create a host of another name for the new name or addresses.",
    );
    for (const theirs of [domain.id, domain.name, alice.id]) expect(response.text).not.toContain(theirs);
    expect(ok(await bob.call("GET", `/v1/hosts/${host.id}`)).name).toBe("ns1.popular-dns.net");
    const after = ok(await alice.call("GET", `/v1/domains/${domain.id}`));
    expect(after.nameservers).toEqual(["ns1.popular-dns.net"]);
    expect(after.updated_at).toBe(domain.updated_at);
  });

  it("Bob's change of the glue of his subordinate host that Alice's domain names is refused too", async () => {
    const alice = await customer("Alice host glue");
    const bob = await customer("Bob host glue");
    ok(await bob.call("POST", "/v1/domains", { name: "bob-glue.com" }), 201);
    const host = ok(await bob.call("POST", "/v1/hosts", { name: "ns1.bob-glue.com", addresses: ["192.0.2.61"] }), 201);
    ok(await alice.call("POST", "/v1/domains", { name: "alice-glue.com", nameservers: ["ns1.bob-glue.com"] }), 201);
    expectProblem(await bob.call("PATCH", `/v1/hosts/${host.id}`, { addresses: ["203.0.113.66"] }), 409, "object_linked");
    expect(ok(await bob.call("GET", `/v1/hosts/${host.id}`)).addresses).toEqual(["192.0.2.61"]);
    // Once Alice's domain names it no more, Bob may.
    ok(await alice.call("PATCH", "/v1/domains/alice-glue.com", { nameservers: null }));
    expect(ok(await bob.call("PATCH", `/v1/hosts/${host.id}`, { addresses: ["203.0.113.67"] })).addresses).toEqual(["203.0.113.67"]);
  });
});

describe("a change to a host changes the delegation of the account's domains that use it: each gets a new version, updated_at and an update event", () => {
  it("renaming and re-addressing a host used by two of the account's own domains", async () => {
    const alice = await customer("Alice own host");
    ok(await alice.call("POST", "/v1/domains", { name: "alice-own-dns.net" }), 201);
    const host = ok(await alice.call("POST", "/v1/hosts", { name: "ns1.alice-own-dns.net", addresses: ["192.0.2.71"] }), 201);
    const one = ok(await alice.call("POST", "/v1/domains", { name: "alice-own-one.com", nameservers: ["ns1.alice-own-dns.net", "ns.other-dns.net"] }), 201);
    const two = ok(await alice.call("POST", "/v1/domains", { name: "alice-own-two.com", nameservers: ["ns1.alice-own-dns.net"] }), 201);
    const etag = async (id: string) => (await alice.call("GET", `/v1/domains/${id}`)).headers.get("etag");
    const etags = [await etag(one.id), await etag(two.id)];

    const renamed = ok(await alice.call("PATCH", `/v1/hosts/${host.id}`, { name: "dns1.alice-own-dns.net" }));
    for (const [index, domain] of [one, two].entries()) {
      const now = ok(await alice.call("GET", `/v1/domains/${domain.id}`));
      expect(now.nameservers[0]).toBe("dns1.alice-own-dns.net");
      expect(now.updated_at).toBe(renamed.updated_at);
      expect(await etag(domain.id)).not.toBe(etags[index]);
      const events = ok(await alice.call("GET", `/v1/events?resource=${domain.id}&operation=update`)).data;
      expect(events).toHaveLength(1);
      expect(events[0].before.nameservers[0]).toBe("ns1.alice-own-dns.net");
      // The event holds the domain as it reads now, but for its secret (never recorded).
      const { auth_info: _secret, ...shown } = now;
      expect(events[0].after).toEqual(shown);
    }
    expect(ok(await alice.call("GET", `/v1/domains/${one.id}`)).nameservers).toEqual(["dns1.alice-own-dns.net", "ns.other-dns.net"]);

    const readdressed = ok(await alice.call("PATCH", `/v1/hosts/${host.id}`, { addresses: ["192.0.2.72"] }));
    const events = ok(await alice.call("GET", `/v1/events?resource=${two.id}&operation=update`)).data;
    expect(events).toHaveLength(2);
    expect(events[1].after.updated_at).toBe(readdressed.updated_at);
    // A PATCH that changes nothing writes nothing, for the host or its domains.
    ok(await alice.call("PATCH", `/v1/hosts/${host.id}`, { addresses: ["192.0.2.72"] }));
    expect(ok(await alice.call("GET", `/v1/events?resource=${two.id}&operation=update`)).data).toHaveLength(2);
  });
});

describe("refusals about hosts name nothing of other accounts", () => {
  it("deleting a host another account's domain uses: a well-formed 409 that names none of its domains", async () => {
    const alice = await customer("Alice host delete");
    const bob = await customer("Bob host delete");
    const host = ok(await bob.call("POST", "/v1/hosts", { name: "ns1.shared-del-dns.net" }), 201);
    const domain = ok(await alice.call("POST", "/v1/domains", { name: "alice-del-uses.com", nameservers: ["ns1.shared-del-dns.net"] }), 201);
    const only = await bob.call("DELETE", `/v1/hosts/${host.id}`);
    expect(expectProblem(only, 409, "object_linked").detail).toBe(
      "The host ns1.shared-del-dns.net is a name server of a domain of another account; it stays while a domain uses it.",
    );
    ok(await bob.call("POST", "/v1/domains", { name: "bob-del-uses.com", nameservers: ["ns1.shared-del-dns.net"] }), 201);
    const both = await bob.call("DELETE", `/v1/hosts/${host.id}`);
    expect(expectProblem(both, 409, "object_linked").detail).toBe(
      "The host ns1.shared-del-dns.net is a name server of bob-del-uses.com and of a domain of another account; it stays while a domain uses it.",
    );
    for (const response of [only, both]) for (const theirs of [domain.id, domain.name, alice.id]) expect(response.text).not.toContain(theirs);
    // The operator sees every domain, and is told their names.
    expect(expectProblem(await api("DELETE", `/v1/hosts/${host.id}`), 409, "object_linked").detail).toBe(
      "The host ns1.shared-del-dns.net is a name server of alice-del-uses.com, bob-del-uses.com; change those domains' name servers first.",
    );
  });

  it("creating or renaming to the name of another account's host: 409 already_exists without its id; the caller's own is named with it", async () => {
    const alice = await customer("Alice host name");
    const bob = await customer("Bob host name");
    const theirs = ok(await alice.call("POST", "/v1/hosts", { name: "ns.alice-named-dns.net" }), 201);
    const created = await bob.call("POST", "/v1/hosts", { name: "ns.alice-named-dns.net" });
    expect(expectProblem(created, 409, "already_exists").detail).toBe("The host ns.alice-named-dns.net already exists.");
    const mine = ok(await bob.call("POST", "/v1/hosts", { name: "ns.bob-named-dns.net" }), 201);
    const renamed = await bob.call("PATCH", `/v1/hosts/${mine.id}`, { name: "ns.alice-named-dns.net" });
    expect(expectProblem(renamed, 409, "already_exists").detail).toBe("The host ns.alice-named-dns.net already exists.");
    for (const response of [created, renamed]) expect(response.text).not.toContain(theirs.id);
    const own = await bob.call("POST", "/v1/hosts", { name: "ns.bob-named-dns.net" });
    expect(expectProblem(own, 409, "already_exists").detail).toBe(`The host ns.bob-named-dns.net already exists (${mine.id}).`);
  });
});
