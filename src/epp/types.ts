// The typed values of EPP: the commands a client sends and the responses (and greeting) a
// server answers, as plain JSON-safe data. Dates are the XML `dateTime` (or `date`) text as
// written; amounts are decimal strings (never floats).

// ---- shared ----------------------------------------------------------------------------

/** A registration period (RFC 5731 §2.5): 1–99 years or months. */
export interface Period {
  value: number;
  unit: "y" | "m";
}

/** A DS record (RFC 5910 §4, the dsData interface). */
export interface DsData {
  keyTag: number;
  alg: number;
  digestType: number;
  /** Hexadecimal. */
  digest: string;
}

/** A DNSKEY (RFC 5910 §4, the keyData interface): read from responses, never sent. */
export interface KeyData {
  flags: number;
  protocol: number;
  alg: number;
  /** Base64. */
  pubKey: string;
}

/** A status with its optional reason (RFC 5731 §2.3). */
export interface StatusValue<S extends string = string> {
  s: S;
  /** The human-readable reason, if any. */
  text?: string;
  lang?: string;
}

/** Statuses a client may set on a domain (RFC 5731 §2.3). */
export type DomainClientStatus = "clientDeleteProhibited" | "clientHold" | "clientRenewProhibited" | "clientTransferProhibited" | "clientUpdateProhibited";
/** Statuses a client may set on a host (RFC 5732 §2.3). */
export type HostClientStatus = "clientDeleteProhibited" | "clientUpdateProhibited";
/** Statuses a client may set on a contact (RFC 5733 §2.2). */
export type ContactClientStatus = "clientDeleteProhibited" | "clientTransferProhibited" | "clientUpdateProhibited";

export type ContactType = "admin" | "billing" | "tech";
export type TransferOp = "request" | "query" | "approve" | "reject" | "cancel";
export type TransferStatus = "clientApproved" | "clientCancelled" | "clientRejected" | "pending" | "serverApproved" | "serverCancelled";

/** A fee (RFC 8748 §3.4): a non-negative decimal string. */
export interface Fee {
  amount: string;
  description?: string;
  lang?: string;
  refundable?: boolean;
  /** An XML duration (`P5D`). */
  gracePeriod?: string;
  applied?: "immediate" | "delayed";
}

/** A credit (RFC 8748 §3.5): a non-positive decimal string. */
export interface Credit {
  amount: string;
  description?: string;
  lang?: string;
}

/** What a transform command carries of the fee extension: the fees the client agrees to. */
export interface FeeAgreement {
  currency?: string;
  fees: Fee[];
}

export type FeeCommandName = "create" | "delete" | "renew" | "update" | "transfer" | "restore" | "custom";

// ---- commands --------------------------------------------------------------------------

export interface LoginCommand {
  kind: "login";
  clientId: string;
  password: string;
  newPassword?: string;
  /** "1.0" unless told. */
  version?: string;
  /** "en" unless told. */
  lang?: string;
  objURIs: string[];
  extURIs: string[];
}

export interface LogoutCommand {
  kind: "logout";
}

export type PollCommand = { kind: "poll"; op: "req" } | { kind: "poll"; op: "ack"; msgID: string };

export interface DomainCheckCommand {
  kind: "domain:check";
  names: string[];
  /** fee:check (RFC 8748 §5.1.1): the fees of these commands for every name. */
  fee?: { currency?: string; commands: { name: FeeCommandName; period?: Period; phase?: string; subphase?: string }[] };
}

export interface DomainInfoCommand {
  kind: "domain:info";
  name: string;
  /** Which hosts to show; "all" unless told. */
  hosts?: "all" | "del" | "sub" | "none";
  authInfo?: string;
}

export interface DomainContact {
  type: ContactType;
  id: string;
}

export interface DomainCreateCommand {
  kind: "domain:create";
  name: string;
  period?: Period;
  /** Host objects (`<domain:hostObj>`). */
  nameservers?: string[];
  registrant?: string;
  contacts?: DomainContact[];
  authInfo: string;
  ds?: DsData[];
  fee?: FeeAgreement;
}

