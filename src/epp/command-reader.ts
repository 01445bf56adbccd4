// Client messages read into typed values, for a server (the local registry): `<hello>` or
// a `<command>` with its extensions and clTRID, as the same EppCommand values the builder
// takes. A verb, object or extension the codec does not speak is a typed error naming it
// (a server answers 2000, 2307 or 2103); every failure is a typed error, never a throw.
import { NS } from "./namespaces";
import {
  all,
  booleanValue,
  integerValue,
  malformed,
  optionalChild,
  optionalToken,
  periodOf,
  requiredChild,
  requiredToken,
  statusesOf,
  text,
  token,
} from "./read";
import { discloseOf, dsDataOf, type EppParsed, eppRoot, feeOf, phoneOf, postalInfoOf, readFailure } from "./responses";
import type {
  ContactClientStatus,
  DomainClientStatus,
  DomainContact,
  DomainUpdateCommand,
  DsUpdate,
  EppCommand,
  FeeAgreement,
  FeeCommandName,
  HostClientStatus,
  PostalInfoChange,
  StatusValue,
  TransferOp,
} from "./types";
import { childElements, DEFAULT_XML_LIMITS, textOf, type XmlElement, type XmlLimits } from "./xml";

/** What a client sends: a hello, or a command (with its clTRID, when it gave one). */
export type ClientMessage = { type: "hello" } | { type: "command"; command: EppCommand; clTRID?: string };

const FEE_COMMANDS: readonly string[] = ["create", "delete", "renew", "update", "transfer", "restore", "custom"];

class Unimplemented extends Error {
  constructor(
    readonly code: "unimplemented_command" | "unimplemented_object" | "unimplemented_extension",
    message: string,
  ) {
    super(message);
  }
}

/** A hello or a command. Never throws. */
export function parseCommand(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS): EppParsed<ClientMessage> {
  const root = eppRoot(input, limits);
  if (!root.ok) return root;
  try {
    return { ok: true, value: readClientMessage(root.value) };
  } catch (error) {
    if (error instanceof Unimplemented) return { ok: false, error: { code: error.code, message: error.message } };
    return readFailure(error);
  }
}

function readClientMessage(root: XmlElement): ClientMessage {
  const [child, ...others] = childElements(root);
  if (child === undefined || others.length > 0 || child.ns !== NS.epp) malformed("<epp> holds one hello or command");
  if (child.name === "hello") return { type: "hello" };
  if (child.name !== "command") malformed(`<epp> holds <${child.name}>, not a hello or command`);
  const [verb] = childElements(child);
  if (verb === undefined || verb.ns !== NS.epp) return malformed("<command> holds no command");
  const extension = optionalChild(child, NS.epp, "extension");
  const extensions = extension === undefined ? [] : childElements(extension);
  const command = readVerb(verb, extensions);
  const clTRID = optionalToken(child, NS.epp, "clTRID");
  return clTRID === undefined ? { type: "command", command } : { type: "command", command, clTRID };
}

/** The object element inside a verb (`<domain:create>` inside `<create>`). */
function objectOf(verb: XmlElement): XmlElement {
  const [object, ...others] = childElements(verb);
  if (object === undefined || others.length > 0) malformed(`<${verb.name}> holds one object element`);
  if (object.ns !== NS.domain && object.ns !== NS.host && object.ns !== NS.contact)
    throw new Unimplemented("unimplemented_object", `no object service ${object.ns}`);
  if (object.name !== verb.name) malformed(`<${verb.name}> holds <${object.name}>`);
  return object;
}

function readVerb(verb: XmlElement, extensions: XmlElement[]): EppCommand {
  const used = new Set<XmlElement>();
  const ext = (ns: string, name: string) => {
    const found = extensions.find((element) => element.ns === ns && element.name === name);
    if (found) used.add(found);
    return found;
  };
  const command = readVerbWith(verb, ext);
  const unused = extensions.find((element) => !used.has(element));
  if (unused !== undefined) throw new Unimplemented("unimplemented_extension", `no extension {${unused.ns}}${unused.name} for this command`);
  return command;
}

type Ext = (ns: string, name: string) => XmlElement | undefined;

