// Server messages read into typed values: the greeting (RFC 5730 §2.4) and responses
// (§2.6) with their result codes, message queue, trID, and the resData and extension
// payloads of RFC 5731–5733, 5910, 3915 and 8748. Elements are found by namespace URI, so
// any prefix (or a default namespace) reads the same; an element of a namespace the codec
// does not know is kept whole as XML. Every failure is a typed error, never a throw.
import { NS } from "./namespaces";
import {
  all,
  booleanValue,
  integerValue,
  Malformed,
  malformed,
  nonEmptyToken,
  optionalChild,
  optionalToken,
  periodOf,
  requiredChild,
  requiredToken,
  statusesOf,
  text,
  token,
} from "./read";
import type {
  CheckItem,
  ContactInfo,
  Credit,
  Disclose,
  DomainInfo,
  DsData,
  EppResponse,
  EppResult,
  ExtensionData,
  Fee,
  FeeCheckItem,
  FeeCommandName,
  FeeTransformData,
  Greeting,
  HostAddress,
  KeyData,
  MessageQueue,
  PendingActionData,
  Phone,
  PostalInfo,
  ResData,
  TransferData,
  TransferStatus,
} from "./types";
import { childElements, DEFAULT_XML_LIMITS, parseXml, serializeElement, textOf, type XmlElement, type XmlErrorCode, type XmlLimits } from "./xml";

export type EppParseErrorCode = XmlErrorCode | "not_epp" | "malformed" | "unimplemented_command" | "unimplemented_object" | "unimplemented_extension";

/** Why a message was not read: its XML (size, encoding, DOCTYPE, well-formedness), or its EPP. */
export interface EppParseError {
  code: EppParseErrorCode;
  message: string;
}

export type EppParsed<T> = { ok: true; value: T } | { ok: false; error: EppParseError };

/** What a server sends: a greeting, or a response. */
export type ServerMessage = { type: "greeting"; greeting: Greeting } | { type: "response"; response: EppResponse };

/** The `<epp>` root of a document, or why there is none. */
export function eppRoot(input: string | Uint8Array, limits: XmlLimits): EppParsed<XmlElement> {
  const parsed = parseXml(input, limits);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const root = parsed.root;
  if (root.ns !== NS.epp || root.name !== "epp")
    return { ok: false, error: { code: "not_epp", message: `the root element is {${root.ns}}${root.name}, not EPP's <epp>` } };
  return { ok: true, value: root };
}

/** Runs a reader; what it throws (Malformed: the message is not as its schema has it) is the typed error. */
export function reading<T>(read: () => T): EppParsed<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    return readFailure(error);
  }
}

/** A reader's failure as the typed error: a Malformed's message; anything else (a bug in a reader) still an error, never a throw. */
export function readFailure(error: unknown): { ok: false; error: EppParseError } {
  if (error instanceof Malformed) return { ok: false, error: { code: "malformed", message: error.message } };
  return { ok: false, error: { code: "malformed", message: `unreadable: ${error instanceof Error ? error.message : String(error)}` } };
}

/** A greeting or a response. Never throws. */
export function parseServerMessage(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS): EppParsed<ServerMessage> {
  const root = eppRoot(input, limits);
  if (!root.ok) return root;
  return reading(() => {
    const [child, ...others] = childElements(root.value);
    if (child === undefined || others.length > 0 || child.ns !== NS.epp) malformed("<epp> holds one greeting or response");
    if (child.name === "greeting") return { type: "greeting", greeting: readGreeting(child) };
    if (child.name === "response") return { type: "response", response: readResponse(child) };
    return malformed(`<epp> holds <${child.name}>, not a greeting or response`);
  });
}

/** A response (anything else is an error). Never throws. */
export function parseResponse(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS): EppParsed<EppResponse> {
  const message = parseServerMessage(input, limits);
  if (!message.ok) return message;
  if (message.value.type !== "response") return { ok: false, error: { code: "malformed", message: `a ${message.value.type}, not a response` } };
  return { ok: true, value: message.value.response };
}

/** A greeting (anything else is an error). Never throws. */
export function parseGreeting(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS): EppParsed<Greeting> {
  const message = parseServerMessage(input, limits);
  if (!message.ok) return message;
  if (message.value.type !== "greeting") return { ok: false, error: { code: "malformed", message: `a ${message.value.type}, not a greeting` } };
  return { ok: true, value: message.value.greeting };
}

// ---- greeting --------------------------------------------------------------------------