export interface DomainRenewCommand {
  kind: "domain:renew";
  name: string;
  /** YYYY-MM-DD: the expiry the client believes is current. */
  curExpDate: string;
  period?: Period;
  fee?: FeeAgreement;
}

/** The fields of an RGP restore report (RFC 3915 §4.2.5). */
export interface RgpReport {
  preData: string;
  postData: string;
  delTime: string;
  resTime: string;
  resReason: string;
  /** One or two statements. */
  statements: string[];
  other?: string;
}

export interface DomainUpdateCommand {
  kind: "domain:update";
  name: string;
  add?: { nameservers?: string[]; contacts?: DomainContact[]; statuses?: StatusValue<DomainClientStatus>[] };
  rem?: { nameservers?: string[]; contacts?: DomainContact[]; statuses?: StatusValue<DomainClientStatus>[] };
  /** `registrant: ""` removes the registrant; `authInfo: null` writes `<domain:null/>`. */
  chg?: { registrant?: string; authInfo?: string | null };
  /** secDNS:update (RFC 5910 §5.2.5): DS records removed (or all of them), then added. */
  ds?: DsUpdate;
  /** rgp:update (RFC 3915 §4.2.5). */
  restore?: { op: "request" } | { op: "report"; report: RgpReport };
  fee?: FeeAgreement;
}

/** secDNS:update (RFC 5910 §5.2.5): the removals are taken before the additions. */
export interface DsUpdate {
  rem?: DsData[] | "all";
  add?: DsData[];
  /** `urgent="true"`: the client asks for the change at high priority (a server that does not offer it answers 2102). */
  urgent?: boolean;
  /** `<secDNS:chg><secDNS:maxSigLife>`: the signature lifetime the client prefers, in seconds (RFC 5910 §3.3). */
  maxSigLife?: number;
  /**
   * What a server reads only to refuse it, never built: `<secDNS:all>false</secDNS:all>`
   * (`all` exists to remove every DS; false asks for nothing) and `keyData` (the key data
   * interface, RFC 5910 §4.2, where the server speaks the DS data interface).
   */
  unsupported?: ("all-false" | "keyData")[];
}

export interface DomainDeleteCommand {
  kind: "domain:delete";
  name: string;
}

export interface DomainTransferCommand {
  kind: "domain:transfer";
  op: TransferOp;
  name: string;
  authInfo?: string;
  period?: Period;
  fee?: FeeAgreement;
}

export interface HostAddress {
  ip: "v4" | "v6";
  address: string;
}

export interface HostCheckCommand {
  kind: "host:check";
  names: string[];
}

export interface HostInfoCommand {
  kind: "host:info";
  name: string;
}

export interface HostCreateCommand {
  kind: "host:create";
  name: string;
  /** IPv4 or IPv6 text; the version is read from the text. */
  addresses?: string[];
}

export interface HostUpdateCommand {
  kind: "host:update";
  name: string;
  add?: { addresses?: string[]; statuses?: StatusValue<HostClientStatus>[] };
  rem?: { addresses?: string[]; statuses?: StatusValue<HostClientStatus>[] };
  /** A new name (`<host:chg><host:name>`). */
  newName?: string;
}

export interface HostDeleteCommand {
  kind: "host:delete";
  name: string;
}

/** One postal address (RFC 5733 §2.4): `int` is 7-bit ASCII, `loc` may be any script. */
export interface PostalInfo {
  type: "int" | "loc";
  name: string;
  org?: string;
  /** Up to three lines. */
  street?: string[];
  city: string;
  sp?: string;
  pc?: string;
  /** ISO 3166 alpha-2. */
  cc: string;
}

/** A phone number `+CC.NUMBER` (RFC 5733 §2.5) with its extension. */
export interface Phone {
  number: string;
  ext?: string;
}

/** Disclosure preferences (RFC 5733 §2.9). */
export interface Disclose {
  /** true: disclose these; false: do not. */
  flag: boolean;
  name?: ("int" | "loc")[];
  org?: ("int" | "loc")[];
  addr?: ("int" | "loc")[];
  voice?: boolean;
  fax?: boolean;
  email?: boolean;
}

