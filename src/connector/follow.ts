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
  /** The contact ids at the registry by role (the first of each type the info names). */
  contacts: RegistryRoles;
  /** The domain's authInfo, when the registry shows it (RFC 5731 §3.1.2: to the sponsor, and optional). */
  authInfo?: string;
  ds: { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
  /** RGP's statuses (RFC 3915 §3.1): `redemptionPeriod`, `pendingRestore`, … */
  rgp: string[];
}

/** The contact roles besides the registrant (RFC 5731 §2.2). */
export const CONTACT_ROLES = ["admin", "tech", "billing"] as const;
export type RegistryRoles = Record<(typeof CONTACT_ROLES)[number], string | null>;

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
    contacts: {
      admin: info.contacts.find((c) => c.type === "admin")?.id ?? null,
      tech: info.contacts.find((c) => c.type === "tech")?.id ?? null,
      billing: info.contacts.find((c) => c.type === "billing")?.id ?? null,
    },
    ...(info.authInfo ? { authInfo: info.authInfo } : {}),
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
  /** Our contacts by role. */
  adminId: string | null;
  techId: string | null;
  billingId: string | null;
  /** The transfer password (followed only when the registry's info shows it). */
  authInfo: string;
  /** Whether the domain is deleted (in redemption: pendingDelete). */
  deleted: boolean;
}

/**
 * Our contacts the registry's contact ids stand for, by role: our contact's id (one the
 * domain's account holds), `null` when the registry names none in that role, `undefined`
 * when it names one that is no contact of ours (another registrar's).
 */
export type OurContacts = Record<"registrant" | (typeof CONTACT_ROLES)[number], string | null | undefined>;

/** What a Difference shows of a secret (auth_info): that it differed, never its value (docs/events.md). */
export const NOT_RECORDED = "not recorded";

/** One field that differed: ours before, the registry's after, as the API shows them. */
export interface Difference {
  field: "expires_at" | "status" | "nameservers" | "ds" | "registrant" | "admin" | "tech" | "billing" | "auth_info" | "pending_delete" | "registrar";
  ours: unknown;
  registry: unknown;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const dsKey = (d: FollowedFields["ds"][number]) => `${d.key_tag}/${d.algorithm}/${d.digest_type}/${d.digest.toUpperCase()}`;

/**
 * Our domain as the registry holds it, and what differed. `ours` are our contacts the
 * registry's registrant and admin, tech and billing ids stand for (undefined: none of ours,
 * so the domain has none in that role here; the difference names the registry's id). The
 * authInfo becomes the registry's when its info shows one (its difference never shows a
 * value: an auth_info is never recorded in an event). The operator's lock
 * statuses follow the registry's server statuses: at a connected registry the registry sets
 * them. Statuses compare as sets (canonical order kept), name servers too (our order kept
 * when they are the same names), DS records by their four fields.
 */
export function followRegistry(ours: FollowedFields, view: RegistryDomainView, ourContacts: OurContacts): { next: FollowedFields; differences: Difference[] } {
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
  const contact = (field: "registrant" | (typeof CONTACT_ROLES)[number], current: string | null, registryId: string | null) => {
    const mine = ourContacts[field];
    const id = mine === undefined ? null : mine;
    if (id !== current) differences.push({ field, ours: current, registry: mine === undefined ? registryId : mine });
    return id;
  };
  const registrantId = contact("registrant", ours.registrantId, view.registrant);
  const adminId = contact("admin", ours.adminId, view.contacts.admin);
  const techId = contact("tech", ours.techId, view.contacts.tech);
  const billingId = contact("billing", ours.billingId, view.contacts.billing);
  const authInfo = view.authInfo ?? ours.authInfo;
  if (authInfo !== ours.authInfo) differences.push({ field: "auth_info", ours: NOT_RECORDED, registry: NOT_RECORDED });
  return { next: { statuses, serverStatuses, expiresAt, nameservers, ds, registrantId, adminId, techId, billingId, authInfo, deleted }, differences };
}
