// The local registry's objects and rules (RFC 5731 domains, 5732 hosts, 5733 contacts,
// 5910 DS data, 3915 redemption and restore, 8748 fees, transfers between registrars with
// poll messages): what a registry decides, as strictly as a real one, so that the
// service's connector meets here the refusals it will meet there. One registry holds the
// objects of every repository of the catalog; a name belongs to the extension it ends in.
// The clock is the real one plus an offset the control interface moves, so tests walk a
// transfer's five days or a redemption period in a second.
import { NS } from "../../src/epp/namespaces";
import type { ResultInput } from "../../src/epp/response-builder";
import type {
  ContactCreateCommand,
  ContactInfo,
  DomainContact,
  DomainCreateCommand,
  DomainInfo,
  DomainUpdateCommand,
  DsData,
  EppCommand,
  ExtensionData,
  FeeAgreement,
  FeeCheckItem,
  HostAddress,
  Period,
  PostalInfo,
  ResData,
  StatusValue,
  TransferStatus,
} from "../../src/epp/types";
import { priceOf, toCents } from "../../src/registry/prices";
import type { CatalogExtension, RegistryCatalog } from "./catalog";

const DAY = 86_400_000;

/** The most DS records a domain holds here (as Nomulus and most registries: 8). */
const MAX_DS_RECORDS = 8;

/**
 * The DNSSEC algorithms a DS may name: those IANA lists as able to sign zones
 * (RSASHA1 and later; not RSAMD5, which RFC 6725 retired, nor the reserved and private numbers).
 */
const DS_ALGORITHMS = new Set([3, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16]);
/** A DS digest's length in hex digits by digest type: SHA-1 (RFC 4034 §5.1.4), SHA-256 (RFC 4509), GOST (RFC 5933), SHA-384 (RFC 6605). */
const DS_DIGEST_HEX: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };

/** 2306 for a DS record no validator could match to a key: an algorithm or digest type that is not one, or a digest of the wrong length. */
function checkDsData(records: readonly DsData[]): void {
  for (const ds of records) {
    const what = `DS ${ds.keyTag} ${ds.alg} ${ds.digestType}`;
    if (!DS_ALGORITHMS.has(ds.alg))
      refuse(2306, `${what}: algorithm ${ds.alg} is not one this registry takes (3, 5–8, 10, 12–16: the zone-signing algorithms)`);
    const length = DS_DIGEST_HEX[ds.digestType];
    if (length === undefined) refuse(2306, `${what}: digest type ${ds.digestType} is not one (1, 2, 3 or 4)`);
    if (ds.digest.length !== length) refuse(2306, `${what}: a digest of type ${ds.digestType} has ${length} hex digits, not ${ds.digest.length}`);
  }
}
const NS_EPP = NS.epp;
/** ICANN's transfer policy: a request the losing registrar does not answer is approved after five days. */
const TRANSFER_AUTO_APPROVE_DAYS = 5;
/** The most names one `<check>` takes (as Verisign's). */
export const MAX_CHECK_NAMES = 50;
/** The longest registration, renewals included (RFC 5731 §2.5 allows 99; registries keep 10). */
const MAX_REGISTRATION_YEARS = 10;

export interface Registrar {
  clientId: string;
  password: string;
}

interface Domain {
  name: string;
  roid: string;
  extension: CatalogExtension;
  clID: string;
  crID: string;
  crDate: number;
  upID?: string;
  upDate?: number;
  exDate: number;
  trDate?: number;
  registrant?: string;
  contacts: DomainContact[];
  nameservers: string[];
  statuses: Set<string>;
  authInfo: string;
  ds: DsData[];
  /** RFC 3915's state: `addPeriod` until graceAdd days after create, `redemptionPeriod`/`pendingRestore`/`pendingDelete` after a delete. */
  rgp?: { status: "addPeriod" | "autoRenewPeriod" | "renewPeriod" | "transferPeriod" | "redemptionPeriod" | "pendingRestore" | "pendingDelete"; until: number };
  transfer?: { status: TransferStatus; reID: string; reDate: number; acID: string; acDate: number; years: number; exDate: number };
  /** A transform the registry has not settled (1001). */
  pending?: {
    op: "create" | "renew" | "delete" | "restore" | "update";
    clTRID?: string;
    svTRID: string;
    years?: number;
    redemptionUntil?: number;
    /** An update held pending: what it changes, applied when it is settled approved. */
    apply?: () => void;
  };
}

interface Host {
  name: string;
  roid: string;
  clID: string;
  crID: string;
  crDate: number;
  upID?: string;
  upDate?: number;
  addresses: HostAddress[];
  statuses: Set<string>;
}

interface Contact {
  id: string;
  roid: string;
  clID: string;
  crID: string;
  crDate: number;
  upID?: string;
  upDate?: number;
  postalInfo: PostalInfo[];
  voice?: ContactCreateCommand["voice"];
  fax?: ContactCreateCommand["fax"];
  email: string;
  authInfo: string;
  disclose?: ContactCreateCommand["disclose"];
  statuses: Set<string>;
}

interface Message {
  id: string;
  clID: string;
  qDate: number;
  msg: string;
  resData?: ResData;
}

/** What one command does to the registry, before it is written as a response. */
export interface Outcome {
  results: ResultInput[];
  resData?: ResData[];
  extensions?: ExtensionData[];
  msgQ?: { count: number; id: string; qDate?: string; msg?: string };
}