export interface ContactCheckCommand {
  kind: "contact:check";
  ids: string[];
}

export interface ContactInfoCommand {
  kind: "contact:info";
  id: string;
  authInfo?: string;
}

export interface ContactCreateCommand {
  kind: "contact:create";
  id: string;
  /** One or two (one `int`, one `loc`). */
  postalInfo: PostalInfo[];
  voice?: Phone;
  fax?: Phone;
  email: string;
  authInfo: string;
  disclose?: Disclose;
}

/** A postal address in an update: every field optional (RFC 5733 §3.2.5). */
export interface PostalInfoChange {
  type: "int" | "loc";
  name?: string;
  org?: string;
  /** A new address, whole. */
  addr?: { street?: string[]; city: string; sp?: string; pc?: string; cc: string };
}

export interface ContactUpdateCommand {
  kind: "contact:update";
  id: string;
  add?: { statuses: StatusValue<ContactClientStatus>[] };
  rem?: { statuses: StatusValue<ContactClientStatus>[] };
  /** `voice: null` / `fax: null` write an empty element, which removes the number. */
  chg?: { postalInfo?: PostalInfoChange[]; voice?: Phone | null; fax?: Phone | null; email?: string; authInfo?: string; disclose?: Disclose };
}

export interface ContactDeleteCommand {
  kind: "contact:delete";
  id: string;
}

export interface ContactTransferCommand {
  kind: "contact:transfer";
  op: TransferOp;
  id: string;
  authInfo?: string;
}

/** Every command this codec builds (and reads back, for a server). */
export type EppCommand =
  | LoginCommand
  | LogoutCommand
  | PollCommand
  | DomainCheckCommand
  | DomainInfoCommand
  | DomainCreateCommand
  | DomainRenewCommand
  | DomainUpdateCommand
  | DomainDeleteCommand
  | DomainTransferCommand
  | HostCheckCommand
  | HostInfoCommand
  | HostCreateCommand
  | HostUpdateCommand
  | HostDeleteCommand
  | ContactCheckCommand
  | ContactInfoCommand
  | ContactCreateCommand
  | ContactUpdateCommand
  | ContactDeleteCommand
  | ContactTransferCommand;

export type EppCommandKind = EppCommand["kind"];

// ---- greeting --------------------------------------------------------------------------

export interface Greeting {
  svID: string;
  svDate: string;
  versions: string[];
  langs: string[];
  objURIs: string[];
  extURIs: string[];
  /** The data collection policy (RFC 5730 §2.4), by element name (`all`, `admin`, `ours`, …). */
  dcp: {
    access: string;
    statements: { purpose: string[]; recipient: string[]; retention: string }[];
    expiry?: { absolute: string } | { relative: string };
  };
}

// ---- responses -------------------------------------------------------------------------

export interface EppResult {
  code: number;
  msg: string;
  lang?: string;
  /** `<value>`s, as XML. */
  values: string[];
  /** `<extValue>`s: the offending element as XML, and the server's reason. */
  extValues: { value: string; reason: string; lang?: string }[];
}

export interface MessageQueue {
  count: number;
  id: string;
  qDate?: string;
  msg?: string;
  lang?: string;
}

export interface CheckItem {
  /** The name (domains, hosts) or id (contacts). */
  name: string;
  avail: boolean;
  reason?: string;
}

export interface DomainInfo {
  name: string;
  roid: string;
  statuses: StatusValue[];
  registrant?: string;
  contacts: DomainContact[];
  /** Name servers: `<domain:hostObj>` names, or the names of `<domain:hostAttr>`. */
  nameservers: string[];
  /** `<domain:hostAttr>` name servers with their addresses, when the registry uses them. */
  hostAttrs: { name: string; addresses: HostAddress[] }[];
  /** Subordinate hosts. */
  hosts: string[];
  clID: string;
  crID?: string;
  crDate?: string;
  upID?: string;
  upDate?: string;
  exDate?: string;
  trDate?: string;
  authInfo?: string;
}