function readGreeting(element: XmlElement): Greeting {
  const menu = requiredChild(element, NS.epp, "svcMenu");
  const dcp = requiredChild(element, NS.epp, "dcp");
  const names = (parent: XmlElement | undefined) => (parent === undefined ? [] : childElements(parent, NS.epp).map((child) => child.name));
  const one = (parent: XmlElement, name: string) => names(requiredChild(parent, NS.epp, name))[0] ?? malformed(`<${name}> is empty`);
  const expiry = optionalChild(dcp, NS.epp, "expiry");
  const greeting: Greeting = {
    svID: text(requiredChild(element, NS.epp, "svID")),
    svDate: requiredToken(element, NS.epp, "svDate"),
    versions: all(menu, NS.epp, "version").map(token),
    langs: all(menu, NS.epp, "lang").map(token),
    objURIs: all(menu, NS.epp, "objURI").map(token),
    extURIs: (() => {
      const extension = optionalChild(menu, NS.epp, "svcExtension");
      return extension === undefined ? [] : all(extension, NS.epp, "extURI").map(token);
    })(),
    dcp: {
      access: one(dcp, "access"),
      statements: all(dcp, NS.epp, "statement").map((statement) => ({
        purpose: names(requiredChild(statement, NS.epp, "purpose")),
        recipient: names(requiredChild(statement, NS.epp, "recipient")),
        retention: one(statement, "retention"),
      })),
    },
  };
  if (expiry !== undefined) {
    const absolute = optionalToken(expiry, NS.epp, "absolute");
    greeting.dcp.expiry = absolute !== undefined ? { absolute } : { relative: requiredToken(expiry, NS.epp, "relative") };
  }
  if (greeting.objURIs.length === 0) malformed("the greeting offers no object");
  return greeting;
}

// ---- response --------------------------------------------------------------------------

function readResponse(element: XmlElement): EppResponse {
  const results = all(element, NS.epp, "result").map(readResult);
  if (results.length === 0) malformed("a response has no <result>");
  const trID = requiredChild(element, NS.epp, "trID");
  const response: EppResponse = {
    code: results[0]!.code,
    results,
    resData: (() => {
      const resData = optionalChild(element, NS.epp, "resData");
      return resData === undefined ? [] : childElements(resData).map(readResData);
    })(),
    extensions: (() => {
      const extension = optionalChild(element, NS.epp, "extension");
      return extension === undefined ? [] : childElements(extension).map(readExtension);
    })(),
    trID: { svTRID: requiredToken(trID, NS.epp, "svTRID") },
  };
  const clTRID = optionalToken(trID, NS.epp, "clTRID");
  if (clTRID !== undefined) response.trID = { clTRID, svTRID: response.trID.svTRID };
  const msgQ = optionalChild(element, NS.epp, "msgQ");
  if (msgQ !== undefined) response.msgQ = readMsgQ(msgQ);
  return response;
}

function readResult(element: XmlElement): EppResult {
  const msg = requiredChild(element, NS.epp, "msg");
  const result: EppResult = {
    code: integerValue(element.attrs.code, "a result code", 1000, 2999),
    msg: text(msg),
    values: all(element, NS.epp, "value").map(innerXml),
    extValues: all(element, NS.epp, "extValue").map((extValue) => {
      const reason = requiredChild(extValue, NS.epp, "reason");
      const out: EppResult["extValues"][number] = { value: innerXml(requiredChild(extValue, NS.epp, "value")), reason: text(reason) };
      if (reason.attrs.lang !== undefined) out.lang = reason.attrs.lang;
      return out;
    }),
  };
  if (msg.attrs.lang !== undefined) result.lang = msg.attrs.lang;
  return result;
}

/** The XML of an element's children (a `<value>`'s offending element). */
function innerXml(element: XmlElement): string {
  return element.children.map((child) => (typeof child === "string" ? child.trim() : serializeElement(child))).join("");
}

function readMsgQ(element: XmlElement): MessageQueue {
  const msgQ: MessageQueue = {
    count: integerValue(element.attrs.count, "msgQ count", 0, Number.MAX_SAFE_INTEGER),
    id: element.attrs.id ?? malformed("msgQ has no id"),
  };
  const qDate = optionalToken(element, NS.epp, "qDate");
  if (qDate !== undefined) msgQ.qDate = qDate;
  const msg = optionalChild(element, NS.epp, "msg");
  if (msg !== undefined) {
    msgQ.msg = text(msg);
    if (msg.attrs.lang !== undefined) msgQ.lang = msg.attrs.lang;
  }
  return msgQ;
}

