// The catalog zone's names are the catalog's alone (docs/serving.md, docs/accounts.md
// "Names no customer may hold"): no account creates a zone at or under DNS_CATALOG_ZONE;
// the DNS backend answers the catalog's metadata, records and keys from the catalog code
// only, even where D1 holds a zone row of its name (made before zone creation refused it);
// and the catalog never lists a zone at or under its own name, which its secondaries would
// retry forever. Otherwise a customer's zone `catalog.invalid` with a declared secondary or
// a transfer key would let it transfer the catalog — every account's zone names and ids.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { reversedName } from "../src/dns/name";
import { CATALOG_DOMAIN_ID, memberLabel } from "../src/serving/catalog";
import { addDnsToken, api, type ApiResponse, expectProblem } from "./helpers";

const CATALOG = "catalog.invalid";

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** A customer account with a write token. */
let customers = 0;
async function customer() {
  const account = ok(await api("POST", "/v1/accounts", { json: { name: `Catalog name customer ${++customers}` } }), 201);
  const token = ok(await api("POST", "/v1/tokens", { json: { name: "w", scope: "write", account: account.id } }), 201);
  const authorization = `Bearer ${token.secret}`;
  return {
    id: account.id as string,
    call: (method: string, path: string, json?: unknown) => api(method, path, { json, headers: { authorization } }),
    import: (text: string) => api("POST", "/v1/zones", { body: text, headers: { authorization, "content-type": "text/dns" } }),
  };
}

