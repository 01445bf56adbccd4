// POST /v1/zones: a zone from JSON (its apex NS from `nameservers` or DEFAULT_NAMESERVERS),
// or imported from a master file (text/dns). Either way one batch writes the zone, its
// records and one `create` event standing for them all.
import type { RouteHandler } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { guard } from "../../db/guards";
import { nameHolderReads, noOtherHolder } from "../../db/name-holders";
import { zones } from "../../db/schema";
import { findZone, type ZoneWithLinks } from "../../db/zones";
import { decodeMasterFile, type MasterFileError, recordLineBytes } from "../../dns/master-file";
import { normalizeName } from "../../dns/name";
import { initialSerial } from "../../dns/serial";
import { newZoneNameserverProblem } from "../../dns/zone-integrity";
import type { AppEnv } from "../../env";
import { mediaTypeOf, requestBytes } from "../../http/body";
import { newFindings, throwFindings, validName } from "../../http/findings";
import { createResource } from "../../http/mutate";
import { callerAccount, isOperator, sponsorFor } from "../../http/caller";
import { catalogZoneFrom } from "../../dns/catalog-zone";
import { testZonesAllowed } from "../../http/test-zones";
import { reservedNameRefusal } from "../../registry/reserved-zone-names";
import { ApiError } from "../../http/problem";
import { LostRace } from "../../db/write";
import { normalizeHostName } from "../../registry/hosts";
import { nameAndAncestors, zoneClaimRefusal } from "../../registry/zone-ownership";
import { mergeSoa, nameHeld, refusedName, reservedName, zoneCollection, zoneExists } from "./collection";
import { MASTER_FILE_MEDIA_TYPE } from "./master-file";
import { planImport } from "./master-file-import";
import { DEFAULT_SOA_TIMERS, DEFAULT_TTL, type RecordChunk, recordChunks, recordInserts, newZoneRow } from "./new-zone";
import { linkedDomain, linkedDomainId } from "./queries";
import { checkedSecondaries } from "./secondaries";
import type * as routes from "./routes";
import type { ZoneCreate } from "./schemas";
import { readTogether } from "../../db/write";

/** Guard condition: a zone of the account at a name above `name` (src/registry/reserved-zone-names.ts: a delegation). */
function ownZoneAbove(name: string, accountId: string) {
  const above = nameAndAncestors(name).slice(1);
  return sql`exists (select 1 from zones z where z.name in (select value from json_each(${JSON.stringify(above)})) and z.account_id = ${accountId})`;
}

/** What a creation writes, however the zone was given. */
interface ZonePlan {
  name: string;
  accountId: string;
  defaultTtl: number;
  soa: Omit<Parameters<typeof newZoneRow>[2], "serial"> & { serial?: number };
  chunks: RecordChunk[];
  /** The records' lines as the export writes them (zones.record_bytes, drizzle/0028). */
  recordBytes: number;
  /** A JSON create's declared secondaries, checked with the zone's account. */
  secondaries?: ZoneCreate["secondaries"];
  /** An import's: what the file held that was changed or left out (RRset TTLs aligned, a signer's records). */
  warnings?: MasterFileError[];
}