function unknown(element: XmlElement): ResData & ExtensionData {
  return { kind: "unknown", ns: element.ns, name: element.name, xml: serializeElement(element) };
}

// ---- resData ---------------------------------------------------------------------------

export function readResData(element: XmlElement): ResData {
  switch (element.ns) {
    case NS.domain:
      return readDomainData(element) ?? unknown(element);
    case NS.host:
      return readHostData(element) ?? unknown(element);
    case NS.contact:
      return readContactData(element) ?? unknown(element);
    default:
      return unknown(element);
  }
}

function checkItems(element: XmlElement, ns: string, key: "name" | "id"): CheckItem[] {
  return all(element, ns, "cd").map((cd) => {
    const subject = requiredChild(cd, ns, key);
    const item: CheckItem = { name: token(subject), avail: booleanValue(subject.attrs.avail, "avail") };
    const reason = optionalChild(cd, ns, "reason");
    if (reason !== undefined) item.reason = token(reason);
    return item;
  });
}

function optional<T extends object, K extends string>(target: T, key: K, value: string | undefined): void {
  if (value !== undefined) (target as Record<string, unknown>)[key] = value;
}

function authInfoOf(parent: XmlElement, ns: string): string | undefined {
  const authInfo = optionalChild(parent, ns, "authInfo");
  if (authInfo === undefined) return undefined;
  const pw = optionalChild(authInfo, ns, "pw");
  return pw === undefined ? undefined : textOf(pw);
}

function transferData(element: XmlElement, ns: string): TransferData {
  const trStatus = requiredToken(element, ns, "trStatus");
  if (!["clientApproved", "clientCancelled", "clientRejected", "pending", "serverApproved", "serverCancelled"].includes(trStatus)) {
    malformed(`trStatus ${trStatus} is not a transfer status`);
  }
  return {
    trStatus: trStatus as TransferStatus,
    reID: requiredToken(element, ns, "reID"),
    reDate: requiredToken(element, ns, "reDate"),
    acID: requiredToken(element, ns, "acID"),
    acDate: requiredToken(element, ns, "acDate"),
  };
}

function pendingAction(element: XmlElement, ns: string, key: "name" | "id"): { subject: string } & PendingActionData {
  const subject = requiredChild(element, ns, key);
  const paTRID = requiredChild(element, ns, "paTRID");
  const trid: PendingActionData["paTRID"] = { svTRID: requiredToken(paTRID, NS.epp, "svTRID") };
  const clTRID = optionalToken(paTRID, NS.epp, "clTRID");
  return {
    subject: token(subject),
    paResult: booleanValue(subject.attrs.paResult, "paResult"),
    paTRID: clTRID === undefined ? trid : { clTRID, svTRID: trid.svTRID },
    paDate: requiredToken(element, ns, "paDate"),
  };
}

function readDomainData(element: XmlElement): ResData | undefined {
  const ns = NS.domain;
  switch (element.name) {
    case "chkData":
      return { kind: "domain:chkData", items: checkItems(element, ns, "name") };
    case "infData":
      return { kind: "domain:infData", ...domainInfo(element) };
    case "creData": {
      const data: ResData = { kind: "domain:creData", name: requiredToken(element, ns, "name"), crDate: requiredToken(element, ns, "crDate") };
      optional(data, "exDate", optionalToken(element, ns, "exDate"));
      return data;
    }
    case "renData": {
      const data: ResData = { kind: "domain:renData", name: requiredToken(element, ns, "name") };
      optional(data, "exDate", optionalToken(element, ns, "exDate"));
      return data;
    }
    case "trnData": {
      const data: ResData = { kind: "domain:trnData", name: requiredToken(element, ns, "name"), ...transferData(element, ns) };
      optional(data, "exDate", optionalToken(element, ns, "exDate"));
      return data;
    }
    case "panData": {
      const { subject, ...rest } = pendingAction(element, ns, "name");
      return { kind: "domain:panData", name: subject, ...rest };
    }
    default:
      return undefined;
  }
}

function addressesOf(parent: XmlElement, ns: string, name: string): HostAddress[] {
  return all(parent, ns, name).map((addr) => {
    const ip = addr.attrs.ip ?? "v4";
    if (ip !== "v4" && ip !== "v6") malformed(`an address's ip is ${JSON.stringify(ip)}`);
    return { ip, address: token(addr) };
  });
}