const DNS = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8C01", secret: "catalog-name-dns-secret-0123456789" };
let dnsBase = "";
beforeAll(async () => {
  dnsBase = await addDnsToken(DNS.id, "catalog-name-dns", DNS.secret);
});
async function pdns(path: string) {
  const response = await api("GET", `${dnsBase}${path}`, { auth: false });
  expect(response.status, response.text).toBe(200);
  return response.body.result;
}
const encode = (name: string) => [...name].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`)).join("");

// A zone row as a database from before the rule may hold it (the API refuses to make it);
// the row already there when another test of the file made one of that name.
let legacyCount = 0;
async function legacyZone(name: string, accountId: string): Promise<string> {
  const existing = await env.DB.prepare("SELECT id FROM zones WHERE name = ?").bind(name).first<{ id: string }>();
  if (existing) return existing.id;
  const id = `zon_01JD3Q6Y4T8N0V4W5X6Y7C${String(++legacyCount).padStart(4, "0")}`;
  const at = new Date().toISOString();
  await env.DB.prepare(
    `INSERT INTO zones (id, account_id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, created_at, updated_at)
     VALUES (?, ?, ?, ?, 300, 'ns1.example.net', 'hostmaster.example.net', 2026010101, 7200, 900, 1209600, 300, ?, ?)`,
  )
    .bind(id, accountId, name, reversedName(name), at, at)
    .run();
  await env.DB.prepare(
    "INSERT INTO records (id, zone_id, name, type, content, ttl, owner_order, created_at, updated_at) VALUES (?, ?, '@', 'NS', 'ns1.example.net.', 300, '', ?, ?)",
  )
    .bind(`rec_01JD3Q6Y4T8N0V4W5X6Y7C${String(legacyCount).padStart(4, "0")}`, id, at, at)
    .run();
  return id;
}

/** The customer's key that transfers `zone`, and its secondaries: one by address, one with the key. */
async function transferAccess(owner: Awaited<ReturnType<typeof customer>>, zone: string, keyName: string) {
  const key = ok(await owner.call("POST", "/v1/tsig-keys", { name: keyName, allow: ["transfer"], zones: [zone] }), 201);
  ok(await owner.call("PATCH", `/v1/zones/${zone}`, { secondaries: [{ address: "9.9.9.9" }, { address: "149.112.112.112", tsig_key: key.id }] }), 200);
  return key;
}

describe("no account creates a zone at or under the catalog zone's name: 422 policy_violation", () => {
  it.each([CATALOG, `zones.${CATALOG}`, `x.zones.${CATALOG}`])("%s, by a customer (JSON and master file) and by the operator", async (name) => {
    const mallory = await customer();
    const reason = `${name} ${name === CATALOG ? "is" : "lies under"} the catalog zone ${CATALOG}, whose names the DNS primary answers from the catalog of every account's zones: nobody's zone may be there`;
    for (const response of [
      await mallory.call("POST", "/v1/zones", { name, nameservers: ["ns1.example.net"] }),
      await mallory.import(`$ORIGIN ${name}.\n$TTL 300\n@ NS ns1.example.net.\n`),
      await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"] } }),
      await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"], account: mallory.id } }),
    ]) {
      const problem = expectProblem(response, 422, "policy_violation");
      expect(problem.detail).toBe(`name: ${reason}.`);
      expect(problem.errors).toEqual([{ field: "name", message: reason }]);
    }
    expect((await api("GET", `/v1/zones/${name}`)).status).toBe(404);
  });
});

describe("no stored zone answers metadata for the catalog's name: the catalog's own metadata, whatever zone row of its name D1 holds", () => {
  it("a customer's zone row `catalog.invalid` with a transfer key and declared secondaries lends the catalog none of them", async () => {
    const mallory = await customer();
    await legacyZone(CATALOG, mallory.id);
    await transferAccess(mallory, CATALOG, "mallory-catalog.key.test");
    // The same access on a zone of another name is answered, so the answers below are the rule's.
    ok(await mallory.call("POST", "/v1/zones", { name: "mallory-contrast.test", nameservers: ["ns1.example.net"] }), 201);
    await transferAccess(mallory, "mallory-contrast.test", "mallory-contrast.key.test");
    expect(await pdns(`/getAllDomainMetadata/${encode("mallory-contrast.test.")}`)).toEqual({
      "ALLOW-AXFR-FROM": ["9.9.9.9/32"],
      "TSIG-ALLOW-AXFR": ["mallory-contrast.key.test."],
      "ALSO-NOTIFY": ["127.0.0.1:5300", "9.9.9.9:53", "149.112.112.112:53"],
    });

    for (const spelling of ["catalog.invalid.", "CATALOG.Invalid."]) {
      // NOTIFY to the tier's secondaries alone (wrangler.toml's DNS_TIER_SECONDARIES), never the row's.
      expect(await pdns(`/getAllDomainMetadata/${encode(spelling)}`), spelling).toEqual({ "ALSO-NOTIFY": ["127.0.0.1:5300"] });
      expect(await pdns(`/getDomainMetadata/${encode(spelling)}/ALSO-NOTIFY`), spelling).toEqual(["127.0.0.1:5300"]);
      for (const kind of ["ALLOW-AXFR-FROM", "TSIG-ALLOW-AXFR", "ALLOW-DNSUPDATE-FROM", "NOTIFY-DNSUPDATE", "PUBLISH-CDS", "PUBLISH-CDNSKEY", "SOA-EDIT"])
        expect(await pdns(`/getDomainMetadata/${encode(spelling)}/${kind}`), `${spelling} ${kind}`).toEqual([]);
      // No update key: PowerDNS takes no DNS UPDATE for the catalog.
      expect(await pdns(`/getDomainMetadata/${encode(spelling)}/TSIG-ALLOW-DNSUPDATE`)).toEqual(["no-update-key.invalid."]);
    }
    // The catalog's own answers, not the row's: its number, its records, no keys.
    expect(await pdns(`/getDomainInfo/${encode("catalog.invalid.")}`)).toMatchObject({ id: CATALOG_DOMAIN_ID, zone: "catalog.invalid.", kind: "master" });
    const axfr = (await pdns(`/list/-1/${encode("catalog.invalid.")}`)) as { qtype: string; content: string }[];
    expect(axfr.slice(0, 3).map((r) => `${r.qtype} ${r.qtype === "SOA" ? r.content.split(" ").slice(0, 2).join(" ") : r.content}`)).toEqual([
      "SOA invalid. invalid.",
      "NS invalid.",
      'TXT "2"',
    ]);
    expect(await pdns(`/getDomainKeys/${encode("catalog.invalid.")}`)).toBe(false);
  });

  it("a zone row under the catalog's name is no zone the backend knows: no metadata, no transfer, no domain info", async () => {
    const mallory = await customer();
    const name = `sub.${CATALOG}`;
    await legacyZone(name, mallory.id);
    await transferAccess(mallory, name, "mallory-sub-catalog.key.test");
    expect(await pdns(`/getAllDomainMetadata/${encode(`${name}.`)}`)).toEqual({});
    expect(await pdns(`/getDomainMetadata/${encode(`${name}.`)}/ALLOW-AXFR-FROM`)).toEqual([]);
    expect(await pdns(`/getDomainMetadata/${encode(`${name}.`)}/TSIG-ALLOW-AXFR`)).toEqual([]);
    expect(await pdns(`/getDomainMetadata/${encode(`${name}.`)}/ALSO-NOTIFY`)).toEqual([]);
    expect(await pdns(`/getDomainInfo/${encode(`${name}.`)}`)).toBe(false);
    expect(await pdns(`/list/-1/${encode(`${name}.`)}`)).toBe(false);
    expect(await pdns(`/lookup/${encode(`${name}.`)}/SOA`)).toBe(false);
  });
});

describe("the catalog never lists a zone at or under its own name", () => {
  it("zone rows `catalog.invalid`, `zones.catalog.invalid` and one below it are no members, nor in getAllDomains or getUpdatedMasters; served zones are", async () => {
    const mallory = await customer();
    const legacy = [await legacyZone(CATALOG, mallory.id), await legacyZone(`zones.${CATALOG}`, mallory.id), await legacyZone(`a.b.${CATALOG}`, mallory.id)];
    const member = ok(await mallory.call("POST", "/v1/zones", { name: "catalog-member.test", nameservers: ["ns1.example.net"] }), 201);

    const ptrs = ((await pdns(`/list/-1/${encode("catalog.invalid.")}`)) as { qtype: string; qname: string; content: string }[]).filter(
      (r) => r.qtype === "PTR",
    );
    expect(ptrs.map((r) => r.content)).toContain("catalog-member.test.");
    for (const content of ptrs.map((r) => r.content)) expect(content).not.toMatch(/(^|\.)catalog\.invalid\.$/);
    for (const id of legacy) expect(await pdns(`/lookup/${encode(`${memberLabel(id)}.zones.catalog.invalid.`)}/PTR`), id).toBe(false);
    expect(await pdns(`/lookup/${encode(`${memberLabel(member.id)}.zones.catalog.invalid.`)}/PTR`)).toEqual([
      expect.objectContaining({ qtype: "PTR", content: "catalog-member.test." }),
    ]);

    const all = ((await pdns("/getAllDomains?includeDisabled=false")) as { id: number; zone: string }[]).filter((d) => d.zone.endsWith("catalog.invalid."));
    expect(all).toEqual([expect.objectContaining({ id: CATALOG_DOMAIN_ID, zone: "catalog.invalid." })]);
    const due = (await pdns("/getUpdatedMasters")) as { id: number; zone: string }[];
    expect(due.map((d) => d.zone)).toContain("catalog-member.test.");
    expect(due.filter((d) => d.zone.endsWith("catalog.invalid.") && d.id !== CATALOG_DOMAIN_ID)).toEqual([]);
  });

  it("the `zones` node is no empty non-terminal while the only zones are rows under the catalog's name", async () => {
    // Every served zone of this file's database but the rows under the catalog: delete them, then ask.
    const served = ((await pdns("/getAllDomains?includeDisabled=false")) as { zone: string }[]).map((d) => d.zone.slice(0, -1)).filter((z) => z !== CATALOG);
    for (const zone of served) expect((await api("DELETE", `/v1/zones/${zone}`)).status, zone).toBe(204);
    const mallory = await customer();
    await legacyZone(`only.${CATALOG}`, mallory.id);
    expect(await pdns(`/lookup/${encode(`zones.${CATALOG}.`)}/ANY`)).toBe(false);
    ok(await mallory.call("POST", "/v1/zones", { name: "catalog-after.test", nameservers: ["ns1.example.net"] }), 201);
    expect(await pdns(`/lookup/${encode(`zones.${CATALOG}.`)}/ANY`)).toEqual([expect.objectContaining({ qtype: "", content: "" })]);
  });
});
