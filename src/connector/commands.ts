// Our objects as EPP commands, and the registry's check answers as ours (docs/registries.md,
// "What goes to the registry"). Pure: the ids the registry knows our contacts by come from
// registryContactId (src/epp/ids.ts); the caller sends what these build through the gateway.
import type {
  ContactCreateCommand,
  ContactUpdateCommand,
  HostUpdateCommand,
  DomainCheckCommand,
  DomainContact,
  DomainCreateCommand,
  DomainUpdateCommand,
  DsData,
  EppResponse,
  FeeCheckItem,
  HostCreateCommand,
  PostalInfo,
  RgpReport,
} from "../epp/types";
import { priceOf, type PriceTable, priceTable, type YearlyPrices } from "../registry/prices";

/** The fee:check commands a domain check asks (RFC 8748 §5.1.1): one year's create, renew and transfer, and the restore. */
export const FEE_CHECK_COMMANDS: DomainCheckCommand["fee"] = {
  commands: [
    { name: "create", period: { value: 1, unit: "y" } },
    { name: "renew", period: { value: 1, unit: "y" } },
    { name: "transfer", period: { value: 1, unit: "y" } },
    { name: "restore" },
  ],
};

/** One `<domain:check>` with `<fee:check>` for up to 50 names (the API's bound, and the local registry's). */
export function domainCheckCommand(names: readonly string[]): DomainCheckCommand {
  return { kind: "domain:check", names: [...names], fee: FEE_CHECK_COMMANDS };
}

/** A name as the API's check answers it, from the registry's answer. */
export interface RegistryCheck {
  available: boolean;
  reason: "registered" | "reserved" | "invalid" | "unsupported_extension" | null;
  premium: boolean;
  /** One year's prices from the fee answer; null when the registry gave none (then the catalog's stand). */
  yearly: YearlyPrices | null;
}

/**
 * The registry's reason text as the API's `reason`: the registry says why in its own words
 * (RFC 5731 §3.1.1 `reason`), the API's field is one of four; a name the registry holds
 * is `registered` unless its words say reserved.
 */
export function checkReason(avail: boolean, reason: string | undefined): RegistryCheck["reason"] {
  if (avail) return null;
  if (reason && /reserv|block|restrict/i.test(reason)) return "reserved";
  if (reason && /not served|not a registrable|syntax|invalid/i.test(reason)) return "invalid";
  return "registered";
}

function feeYearly(item: FeeCheckItem | undefined, currency: string): YearlyPrices | null {
  if (!item) return null;
  const amount = (name: string) => {
    const command = item.commands.find((c) => c.name === name && (c.period === undefined || (c.period.unit === "y" && c.period.value === 1)));
    if (!command || command.fees.length === 0) return null;
    const cents = command.fees.reduce((sum, fee) => sum + Math.round(Number(fee.amount) * 100), 0);
    return Number.isFinite(cents) ? (cents / 100).toFixed(2) : null;
  };
  const register = amount("create");
  const renew = amount("renew");
  const transfer = amount("transfer");
  const restore = amount("restore");
  if (register === null || renew === null || transfer === null || restore === null) return null;
  return { currency, register, renew, transfer, restore };
}

/** Each name's answer in a `<domain:check>` response (names as sent, compared without case). */
export function registryChecks(response: EppResponse, names: readonly string[]): Map<string, RegistryCheck> {
  const chk = response.resData.find((d) => d.kind === "domain:chkData");
  const fee = response.extensions.find((e) => e.kind === "fee:chkData");
  const out = new Map<string, RegistryCheck>();
  for (const name of names) {
    const key = name.toLowerCase();
    const item = chk?.kind === "domain:chkData" ? chk.items.find((i) => i.name.toLowerCase() === key) : undefined;
    const feeItem = fee?.kind === "fee:chkData" ? fee.items.find((i) => i.objID.toLowerCase() === key) : undefined;
    if (!item) continue;
    const premium = feeItem ? feeItem.class === "premium" || feeItem.commands.some((c) => !c.standard) : false;
    out.set(name, {
      available: item.avail,
      reason: checkReason(item.avail, item.reason),
      premium,
      yearly: item.avail && fee?.kind === "fee:chkData" ? feeYearly(feeItem, fee.currency) : null,
    });
  }
  return out;
}

/** The price table of a check answer: the registry's yearly prices over the extension's periods. */
export function registryPriceTable(yearly: YearlyPrices, periods: { min: number; max: number }): PriceTable {
  return priceTable(yearly, periods);
}

