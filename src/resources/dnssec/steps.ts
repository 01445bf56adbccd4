// One zone's DNSSEC step as one write (docs/dnssec-rollovers.md). The engine
// (src/dns/dnssec/rollover.ts) says what changes; this turns its StepResult into the batch:
// each key row's state and times, the keys a roll creates (made and sealed here), the zone's
// roll, policy and next step (with a serial step when what the zone serves changed: the
// apex's DNSKEY, CDS and CDNSKEY and who signs follow the keys, and the secondaries must
// transfer it), each step's event (`dnssec.key.*`, `dnssec.ds.*`, `dnssec.rollover.stalled`),
// and, for a domain of this service, its DS set at the step the engine says.
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { eventInsert } from "../../db/events";
import { newId } from "../../db/ids";
import { records, zoneKeys, zones } from "../../db/schema";
import type { RowWrite, Statement, WriteContext } from "../../db/write";
import { touchZone } from "../../db/zones";
import { dnskeyTag } from "../../dns/dnssec/keys";
import { type DsFields, dsRecordsOf, type KeyWithDnskey, parentDsKeys } from "../../dns/dnssec/parent-ds";
import { cdsOf, type DnssecEvent, dsSeen, type KeyRole, type ParentDs, type SigningKey, type SigningZone, type StepResult } from "../../dns/dnssec/rollover";
import { seal } from "../../crypto/sealed";
import type { SigningAlgorithm, SigningPolicy } from "../../dns/dnssec/signing-policy";
import { GENERATED_ALGORITHMS, generateSigningKey, isGeneratedAlgorithm } from "../../dns/dnssec/signing-keys";
import { base64Text } from "../../crypto/base64";
import { ApiError } from "../../http/problem";
import { parentTiming, policyOf, signingKeyOf, type ZoneKeyRow, zoneTiming } from "../../db/zone-keys";
import { catalog } from "../../db/catalog";
import { readTogether } from "../../db/write";
import { findDomain } from "../domains/queries";
import { dsData, type LinkedDomain, setDomainDs } from "./registry-link";
import { atConnectedRegistry, type RegistryLink, sendDsSet } from "./registry-parent";
import { type DnssecKeyBody, dsRecords } from "./state";
import { dnskeyText } from "../../dns/dnssec/keys";
import { keyOf } from "./state";
import { lockedAgainstUpdate } from "../../registry/statuses";
import { requireSigningRoom, signingRoomGuard } from "./room";

type ZoneRow = typeof zones.$inferSelect;

/** A zone as the engine takes it, with the rows and the domain behind it. */
export interface ZoneSigning {
  zone: ZoneRow;
  /** The managed parent's repository has a connector: its DS goes to the registry first (registry-parent.ts). */
  connected: boolean;
  /** The rows the engine sees: every key not removed, and removed ones whose DS the parent may still show. */
  rows: ZoneKeyRow[];
  /** The same-named domain of the zone's account, when its extension takes DS data and the service may set it: the managed parent. */
  domain: LinkedDomain | null;
  signing: SigningZone;
}

/** Whether the engine still needs a key's row: a removed key stays while its DS may be at the parent. */
function inView(row: Pick<ZoneKeyRow, "state" | "dsState">): boolean {
  return row.state !== "removed" || row.dsState !== "absent";
}

/**
 * A managed parent: the same-named domain of the zone's account, under an extension that
 * takes DS data, not held by the registry lock's serverUpdateProhibited (its DS is then the
 * registry operator's: the zone's parent is treated as one the service cannot change).
 */
function managedParent(domain: LinkedDomain | null): LinkedDomain | null {
  return domain?.dnssec === true && !lockedAgainstUpdate(domain.row.serverStatuses) ? domain : null;
}

/**
 * Reads a zone's keys, its largest TTL and its same-named domain in one round trip (the
 * domain's extension from the catalog the isolate keeps), and builds the engine's view at
 * the write's time. The domain is read across the caller's visibility (`allAccounts`), as
 * zone.ts's `parentDomain` is: the zone's parent is the same whoever asks, and a token
 * narrowed to the zone, which does not see the same-named domain, must not make its roll
 * treat a parent managed here as one it must ask from outside.
 */