function readVerbWith(verb: XmlElement, ext: Ext): EppCommand {
  switch (verb.name) {
    case "login":
      return readLogin(verb);
    case "logout":
      return { kind: "logout" };
    case "poll": {
      const op = verb.attrs.op;
      if (op === "req") return { kind: "poll", op };
      if (op === "ack") return { kind: "poll", op, msgID: verb.attrs.msgID ?? malformed("a poll ack has no msgID") };
      return malformed(`a poll's op is ${JSON.stringify(op)}`);
    }
    case "check":
    case "info":
    case "create":
    case "renew":
    case "update":
    case "delete":
    case "transfer": {
      const object = objectOf(verb);
      if (object.ns === NS.domain) return readDomain(verb, object, ext);
      if (object.ns === NS.host) return readHost(verb, object);
      return readContact(verb, object);
    }
    default:
      throw new Unimplemented("unimplemented_command", `no command <${verb.name}>`);
  }
}

function readLogin(verb: XmlElement): EppCommand {
  const options = requiredChild(verb, NS.epp, "options");
  const svcs = requiredChild(verb, NS.epp, "svcs");
  const svcExtension = optionalChild(svcs, NS.epp, "svcExtension");
  const command: EppCommand = {
    kind: "login",
    clientId: requiredToken(verb, NS.epp, "clID"),
    password: token(requiredChild(verb, NS.epp, "pw")),
    version: requiredToken(options, NS.epp, "version"),
    lang: requiredToken(options, NS.epp, "lang"),
    objURIs: all(svcs, NS.epp, "objURI").map(token),
    extURIs: svcExtension === undefined ? [] : all(svcExtension, NS.epp, "extURI").map(token),
  };
  const newPW = optionalChild(verb, NS.epp, "newPW");
  if (newPW !== undefined) command.newPassword = token(newPW);
  return command;
}

function transferOp(verb: XmlElement): TransferOp {
  const op = verb.attrs.op;
  if (op === "request" || op === "query" || op === "approve" || op === "reject" || op === "cancel") return op;
  return malformed(`a transfer's op is ${JSON.stringify(op)}`);
}

function authInfoOf(parent: XmlElement, ns: string): string | undefined {
  const authInfo = optionalChild(parent, ns, "authInfo");
  if (authInfo === undefined) return undefined;
  const pw = optionalChild(authInfo, ns, "pw");
  if (pw === undefined) return malformed("an authInfo without <pw> (ext) is not spoken here");
  return textOf(pw);
}

function feeAgreementOf(element: XmlElement | undefined): FeeAgreement | undefined {
  if (element === undefined) return undefined;
  const agreement: FeeAgreement = { fees: all(element, NS.fee, "fee").map(feeOf) };
  const currency = optionalToken(element, NS.fee, "currency");
  if (currency !== undefined) agreement.currency = currency;
  if (agreement.fees.length === 0) malformed(`fee:${element.name} has no fee`);
  return agreement;
}

function contactsOf(parent: XmlElement): DomainContact[] {
  return all(parent, NS.domain, "contact").map((contact) => {
    const type = contact.attrs.type;
    if (type !== "admin" && type !== "billing" && type !== "tech") return malformed(`a contact's type is ${JSON.stringify(type)}`);
    return { type, id: token(contact) };
  });
}

function hostObjsOf(parent: XmlElement): string[] | undefined {
  const ns = optionalChild(parent, NS.domain, "ns");
  if (ns === undefined) return undefined;
  if (all(ns, NS.domain, "hostAttr").length > 0) malformed("hostAttr name servers are not spoken here (host objects only)");
  return all(ns, NS.domain, "hostObj").map(token);
}