function domainInfo(element: XmlElement): DomainInfo {
  const ns = NS.domain;
  const nsElement = optionalChild(element, ns, "ns");
  const hostAttrs =
    nsElement === undefined
      ? []
      : all(nsElement, ns, "hostAttr").map((attr) => ({ name: requiredToken(attr, ns, "hostName"), addresses: addressesOf(attr, ns, "hostAddr") }));
  const info: DomainInfo = {
    name: requiredToken(element, ns, "name"),
    roid: requiredToken(element, ns, "roid"),
    statuses: statusesOf(element, ns),
    contacts: all(element, ns, "contact").map((contact) => {
      const type = contact.attrs.type;
      if (type !== "admin" && type !== "billing" && type !== "tech") return malformed(`a contact's type is ${JSON.stringify(type)}`);
      return { type, id: token(contact) };
    }),
    nameservers: nsElement === undefined ? [] : [...all(nsElement, ns, "hostObj").map(token), ...hostAttrs.map((attr) => attr.name)],
    hostAttrs,
    hosts: all(element, ns, "host").map(token),
    clID: requiredToken(element, ns, "clID"),
  };
  optional(info, "registrant", nonEmptyToken(element, ns, "registrant"));
  for (const key of ["crID", "crDate", "upID", "upDate", "exDate", "trDate"] as const) optional(info, key, nonEmptyToken(element, ns, key));
  optional(info, "authInfo", authInfoOf(element, ns));
  return info;
}

function readHostData(element: XmlElement): ResData | undefined {
  const ns = NS.host;
  switch (element.name) {
    case "chkData":
      return { kind: "host:chkData", items: checkItems(element, ns, "name") };
    case "infData": {
      const data: ResData = {
        kind: "host:infData",
        name: requiredToken(element, ns, "name"),
        roid: requiredToken(element, ns, "roid"),
        statuses: statusesOf(element, ns),
        addresses: addressesOf(element, ns, "addr"),
        clID: requiredToken(element, ns, "clID"),
        crID: requiredToken(element, ns, "crID"),
        crDate: requiredToken(element, ns, "crDate"),
      };
      for (const key of ["upID", "upDate", "trDate"] as const) optional(data, key, nonEmptyToken(element, ns, key));
      return data;
    }
    case "creData":
      return { kind: "host:creData", name: requiredToken(element, ns, "name"), crDate: requiredToken(element, ns, "crDate") };
    case "panData": {
      const { subject, ...rest } = pendingAction(element, ns, "name");
      return { kind: "host:panData", name: subject, ...rest };
    }
    default:
      return undefined;
  }
}

export function postalInfoOf(element: XmlElement): PostalInfo {
  const ns = NS.contact;
  const type = element.attrs.type;
  if (type !== "int" && type !== "loc") return malformed(`a postalInfo's type is ${JSON.stringify(type)}`);
  const addr = requiredChild(element, ns, "addr");
  const info: PostalInfo = {
    type,
    name: text(requiredChild(element, ns, "name")),
    city: text(requiredChild(addr, ns, "city")),
    cc: requiredToken(addr, ns, "cc"),
  };
  const org = optionalChild(element, ns, "org");
  if (org !== undefined && text(org) !== "") info.org = text(org);
  const street = all(addr, ns, "street").map(text);
  if (street.length > 0) info.street = street;
  for (const key of ["sp", "pc"] as const) {
    const child = optionalChild(addr, ns, key);
    if (child !== undefined && text(child) !== "") info[key] = text(child);
  }
  return info;
}

export function phoneOf(parent: XmlElement, name: "voice" | "fax"): Phone | undefined {
  const element = optionalChild(parent, NS.contact, name);
  if (element === undefined || token(element) === "") return undefined;
  const phone: Phone = { number: token(element) };
  if (element.attrs.x !== undefined && element.attrs.x !== "") phone.ext = element.attrs.x;
  return phone;
}

export function discloseOf(element: XmlElement | undefined): Disclose | undefined {
  if (element === undefined) return undefined;
  const ns = NS.contact;
  const disclose: Disclose = { flag: booleanValue(element.attrs.flag, "disclose flag") };
  for (const key of ["name", "org", "addr"] as const) {
    const types = all(element, ns, key).map((child) => {
      const type = child.attrs.type;
      if (type !== "int" && type !== "loc") return malformed(`a disclose <${key}>'s type is ${JSON.stringify(type)}`);
      return type;
    });
    if (types.length > 0) disclose[key] = types;
  }
  for (const key of ["voice", "fax", "email"] as const) if (optionalChild(element, ns, key) !== undefined) disclose[key] = true;
  return disclose;
}