export async function readZoneSigning(ctx: Pick<WriteContext, "db" | "allAccounts" | "now">, zone: ZoneRow, link: RegistryLink | null): Promise<ZoneSigning> {
  const { db, now } = ctx;
  const [rows, [longest], [domainRow]] = await readTogether(db, [
    db.select().from(zoneKeys).where(eq(zoneKeys.zoneId, zone.id)).orderBy(zoneKeys.id),
    db
      .select({ ttl: sql`max(${records.ttl})`.mapWith(Number) })
      .from(records)
      .where(eq(records.zoneId, zone.id)),
    findDomain(ctx.allAccounts, { kind: "name", name: zone.name }),
  ]);
  // Only the zone's own account's domain is its managed parent (docs/dnssec.md "one-click DS").
  const domain: LinkedDomain | null =
    domainRow && domainRow.accountId === zone.accountId
      ? { row: domainRow, dnssec: (await catalog(db)).extensions.get(domainRow.extensionId)?.dnssec === true }
      : null;
  const live = rows.filter(inView);
  const managed = managedParent(domain);
  const connected = managed !== null && atConnectedRegistry(link, managed.row.repositoryId);
  return {
    zone,
    connected,
    rows: live,
    domain: managed,
    signing: {
      policy: policyOf(zone),
      keys: live.map(signingKeyOf),
      rollover: zone.dnssecRollover,
      timing: zoneTiming(zone, longest?.ttl ?? null),
      parent: parentTiming(managed !== null, connected),
      now,
    },
  };
}

/** Key ids share the ULID of the other ids, under their own prefix (as enable.ts makes them). */
export function keyIdAt(now: Date) {
  return (_role: KeyRole, _algorithm: SigningAlgorithm) => `key_${newId("zone", now).slice(4)}`;
}

export const FLAGS: Record<KeyRole, 256 | 257> = { csk: 257, ksk: 257, zsk: 256 };

/** 422 for an algorithm the service signs with but cannot make keys of (none today: every signing algorithm's keys are made). */
export function requireKeysOf(algorithm: number, field: string): void {
  if (isGeneratedAlgorithm(algorithm)) return;
  const message = `keys of algorithm ${algorithm} are not made by this service: choose ${GENERATED_ALGORITHMS.join(", ")}`;
  throw new ApiError("validation_failed", `${field}: ${message}.`, { errors: [{ field, message }] });
}

/** A new key row: its material made and sealed now, its lifecycle as the engine left it. */
export async function newKeyRow(secret: string, zoneId: string, key: SigningKey, at: string): Promise<ZoneKeyRow> {
  if (!isGeneratedAlgorithm(key.algorithm)) throw new Error(`algorithm ${key.algorithm} keys are not made here (requireKeysOf first)`);
  const material = await generateSigningKey(key.algorithm);
  const dnskey = { flags: FLAGS[key.role], protocol: 3, algorithm: key.algorithm, publicKey: material.publicKey };
  const row: ZoneKeyRow = {
    id: key.id,
    zoneId,
    keyTag: dnskeyTag(dnskey),
    algorithm: key.algorithm,
    flags: FLAGS[key.role],
    publicKey: base64Text(material.publicKey),
    privateKeySealed: await seal(secret, key.id, material.privateKey),
    createdAt: at,
    ...rowFields(key),
  };
  material.privateKey.fill(0);
  return row;
}

/** New key rows for the keys a step created. */
export async function createdRows(secret: string, zoneId: string, created: readonly SigningKey[], at: string): Promise<ZoneKeyRow[]> {
  const out: ZoneKeyRow[] = [];
  for (const key of created) out.push(await newKeyRow(secret, zoneId, key, at));
  return out;
}