function readDomain(verb: XmlElement, object: XmlElement, ext: Ext): EppCommand {
  const ns = NS.domain;
  const name = () => requiredToken(object, ns, "name");
  switch (verb.name) {
    case "check": {
      const command: EppCommand = { kind: "domain:check", names: all(object, ns, "name").map(token) };
      const feeCheck = ext(NS.fee, "check");
      if (feeCheck !== undefined) {
        const fee: NonNullable<typeof command.fee> = {
          commands: all(feeCheck, NS.fee, "command").map((element) => {
            const name = element.attrs.name;
            if (name === undefined || !FEE_COMMANDS.includes(name)) return malformed(`a fee command is named ${JSON.stringify(name)}`);
            const item: NonNullable<typeof command.fee>["commands"][number] = { name: name as FeeCommandName };
            const period = periodOf(optionalChild(element, NS.fee, "period"));
            if (period !== undefined) item.period = period;
            if (element.attrs.phase !== undefined) item.phase = element.attrs.phase;
            if (element.attrs.subphase !== undefined) item.subphase = element.attrs.subphase;
            return item;
          }),
        };
        const currency = optionalToken(feeCheck, NS.fee, "currency");
        if (currency !== undefined) fee.currency = currency;
        command.fee = fee;
      }
      return command;
    }
    case "info": {
      const nameElement = requiredChild(object, ns, "name");
      const hosts = nameElement.attrs.hosts ?? "all";
      if (hosts !== "all" && hosts !== "del" && hosts !== "sub" && hosts !== "none") return malformed(`hosts is ${JSON.stringify(hosts)}`);
      const command: EppCommand = { kind: "domain:info", name: token(nameElement), hosts };
      const authInfo = authInfoOf(object, ns);
      if (authInfo !== undefined) command.authInfo = authInfo;
      return command;
    }
    case "create": {
      const command: EppCommand = { kind: "domain:create", name: name(), authInfo: authInfoOf(object, ns) ?? malformed("a domain:create has no authInfo") };
      const period = periodOf(optionalChild(object, ns, "period"));
      if (period !== undefined) command.period = period;
      const nameservers = hostObjsOf(object);
      if (nameservers !== undefined) command.nameservers = nameservers;
      const registrant = optionalToken(object, ns, "registrant");
      if (registrant !== undefined) command.registrant = registrant;
      const contacts = contactsOf(object);
      if (contacts.length > 0) command.contacts = contacts;
      const secCreate = ext(NS.secDNS, "create");
      if (secCreate !== undefined) {
        if (all(secCreate, NS.secDNS, "keyData").length > 0) malformed("secDNS keyData is not spoken here (dsData only)");
        command.ds = all(secCreate, NS.secDNS, "dsData").map(dsDataOf);
      }
      const fee = feeAgreementOf(ext(NS.fee, "create"));
      if (fee !== undefined) command.fee = fee;
      return command;
    }
    case "renew": {
      const command: EppCommand = { kind: "domain:renew", name: name(), curExpDate: requiredToken(object, ns, "curExpDate") };
      const period = periodOf(optionalChild(object, ns, "period"));
      if (period !== undefined) command.period = period;
      const fee = feeAgreementOf(ext(NS.fee, "renew"));
      if (fee !== undefined) command.fee = fee;
      return command;
    }
    case "update":
      return readDomainUpdate(object, ext);
    case "delete":
      return { kind: "domain:delete", name: name() };
    case "transfer": {
      const command: EppCommand = { kind: "domain:transfer", op: transferOp(verb), name: name() };
      const period = periodOf(optionalChild(object, ns, "period"));
      if (period !== undefined) command.period = period;
      const authInfo = authInfoOf(object, ns);
      if (authInfo !== undefined) command.authInfo = authInfo;
      const fee = feeAgreementOf(ext(NS.fee, "transfer"));
      if (fee !== undefined) command.fee = fee;
      return command;
    }
    default:
      return malformed(`no domain:${verb.name}`);
  }
}

