// DNS UPDATE (RFC 2136) decided here, whole (docs/dns-update.md): the update gateway
// forwards each message it receives, as sent, and sends back what this answers. One read
// batch finds the zone, the key that signed (the TSIG names it: any number of update keys
// per zone, each held to its own `records` rules), whether the message was seen before, and
// the records at every name the message touches and the names around them that the zone's
// integrity rules look at; then the TSIG is verified (RFC 8945 §5.2), the zone section,
// the prerequisites and the update section are read as RFC 2136 says (src/dns/update.ts),
// the outcome is held to the rules every record write obeys, and one D1 batch (the write
// routine: src/db/write.ts) writes the records, one serial step, the events (`token`: the
// key's id) and the message's (key, time, MAC), whose unique index refuses a replay. A write
// that lands between the read and the batch moves the zone's version, which the batch
// steps from: the update reads and decides again. The reads are a fixed number whatever the
// update's size (one batch; one more for apex name servers inside the zone, for wildcards,
// and for an update that changes the zone's structure, which reads it whole).
import { and, eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { recordRuleFor } from "../../access/token-rights";
import type { Database } from "../../db/client";
import { exceededQuota } from "../../db/quota-check";
import { zoneTooLarge } from "../../db/errors";
import { findZone, zoneColumns, type ZoneWithLinks } from "../../db/zones";
import { accounts, dnsUpdateSeen, records, tsigKeys, zones } from "../../db/schema";
import { commitWrite, isLostRace, LostRace, readTogether, retryLostRaces, type Statement, type Write, WriteContention, writeContextAt } from "../../db/write";
import { unseal } from "../../crypto/sealed";
import {
  CLASS_IN,
  type Message,
  type MessageHeader,
  type MessageQuestion,
  nameText,
  OPCODE_QUERY,
  OPCODE_UPDATE,
  parseMessage,
  RCODE,
  type RcodeName,
  renderResponse,
  TYPE_SOA,
  wireName,
  withAdditional,
} from "../../dns/message";
import { absoluteOwnerName, ancestorNames } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import { nameWire } from "../../dns/rdata/wire";
import { concatWire, u32 } from "../../dns/rdata/wire";
import { base64Text } from "../../crypto/base64";
import { rrsetOutcomeProblems, rrsetSizeProblems } from "../../dns/rrset-changes";
import { isTsigAlgorithm, MAX_FUDGE_SECONDS, readTsig, responseTsig, type TsigAlgorithm, type TsigRecord, TSIG_ERROR, verifyRequest } from "../../dns/tsig";
import { applyUpdates, namesAround, namesNamed, prerequisiteRefusal, prescanUpdates, type UpdateOperation, type UpdateRefusal } from "../../dns/update";
import { checkedTargets, changesStructure, newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import type { AppEnv } from "../../env";
import { defaultLimits } from "../../http/quota-problem";
import { ApiError } from "../../http/problem";
import { dnssecSecret } from "../../http/sealing-secret";
import { requireRoomInZone } from "../records/collection";
import { type Plan, plan, planWrite } from "../records/changes-plan";
import type { RecordWithZone } from "../records/queries";

/** How many records an update may hold, unless DNS_UPDATE_MAX_RECORDS says otherwise. */
export const DEFAULT_MAX_UPDATE_RECORDS = 1_000;

/** Rows of dns_update_seen older than this (seconds) can match no message the time check lets through. */
export const SEEN_KEPT_SECONDS = 2 * MAX_FUDGE_SECONDS;

const ATTEMPTS = 5;

/** The answer, and what the gateway logs: the rcode (and TSIG error) and, for a refusal, why. */
export interface UpdateAnswer {
  message: Uint8Array;
  outcome: string;
}

/** DNS_UPDATE_MAX_RECORDS, a whole number ≥ 1 (the default when unset or not one). */
export function maxUpdateRecords(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : DEFAULT_MAX_UPDATE_RECORDS;
}

type Row = typeof records.$inferSelect;
type KeyRow = Pick<typeof tsigKeys.$inferSelect, "id" | "accountId" | "algorithm" | "secretSealed" | "allow" | "zones" | "records" | "expiresAt">;

/** A refusal decided after the TSIG verified: a signed answer with this rcode. */
class Refused extends Error {
  constructor(
    readonly rcode: RcodeName,
    reason: string,
  ) {
    super(reason);
  }
}

const refused = (r: UpdateRefusal) => new Refused(r.rcode, r.reason);

/** An answer carrying no TSIG (the request had none, or could not be read). */
function unsignedAnswer(header: MessageHeader, rcode: number, questions: readonly MessageQuestion[], outcome: string): UpdateAnswer {
  return { message: renderResponse(header, rcode, questions), outcome };
}

/** The reads of one attempt, in one round trip. */
function readStatements(db: Database, zone: string, tsig: TsigRecord, names: readonly string[]) {
  const zoneId = sql`(select id from zones where name = ${zone})`;
  return [
    findZone(db, { kind: "name", name: zone }),
    keyByName(db, tsig.keyName),
    db
      .select({ one: sql<number>`1` })
      .from(dnsUpdateSeen)
      .where(
        and(
          eq(dnsUpdateSeen.keyId, sql`(select id from tsig_keys where name = ${tsig.keyName})`),
          eq(dnsUpdateSeen.signedAt, tsig.timeSigned),
          eq(dnsUpdateSeen.mac, base64Text(tsig.mac)),
        ),
      ),
    db
      .select(getTableColumns(records))
      .from(records)
      .where(sql`${records.zoneId} = ${zoneId} and ${records.name} in (select value from json_each(${JSON.stringify(names)}))`),
    accountOfZone(db, zone),
  ] as const;
}

/** The key a TSIG names, with what verifying it and holding an update to it need. */
function keyByName(db: Database, name: string) {
  return db
    .select({
      id: tsigKeys.id,
      accountId: tsigKeys.accountId,
      algorithm: tsigKeys.algorithm,
      secretSealed: tsigKeys.secretSealed,
      allow: tsigKeys.allow,
      zones: tsigKeys.zones,
      records: tsigKeys.records,
      expiresAt: tsigKeys.expiresAt,
    })
    .from(tsigKeys)
    .where(eq(tsigKeys.name, name));
}

/** The status of the account that holds the zone (a suspended account's zones are not served). */
function accountOfZone(db: Database, zone: string) {
  return db.select({ status: accounts.status }).from(accounts).where(sql`${accounts.id} = (select account_id from zones where name = ${zone})`);
}

/** The statement that records the message as seen: it must insert (a row already there is a replay racing this one). */
function seenRow(db: Database, keyId: string, tsig: TsigRecord): Statement {
  return db
    .insert(dnsUpdateSeen)
    .values({ keyId, signedAt: tsig.timeSigned, mac: base64Text(tsig.mac) })
    .onConflictDoNothing();
}

function pruneSeen(db: Database, nowSeconds: number): Statement {
  return db.delete(dnsUpdateSeen).where(lt(dnsUpdateSeen.signedAt, nowSeconds - SEEN_KEPT_SECONDS));
}

/** The SOA's RDATA as the zone serves it, in canonical wire form (for a value-dependent prerequisite on it). */
function soaRdata(zone: ZoneWithLinks): Uint8Array {
  const name = (n: string) => nameWire(n.endsWith(".") ? n : `${n}.`);
  return concatWire(
    name(zone.soaMname),
    name(zone.soaRname),
    u32(zone.soaSerial),
    u32(zone.soaRefresh),
    u32(zone.soaRetry),
    u32(zone.soaExpire),
    u32(zone.soaMinimum),
  );
}

/** The in-zone names the added records point at whose lookups the integrity rules follow (NS at the apex, MX, SRV). */
function addedTargets(zone: string, operations: readonly UpdateOperation[]): string[] {
  return operations.flatMap((op) =>
    op.kind === "add" ? checkedTargets(zone, { fqdn: absoluteOwnerName(op.name, zone), type: op.type, content: op.content }) : [],
  );
}

/** The names one attempt reads: those the message names and those the integrity rules look at around them. */
function namesToRead(zone: string, message: Message, operations: readonly UpdateOperation[]): string[] {
  const [prerequisites, updates] = message.sections;
  const named = namesNamed(zone, [...prerequisites, ...updates]);
  const owners = named.map((name) => absoluteOwnerName(name, zone));
  return [...new Set([...named, ...namesAround(zone, [...owners, ...addedTargets(zone, operations)])])];
}

interface MoreReads {
  recordsAt(names: readonly string[]): Promise<Row[]>;
  descendants(names: readonly string[]): Promise<Set<string>>;
  wholeZone(): Promise<Row[]>;
}

function moreReads(db: Database, zoneId: string): MoreReads {
  return {
    recordsAt: (names) =>
      db
        .select(getTableColumns(records))
        .from(records)
        .where(sql`${records.zoneId} = ${zoneId} and ${records.name} in (select value from json_each(${JSON.stringify(names)}))`),
    async descendants(names) {
      // One statement: for each name, whether anything lies below it (records_owner_order_idx, src/dns/name-order.ts).
      const keys = names.map((name) => [name, name === "@" ? "" : name.split(".").reverse().join(" ")]);
      const rows = await db.all<{ name: string }>(
        sql`select json_extract(j.value, '$[0]') as name from json_each(${JSON.stringify(keys)}) j where exists (select 1 from records r where r.zone_id = ${zoneId} and (case when json_extract(j.value, '$[1]') = '' then r.owner_order > '' else r.owner_order > json_extract(j.value, '$[1]') || ' ' and r.owner_order < json_extract(j.value, '$[1]') || '!' end))`,
      );
      return new Set(rows.map((row) => row.name));
    },
    wholeZone: () => db.select(getTableColumns(records)).from(records).where(eq(records.zoneId, zoneId)),
  };
}

/**
 * The first rule of BIND's zone integrity checks (src/dns/zone-integrity.ts) the update
 * breaks, or null: on the names around what it writes, or on the whole zone when it changes
 * the zone's structure (an alias or DNAME added, a delegation or DNAME removed, a name left
 * empty where a wildcard alias answers), as a single record write checks it
 * (src/resources/records/integrity.ts) but for every record of the update at once.
 */
async function integrityProblem(
  zone: ZoneWithLinks,
  read: readonly Row[],
  readNames: ReadonlySet<string>,
  planned: Plan,
  more: MoreReads,
): Promise<string | null> {
  const ref = (r: { name: string; type: string; content: string }): ZoneRecordRef => ({
    fqdn: absoluteOwnerName(r.name, zone.name),
    type: r.type,
    content: r.content,
  });
  const added = planned.created.map(({ row }) => ref(row));
  const removed = planned.deleted.map(ref);
  let whole = added.some((r) => changesStructure(zone.name, null, r)) || removed.some((r) => changesStructure(zone.name, r, null));
  let rows: Row[] = [...read];
  const existing: string[] = [];
  if (!whole) {
    const apexNs = rows.filter((r) => r.name === "@" && r.type === "NS").map(ref);
    const starts = [...apexNs, ...added].flatMap((r) => checkedTargets(zone.name, r));
    const missing = namesAround(zone.name, starts).filter((name) => !readNames.has(name));
    if (missing.length > 0) rows = [...rows, ...(await more.recordsAt(missing))];
    const owners = new Set(rows.map((r) => r.name));
    // A wildcard answers only for names that do not exist, and a name exists when anything lies below it.
    if (rows.some((r) => r.name === "*" || r.name.startsWith("*."))) {
      const relative = (fqdn: string) => (fqdn === zone.name ? "@" : fqdn.slice(0, -(zone.name.length + 1)));
      const unowned = [...new Set([...starts, ...added.map((r) => r.fqdn), ...removed.map((r) => r.fqdn)].map(relative))].filter((n) => !owners.has(n));
      if (unowned.length > 0) for (const name of await more.descendants(unowned)) existing.push(absoluteOwnerName(name, zone.name));
    }
    // A name left empty may now be answered by a wildcard alias, for any MX or SRV in the zone.
    const deleted = new Set(planned.deleted.map((r) => r.id));
    const createdAt = new Set(planned.created.map(({ row }) => row.name));
    const emptied = planned.deleted.some((r) => !createdAt.has(r.name) && !rows.some((o) => o.name === r.name && !deleted.has(o.id)));
    whole = emptied && rows.some((r) => r.type === "CNAME" && (r.name === "*" || r.name.startsWith("*.")));
  }
  if (whole) rows = await more.wholeZone();
  const deleted = new Set(planned.deleted.map((r) => r.id));
  const before = rows.map(ref);
  const after = [...rows.filter((r) => !deleted.has(r.id)).map(ref), ...added];
  const addedSet = new Set(added);
  const scope = whole ? {} : { existing, only: (r: ZoneRecordRef) => addedSet.has(r) || (r.type === "NS" && r.fqdn === zone.name) };
  const [problem] = newIntegrityProblems(zone.name, before, after, scope);
  return problem ? `the ${problem.record.type} record at ${problem.record.fqdn} (${problem.record.content}) would break: ${problem.message}` : null;
}

/** Every name and type the update changes is within the key's `records` rules (REFUSED naming the first that is not). */
function requireKeyRules(key: KeyRow, planned: Plan): void {
  if (key.records === null) return;
  const changed = [...planned.created.map(({ row }) => row), ...planned.deleted, ...planned.changed.map(({ after }) => after)];
  for (const record of changed) {
    if (recordRuleFor(key.records, record.name, record.type)) continue;
    const rules = key.records.map((rule) => `${rule.name} ${rule.types.join("/")}`).join(", ") || "no name";
    throw new Refused("REFUSED", `the key ${key.id} may update only ${rules}; ${record.type} at ${record.name} is not among them`);
  }
}

/**
 * The key that signed, verified (RFC 8945 §5.2: the key by name and algorithm, an expired
 * key as unknown, BADKEY; the MAC, BADSIG; the time, BADTIME), or the answer that says why not.
 */
async function verifiedKey(
  c: Context<AppEnv>,
  bytes: Uint8Array,
  tsig: TsigRecord,
  key: KeyRow | undefined,
  now: Date,
): Promise<{ ok: true; key: KeyRow; signing: NonNullable<Decided["key"]> } | { ok: false; decided: Decided }> {
  const refuse = (decided: Decided) => ({ ok: false as const, decided });
  const live = key && (key.expiresAt === null || key.expiresAt > now.toISOString());
  if (!key || !live || !isTsigAlgorithm(tsig.algorithm) || key.algorithm !== tsig.algorithm) {
    const why = !key ? "no such key" : !live ? "the key has expired" : `the key's algorithm is ${key.algorithm}, not ${tsig.algorithm}`;
    return refuse({ rcode: "NOTAUTH", tsigError: TSIG_ERROR.BADKEY, reason: `BADKEY: ${tsig.keyName}: ${why}`, signed: false });
  }
  const secret = await unseal(dnssecSecret(c), key.id, key.secretSealed);
  if (!secret) return refuse({ rcode: "NOTAUTH", tsigError: TSIG_ERROR.BADKEY, reason: `BADKEY: ${tsig.keyName}: the secret does not open`, signed: false });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const verdict = await verifyRequest(bytes, tsig, key.algorithm, secret, nowSeconds);
  const signing = { algorithm: key.algorithm, secret };
  if (verdict.ok) return { ok: true, key, signing };
  if (verdict.error === "FORMERR")
    return refuse({ rcode: "FORMERR", reason: "FORMERR: the TSIG's MAC is shorter than RFC 8945 §5.2.2.1 allows", signed: false });
  if (verdict.error === "BADSIG") return refuse({ rcode: "NOTAUTH", tsigError: TSIG_ERROR.BADSIG, reason: "BADSIG: the MAC does not verify", signed: false });
  return refuse({
    rcode: "NOTAUTH",
    tsigError: TSIG_ERROR.BADTIME,
    reason: `BADTIME: signed at ${tsig.timeSigned}, ${nowSeconds - tsig.timeSigned} s from our clock`,
    signed: true,
    key: signing,
  });
}

/** What one attempt decided: an answer, and the write that goes with it (the message as seen, and for NOERROR the update). */
interface Decided {
  rcode: RcodeName;
  tsigError?: number;
  reason: string;
  /** Whether the answer is signed (not when the key or the MAC is at fault: RFC 8945 §5.3.2). */
  signed: boolean;
  key?: { algorithm: TsigAlgorithm; secret: Uint8Array };
  write?: Write | undefined;
  keyId?: string;
}

/**
 * Reads, verifies and decides an UPDATE, and commits its write (`retryLostRaces` runs it
 * again when a write lands between the two).
 */
async function attempt(
  c: Context<AppEnv>,
  message: Message,
  bytes: Uint8Array,
  tsig: TsigRecord,
  prescan: ReturnType<typeof prescanUpdates>,
  names: readonly string[],
): Promise<Decided> {
  const db = c.get("db");
  const question = message.questions[0];
  const zoneName = question ? nameText(question.name) : "";
  const [zoneRows, keyRows, seenRows, recordRows, accountRows] = await readTogether(db, readStatements(db, zoneName, tsig, names));
  const now = new Date();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const verified = await verifiedKey(c, bytes, tsig, keyRows[0], now);
  if (!verified.ok) return verified.decided;
  const { key, signing } = verified;
  // A message seen before: a replay, refused whatever it says (the contract: BADSIG, nothing applied).
  if (seenRows.length > 0)
    return { rcode: "NOTAUTH", tsigError: TSIG_ERROR.BADSIG, reason: "BADSIG: this signed message was seen before (a replay)", signed: false };
  const ctx = writeContextAt(db, now, key.id, defaultLimits(c));
  const seenOnly: Write = { rows: [{ statement: seenRow(db, key.id, tsig) }], alongside: [pruneSeen(db, nowSeconds)] };
  const answer = (rcode: RcodeName, reason: string, write: Write = seenOnly): Decided => ({ rcode, reason, signed: true, write, keyId: key.id, key: signing });
  try {
    const zone = decideZone(message, zoneRows[0], accountRows[0]?.status, key, c.env.DNS_UPDATE_MAX_RECORDS);
    const current: RecordWithZone[] = recordRows.map((row) => ({ ...row, zoneName: zone.name }));
    const prerequisite = prerequisiteRefusal({ zone: zone.name, records: current, soaRdata: soaRdata(zone) }, message.sections[0]);
    if (prerequisite) throw refused(prerequisite);
    if (!prescan.ok) throw refused(prescan.refusal);
    const outcomes = applyUpdates(current, prescan.operations, zone.defaultTtl);
    const planned = plan(ctx, zone, current, outcomes);
    if (planned.created.length + planned.changed.length + planned.deleted.length === 0) return answer("NOERROR", "NOERROR: nothing to change");
    requireKeyRules(key, planned);
    const [conflict] = rrsetOutcomeProblems(current, outcomes);
    if (conflict) throw new Refused("REFUSED", conflict.message);
    const [tooLarge] = rrsetSizeProblems(zone.name, outcomes);
    if (tooLarge) throw new Refused("REFUSED", tooLarge.message);
    try {
      requireRoomInZone(zone, planned.created.length - planned.deleted.length, "update");
    } catch (error) {
      if (error instanceof ApiError) throw new Refused("REFUSED", error.message);
      throw error;
    }
    const broken = await integrityProblem(zone, recordRows, new Set(names), planned, moreReads(db, zone.id));
    if (broken) throw new Refused("REFUSED", broken);
    const write = planWrite(ctx, zone, planned);
    const changes = planned.created.length + planned.changed.length + planned.deleted.length;
    return answer("NOERROR", `NOERROR: ${changes} record${changes === 1 ? "" : "s"} written`, {
      ...write,
      rows: [...(write.rows ?? []), ...(seenOnly.rows ?? [])],
      alongside: [...(write.alongside ?? []), ...(seenOnly.alongside ?? [])],
    });
  } catch (error) {
    if (error instanceof Refused) return answer(error.rcode, `${error.rcode}: ${error.message}`);
    throw error;
  }
}

/** The zone section (RFC 2136 §3.1), the zone, its account, the key's rights and the message's size, in that order. */
function decideZone(
  message: Message,
  zone: ZoneWithLinks | undefined,
  accountStatus: string | undefined,
  key: KeyRow,
  maxSetting: string | undefined,
): ZoneWithLinks {
  const [question] = message.questions;
  if (message.questions.length !== 1 || question!.type !== TYPE_SOA)
    throw new Refused("FORMERR", "the zone section holds one entry, of type SOA (RFC 2136 §3.1.1)");
  const name = nameText(question!.name);
  if (question!.class !== CLASS_IN || !zone) throw new Refused("NOTAUTH", `${name || "."} is not a zone served here (RFC 2136 §3.1.2)`);
  if (!key.allow.includes("update") || key.accountId !== zone.accountId || !key.zones.includes(zone.name))
    throw new Refused("REFUSED", `the key may not update ${zone.name}: it ${key.allow.includes("update") ? "names other zones" : "does not allow update"}`);
  if (accountStatus !== "active") throw new Refused("REFUSED", `the account of ${zone.name} is suspended`);
  const most = maxUpdateRecords(maxSetting);
  const [prerequisites, updates] = message.sections;
  if (updates.length > most || prerequisites.length > most)
    throw new Refused(
      "REFUSED",
      `an update holds at most ${most} records in its update section and ${most} in its prerequisites (DNS_UPDATE_MAX_RECORDS); this one has ${updates.length} and ${prerequisites.length}: send it in parts`,
    );
  return zone;
}

/**
 * The answer to one DNS message forwarded by the gateway, or null when it is no request to
 * answer (not even a header, or a response).
 */
export async function answerDnsUpdate(c: Context<AppEnv>, bytes: Uint8Array): Promise<UpdateAnswer | null> {
  const parsed = parseMessage(bytes);
  if (!parsed.ok) {
    if (!parsed.header || parsed.header.qr) return null;
    return unsignedAnswer(parsed.header, RCODE.FORMERR, [], `FORMERR: ${parsed.error}`);
  }
  const { message } = parsed;
  const { header, questions } = message;
  if (header.qr) return null;
  if (header.opcode === OPCODE_QUERY) return answerQuery(c, message, bytes);
  if (header.opcode !== OPCODE_UPDATE)
    return unsignedAnswer(header, RCODE.NOTIMP, questions, `NOTIMP: opcode ${header.opcode}; this server takes UPDATE (5), and SOA questions`);
  const read = readTsig(message);
  if (!read.ok) return unsignedAnswer(header, RCODE.FORMERR, questions, `FORMERR: ${read.error}`);
  const tsig = read.tsig;
  // Unsigned: no key, no rights (docs/dns-update.md).
  if (!tsig) return unsignedAnswer(header, RCODE.REFUSED, questions, "REFUSED: the update is not signed (TSIG)");
  const zone = questions.length === 1 ? nameText(questions[0]!.name) : "";
  const oversized = Math.max(message.sections[0].length, message.sections[1].length) > maxUpdateRecords(c.env.DNS_UPDATE_MAX_RECORDS);
  // Past the size bound the update is refused unread: no names read, nothing prescanned.
  const prescan: ReturnType<typeof prescanUpdates> = oversized ? { ok: true, operations: [] } : prescanUpdates(zone, message.sections[1]);
  const names = oversized ? [] : namesToRead(zone, message, prescan.ok ? prescan.operations : []);
  let last: Decided | null = null;
  let decision: Decided;
  try {
    decision = await retryLostRaces(async () => {
      const decided = await attempt(c, message, bytes, tsig, prescan, names);
      last = decided;
      if (!decided.write || !decided.keyId) return decided;
      try {
        await commitWrite(writeContextAt(c.get("db"), new Date(), decided.keyId, defaultLimits(c)), decided.write, (failure) => {
          if (failure === "rrset_conflict") return new Refused("REFUSED", "a CNAME must be alone at its name (RFC 1034 §3.6.2)");
          if (failure === "apex_ns_required") return new Refused("REFUSED", "the zone apex must keep at least one NS record (RFC 1034 §4.2.1)");
          // A record of the update written meanwhile by another writer: read and decide again.
          if (failure === "unique") return new LostRace();
          return undefined;
        });
      } catch (error) {
        if (isLostRace(error)) throw error;
        const why = commitRefusal(error);
        if (!why) throw error;
        // Refused by the batch: nothing written, the message not recorded either.
        return { ...decided, rcode: why.rcode, reason: `${why.rcode}: ${why.message}`, write: undefined };
      }
      return decided;
    }, ATTEMPTS);
  } catch (error) {
    if (!(error instanceof WriteContention) || last === null) throw error;
    const contended: Decided = last;
    decision = { ...contended, rcode: "SERVFAIL", reason: "SERVFAIL: other writes to the zone kept committing first; send the update again", write: undefined };
  }
  return signedAnswer(renderResponse(header, RCODE[decision.rcode], questions), tsig, decision);
}

/** The answer with its TSIG: signed with the request's key, or with an empty MAC when the key or the MAC was at fault. */
async function signedAnswer(response: Uint8Array, tsig: TsigRecord, decision: Decided): Promise<UpdateAnswer> {
  const tsigRecord = await responseTsig(response, {
    request: tsig,
    error: decision.tsigError ?? TSIG_ERROR.NOERROR,
    nowSeconds: Math.floor(Date.now() / 1000),
    key: decision.signed ? (decision.key ?? null) : null,
  });
  return { message: withAdditional(response, tsigRecord), outcome: decision.reason };
}

/**
 * A question sent to the update server: clients find the zone to update by asking the
 * server they update for the SOA (RFC 2136 §4): certbot's dns-rfc2136 asks each name up
 * from the challenge's, signed with its update key, for an authoritative SOA in the
 * answer; lego asks the challenge's name and reads the zone from the SOA in the authority
 * section. So an SOA question is answered as the zone's authoritative server would: at a
 * zone's apex the SOA; at a name inside a zone served here, NOERROR when the name exists
 * (it holds records, or names below it do) and NXDOMAIN when not, the zone's SOA in the
 * authority section; outside every zone, REFUSED. Any other question is REFUSED: the
 * tier's secondaries answer questions. A signed question is verified as an update is
 * (no replay record: a question changes nothing) and answered signed.
 */
async function answerQuery(c: Context<AppEnv>, message: Message, bytes: Uint8Array): Promise<UpdateAnswer> {
  const { header, questions } = message;
  const read = readTsig(message);
  if (!read.ok) return unsignedAnswer(header, RCODE.FORMERR, questions, `FORMERR: ${read.error}`);
  const tsig = read.tsig;
  const [question] = questions;
  const name = question && questions.length === 1 ? nameText(question.name) : "";
  const db = c.get("db");
  const candidates = name === "" ? [] : [name, ...ancestorNames(name)];
  const [zoneRows, keyRows] = await readTogether(db, [
    db
      .select({ ...zoneColumns, accountStatus: sql<string>`(select a.status from accounts a where a.id = "zones"."account_id")` })
      .from(zones)
      .where(sql`${zones.name} in (select value from json_each(${JSON.stringify(candidates)}))`),
    keyByName(db, tsig?.keyName ?? ""),
  ]);
  let signing: Decided["key"];
  if (tsig) {
    const verified = await verifiedKey(c, bytes, tsig, keyRows[0], new Date());
    if (!verified.ok) return signedAnswer(renderResponse(header, RCODE[verified.decided.rcode], questions), tsig, verified.decided);
    signing = verified.signing;
  }
  // The deepest zone that holds the name, served (its account active).
  const zone = zoneRows.filter((z) => z.accountStatus === "active").sort((a, b) => b.name.length - a.name.length)[0];
  const soaQuestion = question !== undefined && questions.length === 1 && question.type === TYPE_SOA && question.class === CLASS_IN;
  let rcode: RcodeName = "REFUSED";
  let response: Uint8Array;
  let outcome: string;
  if (soaQuestion && zone) {
    const soa = { name: wireName(zone.name), type: TYPE_SOA, class: CLASS_IN, ttl: zone.defaultTtl, rdata: soaRdata(zone) };
    if (zone.name === name) {
      rcode = "NOERROR";
      response = renderResponse(header, RCODE.NOERROR, questions, { aa: true, answer: [{ ...soa, name: question.name }] });
      outcome = `NOERROR: the SOA of ${zone.name}`;
    } else {
      const relative = name.slice(0, -(zone.name.length + 1));
      const key = ownerOrder(relative);
      const [exists] = await db.all<{ one: number }>(
        sql`select 1 as one from records where zone_id = ${zone.id} and (name = ${relative} or (owner_order > ${`${key} `} and owner_order < ${`${key}!`})) limit 1`,
      );
      rcode = exists ? "NOERROR" : "NXDOMAIN";
      response = renderResponse(header, RCODE[rcode], questions, { aa: true, authority: [soa] });
      outcome = `${rcode}: ${name} is in ${zone.name} (its SOA in the authority section)`;
    }
  } else {
    response = renderResponse(header, RCODE.REFUSED, questions);
    outcome = `REFUSED: ${soaQuestion ? `${name || "."} is in no zone served here` : "this server answers only SOA questions"}`;
  }
  if (!tsig) return { message: response, outcome };
  return signedAnswer(response, tsig, { rcode, reason: outcome, signed: true, key: signing });
}

/** Why a batch refused the update, when it is the update's fault: a quota, the zone's size, the DNS rules' triggers. */
function commitRefusal(error: unknown): Refused | null {
  if (error instanceof Refused) return error;
  const quota = exceededQuota(error);
  if (quota) return new Refused("REFUSED", `the account's ${quota.kind} quota is reached (limit ${quota.kind}: docs/safety.md, "Quotas")`);
  if (zoneTooLarge(error)) return new Refused("REFUSED", "the zone would pass its size limit (zone_record_bytes)");
  return null;
}