/** What a contact create needs of our contact (its row, as src/db/schema.ts stores it). */
export interface ContactFields {
  name: string;
  organization: string | null;
  email: string;
  phone: string | null;
  fax: string | null;
  street: string[];
  city: string | null;
  state: string | null;
  postalCode: string | null;
  countryCode: string | null;
  privacy: boolean;
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * `<contact:create>` (RFC 5733 §3.2.1) of our contact under the registry's id for it. The
 * postal address is `int` when it is all ASCII, else `loc` (§2.3: `int` is 7-bit). A
 * contact with privacy asks the registry not to disclose its name, address, phone and
 * email (§2.9, `flag="0"`). `authInfo` is the contact's transfer password at the registry.
 */
export function contactCreateCommand(contact: ContactFields, registryId: string, authInfo: string): ContactCreateCommand {
  const texts = [contact.name, contact.organization ?? "", ...contact.street, contact.city ?? "", contact.state ?? "", contact.postalCode ?? ""];
  const type = texts.every((t) => ASCII.test(t)) ? "int" : "loc";
  const postalInfo: PostalInfo = {
    type,
    name: contact.name,
    ...(contact.organization ? { org: contact.organization } : {}),
    ...(contact.street.length > 0 ? { street: contact.street } : {}),
    city: contact.city ?? "",
    ...(contact.state ? { sp: contact.state } : {}),
    ...(contact.postalCode ? { pc: contact.postalCode } : {}),
    cc: contact.countryCode ?? "",
  };
  return {
    kind: "contact:create",
    id: registryId,
    postalInfo: [postalInfo],
    ...(contact.phone ? { voice: { number: contact.phone } } : {}),
    ...(contact.fax ? { fax: { number: contact.fax } } : {}),
    email: contact.email,
    authInfo,
    ...(contact.privacy ? { disclose: { flag: false, name: [type], addr: [type], voice: true, email: true } } : {}),
  };
}

/**
 * `<contact:update>` (RFC 5733 §3.2.5) bringing the registry's copy to `after`: the postal
 * address, phone, fax and email as they now are (a number removed is an empty element),
 * and the disclosure when privacy changed. Null when nothing the registry holds changed.
 */
export function contactUpdateCommand(before: ContactFields, after: ContactFields, registryId: string): ContactUpdateCommand | null {
  const was = contactCreateCommand(before, registryId, "unused-1");
  const now = contactCreateCommand(after, registryId, "unused-1");
  const postal = JSON.stringify(was.postalInfo) !== JSON.stringify(now.postalInfo);
  const p = now.postalInfo[0]!;
  const chg = {
    ...(postal
      ? {
          postalInfo: [
            {
              type: p.type,
              name: p.name,
              ...(p.org ? { org: p.org } : {}),
              addr: { ...(p.street ? { street: p.street } : {}), city: p.city, ...(p.sp ? { sp: p.sp } : {}), ...(p.pc ? { pc: p.pc } : {}), cc: p.cc },
            },
          ],
        }
      : {}),
    ...(JSON.stringify(was.voice) !== JSON.stringify(now.voice) ? { voice: now.voice ?? null } : {}),
    ...(JSON.stringify(was.fax) !== JSON.stringify(now.fax) ? { fax: now.fax ?? null } : {}),
    ...(was.email !== now.email ? { email: now.email } : {}),
    ...(before.privacy !== after.privacy
      ? { disclose: after.privacy ? now.disclose! : { flag: true, name: [p.type], addr: [p.type], voice: true, email: true } }
      : {}),
  };
  return Object.keys(chg).length > 0 ? { kind: "contact:update", id: registryId, chg } : null;
}

/** `<host:update>` (RFC 5732 §3.2.5): its addresses added and removed, and a new name. Null when neither changed. */
export function hostUpdateCommand(name: string, before: readonly string[], after: readonly string[], newName: string): HostUpdateCommand | null {
  const add = after.filter((a) => !before.includes(a));
  const rem = before.filter((a) => !after.includes(a));
  const command: HostUpdateCommand = {
    kind: "host:update",
    name,
    ...(add.length > 0 ? { add: { addresses: add } } : {}),
    ...(rem.length > 0 ? { rem: { addresses: rem } } : {}),
    ...(newName !== name ? { newName } : {}),
  };
  return command.add || command.rem || command.newName ? command : null;
}

/** `<host:create>` (RFC 5732 §3.2.1): an external host without addresses, a subordinate one with its glue. */
export function hostCreateCommand(name: string, addresses: readonly string[]): HostCreateCommand {
  return { kind: "host:create", name, ...(addresses.length > 0 ? { addresses: [...addresses] } : {}) };
}

/** The contacts of a domain by role, as the registry's ids. */
export interface RegistryContacts {
  registrant: string | null;
  admin: string | null;
  tech: string | null;
  billing: string | null;
}

function domainContacts(contacts: RegistryContacts): DomainContact[] {
  return (["admin", "billing", "tech"] as const).flatMap((type) => (contacts[type] ? [{ type, id: contacts[type]! }] : []));
}

/** Our DS records (`{key_tag, algorithm, digest_type, digest}`) as secDNS dsData (RFC 5910 §4). */
export function dsData(ds: readonly { key_tag: number; algorithm: number; digest_type: number; digest: string }[]): DsData[] {
  return ds.map((d) => ({ keyTag: d.key_tag, alg: d.algorithm, digestType: d.digest_type, digest: d.digest.toUpperCase() }));
}

/**
 * `<domain:create>` (RFC 5731 §3.2.1) with its period, host objects, contacts, authInfo,
 * DS records (secDNS, RFC 5910) and, when a price was confirmed, the fee agreed to (RFC
 * 8748 §5.2.1: a premium name's fee must be; any fee given must be the registry's).
 */
export function domainCreateCommand(input: {
  name: string;
  years: number;
  nameservers: readonly string[];
  contacts: RegistryContacts;
  authInfo: string;
  ds: DsData[];
  fee: { amount: string; currency: string } | null;
}): DomainCreateCommand {
  return {
    kind: "domain:create",
    name: input.name,
    period: { value: input.years, unit: "y" },
    ...(input.nameservers.length > 0 ? { nameservers: [...input.nameservers] } : {}),
    ...(input.contacts.registrant ? { registrant: input.contacts.registrant } : {}),
    contacts: domainContacts(input.contacts),
    authInfo: input.authInfo,
    ...(input.ds.length > 0 ? { ds: input.ds } : {}),
    ...(input.fee ? { fee: { currency: input.fee.currency, fees: [{ amount: input.fee.amount }] } } : {}),
  };
}

/** What a renewal costs at the registry when the catalog decides the price (the fee agreed to is the price confirmed). */
export function feeOf(yearly: YearlyPrices, operation: "register" | "renew" | "transfer" | "restore", years: number) {
  return priceOf(yearly, operation, years);
}

const dsKey = (d: DsData) => `${d.keyTag}/${d.alg}/${d.digestType}/${d.digest.toUpperCase()}`;

/** The domain as the registry should hold it, for an update's difference. */
export interface DomainAtRegistry {
  nameservers: readonly string[];
  contacts: RegistryContacts;
  statuses: readonly string[];
  authInfo: string;
  ds: readonly DsData[];
}

/** The part of a domain (its stored row, with its name servers) that the registry holds, with our contact ids as the registry's. */
export function domainAtRegistry(
  domain: {
    registrantId: string | null;
    adminId: string | null;
    techId: string | null;
    billingId: string | null;
    nameservers: readonly string[];
    statuses: readonly string[];
    authInfo: string;
    ds: readonly { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
  },
  ids: ReadonlyMap<string, string>,
): DomainAtRegistry {
  const of = (id: string | null) => (id === null ? null : (ids.get(id) ?? null));
  return {
    nameservers: domain.nameservers,
    contacts: { registrant: of(domain.registrantId), admin: of(domain.adminId), tech: of(domain.techId), billing: of(domain.billingId) },
    statuses: domain.statuses,
    authInfo: domain.authInfo,
    ds: dsData(domain.ds),
  };
}

/**
 * `<domain:update>` (RFC 5731 §3.2.5) taking the registry's copy from `before` to `after`:
 * host objects, contacts and client statuses added and removed, the registrant and
 * authInfo changed, DS records removed and added (secDNS:update, RFC 5910 §5.2.5). Null
 * when nothing differs.
 */
export function domainUpdateCommand(name: string, before: DomainAtRegistry, after: DomainAtRegistry): DomainUpdateCommand | null {
  const lower = (names: readonly string[]) => names.map((n) => n.toLowerCase());
  const nsBefore = new Set(lower(before.nameservers));
  const nsAfter = new Set(lower(after.nameservers));
  const addNs = [...nsAfter].filter((n) => !nsBefore.has(n));
  const remNs = [...nsBefore].filter((n) => !nsAfter.has(n));
  const client = (s: readonly string[]) => new Set(s.filter((x) => x.startsWith("client")));
  const stBefore = client(before.statuses);
  const stAfter = client(after.statuses);
  const addSt = [...stAfter].filter((s) => !stBefore.has(s)).map((s) => ({ s: s as never }));
  const remSt = [...stBefore].filter((s) => !stAfter.has(s)).map((s) => ({ s: s as never }));
  const cBefore = domainContacts(before.contacts);
  const cAfter = domainContacts(after.contacts);
  const same = (a: DomainContact, b: DomainContact) => a.type === b.type && a.id === b.id;
  const addC = cAfter.filter((c) => !cBefore.some((b) => same(b, c)));
  const remC = cBefore.filter((c) => !cAfter.some((a) => same(a, c)));
  const dsBefore = new Map(before.ds.map((d) => [dsKey(d), d]));
  const dsAfter = new Map(after.ds.map((d) => [dsKey(d), d]));
  const addDs = [...dsAfter].filter(([k]) => !dsBefore.has(k)).map(([, d]) => d);
  const remDs = [...dsBefore].filter(([k]) => !dsAfter.has(k)).map(([, d]) => d);
  const registrantChanged = (before.contacts.registrant ?? "") !== (after.contacts.registrant ?? "") && after.contacts.registrant !== null;
  const authChanged = before.authInfo !== after.authInfo;
  const add = {
    ...(addNs.length > 0 ? { nameservers: addNs } : {}),
    ...(addC.length > 0 ? { contacts: addC } : {}),
    ...(addSt.length > 0 ? { statuses: addSt } : {}),
  };
  const rem = {
    ...(remNs.length > 0 ? { nameservers: remNs } : {}),
    ...(remC.length > 0 ? { contacts: remC } : {}),
    ...(remSt.length > 0 ? { statuses: remSt } : {}),
  };
  const chg = {
    ...(registrantChanged ? { registrant: after.contacts.registrant! } : {}),
    ...(authChanged ? { authInfo: after.authInfo } : {}),
  };
  const ds = { ...(remDs.length > 0 ? { rem: remDs } : {}), ...(addDs.length > 0 ? { add: addDs } : {}) };
  const command: DomainUpdateCommand = {
    kind: "domain:update",
    name,
    ...(Object.keys(add).length > 0 ? { add } : {}),
    ...(Object.keys(rem).length > 0 ? { rem } : {}),
    ...(Object.keys(chg).length > 0 ? { chg } : {}),
    ...(Object.keys(ds).length > 0 ? { ds } : {}),
  };
  return command.add || command.rem || command.chg || command.ds ? command : null;
}

/**
 * The `<domain:update>` that leaves the registry naming exactly `wanted` (registrant, admin,
 * tech, billing) with a new authInfo, from what its `<domain:info>` shows it holds (`held`):
 * each contact it holds that is not wanted removed, each wanted one it lacks added, the
 * registrant changed when it differs (a domain with no registrant of ours keeps the
 * registry's: EPP cannot leave a domain without one). Built from the registry's info, not our
 * copy, so that the same request sent again after an answer was lost (the registry may have
 * taken it) removes only what is still there. The approval of a transfer between two of our
 * accounts (docs/registries.md, "Transfers between our accounts").
 */
export function contactsAndAuthInfoUpdate(
  name: string,
  held: { registrant?: string; contacts: readonly DomainContact[] },
  wanted: RegistryContacts,
  authInfo: string,
): DomainUpdateCommand {
  const target = domainContacts(wanted);
  const same = (a: DomainContact, b: DomainContact) => a.type === b.type && a.id === b.id;
  const add = target.filter((c) => !held.contacts.some((h) => same(h, c)));
  const rem = held.contacts.filter((h) => !target.some((c) => same(h, c)));
  const registrant = wanted.registrant !== null && wanted.registrant !== held.registrant ? wanted.registrant : undefined;
  return {
    kind: "domain:update",
    name,
    ...(add.length > 0 ? { add: { contacts: add } } : {}),
    ...(rem.length > 0 ? { rem: { contacts: rem.map((c) => ({ type: c.type, id: c.id })) } } : {}),
    chg: { ...(registrant !== undefined ? { registrant } : {}), authInfo },
  };
}

/**
 * The RGP restore report (RFC 3915 §4.2.5): the registrar's statements that it restores
 * the name for its registrant, and what the domain held before its delete and after its
 * restore (here, the same: a restore brings the domain back as it was).
 */
export function restoreReport(name: string, deletedAt: string, restoredAt: string): RgpReport {
  return {
    preData: `${name} as registered before its delete`,
    postData: `${name} as restored, unchanged`,
    delTime: deletedAt,
    resTime: restoredAt,
    resReason: "Registrant's request",
    statements: [
      "This registrar has not restored the Registered Name in order to assume the rights to use or sell the Registered Name for itself or for any third party.",
      "The information in this report is true to best of this registrar's knowledge, and this registrar acknowledges that intentionally supplying false information in this report shall constitute an incident of misconduct.",
    ],
  };
}