function readDomainUpdate(object: XmlElement, ext: Ext): EppCommand {
  const ns = NS.domain;
  const command: DomainUpdateCommand = { kind: "domain:update", name: requiredToken(object, ns, "name") };
  for (const which of ["add", "rem"] as const) {
    const element = optionalChild(object, ns, which);
    if (element === undefined) continue;
    const part: NonNullable<DomainUpdateCommand["add"]> = {};
    const nameservers = hostObjsOf(element);
    if (nameservers !== undefined) part.nameservers = nameservers;
    const contacts = contactsOf(element);
    if (contacts.length > 0) part.contacts = contacts;
    const statuses = statusesOf(element, ns) as StatusValue<DomainClientStatus>[];
    if (statuses.length > 0) part.statuses = statuses;
    command[which] = part;
  }
  const chg = optionalChild(object, ns, "chg");
  if (chg !== undefined && childElements(chg).length > 0) {
    const change: NonNullable<DomainUpdateCommand["chg"]> = {};
    const registrant = optionalToken(chg, ns, "registrant");
    if (registrant !== undefined) change.registrant = registrant;
    const authInfo = optionalChild(chg, ns, "authInfo");
    if (authInfo !== undefined) {
      const pw = optionalChild(authInfo, ns, "pw");
      if (pw !== undefined) change.authInfo = textOf(pw);
      else if (optionalChild(authInfo, ns, "null") !== undefined) change.authInfo = null;
      else malformed("an authInfo change holds neither <pw> nor <null>");
    }
    command.chg = change;
  }
  const secUpdate = ext(NS.secDNS, "update");
  if (secUpdate !== undefined) {
    // Read as sent, what a server refuses included (DsUpdate.unsupported): a server that
    // dropped `urgent`, `all` false or keyData silently would do what was not asked.
    const ds: DsUpdate = {};
    const unsupported = new Set<"all-false" | "keyData">();
    if (secUpdate.attrs.urgent !== undefined && booleanValue(secUpdate.attrs.urgent, "secDNS:update urgent")) ds.urgent = true;
    const rem = optionalChild(secUpdate, NS.secDNS, "rem");
    if (rem !== undefined) {
      const allRecords = optionalChild(rem, NS.secDNS, "all");
      if (allRecords !== undefined) {
        if (booleanValue(token(allRecords), "secDNS:all")) ds.rem = "all";
        else unsupported.add("all-false");
      } else ds.rem = all(rem, NS.secDNS, "dsData").map(dsDataOf);
      if (all(rem, NS.secDNS, "keyData").length > 0) unsupported.add("keyData");
    }
    const add = optionalChild(secUpdate, NS.secDNS, "add");
    if (add !== undefined) {
      ds.add = all(add, NS.secDNS, "dsData").map(dsDataOf);
      if (all(add, NS.secDNS, "keyData").length > 0) unsupported.add("keyData");
    }
    const chg = optionalChild(secUpdate, NS.secDNS, "chg");
    const maxSigLife = chg === undefined ? undefined : optionalChild(chg, NS.secDNS, "maxSigLife");
    if (maxSigLife !== undefined) ds.maxSigLife = integerValue(textOf(maxSigLife), "maxSigLife", 1, 2 ** 31 - 1);
    if (unsupported.size > 0) ds.unsupported = [...unsupported];
    command.ds = ds;
  }
  const rgpUpdate = ext(NS.rgp, "update");
  if (rgpUpdate !== undefined) {
    const restore = requiredChild(rgpUpdate, NS.rgp, "restore");
    if (restore.attrs.op === "request") command.restore = { op: "request" };
    else if (restore.attrs.op === "report") {
      const report = requiredChild(restore, NS.rgp, "report");
      const field = (name: string) => text(requiredChild(report, NS.rgp, name));
      const statements = all(report, NS.rgp, "statement").map(text);
      const value: Extract<NonNullable<DomainUpdateCommand["restore"]>, { op: "report" }>["report"] = {
        preData: field("preData"),
        postData: field("postData"),
        delTime: requiredToken(report, NS.rgp, "delTime"),
        resTime: requiredToken(report, NS.rgp, "resTime"),
        resReason: field("resReason"),
        statements,
      };
      const other = optionalChild(report, NS.rgp, "other");
      if (other !== undefined) value.other = text(other);
      command.restore = { op: "report", report: value };
    } else malformed(`a restore's op is ${JSON.stringify(restore.attrs.op)}`);
  }
  const fee = feeAgreementOf(ext(NS.fee, "update"));
  if (fee !== undefined) command.fee = fee;
  return command;
}

function readHost(verb: XmlElement, object: XmlElement): EppCommand {
  const ns = NS.host;
  const name = () => requiredToken(object, ns, "name");
  const addresses = (parent: XmlElement) => all(parent, ns, "addr").map(token);
  switch (verb.name) {
    case "check":
      return { kind: "host:check", names: all(object, ns, "name").map(token) };
    case "info":
      return { kind: "host:info", name: name() };
    case "create": {
      const command: EppCommand = { kind: "host:create", name: name() };
      const list = addresses(object);
      if (list.length > 0) command.addresses = list;
      return command;
    }
    case "update": {
      const command: EppCommand = { kind: "host:update", name: name() };
      for (const which of ["add", "rem"] as const) {
        const element = optionalChild(object, ns, which);
        if (element === undefined) continue;
        const part: NonNullable<typeof command.add> = {};
        const list = addresses(element);
        if (list.length > 0) part.addresses = list;
        const statuses = statusesOf(element, ns) as StatusValue<HostClientStatus>[];
        if (statuses.length > 0) part.statuses = statuses;
        command[which] = part;
      }
      const chg = optionalChild(object, ns, "chg");
      if (chg !== undefined) command.newName = requiredToken(chg, ns, "name");
      return command;
    }
    case "delete":
      return { kind: "host:delete", name: name() };
    default:
      return malformed(`no host:${verb.name}`);
  }
}