/** A refusal: the result code, the RFC's or a more precise message, and the reason. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly reason?: string,
  ) {
    super(reason ?? String(code));
  }
}
const refuse = (code: number, reason?: string): never => {
  throw new Refusal(code, reason);
};

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const iso = (t: number) => new Date(t).toISOString();
const day = (t: number) => iso(t).slice(0, 10);
const addYears = (t: number, years: number) => {
  const d = new Date(t);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
};
const yearsOf = (period: Period | undefined): number => {
  if (!period) return 1;
  if (period.unit === "m") {
    if (period.value % 12 !== 0) refuse(2306, "periods are whole years here");
    return period.value / 12;
  }
  return period.value;
};

export class Registry {
  readonly registrars: Map<string, Registrar>;
  #domains = new Map<string, Domain>();
  #hosts = new Map<string, Host>();
  #contacts = new Map<string, Contact>();
  #messages: Message[] = [];
  #roid = 0;
  #svTRID = 0;
  #messageId = 0;
  /** Added to the real clock (the control interface's `advance`). */
  clockOffsetMs = 0;

  constructor(
    readonly catalog: RegistryCatalog,
    registrars: Registrar[],
    readonly serverId = "domain-api local registry",
  ) {
    this.registrars = new Map(registrars.map((r) => [r.clientId, r]));
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  nextSvTRID(): string {
    this.#svTRID += 1;
    return `LR-${this.#svTRID.toString().padStart(8, "0")}`;
  }

  /** Answers one command of a logged-in registrar (login, logout and hello are the session's). */
  execute(clID: string, command: EppCommand, clTRID: string | undefined, svTRID: string): Outcome {
    this.settleTime();
    try {
      return this.#dispatch(clID, command, clTRID, svTRID);
    } catch (error) {
      // The reason goes in an <extValue> (RFC 5730 §2.6), whose <value> must hold an
      // element: the RFC's own placeholder for "no single element is at fault".
      if (error instanceof Refusal)
        return { results: [{ code: error.code, ...(error.reason ? { extValues: [{ value: `<undef xmlns="${NS_EPP}"/>`, reason: error.reason }] } : {}) }] };
      throw error;
    }
  }

  #dispatch(clID: string, command: EppCommand, clTRID: string | undefined, svTRID: string): Outcome {
    switch (command.kind) {
      case "poll":
        return command.op === "req" ? this.#pollRequest(clID) : this.#pollAck(clID, command.msgID);
      case "domain:check":
        return this.#domainCheck(command.names, command.fee);
      case "domain:info":
        return this.#domainInfo(clID, command.name, command.authInfo, command.hosts ?? "all");
      case "domain:create":
        return this.#domainCreate(clID, command, clTRID, svTRID);
      case "domain:renew":
        return this.#domainRenew(clID, command.name, command.curExpDate, command.period, command.fee);
      case "domain:update":
        return this.#domainUpdate(clID, command, clTRID, svTRID);
      case "domain:delete":
        return this.#domainDelete(clID, command.name);
      case "domain:transfer":
        return this.#domainTransfer(clID, command.op, command.name, command.authInfo, command.period, command.fee);
      case "host:check":
        return { results: [{ code: 1000 }], resData: [{ kind: "host:chkData", items: command.names.map((n) => this.#hostCheckItem(n)) }] };
      case "host:info":
        return { results: [{ code: 1000 }], resData: [{ kind: "host:infData", ...this.#hostInfo(this.#host(command.name)) }] };
      case "host:create":
        return this.#hostCreate(clID, command.name, command.addresses ?? []);
      case "host:update":
        return this.#hostUpdate(clID, command);
      case "host:delete":
        return this.#hostDelete(clID, command.name);
      case "contact:check":
        return {
          results: [{ code: 1000 }],
          resData: [
            {
              kind: "contact:chkData",
              items: command.ids.map((id) => ({ name: id, avail: !this.#contacts.has(id), ...(this.#contacts.has(id) ? { reason: "In use" } : {}) })),
            },
          ],
        };
      case "contact:info":
        return this.#contactInfo(clID, command.id, command.authInfo);
      case "contact:create":
        return this.#contactCreate(clID, command);
      case "contact:update":
        return this.#contactUpdate(clID, command);
      case "contact:delete":
        return this.#contactDelete(clID, command.id);
      case "contact:transfer":
        return refuse(2306, "contact transfers are not offered by this registry");
      default:
        return refuse(2000);
    }
  }

  // ---- time ------------------------------------------------------------------------------

  /** Moves every object whose time came: grace periods end, transfers auto-approve, deleted names are purged, expired ones auto-renew. */
  settleTime(): void {
    const now = this.now();
    for (const domain of [...this.#domains.values()]) {
      if (domain.transfer?.status === "pending" && now >= domain.transfer.acDate) this.#completeTransfer(domain, "serverApproved");
      if (domain.rgp && now >= domain.rgp.until) {
        if (domain.rgp.status === "redemptionPeriod") {
          domain.rgp = { status: "pendingDelete", until: now + domain.extension.gracePendingDelete * DAY };
          domain.statuses.add("pendingDelete");
        } else if (domain.rgp.status === "pendingDelete") {
          this.#purge(domain, "The domain was purged at the end of its redemption period.");
          continue;
        } else if (domain.rgp.status !== "pendingRestore") domain.rgp = undefined;
      }
      if (!domain.rgp?.status.startsWith("pending") && !domain.statuses.has("pendingDelete") && now >= domain.exDate && domain.extension.graceAutoRenew > 0) {
        domain.exDate = addYears(domain.exDate, 1);
        domain.rgp = { status: "autoRenewPeriod", until: now + domain.extension.graceAutoRenew * DAY };
      }
    }
  }

  // ---- names -----------------------------------------------------------------------------

  /** The extension a registrable name is directly under (longest match), or the reason it is not one. */
  #registrable(name: string): { extension: CatalogExtension } | { reason: string; code: number } {
    if (name.length > 253 || !name.split(".").every((l) => LABEL.test(l))) return { reason: "Invalid domain name", code: 2005 };
    const extension = this.catalog.extensions.filter((e) => name.endsWith(`.${e.id}`)).sort((a, b) => b.id.length - a.id.length)[0];
    if (!extension) return { reason: "Not served by this registry", code: 2306 };
    if (name.slice(0, -extension.id.length - 1).includes(".")) return { reason: `Not a registrable name: one label under ${extension.id}`, code: 2306 };
    return { extension };
  }

  #pricing(name: string, extension: CatalogExtension) {
    const named = this.catalog.names.find((n) => n.name === name);
    return { reserved: named?.kind === "reserved", premium: named?.kind === "premium", yearly: named?.prices ?? extension.prices };
  }

  #domainCheck(names: string[], fee: Extract<EppCommand, { kind: "domain:check" }>["fee"]): Outcome {
    if (names.length > MAX_CHECK_NAMES) refuse(2306, `one check takes at most ${MAX_CHECK_NAMES} names`);
    const items = names.map((raw) => {
      const name = raw.toLowerCase();
      const found = this.#registrable(name);
      if ("reason" in found) return { name: raw, avail: false, reason: found.reason };
      if (this.#domains.has(name)) return { name: raw, avail: false, reason: "In use" };
      if (this.#pricing(name, found.extension).reserved) return { name: raw, avail: false, reason: "Reserved" };
      return { name: raw, avail: true };
    });
    const extensions: ExtensionData[] = [];
    if (fee) {
      const feeItems: FeeCheckItem[] = names.map((raw) => {
        const name = raw.toLowerCase();
        const found = this.#registrable(name);
        if ("reason" in found) return { objID: raw, avail: false, reason: found.reason, commands: [] };
        const pricing = this.#pricing(name, found.extension);
        return {
          objID: raw,
          ...(pricing.premium ? { class: "premium" } : { class: "standard" }),
          avail: !pricing.reserved,
          ...(pricing.reserved ? { reason: "Reserved" } : {}),
          commands: pricing.reserved
            ? []
            : fee.commands.map((c) => {
                const years = c.period ? (c.period.unit === "m" ? Math.max(1, Math.round(c.period.value / 12)) : c.period.value) : 1;
                const operation = c.name === "create" ? "register" : c.name === "restore" ? "restore" : c.name === "transfer" ? "transfer" : "renew";
                const price = priceOf(pricing.yearly, operation, operation === "restore" ? 1 : years);
                return {
                  name: c.name,
                  ...(c.name === "restore" ? {} : { period: { value: years, unit: "y" as const } }),
                  standard: !pricing.premium,
                  fees: [
                    {
                      amount: price.amount,
                      description: operation === "register" ? "Registration Fee" : `${operation[0]!.toUpperCase()}${operation.slice(1)} Fee`,
                    },
                  ],
                  credits: [],
                };
              }),
        };
      });
      extensions.push({ kind: "fee:chkData", currency: "USD", items: feeItems });
    }
    return { results: [{ code: 1000 }], resData: [{ kind: "domain:chkData", items }], extensions };
  }

  /** The fee a transform costs, checked against what the client agreed to (RFC 8748 §3.8): a premium name's fee must be confirmed. */
  #agreedFee(
    name: string,
    extension: CatalogExtension,
    operation: "register" | "renew" | "transfer" | "restore",
    years: number,
    agreed: FeeAgreement | undefined,
  ) {
    const pricing = this.#pricing(name, extension);
    const price = priceOf(pricing.yearly, operation, years);
    if (agreed?.currency && agreed.currency !== price.currency) refuse(2004, `the fee is in ${price.currency}`);
    const total = agreed ? agreed.fees.reduce((sum, f) => sum + (toCents(f.amount) ?? Number.NaN), 0) : null;
    if (pricing.premium && total === null)
      refuse(2004, `${name} is a premium name: its ${operation} fee of ${price.amount} ${price.currency} must be confirmed with the fee extension`);
    if (total !== null && total !== toCents(price.amount)) refuse(2004, `the ${operation} fee of ${name} is ${price.amount} ${price.currency}`);
    return price;
  }

  // ---- domains ---------------------------------------------------------------------------

  #domain(name: string): Domain {
    return this.#domains.get(name.toLowerCase()) ?? refuse(2303, `no domain ${name}`);
  }

  #sponsored(domain: Domain, clID: string): Domain {
    if (domain.clID !== clID) refuse(2201, `${domain.name} is sponsored by another registrar`);
    return domain;
  }

  /** A repository object id (RFC 5730 §2.8): a local part, a hyphen, the repository's suffix of 1–8 word characters. */
  #roidOf(suffix: string): string {
    this.#roid += 1;
    return `${this.#roid}-${suffix.replace(/\W/g, "").slice(0, 8) || "LOCAL"}`;
  }

  #suffix(extension: CatalogExtension): string {
    return this.catalog.repositories.find((r) => r.id === extension.repository)?.roidSuffix ?? "LOCAL";
  }

  #checkContacts(clID: string, registrant: string | undefined, contacts: DomainContact[]): void {
    for (const id of [...(registrant ? [registrant] : []), ...contacts.map((c) => c.id)]) {
      const contact = this.#contacts.get(id) ?? refuse(2303, `no contact ${id}`);
      if (contact.clID !== clID) refuse(2201, `contact ${id} is sponsored by another registrar`);
    }
  }

  #checkNameservers(nameservers: string[], extension: CatalogExtension): void {
    for (const ns of nameservers) if (!this.#hosts.has(ns.toLowerCase())) refuse(2303, `no host ${ns}: create it first`);
    if (nameservers.length > extension.nameserversMax) refuse(2306, `at most ${extension.nameserversMax} name servers under ${extension.id}`);
  }

  #domainCreate(clID: string, c: DomainCreateCommand, clTRID: string | undefined, svTRID: string): Outcome {
    const name = c.name.toLowerCase();
    const found = this.#registrable(name);
    if ("reason" in found) return refuse(found.code, found.reason);
    const { extension } = found;
    if (this.#domains.has(name)) refuse(2302, `${name} is registered`);
    if (this.#pricing(name, extension).reserved) refuse(2302, `${name} is reserved`);
    const years = yearsOf(c.period);
    if (years < extension.periodMin || years > extension.periodMax)
      refuse(2306, `periods under ${extension.id} are ${extension.periodMin} to ${extension.periodMax} years`);
    if (!c.registrant) refuse(2003, "a registrant is required");
    this.#checkContacts(clID, c.registrant, c.contacts ?? []);
    const nameservers = [...new Set((c.nameservers ?? []).map((n) => n.toLowerCase()))];
    this.#checkNameservers(nameservers, extension);
    if (nameservers.length < extension.nameserversMin) refuse(2306, `at least ${extension.nameserversMin} name servers under ${extension.id}`);
    if ((c.ds?.length ?? 0) > 0 && !extension.dnssec) refuse(2306, `${extension.id} takes no DS data`);
    checkDsData(c.ds ?? []);
    const price = this.#agreedFee(name, extension, "register", years, c.fee);
    const now = this.now();
    const domain: Domain = {
      name,
      roid: this.#roidOf(this.#suffix(extension)),
      extension,
      clID,
      crID: clID,
      crDate: now,
      exDate: addYears(now, years),
      registrant: c.registrant,
      contacts: c.contacts ?? [],
      nameservers,
      statuses: new Set(),
      authInfo: c.authInfo,
      ds: c.ds ?? [],
      rgp: extension.graceAdd > 0 ? { status: "addPeriod", until: now + extension.graceAdd * DAY } : undefined,
    };
    this.#domains.set(name, domain);
    const pending = this.takePending("domain:create");
    if (pending) {
      domain.statuses.add("pendingCreate");
      domain.pending = { op: "create", clTRID, svTRID, years };
    }
    return {
      results: [{ code: pending ? 1001 : 1000 }],
      resData: [{ kind: "domain:creData", name, crDate: iso(domain.crDate), exDate: iso(domain.exDate) }],
      extensions: [{ kind: "fee:creData", currency: price.currency, fees: [{ amount: price.amount }], credits: [] }],
    };
  }

  #domainInfo(clID: string, name: string, authInfo: string | undefined, hosts: "all" | "del" | "sub" | "none"): Outcome {
    const domain = this.#domain(name);
    const authorized = domain.clID === clID || (authInfo !== undefined && authInfo === domain.authInfo);
    if (authInfo !== undefined && domain.clID !== clID && authInfo !== domain.authInfo) refuse(2202, "the authInfo does not match");
    const statuses: StatusValue[] = domain.statuses.size === 0 ? [{ s: "ok" }] : [...domain.statuses].sort().map((s) => ({ s }));
    if (!authorized) {
      // RFC 5731 §3.1.2: a server may restrict what a client that does not sponsor the
      // object and gives no authInfo sees.
      return {
        results: [{ code: 1000 }],
        resData: [
          {
            kind: "domain:infData",
            name: domain.name,
            roid: domain.roid,
            statuses,
            contacts: [],
            nameservers: [],
            hostAttrs: [],
            hosts: [],
            clID: domain.clID,
          },
        ],
      };
    }
    const subordinate = [...this.#hosts.values()].filter((h) => h.name.endsWith(`.${domain.name}`)).map((h) => h.name);
    const info: DomainInfo = {
      name: domain.name,
      roid: domain.roid,
      statuses,
      registrant: domain.registrant,
      contacts: domain.contacts,
      nameservers: hosts === "all" || hosts === "del" ? domain.nameservers : [],
      hostAttrs: [],
      hosts: hosts === "all" || hosts === "sub" ? subordinate : [],
      clID: domain.clID,
      crID: domain.crID,
      crDate: iso(domain.crDate),
      ...(domain.upID ? { upID: domain.upID, upDate: iso(domain.upDate!) } : {}),
      exDate: iso(domain.exDate),
      ...(domain.trDate ? { trDate: iso(domain.trDate) } : {}),
      // RFC 5731 §3.1.2: the authInfo is shown to the sponsor, optionally (the `hide_auth_info` knob: a registry that never shows it).
      ...(domain.clID === clID && !this.hideAuthInfo ? { authInfo: domain.authInfo } : {}),
    };
    const extensions: ExtensionData[] = [];
    if (domain.ds.length > 0) extensions.push({ kind: "secDNS:infData", dsData: domain.ds, keyData: [] });
    if (domain.rgp) extensions.push({ kind: "rgp:infData", rgpStatus: [{ s: domain.rgp.status }] });
    return { results: [{ code: 1000 }], resData: [{ kind: "domain:infData", ...info }], extensions };
  }

  #prohibited(domain: Domain, action: "Update" | "Delete" | "Renew" | "Transfer"): void {
    for (const s of [`client${action}Prohibited`, `server${action}Prohibited`]) if (domain.statuses.has(s)) refuse(2304, `${domain.name} has ${s}`);
    for (const s of ["pendingDelete", "pendingTransfer", "pendingCreate", "pendingRestore"])
      if (domain.statuses.has(s) && !(action === "Transfer" && s === "pendingTransfer")) refuse(2304, `${domain.name} is ${s}`);
  }

  #domainRenew(clID: string, name: string, curExpDate: string, period: Period | undefined, fee: FeeAgreement | undefined): Outcome {
    const domain = this.#sponsored(this.#domain(name), clID);
    this.#prohibited(domain, "Renew");
    if (day(domain.exDate) !== curExpDate) refuse(2004, `curExpDate is ${day(domain.exDate)}`);
    const years = yearsOf(period);
    const exDate = addYears(domain.exDate, years);
    if (exDate > addYears(this.now(), MAX_REGISTRATION_YEARS)) refuse(2306, `a registration ends at most ${MAX_REGISTRATION_YEARS} years from now`);
    const price = this.#agreedFee(domain.name, domain.extension, "renew", years, fee);
    const pending = this.takePending("domain:renew");
    if (pending) {
      domain.statuses.add("pendingRenew");
      domain.pending = { op: "renew", svTRID: this.nextSvTRID(), years };
    } else {
      domain.exDate = exDate;
      domain.rgp = domain.extension.graceRenew > 0 ? { status: "renewPeriod", until: this.now() + domain.extension.graceRenew * DAY } : domain.rgp;
    }
    return {
      results: [{ code: pending ? 1001 : 1000 }],
      resData: [{ kind: "domain:renData", name: domain.name, exDate: iso(pending ? domain.exDate : exDate) }],
      extensions: [{ kind: "fee:renData", currency: price.currency, fees: [{ amount: price.amount }], credits: [] }],
    };
  }

  #domainUpdate(clID: string, c: DomainUpdateCommand, clTRID: string | undefined, svTRID: string): Outcome {
    const domain = this.#sponsored(this.#domain(c.name), clID);
    if (c.restore) return this.#restore(domain, c.restore.op, c.fee);
    const removesUpdateLock = c.rem?.statuses?.some((s) => s.s === "clientUpdateProhibited") ?? false;
    if (domain.statuses.has("serverUpdateProhibited") || (domain.statuses.has("clientUpdateProhibited") && !removesUpdateLock))
      refuse(2304, `${domain.name} has ${domain.statuses.has("serverUpdateProhibited") ? "serverUpdateProhibited" : "clientUpdateProhibited"}`);
    for (const s of ["pendingDelete", "pendingTransfer", "pendingCreate", "pendingUpdate"]) if (domain.statuses.has(s)) refuse(2304, `${domain.name} is ${s}`);
    const addNs = (c.add?.nameservers ?? []).map((n) => n.toLowerCase());
    const remNs = new Set((c.rem?.nameservers ?? []).map((n) => n.toLowerCase()));
    this.#checkNameservers(addNs, domain.extension);
    for (const n of addNs) if (domain.nameservers.includes(n)) refuse(2302, `${n} is already a name server of ${domain.name}`);
    for (const n of remNs) if (!domain.nameservers.includes(n)) refuse(2303, `${n} is not a name server of ${domain.name}`);
    const nameservers = [...domain.nameservers.filter((n) => !remNs.has(n)), ...addNs];
    if (nameservers.length > domain.extension.nameserversMax)
      refuse(2306, `at most ${domain.extension.nameserversMax} name servers under ${domain.extension.id}`);
    this.#checkContacts(clID, c.chg?.registrant || undefined, c.add?.contacts ?? []);
    for (const s of c.add?.statuses ?? []) if (domain.statuses.has(s.s)) refuse(2302, `${domain.name} already has ${s.s}`);
    for (const s of c.rem?.statuses ?? []) if (!domain.statuses.has(s.s)) refuse(2303, `${domain.name} does not have ${s.s}`);
    const key = (x: DomainContact) => `${x.type}:${x.id}`;
    const remContacts = new Set((c.rem?.contacts ?? []).map(key));
    for (const x of c.rem?.contacts ?? [])
      if (!domain.contacts.some((d) => key(d) === key(x))) refuse(2303, `${x.id} is not the ${x.type} contact of ${domain.name}`);
    const ds = c.ds ? this.#updatedDs(domain, c.ds) : domain.ds;
    const apply = () => {
      domain.nameservers = nameservers;
      domain.contacts = [...domain.contacts.filter((d) => !remContacts.has(key(d))), ...(c.add?.contacts ?? [])];
      for (const s of c.rem?.statuses ?? []) domain.statuses.delete(s.s);
      for (const s of c.add?.statuses ?? []) domain.statuses.add(s.s);
      if (c.chg?.registrant !== undefined) domain.registrant = c.chg.registrant || undefined;
      if (c.chg?.authInfo) domain.authInfo = c.chg.authInfo;
      domain.ds = ds;
      domain.upID = clID;
      domain.upDate = this.now();
    };
    // The `pending` knob: the update is reviewed (1001, RFC 5731 §2.3 pendingUpdate) and
    // takes effect only when settled approved, with a panData message either way.
    if (this.takePending("domain:update")) {
      domain.statuses.add("pendingUpdate");
      domain.pending = { op: "update", clTRID, svTRID, apply };
      return { results: [{ code: 1001 }] };
    }
    apply();
    return { results: [{ code: 1000 }] };
  }

  /**
   * The DS set after a secDNS:update, as RFC 5910 §5.2.5 has it: the removals (every DS with
   * `<secDNS:all>true`) taken before the additions. Refused as a registry speaking the DS data
   * interface and neither `urgent` nor `maxSigLife` does (as Nomulus, Verisign's and most
   * registries' EPP servers do): 2102 for an option it does not implement, 2306 for the key
   * data interface or `<secDNS:all>false` (which asks for nothing), 2003 for an update that
   * names nothing, and 2306 for a DS record no resolver could use (checkDsData).
   */
  #updatedDs(domain: Domain, update: NonNullable<DomainUpdateCommand["ds"]>): DsData[] {
    if (!domain.extension.dnssec) refuse(2306, `${domain.extension.id} takes no DS data`);
    if (update.urgent) refuse(2102, "urgent is not offered: every DS change is published as soon as it is made");
    if (update.maxSigLife !== undefined) refuse(2102, "maxSigLife is not offered: this registry does not sign with the child's preferences");
    if (update.unsupported?.includes("keyData")) refuse(2306, "this registry speaks the DS data interface: send dsData, not keyData (RFC 5910 §4)");
    if (update.unsupported?.includes("all-false")) refuse(2306, "<secDNS:all> removes every DS when true; false asks for nothing: leave it out");
    if (update.rem === undefined && update.add === undefined) refuse(2003, "a secDNS:update names no DS to remove or add");
    checkDsData([...(update.rem === "all" ? [] : (update.rem ?? [])), ...(update.add ?? [])]);
    const same = (a: DsData, b: DsData) =>
      a.keyTag === b.keyTag && a.alg === b.alg && a.digestType === b.digestType && a.digest.toUpperCase() === b.digest.toUpperCase();
    const removed = update.rem;
    let ds = domain.ds;
    if (removed === "all") ds = [];
    else if (removed) ds = ds.filter((d) => !removed.some((r) => same(d, r)));
    ds = [...ds, ...(update.add ?? []).filter((a) => !ds.some((d) => same(d, a)))];
    if (ds.length > MAX_DS_RECORDS) refuse(2306, `a domain holds at most ${MAX_DS_RECORDS} DS records here; this update would leave ${ds.length}`);
    return ds;
  }

  #restore(domain: Domain, op: "request" | "report", fee: FeeAgreement | undefined): Outcome {
    if (op === "request") {
      if (domain.rgp?.status !== "redemptionPeriod") refuse(2304, `${domain.name} is not in its redemption period`);
      const price = this.#agreedFee(domain.name, domain.extension, "restore", 1, fee);
      domain.rgp = { status: "pendingRestore", until: this.now() + 7 * DAY };
      return {
        results: [{ code: 1000 }],
        extensions: [
          { kind: "rgp:upData", rgpStatus: [{ s: "pendingRestore" }] },
          { kind: "fee:updData", currency: price.currency, fees: [{ amount: price.amount }], credits: [] },
        ],
      };
    }
    if (domain.rgp?.status !== "pendingRestore") refuse(2304, `${domain.name} has no restore request to report on`);
    if (domain.pending?.op === "restore") refuse(2304, `${domain.name}'s restore report is being reviewed`);
    // The `pending` knob: the report is reviewed (1001), the domain stays pendingRestore until settled.
    if (this.takePending("domain:restore")) {
      domain.pending = { op: "restore", svTRID: this.nextSvTRID(), redemptionUntil: domain.rgp?.until };
      return { results: [{ code: 1001 }] };
    }
    domain.rgp = undefined;
    domain.statuses.delete("pendingDelete");
    domain.upDate = this.now();
    return { results: [{ code: 1000 }] };
  }

  #domainDelete(clID: string, name: string): Outcome {
    const domain = this.#sponsored(this.#domain(name), clID);
    this.#prohibited(domain, "Delete");
    const subordinate = [...this.#hosts.values()].filter((h) => h.name.endsWith(`.${domain.name}`));
    for (const host of subordinate) {
      const user = [...this.#domains.values()].find((d) => d !== domain && d.nameservers.includes(host.name));
      if (user) refuse(2305, `${host.name} is a name server of ${user.name}`);
    }
    if (domain.rgp?.status === "addPeriod" || domain.extension.graceRedemption === 0) {
      for (const host of subordinate) this.#hosts.delete(host.name);
      this.#domains.delete(domain.name);
      return { results: [{ code: 1000 }] };
    }
    domain.statuses.add("pendingDelete");
    domain.rgp = { status: "redemptionPeriod", until: this.now() + domain.extension.graceRedemption * DAY };
    return { results: [{ code: 1001 }] };
  }

  #domainTransfer(clID: string, op: string, name: string, authInfo: string | undefined, period: Period | undefined, fee: FeeAgreement | undefined): Outcome {
    const domain = this.#domain(name);
    const data = (): ResData => ({
      kind: "domain:trnData",
      name: domain.name,
      trStatus: domain.transfer!.status,
      reID: domain.transfer!.reID,
      reDate: iso(domain.transfer!.reDate),
      acID: domain.transfer!.acID,
      acDate: iso(domain.transfer!.acDate),
      exDate: iso(domain.transfer!.exDate),
    });
    if (op === "query") {
      if (!domain.transfer) refuse(2301, `${domain.name} has no transfer`);
      const party = clID === domain.transfer!.reID || clID === domain.transfer!.acID || authInfo === domain.authInfo;
      if (!party) refuse(2201, "only the registrars of the transfer may ask for it");
      return { results: [{ code: 1000 }], resData: [data()] };
    }
    if (op === "request") {
      if (domain.clID === clID) refuse(2106, `${domain.name} is already yours`);
      if (authInfo !== domain.authInfo) refuse(2202, "the authInfo does not match");
      if (domain.statuses.has("pendingTransfer")) refuse(2300, `${domain.name} has a transfer pending`);
      this.#prohibited(domain, "Transfer");
      const years = yearsOf(period);
      this.#agreedFee(domain.name, domain.extension, "transfer", years, fee);
      const now = this.now();
      domain.transfer = {
        status: "pending",
        reID: clID,
        reDate: now,
        acID: domain.clID,
        acDate: now + TRANSFER_AUTO_APPROVE_DAYS * DAY,
        years,
        exDate: addYears(domain.exDate, years),
      };
      domain.statuses.add("pendingTransfer");
      this.#enqueue(domain.clID, "Transfer requested.", data());
      return { results: [{ code: 1001 }], resData: [data()] };
    }
    if (domain.transfer?.status !== "pending") return refuse(2301, `${domain.name} has no transfer pending`);
    if (op === "cancel") {
      if (clID !== domain.transfer.reID) refuse(2201, "only the requesting registrar cancels a transfer");
      this.#endTransfer(domain, "clientCancelled");
      this.#enqueue(domain.clID, "Transfer cancelled.", data());
      return { results: [{ code: 1000 }], resData: [data()] };
    }
    this.#sponsored(domain, clID);
    if (op === "reject") {
      this.#endTransfer(domain, "clientRejected");
      this.#enqueue(domain.transfer.reID, "Transfer rejected.", data());
      return { results: [{ code: 1000 }], resData: [data()] };
    }
    this.#completeTransfer(domain, "clientApproved");
    return { results: [{ code: 1000 }], resData: [data()] };
  }

  #endTransfer(domain: Domain, status: TransferStatus): void {
    domain.transfer = { ...domain.transfer!, status, acDate: this.now() };
    domain.statuses.delete("pendingTransfer");
  }

  #completeTransfer(domain: Domain, status: "clientApproved" | "serverApproved"): void {
    const t = domain.transfer!;
    const losing = domain.clID;
    this.#endTransfer(domain, status);
    domain.clID = t.reID;
    domain.exDate = t.exDate;
    domain.trDate = this.now();
    domain.rgp = domain.extension.graceTransfer > 0 ? { status: "transferPeriod", until: this.now() + domain.extension.graceTransfer * DAY } : undefined;
    for (const host of this.#hosts.values()) if (host.name.endsWith(`.${domain.name}`)) host.clID = t.reID;
    const data: ResData = {
      kind: "domain:trnData",
      name: domain.name,
      trStatus: status,
      reID: t.reID,
      reDate: iso(t.reDate),
      acID: losing,
      acDate: iso(domain.transfer!.acDate),
      exDate: iso(domain.exDate),
    };
    this.#enqueue(t.reID, status === "serverApproved" ? "Transfer auto-approved." : "Transfer approved.", data);
    if (status === "serverApproved") this.#enqueue(losing, "Transfer auto-approved.", data);
  }

  #purge(domain: Domain, why: string): void {
    for (const host of [...this.#hosts.values()]) if (host.name.endsWith(`.${domain.name}`)) this.#hosts.delete(host.name);
    this.#domains.delete(domain.name);
    this.#enqueue(domain.clID, why, {
      kind: "domain:panData",
      name: domain.name,
      paResult: true,
      paTRID: { svTRID: this.nextSvTRID() },
      paDate: iso(this.now()),
    });
  }

  // ---- hosts -----------------------------------------------------------------------------

  #host(name: string): Host {
    return this.#hosts.get(name.toLowerCase()) ?? refuse(2303, `no host ${name}`);
  }

  #hostCheckItem(raw: string) {
    const name = raw.toLowerCase();
    return this.#hosts.has(name) ? { name: raw, avail: false, reason: "In use" } : { name: raw, avail: true };
  }

  #hostInfo(host: Host) {
    const linked = [...this.#domains.values()].some((d) => d.nameservers.includes(host.name));
    const statuses = [...host.statuses, ...(linked ? ["linked"] : [])];
    return {
      name: host.name,
      roid: host.roid,
      statuses: (statuses.length ? statuses.sort() : ["ok"]).map((s) => ({ s })),
      addresses: host.addresses,
      clID: host.clID,
      crID: host.crID,
      crDate: iso(host.crDate),
      ...(host.upID ? { upID: host.upID, upDate: iso(host.upDate!) } : {}),
    };
  }

  /** The domain of this registry a host name is under, or null for an external host; refuses a name under a served extension whose domain does not exist. */
  #superordinate(name: string): Domain | null {
    const labels = name.split(".");
    for (let i = 1; i < labels.length - 1; i++) {
      const candidate = labels.slice(i).join(".");
      const domain = this.#domains.get(candidate);
      if (domain) return domain;
    }
    const extension = this.catalog.extensions.find((e) => name.endsWith(`.${e.id}`));
    if (extension) refuse(2303, `no domain here holds ${name}: register its domain first, or name a host outside ${extension.id}`);
    return null;
  }

  #addresses(texts: string[]): HostAddress[] {
    return texts.map((address) => {
      if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address) && address.split(".").every((o) => Number(o) <= 255)) return { ip: "v4", address };
      if (/^[0-9a-f:.]+$/i.test(address) && address.includes(":")) return { ip: "v6", address: address.toLowerCase() };
      return refuse(2005, `${address} is not an IP address`);
    });
  }

  #hostCreate(clID: string, raw: string, addresses: string[]): Outcome {
    const name = raw.toLowerCase();
    if (name.length > 253 || !name.split(".").every((l) => LABEL.test(l)) || !name.includes(".")) refuse(2005, `${raw} is not a host name`);
    if (this.#hosts.has(name)) refuse(2302, `${name} exists`);
    const superordinate = this.#superordinate(name);
    if (superordinate && superordinate.clID !== clID) refuse(2201, `${superordinate.name} is sponsored by another registrar`);
    if (superordinate && addresses.length === 0) refuse(2003, `${name} is under ${superordinate.name}: it needs its addresses (glue)`);
    if (!superordinate && addresses.length > 0) refuse(2306, `${name} is outside this registry: it takes no addresses`);
    const host: Host = { name, roid: this.#roidOf("LOCAL"), clID, crID: clID, crDate: this.now(), addresses: this.#addresses(addresses), statuses: new Set() };
    this.#hosts.set(name, host);
    return { results: [{ code: 1000 }], resData: [{ kind: "host:creData", name, crDate: iso(host.crDate) }] };
  }

  #hostUpdate(clID: string, c: Extract<EppCommand, { kind: "host:update" }>): Outcome {
    const host = this.#host(c.name);
    if (host.clID !== clID) refuse(2201, `${host.name} is sponsored by another registrar`);
    for (const s of ["clientUpdateProhibited", "serverUpdateProhibited"])
      if (host.statuses.has(s) && !c.rem?.statuses?.some((r) => r.s === "clientUpdateProhibited")) refuse(2304, `${host.name} has ${s}`);
    const superordinate = this.#superordinate(host.name);
    if (superordinate?.statuses.has("serverUpdateProhibited")) refuse(2304, `${superordinate.name} has serverUpdateProhibited`);
    const add = this.#addresses(c.add?.addresses ?? []);
    const rem = new Set((c.rem?.addresses ?? []).map((a) => a.toLowerCase()));
    let addresses = [...host.addresses.filter((a) => !rem.has(a.address)), ...add];
    let name = host.name;
    if (c.newName) {
      name = c.newName.toLowerCase();
      if (this.#hosts.has(name)) refuse(2302, `${name} exists`);
      const target = this.#superordinate(name);
      if (target && target.clID !== clID) refuse(2201, `${target.name} is sponsored by another registrar`);
      if (!target) addresses = [];
      else if (addresses.length === 0) refuse(2003, `${name} is under ${target.name}: it needs its addresses (glue)`);
    } else if (superordinate && addresses.length === 0) refuse(2306, `${host.name} is under ${superordinate.name}: it keeps at least one address`);
    if (!superordinate && !c.newName && add.length > 0) refuse(2306, `${host.name} is outside this registry: it takes no addresses`);
    for (const s of c.rem?.statuses ?? []) host.statuses.delete(s.s);
    for (const s of c.add?.statuses ?? []) host.statuses.add(s.s);
    host.addresses = addresses;
    if (name !== host.name) {
      this.#hosts.delete(host.name);
      for (const d of this.#domains.values()) d.nameservers = d.nameservers.map((n) => (n === host.name ? name : n));
      host.name = name;
      this.#hosts.set(name, host);
    }
    host.upID = clID;
    host.upDate = this.now();
    return { results: [{ code: 1000 }] };
  }

  #hostDelete(clID: string, name: string): Outcome {
    const host = this.#host(name);
    if (host.clID !== clID) refuse(2201, `${host.name} is sponsored by another registrar`);
    for (const s of ["clientDeleteProhibited", "serverDeleteProhibited"]) if (host.statuses.has(s)) refuse(2304, `${host.name} has ${s}`);
    const user = [...this.#domains.values()].find((d) => d.nameservers.includes(host.name));
    if (user) refuse(2305, `${host.name} is a name server of ${user.name}`);
    this.#hosts.delete(host.name);
    return { results: [{ code: 1000 }] };
  }

  // ---- contacts --------------------------------------------------------------------------

  #contactInfo(clID: string, id: string, authInfo: string | undefined): Outcome {
    const contact = this.#contacts.get(id) ?? refuse(2303, `no contact ${id}`);
    if (contact.clID !== clID && authInfo !== contact.authInfo) refuse(authInfo === undefined ? 2201 : 2202, `contact ${id} is sponsored by another registrar`);
    const linked = [...this.#domains.values()].some((d) => d.registrant === id || d.contacts.some((c) => c.id === id));
    const statuses = [...contact.statuses, ...(linked ? ["linked"] : [])];
    const info: ContactInfo = {
      id: contact.id,
      roid: contact.roid,
      statuses: (statuses.length ? statuses.sort() : ["ok"]).map((s) => ({ s })),
      postalInfo: contact.postalInfo,
      ...(contact.voice ? { voice: contact.voice } : {}),
      ...(contact.fax ? { fax: contact.fax } : {}),
      email: contact.email,
      clID: contact.clID,
      crID: contact.crID,
      crDate: iso(contact.crDate),
      ...(contact.upID ? { upID: contact.upID, upDate: iso(contact.upDate!) } : {}),
      ...(contact.clID === clID ? { authInfo: contact.authInfo } : {}),
      ...(contact.disclose ? { disclose: contact.disclose } : {}),
    };
    return { results: [{ code: 1000 }], resData: [{ kind: "contact:infData", ...info }] };
  }

  #contactCreate(clID: string, c: ContactCreateCommand): Outcome {
    if (this.#contacts.has(c.id)) refuse(2302, `contact ${c.id} exists`);
    const contact: Contact = {
      id: c.id,
      roid: this.#roidOf("LOCAL"),
      clID,
      crID: clID,
      crDate: this.now(),
      postalInfo: c.postalInfo,
      voice: c.voice,
      fax: c.fax,
      email: c.email,
      authInfo: c.authInfo,
      disclose: c.disclose,
      statuses: new Set(),
    };
    this.#contacts.set(c.id, contact);
    return { results: [{ code: 1000 }], resData: [{ kind: "contact:creData", id: c.id, crDate: iso(contact.crDate) }] };
  }

  #contactUpdate(clID: string, c: Extract<EppCommand, { kind: "contact:update" }>): Outcome {
    const contact = this.#contacts.get(c.id) ?? refuse(2303, `no contact ${c.id}`);
    if (contact.clID !== clID) refuse(2201, `contact ${c.id} is sponsored by another registrar`);
    if (contact.statuses.has("clientUpdateProhibited") && !c.rem?.statuses.some((s) => s.s === "clientUpdateProhibited"))
      refuse(2304, `contact ${c.id} has clientUpdateProhibited`);
    for (const change of c.chg?.postalInfo ?? []) {
      const i = contact.postalInfo.findIndex((p) => p.type === change.type);
      const base = i >= 0 ? contact.postalInfo[i]! : undefined;
      if (!base && (!change.name || !change.addr)) refuse(2003, `a new ${change.type} postalInfo needs a name and an address`);
      const next: PostalInfo = {
        ...(base as PostalInfo),
        type: change.type,
        ...(change.name ? { name: change.name } : {}),
        ...(change.org ? { org: change.org } : {}),
        ...(change.addr ?? {}),
      };
      if (i >= 0) contact.postalInfo[i] = next;
      else contact.postalInfo.push(next);
    }
    if (c.chg?.voice !== undefined) contact.voice = c.chg.voice ?? undefined;
    if (c.chg?.fax !== undefined) contact.fax = c.chg.fax ?? undefined;
    if (c.chg?.email) contact.email = c.chg.email;
    if (c.chg?.authInfo) contact.authInfo = c.chg.authInfo;
    if (c.chg?.disclose) contact.disclose = c.chg.disclose;
    for (const s of c.rem?.statuses ?? []) contact.statuses.delete(s.s);
    for (const s of c.add?.statuses ?? []) contact.statuses.add(s.s);
    contact.upID = clID;
    contact.upDate = this.now();
    return { results: [{ code: 1000 }] };
  }

  #contactDelete(clID: string, id: string): Outcome {
    const contact = this.#contacts.get(id) ?? refuse(2303, `no contact ${id}`);
    if (contact.clID !== clID) refuse(2201, `contact ${id} is sponsored by another registrar`);
    const user = [...this.#domains.values()].find((d) => d.registrant === id || d.contacts.some((c) => c.id === id));
    if (user) refuse(2305, `contact ${id} is a contact of ${user.name}`);
    this.#contacts.delete(id);
    return { results: [{ code: 1000 }] };
  }

  // ---- poll ------------------------------------------------------------------------------

  #enqueue(clID: string, msg: string, resData?: ResData): void {
    this.#messageId += 1;
    this.#messages.push({ id: String(this.#messageId), clID, qDate: this.now(), msg, resData });
  }

  /** Puts a message in a registrar's queue (the control interface's registry-side events). */
  enqueue(clID: string, msg: string, resData?: ResData): void {
    this.#enqueue(clID, msg, resData);
  }

  #pollRequest(clID: string): Outcome {
    const mine = this.#messages.filter((m) => m.clID === clID);
    const first = mine[0];
    if (!first) return { results: [{ code: 1300 }] };
    return {
      results: [{ code: 1301 }],
      msgQ: { count: mine.length, id: first.id, qDate: iso(first.qDate), msg: first.msg },
      ...(first.resData ? { resData: [first.resData] } : {}),
    };
  }

  #pollAck(clID: string, id: string): Outcome {
    const index = this.#messages.findIndex((m) => m.clID === clID && m.id === id);
    if (index < 0) refuse(2303, `no message ${id} in your queue`);
    this.#messages.splice(index, 1);
    const rest = this.#messages.filter((m) => m.clID === clID);
    return { results: [{ code: 1000 }], msgQ: { count: rest.length, id } };
  }

  // ---- what the control interface may do -------------------------------------------------

  /** Commands the control interface set to answer 1001 (kind → how many more). */
  pendingNext = new Map<string, number>();
  /** The `hide_auth_info` knob: `<domain:info>` shows no authInfo, not even to the sponsor (as some registries do). */
  hideAuthInfo = false;

  takePending(kind: string): boolean {
    const left = this.pendingNext.get(kind) ?? 0;
    if (left <= 0) return false;
    this.pendingNext.set(kind, left - 1);
    return true;
  }

  /** Settles a pending action (RFC 5730 §2.9.2.4): the sponsor gets a panData message. */
  settle(name: string, approve: boolean): boolean {
    const domain = this.#domains.get(name);
    if (!domain?.pending) return false;
    const { op, clTRID, svTRID, years, redemptionUntil, apply } = domain.pending;
    domain.pending = undefined;
    domain.statuses.delete(`pending${op[0]!.toUpperCase()}${op.slice(1)}`);
    if (op === "create" && !approve) this.#domains.delete(domain.name);
    if (op === "renew" && approve) domain.exDate = addYears(domain.exDate, years ?? 1);
    if (op === "update" && approve) apply?.();
    if (op === "restore" && approve) {
      domain.rgp = undefined;
      domain.statuses.delete("pendingDelete");
      domain.upDate = this.now();
    }
    // A restore refused goes back to redemption (RFC 3915 §3.2), at least until its restore window would have closed.
    if (op === "restore" && !approve) domain.rgp = { status: "redemptionPeriod", until: Math.max(this.now(), redemptionUntil ?? this.now()) };
    this.#enqueue(domain.clID, approve ? "Pending action completed successfully." : "Pending action rejected.", {
      kind: "domain:panData",
      name: domain.name,
      paResult: approve,
      paTRID: { ...(clTRID ? { clTRID } : {}), svTRID },
      paDate: iso(this.now()),
    });
    return true;
  }

  /** A registry-side change: statuses set or removed by the registry (its poll message tells the sponsor). */
  serverStatus(name: string, add: string[], rem: string[]): boolean {
    const domain = this.#domains.get(name);
    if (!domain) return false;
    for (const s of rem) domain.statuses.delete(s);
    for (const s of add) domain.statuses.add(s);
    // The domain as its sponsor now sees it (a domain:infData, as registries that report
    // their own changes by poll send), so the registrar's copy can follow without asking.
    const info = this.#domainInfo(domain.clID, domain.name, undefined, "all").resData?.[0];
    this.#enqueue(
      domain.clID,
      `The registry changed the statuses of ${domain.name}: ${[...add.map((s) => `+${s}`), ...rem.map((s) => `-${s}`)].join(" ")}.`,
      info,
    );
    return true;
  }

  /** A registry-side deletion (a court order, a policy): the sponsor is told by poll. */
  serverDelete(name: string): boolean {
    const domain = this.#domains.get(name);
    if (!domain) return false;
    this.#purge(domain, "The registry deleted the domain.");
    return true;
  }

  /** How many objects the registry holds (for the control interface). */
  counts() {
    return { domains: this.#domains.size, hosts: this.#hosts.size, contacts: this.#contacts.size, messages: this.#messages.length };
  }

  /** Whether a domain exists (for tests that check what the registry holds without EPP). */
  domainNames(): string[] {
    return [...this.#domains.keys()].sort();
  }
}