export interface TransferData {
  trStatus: TransferStatus;
  reID: string;
  reDate: string;
  acID: string;
  acDate: string;
}

export interface PendingActionData {
  paResult: boolean;
  paTRID: { clTRID?: string; svTRID: string };
  paDate: string;
}

export interface HostInfo {
  name: string;
  roid: string;
  statuses: StatusValue[];
  addresses: HostAddress[];
  clID: string;
  crID: string;
  crDate: string;
  upID?: string;
  upDate?: string;
  trDate?: string;
}

export interface ContactInfo {
  id: string;
  roid: string;
  statuses: StatusValue[];
  postalInfo: PostalInfo[];
  voice?: Phone;
  fax?: Phone;
  email: string;
  clID: string;
  crID: string;
  crDate: string;
  upID?: string;
  upDate?: string;
  trDate?: string;
  authInfo?: string;
  disclose?: Disclose;
}

/** What `<resData>` holds, by kind; an element the codec does not know is kept as XML. */
export type ResData =
  | { kind: "domain:chkData"; items: CheckItem[] }
  | ({ kind: "domain:infData" } & DomainInfo)
  | { kind: "domain:creData"; name: string; crDate: string; exDate?: string }
  | { kind: "domain:renData"; name: string; exDate?: string }
  | ({ kind: "domain:trnData"; name: string; exDate?: string } & TransferData)
  | ({ kind: "domain:panData"; name: string } & PendingActionData)
  | { kind: "host:chkData"; items: CheckItem[] }
  | ({ kind: "host:infData" } & HostInfo)
  | { kind: "host:creData"; name: string; crDate: string }
  | ({ kind: "host:panData"; name: string } & PendingActionData)
  | { kind: "contact:chkData"; items: CheckItem[] }
  | ({ kind: "contact:infData" } & ContactInfo)
  | { kind: "contact:creData"; id: string; crDate: string }
  | ({ kind: "contact:trnData"; id: string } & TransferData)
  | ({ kind: "contact:panData"; id: string } & PendingActionData)
  | UnknownData;

/** An element of a namespace (or name) the codec does not read: kept whole, as XML. */
export interface UnknownData {
  kind: "unknown";
  ns: string;
  name: string;
  xml: string;
}

/** One object's answer in fee:chkData (RFC 8748 §5.1.1). */
export interface FeeCheckItem {
  objID: string;
  /** `standard`, `premium`, … as the registry names it. */
  class?: string;
  avail: boolean;
  reason?: string;
  commands: {
    name: FeeCommandName;
    customName?: string;
    phase?: string;
    subphase?: string;
    period?: Period;
    standard: boolean;
    fees: Fee[];
    credits: Credit[];
    reason?: string;
  }[];
}

/** The fee extension's answer to a transform (RFC 8748 §5.2). */
export interface FeeTransformData {
  currency?: string;
  period?: Period;
  fees: Fee[];
  credits: Credit[];
  balance?: string;
  creditLimit?: string;
}

/** What `<extension>` holds, by kind; an element the codec does not know is kept as XML. */
export type ExtensionData =
  | { kind: "secDNS:infData"; maxSigLife?: number; dsData: DsData[]; keyData: KeyData[] }
  | { kind: "rgp:infData"; rgpStatus: StatusValue[] }
  | { kind: "rgp:upData"; rgpStatus: StatusValue[] }
  | { kind: "fee:chkData"; currency: string; items: FeeCheckItem[] }
  | ({ kind: "fee:creData" } & FeeTransformData)
  | ({ kind: "fee:renData" } & FeeTransformData)
  | ({ kind: "fee:trnData" } & FeeTransformData)
  | ({ kind: "fee:updData" } & FeeTransformData)
  | ({ kind: "fee:delData" } & FeeTransformData)
  | UnknownData;

export interface EppResponse {
  /** results[0].code, the response's code. */
  code: number;
  results: EppResult[];
  msgQ?: MessageQueue;
  resData: ResData[];
  extensions: ExtensionData[];
  trID: { clTRID?: string; svTRID: string };
}
