// The hidden primary's side of the serving tier (docs/serving.md, "The tier"): zones are
// kind `master` with their notified serial, getUpdatedMasters lists the zones (and the
// catalog zone) whose serial moved since PowerDNS last sent NOTIFY, setNotified keeps the
// serial notified, and the RFC 9432 catalog zone lists every served zone. Signed zones'
// serials move when a new signing week begins. scripts/dns-e2e.mjs runs the whole tier
// (PowerDNS on this, Knot DNS as the secondary) on top of it.
import { env } from "cloudflare:test";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { renewSignatures, signingWeekStart } from "../src/jobs/signature-renewal";
import { CATALOG_DOMAIN_ID, memberLabel } from "../src/serving/catalog";
import { updatedMastersQuery } from "../src/serving/tier";
import { api, expectProblem } from "./helpers";

const DNS_TOKEN = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8T1E", secret: "test-tier-dns-secret-0123456789ab" };
const base = `/v1/pdns/${DNS_TOKEN.id}.${DNS_TOKEN.secret}`;
const FORM = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const encodeName = (name: string) => name.replaceAll(".", "%2e");

async function pdns(path: string) {
  const response = await api("GET", `${base}${path}`, { auth: false });
  expect(response.status, response.text).toBe(200);
  return response.body.result;
}

interface DomainInfo {
  id: number;
  zone: string;
  kind: string;
  serial: number;
  notified_serial: number;
}

const updated = async () => (await pdns("/getUpdatedMasters")) as DomainInfo[];
const updatedNames = async () => (await updated()).map((d) => d.zone);

/** What PowerDNS 4.7's HTTP connector sends after a NOTIFY: PATCH, the serial as a C++ double. */
function setNotified(id: number, serial: number | string) {
  const text = typeof serial === "number" ? `${serial}.000000` : serial;
  return api("PATCH", `${base}/setNotified/${id}`, { auth: false, headers: FORM, body: `serial=${encodeURIComponent(text)}` });
}

/** Marks everything due as notified, as PowerDNS does after a poll. */
async function notifyAll() {
  for (const info of await updated()) expect((await setNotified(info.id, info.serial)).body).toEqual({ result: true });
}

async function catalog() {
  return (await pdns(`/list/-1/${encodeName("catalog.invalid.")}`)) as { qtype: string; qname: string; content: string; ttl: number }[];
}
const catalogSerial = async () => Number((await catalog())[0]!.content.split(" ")[2]);
const members = async () =>
  (await catalog())
    .filter((r) => r.qtype === "PTR")
    .map((r) => `${r.qname} ${r.content}`)
    .sort();

async function zone(name: string, fields: Record<string, unknown> = {}) {
  const response = await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"], ...fields } });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; soa: { serial: number } };
}

async function domainInfo(name: string) {
  return (await pdns(`/getDomainInfo/${encodeName(`${name}.`)}`)) as DomainInfo;
}

beforeAll(async () => {
  await env.DB.prepare("INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, 'test-tier-dns', 'dns', ?, '2026-01-01T00:00:00.000Z')")
    .bind(DNS_TOKEN.id, await sha256Hex(DNS_TOKEN.secret))
    .run();
});

