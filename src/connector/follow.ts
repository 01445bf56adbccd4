// Our copy follows the registry (docs/registries.md, "The registry decides"): a domain as
// the registry's `<domain:info>` shows it (RFC 5731 §3.1.2, with secDNS-1.1 and RGP's
// infData), and what our stored domain becomes to match it, with the list of what differed
// (the `reconciled` and `settled` events carry it). Pure: the caller reads the domain and
// its contacts' registry ids, and writes what this decides.
import type { DomainInfo, EppResponse, ExtensionData, ResData } from "../epp/types";
import { canonicalDs } from "../registry/ds";
import { CLIENT_STATUSES, LOCK_STATUSES } from "../registry/statuses";
import { apiTime } from "./answers";

export type { ResData };

/** What the registry holds of a domain, in our terms. */
export interface RegistryDomainView {
  name: string;
  roid: string;
  /** The registrar that sponsors it there (EPP clID). */
  clID: string;
  /** Every status the registry shows (`ok` and `linked` included, as sent). */
  statuses: string[];
  expiresAt: string | null;
  /** Host object names, lower-case, in the registry's order. */
  nameservers: string[];
  /** The registrant's contact id at the registry. */
  registrant: string | null;
  ds: { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
  /** RGP's statuses (RFC 3915 §3.1): `redemptionPeriod`, `pendingRestore`, … */
  rgp: string[];
}

/** The view of a domain:infData and the extensions beside it. */
export function domainViewOf(info: DomainInfo, extensions: readonly ExtensionData[] = []): RegistryDomainView {
  const sec = extensions.find((e) => e.kind === "secDNS:infData");
  const rgp = extensions.find((e) => e.kind === "rgp:infData");
  return {
    name: info.name.toLowerCase(),
    roid: info.roid,
    clID: info.clID,
    statuses: info.statuses.map((s) => s.s),
    expiresAt: apiTime(info.exDate),
    nameservers: [...info.nameservers, ...info.hostAttrs.map((h) => h.name)].map((n) => n.toLowerCase()),
    registrant: info.registrant ?? null,
    ds:
      sec?.kind === "secDNS:infData"
        ? canonicalDs(sec.dsData.map((d) => ({ key_tag: d.keyTag, algorithm: d.alg, digest_type: d.digestType, digest: d.digest })))
        : [],
    rgp: rgp?.kind === "rgp:infData" ? rgp.rgpStatus.map((s) => s.s) : [],
  };
}

/** The view in an info answer (or a poll message that carries one); null when it holds none. */
export function registryDomainView(response: Pick<EppResponse, "resData" | "extensions">): RegistryDomainView | null {
  const info = response.resData.find((d): d is Extract<ResData, { kind: "domain:infData" }> => d.kind === "domain:infData");
  return info ? domainViewOf(info, response.extensions) : null;
}

/**
 * The registry's pending statuses kept in a domain's `statuses` beside its client statuses
 * (pendingDelete is `deleted_at`, pendingTransfer a pending transfer: each its own column).
 */
export const KEPT_PENDING_STATUSES = ["pendingCreate", "pendingRenew", "pendingRestore", "pendingUpdate"] as const;

/** What of our domain the registry decides, as stored. */
export interface FollowedFields {
  statuses: string[];
  serverStatuses: string[];
  expiresAt: string;
  nameservers: string[];
  ds: { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
  registrantId: string | null;
  /** Whether the domain is deleted (in redemption: pendingDelete). */
  deleted: boolean;
}

/** One field that differed: ours before, the registry's after, as the API shows them. */
export interface Difference {
  field: "expires_at" | "status" | "nameservers" | "ds" | "registrant" | "pending_delete" | "registrar";
  ours: unknown;
  registry: unknown;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const dsKey = (d: FollowedFields["ds"][number]) => `${d.key_tag}/${d.algorithm}/${d.digest_type}/${d.digest.toUpperCase()}`;

/**
 * Our domain as the registry holds it, and what differed. `registrantOurs` is our contact
 * the registry's registrant id stands for (undefined: none of ours, so the domain has no
 * registrant here; the difference names the registry's id). The operator's lock
 * statuses follow the registry's server statuses: at a connected registry the registry sets
 * them. Statuses compare as sets (canonical order kept), name servers too (our order kept
 * when they are the same names), DS records by their four fields.
 */
export function followRegistry(
  ours: FollowedFields,
  view: RegistryDomainView,
  registrantOurs: string | null | undefined,
): { next: FollowedFields; differences: Difference[] } {
  const differences: Difference[] = [];
  const client = CLIENT_STATUSES.filter((s) => view.statuses.includes(s));
  const pending = KEPT_PENDING_STATUSES.filter((s) => view.statuses.includes(s) || (s === "pendingRestore" && view.rgp.includes("pendingRestore")));
  const registryStatuses: string[] = [...client, ...pending];
  const registryLock: string[] = LOCK_STATUSES.filter((s) => view.statuses.includes(s));
  const statusesSame = sameSet(registryStatuses, ours.statuses) && sameSet(registryLock, ours.serverStatuses);
  const statuses = statusesSame ? ours.statuses : registryStatuses;
  const serverStatuses = statusesSame ? ours.serverStatuses : registryLock;
  if (!statusesSame) differences.push({ field: "status", ours: [...ours.statuses, ...ours.serverStatuses], registry: [...registryStatuses, ...registryLock] });
  const deleted = view.statuses.includes("pendingDelete") || view.rgp.includes("redemptionPeriod");
  if (deleted !== ours.deleted) differences.push({ field: "pending_delete", ours: ours.deleted, registry: deleted });
  const expiresAt = view.expiresAt ?? ours.expiresAt;
  if (Date.parse(expiresAt) !== Date.parse(ours.expiresAt)) differences.push({ field: "expires_at", ours: ours.expiresAt, registry: expiresAt });
  const nameservers = sameSet(view.nameservers, ours.nameservers) ? ours.nameservers : view.nameservers;
  if (nameservers !== ours.nameservers) differences.push({ field: "nameservers", ours: ours.nameservers, registry: view.nameservers });
  const ds = sameSet(view.ds.map(dsKey), ours.ds.map(dsKey)) ? ours.ds : view.ds;
  if (ds !== ours.ds) differences.push({ field: "ds", ours: ours.ds, registry: view.ds });
  // A registrant none of our contacts is at the registry (another registrar's contact, as a
  // domain transferred in keeps) is no contact of ours: the domain has none here.
  const registrantId = registrantOurs === undefined ? null : registrantOurs;
  if (registrantId !== ours.registrantId)
    differences.push({ field: "registrant", ours: ours.registrantId, registry: registrantOurs === undefined ? view.registrant : registrantOurs });
  return { next: { statuses, serverStatuses, expiresAt, nameservers, ds, registrantId, deleted }, differences };
}