function readContactData(element: XmlElement): ResData | undefined {
  const ns = NS.contact;
  switch (element.name) {
    case "chkData":
      return { kind: "contact:chkData", items: checkItems(element, ns, "id") };
    case "infData": {
      const info: ContactInfo = {
        id: requiredToken(element, ns, "id"),
        roid: requiredToken(element, ns, "roid"),
        statuses: statusesOf(element, ns),
        postalInfo: all(element, ns, "postalInfo").map(postalInfoOf),
        email: optionalToken(element, ns, "email") ?? malformed("<infData> has no <email>"),
        clID: optionalToken(element, ns, "clID") ?? malformed("<infData> has no <clID>"),
        crID: optionalToken(element, ns, "crID") ?? malformed("<infData> has no <crID>"),
        crDate: requiredToken(element, ns, "crDate"),
      };
      const voice = phoneOf(element, "voice");
      if (voice !== undefined) info.voice = voice;
      const fax = phoneOf(element, "fax");
      if (fax !== undefined) info.fax = fax;
      for (const key of ["upID", "upDate", "trDate"] as const) optional(info, key, nonEmptyToken(element, ns, key));
      optional(info, "authInfo", authInfoOf(element, ns));
      const disclose = discloseOf(optionalChild(element, ns, "disclose"));
      if (disclose !== undefined) info.disclose = disclose;
      return { kind: "contact:infData", ...info };
    }
    case "creData":
      return { kind: "contact:creData", id: requiredToken(element, ns, "id"), crDate: requiredToken(element, ns, "crDate") };
    case "trnData":
      return { kind: "contact:trnData", id: requiredToken(element, ns, "id"), ...transferData(element, ns) };
    case "panData": {
      const { subject, ...rest } = pendingAction(element, ns, "id");
      return { kind: "contact:panData", id: subject, ...rest };
    }
    default:
      return undefined;
  }
}

// ---- extensions ------------------------------------------------------------------------

export function readExtension(element: XmlElement): ExtensionData {
  if (element.ns === NS.secDNS && element.name === "infData") return secDnsInfo(element);
  if (element.ns === NS.rgp && (element.name === "infData" || element.name === "upData")) {
    const rgpStatus = statusesOf(element, NS.rgp, "rgpStatus");
    if (rgpStatus.length === 0) malformed(`rgp:${element.name} has no rgpStatus`);
    return { kind: element.name === "infData" ? "rgp:infData" : "rgp:upData", rgpStatus };
  }
  if (element.ns === NS.fee) {
    if (element.name === "chkData") return feeCheckData(element);
    const kind = FEE_TRANSFORM_DATA[element.name];
    if (kind !== undefined) return { kind, ...feeTransformData(element) };
  }
  return unknown(element);
}

const FEE_TRANSFORM_DATA: Record<string, "fee:creData" | "fee:renData" | "fee:trnData" | "fee:updData" | "fee:delData"> = {
  creData: "fee:creData",
  renData: "fee:renData",
  trnData: "fee:trnData",
  updData: "fee:updData",
  delData: "fee:delData",
};

export function dsDataOf(element: XmlElement): DsData {
  const ns = NS.secDNS;
  return {
    keyTag: integerValue(textOf(requiredChild(element, ns, "keyTag")), "keyTag", 0, 65535),
    alg: integerValue(textOf(requiredChild(element, ns, "alg")), "alg", 0, 255),
    digestType: integerValue(textOf(requiredChild(element, ns, "digestType")), "digestType", 0, 255),
    digest: requiredToken(element, ns, "digest").toUpperCase(),
  };
}

function keyDataOf(element: XmlElement): KeyData {
  const ns = NS.secDNS;
  return {
    flags: integerValue(textOf(requiredChild(element, ns, "flags")), "flags", 0, 65535),
    protocol: integerValue(textOf(requiredChild(element, ns, "protocol")), "protocol", 0, 255),
    alg: integerValue(textOf(requiredChild(element, ns, "alg")), "alg", 0, 255),
    pubKey: requiredToken(element, ns, "pubKey").replace(/\s+/g, ""),
  };
}