describe("zones are kind master, and a zone whose serial moved is due a NOTIFY until setNotified", () => {
  it("a new zone is due a NOTIFY (never notified), and is not once setNotified keeps its serial", async () => {
    await zone("notify-me.test");
    const info = await domainInfo("notify-me.test");
    expect(info).toMatchObject({ zone: "notify-me.test.", kind: "master", notified_serial: 0 });
    expect((await updated()).find((d) => d.zone === "notify-me.test.")).toEqual(info);
    expect((await setNotified(info.id, info.serial)).body).toEqual({ result: true });
    expect(await updatedNames()).not.toContain("notify-me.test.");
    expect(await domainInfo("notify-me.test")).toMatchObject({ serial: info.serial, notified_serial: info.serial });
  });

  it("a record change moves the serial: the zone is due again, with the new serial", async () => {
    await zone("changes.test");
    await notifyAll();
    const before = await domainInfo("changes.test");
    const created = await api("POST", "/v1/records", { json: { zone: "changes.test", name: "www", type: "A", content: "192.0.2.1" } });
    expect(created.status, created.text).toBe(201);
    const due = (await updated()).find((d) => d.zone === "changes.test.");
    expect(due).toMatchObject({ notified_serial: before.serial });
    expect(due!.serial).not.toBe(before.serial);
    // A NOTIFY sent for an older serial (a change landed meanwhile) leaves the zone due.
    expect((await setNotified(due!.id, before.serial)).body).toEqual({ result: true });
    expect(await updatedNames()).toContain("changes.test.");
  });

  it("setNotified does not touch the zone's version, ETag or serial", async () => {
    await zone("untouched.test");
    const read = await api("GET", "/v1/zones/untouched.test");
    const info = await domainInfo("untouched.test");
    await setNotified(info.id, info.serial);
    const again = await api("GET", "/v1/zones/untouched.test");
    expect(again.headers.get("etag")).toBe(read.headers.get("etag"));
    expect(again.body.soa.serial).toBe(read.body.soa.serial);
  });

  it("a zone of a suspended account is not due (it is not served)", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "Tier Suspendable" } });
    expect(account.status, account.text).toBe(201);
    await zone("suspended-notify.test", { account: account.body.id });
    await env.DB.prepare("update accounts set status = 'suspended' where id = ?").bind(account.body.id).run();
    expect(await updatedNames()).not.toContain("suspended-notify.test.");
    await env.DB.prepare("update accounts set status = 'active' where id = ?").bind(account.body.id).run();
    expect(await updatedNames()).toContain("suspended-notify.test.");
  });

  it("setNotified for no such zone: false; a bad id or serial: 422 naming the field", async () => {
    expect((await setNotified(987654, 1)).body).toEqual({ result: false });
    const badId = expectProblem(
      await api("PATCH", `${base}/setNotified/not-a-number`, { auth: false, headers: FORM, body: "serial=1" }),
      422,
      "validation_failed",
    );
    expect(badId.errors[0].field).toBe("id");
    for (const serial of ["", "abc", "-1", "4294967296.000000", "1e3"]) {
      const problem = expectProblem(await setNotified(1, serial), 422, "validation_failed");
      expect(problem.errors[0].field, serial).toBe("serial");
    }
    // Any verb but PATCH is not this method: not applicable, as for every other.
    expect((await api("POST", `${base}/setNotified/1`, { auth: false, headers: FORM, body: "serial=1" })).body).toEqual({ result: false });
  });

  it("only a dns token calls them", async () => {
    expectProblem(await api("GET", "/v1/pdns/not-a-token/getUpdatedMasters", { auth: false }), 401, "unauthorized");
    expectProblem(await api("PATCH", "/v1/pdns/not-a-token/setNotified/1", { auth: false, headers: FORM, body: "serial=1" }), 401, "unauthorized");
  });

  it("getUpdatedMasters reads only the zones due, from zones_unnotified_idx", async () => {
    const { sql: text, params } = new SQLiteSyncDialect().sqlToQuery(updatedMastersQuery());
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
      .bind(...params)
      .all<{ detail: string }>();
    const details = results.map((r) => r.detail);
    expect(details).toEqual(expect.arrayContaining([expect.stringMatching(/^SCAN z USING INDEX zones_unnotified_idx/)]));
    expect(details.filter((d) => /^SCAN z$/.test(d))).toEqual([]);
  });
});