/** The lifecycle columns of a key as the engine left it. */
function rowFields(key: SigningKey) {
  return {
    role: key.role,
    state: key.state,
    prePublishedAt: key.pre_published_at,
    publishedAt: key.published_at,
    readyAt: key.ready_at,
    activeAt: key.active_at,
    retiredAt: key.retired_at,
    removedAt: key.removed_at,
    dsState: key.ds,
    dsSince: key.ds_since,
    nextStepAt: key.next_step_at,
    // `active`: the key is live (not removed), what the tier and the zone's JSON read.
    active: key.state !== "removed",
  };
}

/** The public halves of the keys, for the DS a parent gets. */
export function keysWithDnskey(rows: readonly ZoneKeyRow[]): KeyWithDnskey[] {
  return rows.map((row) => ({ id: row.id, dnskey: keyOf(row) }));
}

/** A DS record as text ("tag alg type HEX"). */
function dsLine(ds: DsFields): string {
  return `${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest}`;
}

/**
 * A managed parent follows (docs/dnssec-rollovers.md "The parent"): the wanted DS set goes to
 * the registry first for a connected repository, and the stored DS becomes it, reported
 * seen in the same step, when the registry took it (1000) or at once for a builtin
 * repository (the service is its registry). Pending at the registry (1001), the stored DS
 * stays and the roll waits (`observeManagedParent` at the next runs). Returns the step after
 * that, and the domain's write.
 */
export async function followAtManagedParent(
  ctx: WriteContext,
  state: ZoneSigning,
  result: StepResult,
  keys: readonly KeyWithDnskey[],
  link: RegistryLink | null,
): Promise<{ result: StepResult; domainWrite: RowWrite | null }> {
  if (result.dsWanted === null || state.domain === null) return { result, domainWrite: null };
  const ds = dsRecordsOf(state.zone.name, result.dsWanted, keys);
  if (state.connected && link && (await sendDsSet(link, state.domain.row, ds)) === "pending") return { result, domainWrite: null };
  const domainWrite = setDomainDs(
    ctx,
    state.domain.row,
    ds.map((d) => dsData(dsLine(d))),
  );
  const after = dsSeen({ ...state.signing, keys: result.keys, rollover: result.rollover }, { keys: result.dsWanted }, ctx.now);
  return { result: merged(result, after), domainWrite };
}

/**
 * What a managed parent shows while a roll runs or the zone waits for it: the domain's
 * stored DS (at a connected repository, the registry's, as its messages and the hourly
 * reconciliation bring it), as key ids; null when the keys are at rest. A DS the domain lost
 * meanwhile (changed by hand) is so found and sent again.
 */
export function observeManagedParent(state: ZoneSigning): ParentDs | null {
  if (state.domain === null) return null;
  if (state.signing.rollover === null && !state.signing.keys.some((k) => k.ds === "submitted" || k.ds === "withdrawn")) return null;
  return parentDsKeys(state.zone.name, keysWithDnskey(state.rows), state.domain.row.ds);
}

/** Two steps taken one after the other as one: the events and creations of both, in order; the state of the second. */
export function merged(first: StepResult, second: StepResult): StepResult {
  return {
    ...second,
    dsWanted: second.dsWanted ?? first.dsWanted,
    created: [...first.created, ...second.created],
    changes: [...first.changes, ...second.changes],
    events: [...first.events, ...second.events],
  };
}

/** The key as GET /zones/{zone}/dnssec lists it, at a state of the engine. */
function keyBody(zoneName: string, row: ZoneKeyRow, key: SigningKey): DnssecKeyBody {
  return {
    id: row.id,
    key_tag: row.keyTag,
    algorithm: row.algorithm,
    flags: row.flags,
    active: key.state !== "removed",
    role: key.role,
    state: key.state,
    ds_state: key.ds,
    next_step_at: key.next_step_at,
    dnskey: dnskeyText(keyOf(row)),
    ds: dsRecords(zoneName, row),
    created_at: row.createdAt,
  };
}