function readContact(verb: XmlElement, object: XmlElement): EppCommand {
  const ns = NS.contact;
  const id = () => requiredToken(object, ns, "id");
  switch (verb.name) {
    case "check":
      return { kind: "contact:check", ids: all(object, ns, "id").map(token) };
    case "info": {
      const command: EppCommand = { kind: "contact:info", id: id() };
      const authInfo = authInfoOf(object, ns);
      if (authInfo !== undefined) command.authInfo = authInfo;
      return command;
    }
    case "create": {
      const command: EppCommand = {
        kind: "contact:create",
        id: id(),
        postalInfo: all(object, ns, "postalInfo").map(postalInfoOf),
        email: requiredToken(object, ns, "email"),
        authInfo: authInfoOf(object, ns) ?? malformed("a contact:create has no authInfo"),
      };
      const voice = phoneOf(object, "voice");
      if (voice !== undefined) command.voice = voice;
      const fax = phoneOf(object, "fax");
      if (fax !== undefined) command.fax = fax;
      const disclose = discloseOf(optionalChild(object, ns, "disclose"));
      if (disclose !== undefined) command.disclose = disclose;
      return command;
    }
    case "update": {
      const command: EppCommand = { kind: "contact:update", id: id() };
      for (const which of ["add", "rem"] as const) {
        const element = optionalChild(object, ns, which);
        if (element !== undefined) command[which] = { statuses: statusesOf(element, ns) as StatusValue<ContactClientStatus>[] };
      }
      const chg = optionalChild(object, ns, "chg");
      if (chg !== undefined) {
        const change: NonNullable<typeof command.chg> = {};
        const postal = all(chg, ns, "postalInfo").map(postalInfoChangeOf);
        if (postal.length > 0) change.postalInfo = postal;
        for (const key of ["voice", "fax"] as const) {
          const element = optionalChild(chg, ns, key);
          if (element !== undefined) change[key] = phoneOf(chg, key) ?? null;
        }
        const email = optionalToken(chg, ns, "email");
        if (email !== undefined) change.email = email;
        const authInfo = authInfoOf(chg, ns);
        if (authInfo !== undefined) change.authInfo = authInfo;
        const disclose = discloseOf(optionalChild(chg, ns, "disclose"));
        if (disclose !== undefined) change.disclose = disclose;
        command.chg = change;
      }
      return command;
    }
    case "delete":
      return { kind: "contact:delete", id: id() };
    case "transfer": {
      const command: EppCommand = { kind: "contact:transfer", op: transferOp(verb), id: id() };
      const authInfo = authInfoOf(object, ns);
      if (authInfo !== undefined) command.authInfo = authInfo;
      return command;
    }
    default:
      return malformed(`no contact:${verb.name}`);
  }
}

function postalInfoChangeOf(element: XmlElement): PostalInfoChange {
  const ns = NS.contact;
  const type = element.attrs.type;
  if (type !== "int" && type !== "loc") return malformed(`a postalInfo's type is ${JSON.stringify(type)}`);
  const change: PostalInfoChange = { type };
  const name = optionalChild(element, ns, "name");
  if (name !== undefined) change.name = text(name);
  const org = optionalChild(element, ns, "org");
  if (org !== undefined) change.org = text(org);
  const addr = optionalChild(element, ns, "addr");
  if (addr !== undefined) {
    const value: NonNullable<PostalInfoChange["addr"]> = { city: text(requiredChild(addr, ns, "city")), cc: requiredToken(addr, ns, "cc") };
    const street = all(addr, ns, "street").map(text);
    if (street.length > 0) value.street = street;
    for (const key of ["sp", "pc"] as const) {
      const child = optionalChild(addr, ns, key);
      if (child !== undefined) value[key] = text(child);
    }
    change.addr = value;
  }
  return change;
}