describe("the catalog zone (RFC 9432, version 2) lists every served zone", () => {
  it('its SOA, NS invalid., version TXT "2", and one PTR per zone under a unique id, all TTL 0', async () => {
    const created = await zone("member.test");
    const records = await catalog();
    expect(records.slice(0, 3)).toEqual([
      expect.objectContaining({
        qtype: "SOA",
        qname: "catalog.invalid.",
        content: expect.stringMatching(/^invalid\. invalid\. \d+ 300 60 2419200 0$/),
        ttl: 0,
      }),
      expect.objectContaining({ qtype: "NS", qname: "catalog.invalid.", content: "invalid.", ttl: 0 }),
      expect.objectContaining({ qtype: "TXT", qname: "version.catalog.invalid.", content: '"2"', ttl: 0 }),
    ]);
    const label = memberLabel(created.id);
    expect(label).toMatch(/^[0-9a-z]{26}$/);
    expect(await members()).toContain(`${label}.zones.catalog.invalid. member.test.`);
    expect(records.every((r) => r.ttl === 0)).toBe(true);
  });

  it("a member's unique id stays while the zone lives; record changes do not move the catalog's serial", async () => {
    const created = await zone("stable-member.test");
    const serial = await catalogSerial();
    await api("POST", "/v1/records", { json: { zone: "stable-member.test", name: "www", type: "A", content: "192.0.2.2" } });
    expect(await catalogSerial()).toBe(serial);
    expect(await members()).toContain(`${memberLabel(created.id)}.zones.catalog.invalid. stable-member.test.`);
  });

  it("a zone created or deleted moves the catalog's serial; a zone created again under its name gets a new unique id", async () => {
    const first = await zone("comes-and-goes.test");
    const afterCreate = await catalogSerial();
    expect((await api("DELETE", "/v1/zones/comes-and-goes.test")).status).toBe(204);
    const afterDelete = await catalogSerial();
    expect(afterDelete).not.toBe(afterCreate);
    expect((await members()).some((m) => m.endsWith(" comes-and-goes.test."))).toBe(false);
    const second = await zone("comes-and-goes.test");
    expect(await catalogSerial()).not.toBe(afterDelete);
    expect(memberLabel(second.id)).not.toBe(memberLabel(first.id));
    expect(await members()).toContain(`${memberLabel(second.id)}.zones.catalog.invalid. comes-and-goes.test.`);
  });

  it("a suspended account's zones leave the catalog and come back when it is active, the serial moving each time", async () => {
    const account = await api("POST", "/v1/accounts", { json: { name: "Tier Catalog Suspendable" } });
    const created = await zone("suspended-member.test", { account: account.body.id });
    const member = `${memberLabel(created.id)}.zones.catalog.invalid. suspended-member.test.`;
    const before = await catalogSerial();
    const status = (value: string) =>
      api("PATCH", `/v1/accounts/${account.body.id}`, { json: { status: value }, headers: { "content-type": "application/merge-patch+json" } });
    expect((await status("suspended")).status).toBe(200);
    const suspended = await catalogSerial();
    expect(suspended).not.toBe(before);
    expect(await members()).not.toContain(member);
    expect((await status("active")).status).toBe(200);
    expect(await catalogSerial()).not.toBe(suspended);
    expect(await members()).toContain(member);
  });

  it("the catalog is due a NOTIFY when its serial moved, and setNotified on its number keeps it", async () => {
    await zone("catalog-notify.test");
    const due = (await updated()).find((d) => d.zone === "catalog.invalid.");
    expect(due).toMatchObject({ id: CATALOG_DOMAIN_ID, kind: "master" });
    expect((await setNotified(CATALOG_DOMAIN_ID, due!.serial)).body).toEqual({ result: true });
    expect(await updatedNames()).not.toContain("catalog.invalid.");
    expect(await domainInfo("catalog.invalid")).toMatchObject({ id: CATALOG_DOMAIN_ID, serial: due!.serial, notified_serial: due!.serial });
    expect(((await pdns("/getAllDomains?includeDisabled=false")) as DomainInfo[]).map((d) => d.zone)).toContain("catalog.invalid.");
  });

  it("lookup answers the catalog's names, as a zone's: SOA and NS at the apex, version, the zones node, a member", async () => {
    const created = await zone("looked-up.test");
    const soa = await pdns(`/lookup/${encodeName("Catalog.Invalid.")}/SOA`);
    expect(soa).toEqual([expect.objectContaining({ qtype: "SOA", qname: "Catalog.Invalid.", domain_id: CATALOG_DOMAIN_ID })]);
    expect((await pdns(`/lookup/${encodeName("catalog.invalid.")}/ANY`)).map((r: { qtype: string }) => r.qtype).sort()).toEqual(["NS", "SOA"]);
    expect(await pdns(`/lookup/${encodeName("version.catalog.invalid.")}/ANY`)).toEqual([expect.objectContaining({ qtype: "TXT", content: '"2"' })]);
    expect(await pdns(`/lookup/${encodeName("zones.catalog.invalid.")}/ANY`)).toEqual([expect.objectContaining({ qtype: "", content: "" })]);
    const member = `${memberLabel(created.id)}.zones.catalog.invalid.`;
    expect(await pdns(`/lookup/${encodeName(member)}/ANY`)).toEqual([expect.objectContaining({ qtype: "PTR", content: "looked-up.test." })]);
    expect(await pdns(`/lookup/${encodeName(`x.${member}`)}/ANY`)).toBe(false);
    expect(await pdns(`/lookup/${encodeName("nothing.catalog.invalid.")}/ANY`)).toBe(false);
    expect(await pdns(`/lookup/${encodeName("version.catalog.invalid.")}/SOA`)).toBe(false);
  });

  it("the catalog's name is DNS_CATALOG_ZONE's", async () => {
    const { default: worker } = await import("../src/index");
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`http://api.test${base}/list/-1/${encodeName("zones.example.")}`),
      { ...env, DNS_CATALOG_ZONE: "Zones.Example." },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const body = (await response.json()) as { result: { qtype: string; qname: string }[] };
    expect(body.result.slice(0, 3).map((r) => `${r.qname} ${r.qtype}`)).toEqual(["zones.example. SOA", "zones.example. NS", "version.zones.example. TXT"]);
  });
});