function secDnsInfo(element: XmlElement): ExtensionData {
  const ns = NS.secDNS;
  const data: ExtensionData = { kind: "secDNS:infData", dsData: all(element, ns, "dsData").map(dsDataOf), keyData: all(element, ns, "keyData").map(keyDataOf) };
  const maxSigLife = optionalChild(element, ns, "maxSigLife");
  if (maxSigLife !== undefined) data.maxSigLife = integerValue(textOf(maxSigLife), "maxSigLife", 1, 2 ** 31 - 1);
  return data;
}

export function feeOf(element: XmlElement): Fee {
  const amount = token(element);
  if (!/^\d+(?:\.\d+)?$/.test(amount)) malformed(`a fee is ${JSON.stringify(amount)}, not a non-negative decimal`);
  const item: Fee = { amount };
  optional(item, "description", element.attrs.description);
  optional(item, "lang", element.attrs.lang);
  if (element.attrs.refundable !== undefined) item.refundable = booleanValue(element.attrs.refundable, "refundable");
  optional(item, "gracePeriod", element.attrs["grace-period"]);
  const applied = element.attrs.applied;
  if (applied !== undefined) {
    if (applied !== "immediate" && applied !== "delayed") malformed(`a fee's applied is ${JSON.stringify(applied)}`);
    item.applied = applied;
  }
  return item;
}

function creditOf(element: XmlElement): Credit {
  const amount = token(element);
  if (!/^-?\d+(?:\.\d+)?$/.test(amount)) malformed(`a credit is ${JSON.stringify(amount)}, not a decimal`);
  const item: Credit = { amount };
  optional(item, "description", element.attrs.description);
  optional(item, "lang", element.attrs.lang);
  return item;
}

const FEE_COMMANDS: readonly string[] = ["create", "delete", "renew", "update", "transfer", "restore", "custom"];

function feeCheckData(element: XmlElement): ExtensionData {
  const ns = NS.fee;
  const items = all(element, ns, "cd").map((cd) => {
    const item: FeeCheckItem = {
      objID: requiredToken(cd, ns, "objID"),
      avail: cd.attrs.avail === undefined ? true : booleanValue(cd.attrs.avail, "avail"),
      commands: all(cd, ns, "command").map((command) => {
        const name = command.attrs.name;
        if (name === undefined || !FEE_COMMANDS.includes(name)) return malformed(`a fee command is named ${JSON.stringify(name)}`);
        const out: FeeCheckItem["commands"][number] = {
          name: name as FeeCommandName,
          standard: command.attrs.standard === undefined ? false : booleanValue(command.attrs.standard, "standard"),
          fees: all(command, ns, "fee").map(feeOf),
          credits: all(command, ns, "credit").map(creditOf),
        };
        for (const key of ["customName", "phase", "subphase"] as const) optional(out, key, command.attrs[key]);
        const period = periodOf(optionalChild(command, ns, "period"));
        if (period !== undefined) out.period = period;
        const reason = optionalChild(command, ns, "reason");
        if (reason !== undefined) out.reason = token(reason);
        return out;
      }),
    };
    const itemClass = optionalToken(cd, ns, "class");
    if (itemClass !== undefined && itemClass !== "") item.class = itemClass;
    const reason = optionalChild(cd, ns, "reason");
    if (reason !== undefined) item.reason = token(reason);
    return item;
  });
  return { kind: "fee:chkData", currency: requiredToken(element, ns, "currency"), items };
}

function feeTransformData(element: XmlElement): FeeTransformData {
  const ns = NS.fee;
  const data: FeeTransformData = { fees: all(element, ns, "fee").map(feeOf), credits: all(element, ns, "credit").map(creditOf) };
  for (const key of ["currency", "balance", "creditLimit"] as const) optional(data, key, nonEmptyToken(element, ns, key));
  const period = periodOf(optionalChild(element, ns, "period"));
  if (period !== undefined) data.period = period;
  return data;
}

// ---- finding payloads ------------------------------------------------------------------

/** The response's resData of one kind (`domain:infData`, …), typed. */
export function findResData<K extends ResData["kind"]>(response: EppResponse, kind: K): Extract<ResData, { kind: K }> | undefined {
  return response.resData.find((data): data is Extract<ResData, { kind: K }> => data.kind === kind);
}

/** The response's extension data of one kind (`fee:chkData`, `secDNS:infData`, …), typed. */
export function findExtension<K extends ExtensionData["kind"]>(response: EppResponse, kind: K): Extract<ExtensionData, { kind: K }> | undefined {
  return response.extensions.find((data): data is Extract<ExtensionData, { kind: K }> => data.kind === kind);
}