function defaultNameservers(configured: string | undefined): string[] {
  return (configured ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A JSON body: the name, the apex name servers (RFC 1034 §4.2.1: every zone has NS records at its top), SOA overrides. */
async function planFromJson(c: Parameters<RouteHandler<typeof routes.createZone, AppEnv>>[0], input: ZoneCreate): Promise<ZonePlan> {
  const findings = newFindings();
  const validZoneName = validName(normalizeName(input.name, { underscore: true }), input.name, "name", findings);
  const name = validZoneName ?? "";
  const nameservers: string[] = [];
  (input.nameservers ?? defaultNameservers(c.env.DEFAULT_NAMESERVERS)).forEach((raw, index) => {
    const host = normalizeHostName(raw);
    if (!host.ok) findings.invalid.push({ field: `nameservers[${index}]`, message: `"${raw}" ${host.error}` });
    else if (nameservers.includes(host.name)) findings.invalid.push({ field: `nameservers[${index}]`, message: `${host.name} is listed twice` });
    else if (validZoneName !== null && newZoneNameserverProblem(name, host.name))
      findings.invalid.push({ field: `nameservers[${index}]`, message: newZoneNameserverProblem(name, host.name)! });
    else nameservers.push(host.name);
  });
  if (nameservers.length === 0 && findings.invalid.length === 0) {
    findings.invalid.push({ field: "nameservers", message: "a zone needs at least one name server, and none is configured (DEFAULT_NAMESERVERS)" });
  }
  const soa = mergeSoa({ mname: nameservers[0] ?? "", rname: `hostmaster.${name}`, ...DEFAULT_SOA_TIMERS }, input.soa);
  throwFindings(findings);
  const defaultTtl = input.default_ttl ?? DEFAULT_TTL;
  const apexNs = nameservers.map((ns) => ({ name: "@", type: "NS", content: `${ns}.`, ttl: defaultTtl }));
  return {
    name,
    accountId: await sponsorFor(c, input.account),
    defaultTtl,
    soa,
    chunks: recordChunks(apexNs),
    recordBytes: apexNs.reduce((sum, record) => sum + recordLineBytes(record), 0),
    secondaries: input.secondaries,
  };
}

/** A master file: everything from the file (the name from `$ORIGIN` or `?name=`). */
function planFromMasterFile(c: Parameters<RouteHandler<typeof routes.createZone, AppEnv>>[0], nameParam: string | undefined): ZonePlan {
  // A master file is octets (RFC 1035 §5.1): octets that are not UTF-8 cost their line, not the file.
  const plan = planImport(decodeMasterFile(requestBytes(c)), nameParam);
  const { origin, soa } = plan;
  return {
    name: origin,
    accountId: callerAccount(c),
    defaultTtl: plan.defaultTtl ?? soa?.ttl ?? DEFAULT_TTL,
    soa: soa ?? { mname: plan.firstNs, rname: `hostmaster.${origin}`, ...DEFAULT_SOA_TIMERS },
    chunks: plan.chunks,
    recordBytes: plan.recordBytes,
    warnings: plan.warnings,
  };
}

export const createZone: RouteHandler<typeof routes.createZone, AppEnv> = async (c) => {
  const isMasterFile = mediaTypeOf(c.req.header("content-type")) === MASTER_FILE_MEDIA_TYPE;
  const { name: nameParam } = c.req.valid("query");
  if (!isMasterFile && nameParam !== undefined) {
    throw new ApiError("invalid_query", "`name` is for master-file imports (Content-Type: text/dns); give the name in the JSON body.", {
      errors: [{ field: "name", message: "is only taken with a text/dns body" }],
    });
  }
  const plan = isMasterFile ? planFromMasterFile(c, nameParam) : await planFromJson(c, c.req.valid("json") as ZoneCreate);
  const catalogZone = catalogZoneFrom(c.env.DNS_CATALOG_ZONE);
  if (catalogZone === null)
    throw new ApiError("not_configured", "DNS_CATALOG_ZONE is not a domain name: no zone can be checked against the catalog zone's names.");

  return createResource(c, zoneCollection, {
    async create({ db, allAccounts, now }) {
      const { name, accountId } = plan;
      // Names are owned (src/registry/zone-ownership.ts): who holds the names around it, across accounts.
      const [[existing, domain, holder, zonesAround, zoneBelow, domainsAround], { extensions }] = await Promise.all([
        readTogether(allAccounts, [
          findZone(allAccounts, { kind: "name", name }),
          linkedDomain(db, name, accountId),
          ...nameHolderReads(allAccounts, name, accountId),
        ]),
        catalog(db),
      ]);
      const zonesAbove = zonesAround.filter((zone) => zone.name !== name);
      const refusal = zoneClaimRefusal({
        name,
        accountId,
        operatorAccount: holder[0]?.role === "operator",
        extensions,
        zonesAbove,
        zonesBelow: zoneBelow,
        domainsAtOrAbove: domainsAround,
      });
      if (refusal?.kind === "reserved") throw reservedName(refusal.message);
      // Names no customer may hold, or nobody (src/registry/reserved-zone-names.ts).
      const special = { name, accountId, byOperator: isOperator(c), catalogZone, testNamesAllowed: testZonesAllowed(c.env, c.req.raw), zonesAbove };
      const reserved = reservedNameRefusal(special);
      if (reserved) throw refusedName(reserved);
      // Allowed only as a name inside a zone of the account's own (a delegation): still so at commit.
      const delegated = reservedNameRefusal({ ...special, zonesAbove: [] }) !== null;
      // The caller's own zone of that name is named, with its id; another account's is held.
      if (existing[0]?.accountId === accountId) throw zoneExists(name, existing[0].id);
      if (existing[0] || refusal) throw nameHeld(name);

      const zone = newZoneRow(name, plan.defaultTtl, { ...plan.soa, serial: plan.soa.serial ?? initialSerial(now) }, now, accountId);
      if (plan.secondaries) zone.secondaries = await checkedSecondaries(c, db, { name, accountId }, plan.secondaries);
      // The record triggers count the inserts: a new zone's record_count is its records'.
      const recordCount = plan.chunks.reduce((sum, chunk) => sum + chunk.count, 0);
      const next: ZoneWithLinks = { ...zone, recordCount, recordBytes: plan.recordBytes, domainId: domain[0]?.id ?? null, dnssecKeys: "[]" };
      return {
        next,
        write: db.insert(zones).values(zone),
        alongside: recordInserts(db, zone.id, plan.chunks, now),
        // The domain of the same name links the zone (docs/dns.md#zones): the one read, still at commit.
        // An import's answer lists what the file held that the zone does not keep as it was.
        answerExtras: plan.warnings ? { warnings: plan.warnings } : undefined,
        guards: [
          guard(db, "the zone links the domain it read", sql`coalesce((${linkedDomainId(name, accountId)}), '') = ${next.domainId ?? ""}`),
          // Names are owned: still nobody else's at commit (src/registry/zone-ownership.ts).
          guard(db, "nobody else holds the name", noOtherHolder(name, accountId)),
          ...(delegated ? [guard(db, "a zone of the account above the name still delegates it", ownZoneAbove(name, accountId))] : []),
        ],
      };
    },
    // Another request made a zone of that name first: whose it is, the next attempt reads.
    failure: (kind) => {
      if (kind === "unique") throw new LostRace();
      return undefined;
    },
  });
};