/**
 * The events of a step, in the engine's order (docs/dnssec-rollovers.md "Events"), each as
 * one insert placed after the rows in the batch (written only with them):
 *
 * - `dnssec.key.<state>` (resource: the key): `before` and `after` are the key as the DNSSEC
 *   state lists it, before and after that transition (`before` null for a new key);
 * - `dnssec.ds.submitted` / `dnssec.ds.seen` (resource: the zone): `after` holds the DS set
 *   (as key ids and as SHA-256 DS records) the parent must show, or shows;
 * - `dnssec.rollover.stalled` (resource: the zone): `after` holds the roll, the parent step
 *   it waits for and the DS set it waits to see.
 */
function eventStatements(
  ctx: WriteContext,
  state: ZoneSigning,
  result: StepResult,
  rows: ReadonlyMap<string, ZoneKeyRow>,
  keysPublic: readonly KeyWithDnskey[],
): Statement[] {
  const zone = state.zone;
  const current = new Map<string, SigningKey>(state.signing.keys.map((k) => [k.id, k]));
  const final = new Map<string, SigningKey>(result.keys.map((k) => [k.id, k]));
  // Transitions per key in order; the last of a key's leaves it as the step left it.
  const remaining = new Map<string, number>();
  for (const change of result.changes) remaining.set(change.key, (remaining.get(change.key) ?? 0) + 1);
  let changeAt = 0;
  const statements: Statement[] = [];
  const insert = (type: "dnssec.key" | "dnssec.ds" | "dnssec.rollover", id: string, operation: string, before: unknown, after: unknown) =>
    statements.push(
      eventInsert(ctx.db, {
        at: ctx.at,
        actor: ctx.actor,
        account: zone.accountId,
        type,
        id,
        operation: operation as never,
        before,
        after,
      }),
    );
  const dsSet = (event: DnssecEvent) => {
    const keys = event.ds ?? [];
    return { zone: zone.name, parent: state.signing.parent.kind, keys, ds: dsRecordsOf(zone.name, keys, keysPublic).map(dsLine) };
  };
  for (const event of result.events) {
    if (event.key !== null && event.state !== null) {
      // The engine lists a key's change and its event together, in the same order.
      const change = result.changes[changeAt++];
      const row = rows.get(event.key);
      if (!change || change.key !== event.key || !row) continue;
      const before = current.get(event.key) ?? null;
      const left = (remaining.get(event.key) ?? 1) - 1;
      remaining.set(event.key, left);
      const base = before ?? final.get(event.key)!;
      const timeField = TIME_FIELDS[event.state];
      const after: SigningKey =
        left === 0 ? final.get(event.key)! : { ...base, state: event.state, [timeField]: change.at, next_step_at: before?.next_step_at ?? null };
      current.set(event.key, after);
      insert(
        "dnssec.key",
        event.key,
        event.type.slice("dnssec.key.".length),
        before === null ? null : { zone: zone.name, ...keyBody(zone.name, row, before) },
        { zone: zone.name, ...keyBody(zone.name, row, after) },
      );
      continue;
    }
    if (event.type === "dnssec.ds.submitted" || event.type === "dnssec.ds.seen") {
      insert("dnssec.ds", zone.id, event.type.slice("dnssec.ds.".length), null, dsSet(event));
      continue;
    }
    if (event.type === "dnssec.rollover.stalled") {
      insert("dnssec.rollover", zone.id, "stalled", null, { ...dsSet(event), rollover: result.rollover, awaiting_parent: result.awaiting_parent });
    }
  }
  return statements;
}

const TIME_FIELDS = {
  "pre-published": "pre_published_at",
  published: "published_at",
  ready: "ready_at",
  active: "active_at",
  retired: "retired_at",
  "post-active": "retired_at",
  removed: "removed_at",
} as const;

/** What a step writes: rows that must change (keys, the zone, the domain's DS), its events alongside, and its rules at commit. */
export interface StepWrite {
  rows: RowWrite[];
  alongside: Statement[];
  guards: Statement[];
}

/**
 * The batch of one step: keys created, updated (or deleted, once removed with no DS left at
 * the parent), the zone's roll, policy and next step, the domain's DS, and the events. The
 * zone's serial and version move when what it serves changed (a key's state, a new key); a
 * step that only moves the next look (a parent polled) writes the zone's next step alone.
 */
