// One-click DNSSEC with the registry (docs/dnssec.md): the domain of the zone's name that the
// zone's own account sponsors, under an extension with DNSSEC, gets the key's SHA-256 DS in
// the same batch as the key (and loses it when signing stops), with its event.
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { domains, extensions } from "../../db/schema";
import { type RowWrite, versionStep, type WriteContext } from "../../db/write";
import type { DsData } from "../../registry/lifecycle";
import { presentDomain } from "../domains/present";
import { type DomainWithLinks, findDomain } from "../domains/queries";

export interface LinkedDomain {
  row: DomainWithLinks;
  /** Whether the domain's extension takes DS data (extensions.dnssec). */
  dnssec: boolean;
}

/** The same-named domain of the zone's account, if any, and whether its extension takes DNSSEC. */
export async function linkedDomain(db: Database, zone: { name: string; accountId: string }): Promise<LinkedDomain | null> {
  const [row] = await findDomain(db, { kind: "name", name: zone.name });
  if (!row || row.accountId !== zone.accountId) return null;
  const [extension] = await db.select({ dnssec: extensions.dnssec }).from(extensions).where(eq(extensions.id, row.extensionId));
  return { row, dnssec: extension?.dnssec === true };
}

/** A DS record's text ("tag alg type HEX") as the domain's dsData (RFC 5910 §4). */
export function dsData(text: string): DsData {
  const [tag, algorithm, type, digest] = text.split(" ");
  return { key_tag: Number(tag), algorithm: Number(algorithm), digest_type: Number(type), digest: digest! };
}

/** Whether the domain publishes a DS of one of these keys (by tag, algorithm and digest). */
export function publishesDsOf(domain: DomainWithLinks, keyDs: readonly DsData[]): boolean {
  return domain.ds.some((ds) =>
    keyDs.some((k) => k.key_tag === ds.key_tag && k.algorithm === ds.algorithm && k.digest.toUpperCase() === ds.digest.toUpperCase()),
  );
}

/**
 * The domain's DS set, and its event: a version step from the domain as read, so a domain
 * written meanwhile makes the whole batch lose its race (src/db/write.ts): the key and the
 * DS commit together or not at all, and the caller reads again (answering 409
 * write_conflict if the domain keeps changing).
 */
export function setDomainDs(ctx: WriteContext, domain: DomainWithLinks, ds: DsData[]): RowWrite {
  const after = { ...domain, ds, updatedAt: ctx.at, version: domain.version + 1 };
  return {
    statement: versionStep(ctx.db, domains, domain, after),
    event: { account: domain.accountId, type: "domain", id: domain.id, operation: "update", before: presentDomain(domain), after: presentDomain(after) },
  };
}