describe("the tier's secondaries (DNS_TIER_SECONDARIES) are in every zone's ALSO-NOTIFY, which PowerDNS reads per zone as it NOTIFYs", () => {
  /** The Worker's answer with `overrides` in its environment. */
  async function withEnv(path: string, overrides: Record<string, string>) {
    const { default: worker } = await import("../src/index");
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`http://api.test${base}${path}`), { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("every zone's ALSO-NOTIFY names them, before the zone's declared secondaries; the catalog's names them alone; no zone, none", async () => {
    expect(env.DNS_TIER_SECONDARIES).toBe("127.0.0.1:5300");
    await zone("tier-notify.test");
    await zone("tier-notify-declared.test", { secondaries: [{ address: "9.9.9.9", port: 5353 }] });
    expect(await pdns(`/getDomainMetadata/${encodeName("tier-notify.test.")}/ALSO-NOTIFY`)).toEqual(["127.0.0.1:5300"]);
    expect(await pdns(`/getAllDomainMetadata/${encodeName("tier-notify.test.")}`)).toEqual({ "ALSO-NOTIFY": ["127.0.0.1:5300"] });
    expect(await pdns(`/getDomainMetadata/${encodeName("Tier-Notify-Declared.test.")}/ALSO-NOTIFY`)).toEqual(["127.0.0.1:5300", "9.9.9.9:5353"]);
    expect(await pdns(`/getDomainMetadata/${encodeName("catalog.invalid.")}/ALSO-NOTIFY`)).toEqual(["127.0.0.1:5300"]);
    expect(await pdns(`/getAllDomainMetadata/${encodeName("catalog.invalid.")}`)).toEqual({ "ALSO-NOTIFY": ["127.0.0.1:5300"] });
    expect(await pdns(`/getDomainMetadata/${encodeName("no-such-zone.test.")}/ALSO-NOTIFY`)).toEqual([]);
    expect(await pdns(`/getAllDomainMetadata/${encodeName("no-such-zone.test.")}`)).toEqual({});
  });

  it("a declared secondary that is also the tier's is named once", async () => {
    await zone("tier-notify-twice.test");
    const { status, body } = await withEnv(`/getDomainMetadata/${encodeName("tier-notify-twice.test.")}/ALSO-NOTIFY`, {
      DNS_TIER_SECONDARIES: "192.0.2.53, 192.0.2.53:53",
    });
    expect(status).toBe(200);
    expect(body).toEqual({ result: ["192.0.2.53:53"] });
  });

  it("DNS_TIER_SECONDARIES is comma-separated address[:port], IPv6 bracketed before a port, port 53 by default; empty names none", async () => {
    await zone("tier-notify-forms.test");
    const path = `/getDomainMetadata/${encodeName("tier-notify-forms.test.")}/ALSO-NOTIFY`;
    const forms = await withEnv(path, { DNS_TIER_SECONDARIES: " 192.0.2.1:5300, 192.0.2.2 ,[2001:DB8::0:1]:53000,2001:db8::2,[2001:db8::3]" });
    expect(forms).toEqual({ status: 200, body: { result: ["192.0.2.1:5300", "192.0.2.2:53", "[2001:db8::1]:53000", "[2001:db8::2]:53", "[2001:db8::3]:53"] } });
    expect(await withEnv(path, { DNS_TIER_SECONDARIES: "" })).toEqual({ status: 200, body: { result: [] } });
    expect(await withEnv(`/getAllDomainMetadata/${encodeName("catalog.invalid.")}`, { DNS_TIER_SECONDARIES: " , " })).toEqual({
      status: 200,
      body: { result: {} },
    });
  });

  it("a DNS_TIER_SECONDARIES entry that is no address[:port] answers 503 not_configured naming it, for zones and the catalog alike", async () => {
    await zone("tier-notify-bad.test");
    for (const [value, entry] of [
      ["ns1.example.net", "ns1.example.net"],
      ["192.0.2.1:0", "192.0.2.1:0"],
      ["192.0.2.1:65536", "192.0.2.1:65536"],
      ["192.0.2.1, 2001:db8::1:53x", "2001:db8::1:53x"],
      ["[192.0.2.1]:53", "[192.0.2.1]:53"],
    ]) {
      for (const path of [`/getDomainMetadata/${encodeName("tier-notify-bad.test.")}/ALSO-NOTIFY`, `/getAllDomainMetadata/${encodeName("catalog.invalid.")}`]) {
        const { status, body } = await withEnv(path, { DNS_TIER_SECONDARIES: value! });
        expect(status, `${value} ${path}`).toBe(503);
        expect(body).toMatchObject({
          code: "not_configured",
          detail: `DNS_TIER_SECONDARIES holds "${entry}", not an address[:port]: the DNS backend cannot name the tier's secondaries.`,
        });
      }
    }
  });
});

describe("signed zones: the serial moves when a new signing week begins", () => {
  it("signingWeekStart is PowerDNS's: Unix time less its remainder of 7 days (a Thursday, 00:00 UTC)", () => {
    const start = signingWeekStart(new Date("2026-11-25T13:14:15.000Z"));
    expect(start.toISOString()).toBe("2026-11-19T00:00:00.000Z");
    expect(start.getUTCDay()).toBe(4);
  });

  it("a signed zone unchanged since the week began gets a new serial and version; an unsigned one, or one changed since, does not", async () => {
    await zone("renew-signed.test");
    await zone("renew-unsigned.test");
    await zone("renew-recent.test");
    for (const name of ["renew-signed.test", "renew-recent.test"]) {
      const enabled = await api("POST", `/v1/zones/${name}/dnssec`);
      expect(enabled.status, enabled.text).toBe(201);
    }
    const now = new Date();
    const lastWeek = new Date(signingWeekStart(now).getTime() - 86_400_000).toISOString();
    await env.DB.prepare("update zones set updated_at = ? where name in ('renew-signed.test', 'renew-unsigned.test')").bind(lastWeek).run();
    const read = async (name: string) => {
      const response = await api("GET", `/v1/zones/${name}`);
      return { etag: response.headers.get("etag"), serial: response.body.soa.serial as number };
    };
    const before = { signed: await read("renew-signed.test"), unsigned: await read("renew-unsigned.test"), recent: await read("renew-recent.test") };
    expect(await renewSignatures(database(env.DB), now)).toBe(1);
    const signed = await read("renew-signed.test");
    expect(signed.serial).not.toBe(before.signed.serial);
    expect(signed.etag).not.toBe(before.signed.etag);
    expect(await read("renew-unsigned.test")).toEqual(before.unsigned);
    expect(await read("renew-recent.test")).toEqual(before.recent);
    expect(await updatedNames()).toContain("renew-signed.test.");
    // Once moved, not again until the next week.
    expect(await renewSignatures(database(env.DB), now)).toBe(0);
  });
});