export function stepWrites(
  ctx: WriteContext,
  state: ZoneSigning,
  result: StepResult,
  created: readonly ZoneKeyRow[],
  extra: { policy?: SigningPolicy | null; domainWrite?: RowWrite | null; policyEvent?: boolean } = {},
): StepWrite {
  const { db } = ctx;
  // Keys made (a roll starts): the zone keeps room for what they add to its export, the
  // keys it had beside them (docs/dnssec.md; src/resources/dnssec/room.ts).
  const guards: Statement[] = [];
  if (created.length > 0) {
    requireSigningRoom(state.zone, keysWithDnskey([...state.rows.filter((r) => r.active), ...created]), "this roll");
    guards.push(signingRoomGuard(db, state.zone.id));
  }
  const createdIds = new Set(created.map((r) => r.id));
  const finalKeys = new Map(result.keys.map((k) => [k.id, k]));
  // A created key as the whole step left it (a managed parent may have seen its DS since it was made).
  const inserted = created.map((row) => {
    const key = finalKeys.get(row.id);
    return key ? { ...row, ...rowFields(key) } : row;
  });
  const rows: RowWrite[] = inserted.map((row) => ({ statement: db.insert(zoneKeys).values(row) }));
  const byId = new Map<string, ZoneKeyRow>([...state.rows, ...inserted].map((r) => [r.id, r]));
  // What the tier serves: the keys (a state changed, one made or gone) and the apex's CDS set
  // (a DS withdrawn or submitted with no key changing, as leaving DNSSEC starts).
  const cdsBefore = cdsOf(state.signing.keys, state.signing.rollover);
  let servedChanged = created.length > 0 || result.changes.length > 0 || JSON.stringify(cdsBefore) !== JSON.stringify(result.cds);
  for (const key of result.keys) {
    if (createdIds.has(key.id)) continue;
    const before = state.signing.keys.find((k) => k.id === key.id);
    if (before && JSON.stringify(before) === JSON.stringify(key)) continue;
    if (!inView({ state: key.state, dsState: key.ds })) {
      // Removed, and its DS is nowhere: the key (and its sealed private half) goes.
      rows.push({ statement: db.delete(zoneKeys).where(eq(zoneKeys.id, key.id)) });
      servedChanged = true;
      continue;
    }
    rows.push({ statement: db.update(zoneKeys).set(rowFields(key)).where(eq(zoneKeys.id, key.id)) });
  }
  const policy = extra.policy ?? null;
  const fields = {
    dnssecRollover: result.rollover,
    dnssecNextStepAt: result.next_step_at,
    ...(policy ? { dnssecPolicy: policy } : {}),
  };
  if (servedChanged || policy) {
    const current = policyOf(state.zone);
    rows.push({
      statement: touchZone(db, state.zone.id, ctx.now, { expectedVersion: state.zone.version, fields }),
      // A policy the roll set (an algorithm roll to another algorithm) is the zone's change, as PATCH's is.
      ...(policy && extra.policyEvent
        ? {
            event: {
              account: state.zone.accountId,
              type: "zone" as const,
              id: state.zone.id,
              operation: "update" as const,
              before: { name: state.zone.name, dnssec: { policy: current } },
              after: { name: state.zone.name, dnssec: { policy } },
            },
          }
        : {}),
    });
  } else {
    // Nothing served changed: the zone's next look only, at the version read (no serial step, no transfer).
    rows.push({
      statement: db.update(zones).set(fields).where(sql`${zones.id} = ${state.zone.id} and ${zones.version} = ${state.zone.version}`),
    });
  }
  if (extra.domainWrite) rows.push(extra.domainWrite);
  const alongside = eventStatements(ctx, state, result, byId, keysWithDnskey([...byId.values()]));
  return { rows, alongside, guards };
}

/** The parent's DS set as an operator or a poll reports it, for `dsSeen`. */
export type { ParentDs };
