// Commands built from typed values (RFC 5730 §2.9, 5731 §3, 5732 §3, 5733 §3 and the
// extensions of 5910, 3915 and 8748), never by splicing strings: each command becomes an
// element tree whose every text is escaped when it is written. A field that breaks its
// schema's rule is refused (EppInputError) before anything is written, so that what is
// sent validates against the schemas (the tests run each kind through xmllint).
import { NS, PREFIXES } from "./namespaces";
import type {
  ContactCreateCommand,
  ContactUpdateCommand,
  Disclose,
  DomainCheckCommand,
  DomainContact,
  DomainCreateCommand,
  DomainRenewCommand,
  DomainTransferCommand,
  DomainUpdateCommand,
  DsData,
  EppCommand,
  Fee,
  FeeAgreement,
  HostUpdateCommand,
  LoginCommand,
  Period,
  Phone,
  PostalInfo,
  PostalInfoChange,
  RgpReport,
  StatusValue,
} from "./types";
import {
  asciiProblem,
  authInfoProblem,
  check,
  clIdProblem,
  countryProblem,
  currencyProblem,
  dateProblem,
  dateTimeProblem,
  EppInputError,
  emailProblem,
  feeAmountProblem,
  hexProblem,
  ipVersion,
  labelProblem,
  loginPasswordProblem,
  normalizedProblem,
  periodProblem,
  phoneProblem,
  tokenProblem,
  trIdProblem,
  unsignedProblem,
} from "./values";
import { el, serialize, type XmlChild, type XmlElement, XmlCharacterError } from "./xml";

const epp = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.epp, name, attrs, ...children);
const dom = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.domain, name, attrs, ...children);
const hst = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.host, name, attrs, ...children);
const con = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.contact, name, attrs, ...children);
const sec = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.secDNS, name, attrs, ...children);
const rgp = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.rgp, name, attrs, ...children);
const fee = (name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]) => el(NS.fee, name, attrs, ...children);

/** `<epp><hello/></epp>` (RFC 5730 §2.3): asks for a greeting; the keep-alive. */
export function buildHello(): string {
  return serialize(epp("epp", {}, epp("hello")), PREFIXES);
}

/**
 * The command as an EPP document (UTF-8 text, ready for framing), with `clTRID` (3–64
 * characters; the service passes its request id). Throws EppInputError naming the field
 * when a value breaks its schema's rule.
 */
export function buildCommand(command: EppCommand, clTRID: string): string {
  const document = commandDocument(command, clTRID);
  try {
    return serialize(document, PREFIXES);
  } catch (error) {
    // The field rules refuse such characters first; this is the writer's own guard.
    if (error instanceof XmlCharacterError) throw new EppInputError("value", error.message);
    throw error;
  }
}

/** The command's `<epp>` element (what buildCommand writes). */
export function commandDocument(command: EppCommand, clTRID: string): XmlElement {
  check("clTRID", trIdProblem(clTRID));
  const { verb, extension } = commandParts(command);
  return epp("epp", {}, epp("command", {}, verb, extension.length > 0 && epp("extension", {}, extension), epp("clTRID", {}, clTRID)));
}

function commandParts(command: EppCommand): { verb: XmlElement; extension: XmlElement[] } {
  switch (command.kind) {
    case "login":
      return { verb: login(command), extension: [] };
    case "logout":
      return { verb: epp("logout"), extension: [] };
    case "poll":
      if (command.op === "ack") check("msgID", tokenProblem(command.msgID, 1, 255));
      return { verb: epp("poll", { op: command.op, msgID: command.op === "ack" ? command.msgID : undefined }), extension: [] };
    case "domain:check":
      return domainCheck(command);
    case "domain:info":
      check("name", labelProblem(command.name));
      if (command.hosts !== undefined) check("hosts", ["all", "del", "sub", "none"].includes(command.hosts) ? null : "must be all, del, sub or none");
      if (command.authInfo !== undefined) check("authInfo", authInfoProblem(command.authInfo));
      return {
        verb: epp(
          "info",
          {},
          dom("info", {}, dom("name", { hosts: command.hosts ?? "all" }, command.name), command.authInfo !== undefined && authInfo(dom, command.authInfo)),
        ),
        extension: [],
      };
    case "domain:create":
      return domainCreate(command);
    case "domain:renew":
      return domainRenew(command);
    case "domain:update":
      return domainUpdate(command);
    case "domain:delete":
      check("name", labelProblem(command.name));
      return { verb: epp("delete", {}, dom("delete", {}, dom("name", {}, command.name))), extension: [] };
    case "domain:transfer":
      return domainTransfer(command);
    case "host:check":
      checkList("names", command.names, labelProblem);
      return {
        verb: epp(
          "check",
          {},
          hst(
            "check",
            {},
            command.names.map((name) => hst("name", {}, name)),
          ),
        ),
        extension: [],
      };
    case "host:info":
      check("name", labelProblem(command.name));
      return { verb: epp("info", {}, hst("info", {}, hst("name", {}, command.name))), extension: [] };
    case "host:create":
      check("name", labelProblem(command.name));
      return { verb: epp("create", {}, hst("create", {}, hst("name", {}, command.name), addresses("addresses", command.addresses ?? []))), extension: [] };
    case "host:update":
      return { verb: hostUpdate(command), extension: [] };
    case "host:delete":
      check("name", labelProblem(command.name));
      return { verb: epp("delete", {}, hst("delete", {}, hst("name", {}, command.name))), extension: [] };
    case "contact:check":
      checkList("ids", command.ids, clIdProblem);
      return {
        verb: epp(
          "check",
          {},
          con(
            "check",
            {},
            command.ids.map((id) => con("id", {}, id)),
          ),
        ),
        extension: [],
      };
    case "contact:info":
      check("id", clIdProblem(command.id));
      if (command.authInfo !== undefined) check("authInfo", authInfoProblem(command.authInfo));
      return {
        verb: epp("info", {}, con("info", {}, con("id", {}, command.id), command.authInfo !== undefined && authInfo(con, command.authInfo))),
        extension: [],
      };
    case "contact:create":
      return { verb: contactCreate(command), extension: [] };
    case "contact:update":
      return { verb: contactUpdate(command), extension: [] };
    case "contact:delete":
      check("id", clIdProblem(command.id));
      return { verb: epp("delete", {}, con("delete", {}, con("id", {}, command.id))), extension: [] };
    case "contact:transfer":
      check("op", transferOpProblem(command.op));
      check("id", clIdProblem(command.id));
      if (command.authInfo !== undefined) check("authInfo", authInfoProblem(command.authInfo));
      return {
        verb: epp(
          "transfer",
          { op: command.op },
          con("transfer", {}, con("id", {}, command.id), command.authInfo !== undefined && authInfo(con, command.authInfo)),
        ),
        extension: [],
      };
    default: {
      const unknown: { kind?: unknown } = command;
      throw new EppInputError("kind", `no command ${String(unknown.kind)}`);
    }
  }
}

function login(command: LoginCommand): XmlElement {
  check("clientId", clIdProblem(command.clientId));
  check("password", loginPasswordProblem(command.password));
  if (command.newPassword !== undefined) check("newPassword", loginPasswordProblem(command.newPassword));
  const version = command.version ?? "1.0";
  if (version !== "1.0") throw new EppInputError("version", 'must be "1.0"');
  const lang = command.lang ?? "en";
  check("lang", /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(lang) ? null : "must be a language tag");
  if (command.objURIs.length === 0) throw new EppInputError("objURIs", "at least one object URI");
  checkList("objURIs", command.objURIs, uriProblem);
  checkList("extURIs", command.extURIs, uriProblem, 0);
  return epp(
    "login",
    {},
    epp("clID", {}, command.clientId),
    epp("pw", {}, command.password),
    command.newPassword !== undefined && epp("newPW", {}, command.newPassword),
    epp("options", {}, epp("version", {}, version), epp("lang", {}, lang)),
    epp(
      "svcs",
      {},
      command.objURIs.map((uri) => epp("objURI", {}, uri)),
      command.extURIs.length > 0 &&
        epp(
          "svcExtension",
          {},
          command.extURIs.map((uri) => epp("extURI", {}, uri)),
        ),
    ),
  );
}

function uriProblem(value: unknown): string | null {
  return typeof value === "string" && /^[^\s<>"]+:[^\s<>"]+$/.test(value) ? null : "must be a URI";
}

function checkList<T>(field: string, values: T[], problem: (value: T) => string | null, min = 1): void {
  if (!Array.isArray(values) || values.length < min) throw new EppInputError(field, `at least ${min}`);
  values.forEach((value, i) => {
    check(`${field}[${i}]`, problem(value));
  });
}

function transferOpProblem(op: unknown): string | null {
  return op === "request" || op === "query" || op === "approve" || op === "reject" || op === "cancel"
    ? null
    : "must be request, query, approve, reject or cancel";
}

function authInfo(make: typeof dom, pw: string): XmlElement {
  return make("authInfo", {}, make("pw", {}, pw));
}

function period(field: string, value: Period | undefined, make = dom): XmlElement | undefined {
  if (value === undefined) return undefined;
  check(field, periodProblem(value));
  return make("period", { unit: value.unit }, String(value.value));
}

function domainCheck(command: DomainCheckCommand): { verb: XmlElement; extension: XmlElement[] } {
  checkList("names", command.names, labelProblem);
  const extension: XmlElement[] = [];
  if (command.fee) {
    const { currency, commands } = command.fee;
    if (currency !== undefined) check("fee.currency", currencyProblem(currency));
    if (commands.length === 0) throw new EppInputError("fee.commands", "at least one");
    extension.push(
      fee(
        "check",
        {},
        currency !== undefined && fee("currency", {}, currency),
        commands.map((item, i) => {
          check(`fee.commands[${i}].name`, feeCommandProblem(item.name));
          if (item.phase !== undefined) check(`fee.commands[${i}].phase`, tokenProblem(item.phase, 1, 64));
          if (item.subphase !== undefined) check(`fee.commands[${i}].subphase`, tokenProblem(item.subphase, 1, 64));
          return fee("command", { name: item.name, phase: item.phase, subphase: item.subphase }, period(`fee.commands[${i}].period`, item.period, fee));
        }),
      ),
    );
  }
  return {
    verb: epp(
      "check",
      {},
      dom(
        "check",
        {},
        command.names.map((name) => dom("name", {}, name)),
      ),
    ),
    extension,
  };
}

function feeCommandProblem(name: unknown): string | null {
  return ["create", "delete", "renew", "update", "transfer", "restore", "custom"].includes(name as string)
    ? null
    : "must be create, delete, renew, update, transfer, restore or custom";
}

/** fee:create / renew / transfer / update: the fees the client agrees to pay (RFC 8748 §5.2). */
function feeAgreement(verb: "create" | "renew" | "transfer" | "update", agreement: FeeAgreement | undefined): XmlElement[] {
  if (agreement === undefined) return [];
  if (agreement.currency !== undefined) check("fee.currency", currencyProblem(agreement.currency));
  if (agreement.fees.length === 0) throw new EppInputError("fee.fees", "at least one");
  return [
    fee(
      verb,
      {},
      agreement.currency !== undefined && fee("currency", {}, agreement.currency),
      agreement.fees.map((item, i) => feeElement(item, i)),
    ),
  ];
}

function feeElement(item: Fee, i: number): XmlElement {
  check(`fee.fees[${i}].amount`, feeAmountProblem(item.amount));
  if (item.description !== undefined) check(`fee.fees[${i}].description`, normalizedProblem(item.description, 0, 255));
  if (item.gracePeriod !== undefined)
    check(
      `fee.fees[${i}].gracePeriod`,
      /^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(item.gracePeriod) ? null : "must be a duration (P5D)",
    );
  return fee(
    "fee",
    {
      description: item.description,
      lang: item.lang,
      refundable: item.refundable === undefined ? undefined : item.refundable ? "1" : "0",
      "grace-period": item.gracePeriod,
      applied: item.applied,
    },
    item.amount,
  );
}

function contacts(field: string, values: DomainContact[] | undefined): XmlElement[] {
  return (values ?? []).map((contact, i) => {
    check(`${field}[${i}].type`, ["admin", "billing", "tech"].includes(contact.type) ? null : "must be admin, billing or tech");
    check(`${field}[${i}].id`, clIdProblem(contact.id));
    return dom("contact", { type: contact.type }, contact.id);
  });
}

function nameservers(field: string, names: string[] | undefined): XmlElement | undefined {
  if (names === undefined || names.length === 0) return undefined;
  checkList(field, names, labelProblem);
  return dom(
    "ns",
    {},
    names.map((name) => dom("hostObj", {}, name)),
  );
}

function dsData(field: string, values: DsData[]): XmlElement[] {
  if (values.length === 0) throw new EppInputError(field, "at least one");
  return values.map((ds, i) => {
    check(`${field}[${i}].keyTag`, unsignedProblem(ds.keyTag, 65535));
    check(`${field}[${i}].alg`, unsignedProblem(ds.alg, 255));
    check(`${field}[${i}].digestType`, unsignedProblem(ds.digestType, 255));
    check(`${field}[${i}].digest`, hexProblem(ds.digest));
    return sec(
      "dsData",
      {},
      sec("keyTag", {}, String(ds.keyTag)),
      sec("alg", {}, String(ds.alg)),
      sec("digestType", {}, String(ds.digestType)),
      sec("digest", {}, ds.digest.toUpperCase()),
    );
  });
}

function domainCreate(command: DomainCreateCommand): { verb: XmlElement; extension: XmlElement[] } {
  check("name", labelProblem(command.name));
  if (command.registrant !== undefined) check("registrant", clIdProblem(command.registrant));
  check("authInfo", authInfoProblem(command.authInfo));
  const verb = epp(
    "create",
    {},
    dom(
      "create",
      {},
      dom("name", {}, command.name),
      period("period", command.period),
      nameservers("nameservers", command.nameservers),
      command.registrant !== undefined && dom("registrant", {}, command.registrant),
      contacts("contacts", command.contacts),
      authInfo(dom, command.authInfo),
    ),
  );
  const extension: XmlElement[] = [];
  if (command.ds !== undefined && command.ds.length > 0) extension.push(sec("create", {}, dsData("ds", command.ds)));
  extension.push(...feeAgreement("create", command.fee));
  return { verb, extension };
}

function domainRenew(command: DomainRenewCommand): { verb: XmlElement; extension: XmlElement[] } {
  check("name", labelProblem(command.name));
  check("curExpDate", dateProblem(command.curExpDate));
  const verb = epp("renew", {}, dom("renew", {}, dom("name", {}, command.name), dom("curExpDate", {}, command.curExpDate), period("period", command.period)));
  return { verb, extension: feeAgreement("renew", command.fee) };
}

function statuses<S extends string>(field: string, values: StatusValue<S>[] | undefined, allowed: readonly string[], make: typeof dom): XmlElement[] {
  return (values ?? []).map((status, i) => {
    check(`${field}[${i}].s`, allowed.includes(status.s) ? null : `must be one of ${allowed.join(", ")}`);
    if (status.text !== undefined) check(`${field}[${i}].text`, normalizedProblem(status.text, 0, 255));
    return make("status", { s: status.s, lang: status.lang }, status.text ?? false);
  });
}

const DOMAIN_CLIENT_STATUSES = ["clientDeleteProhibited", "clientHold", "clientRenewProhibited", "clientTransferProhibited", "clientUpdateProhibited"] as const;
const HOST_CLIENT_STATUSES = ["clientDeleteProhibited", "clientUpdateProhibited"] as const;
const CONTACT_CLIENT_STATUSES = ["clientDeleteProhibited", "clientTransferProhibited", "clientUpdateProhibited"] as const;

function domainUpdate(command: DomainUpdateCommand): { verb: XmlElement; extension: XmlElement[] } {
  check("name", labelProblem(command.name));
  const addRem = (which: "add" | "rem") => {
    const part = command[which];
    if (part === undefined) return undefined;
    const children = [
      nameservers(`${which}.nameservers`, part.nameservers),
      ...contacts(`${which}.contacts`, part.contacts),
      ...statuses(`${which}.statuses`, part.statuses, DOMAIN_CLIENT_STATUSES, dom),
    ].filter((child) => child !== undefined);
    return children.length > 0 ? dom(which, {}, children) : undefined;
  };
  const add = addRem("add");
  const rem = addRem("rem");
  let chg: XmlElement | undefined;
  if (command.chg !== undefined) {
    const { registrant, authInfo: newAuthInfo } = command.chg;
    if (registrant !== undefined && registrant !== "") check("chg.registrant", clIdProblem(registrant));
    if (typeof newAuthInfo === "string") check("chg.authInfo", authInfoProblem(newAuthInfo));
    chg = dom(
      "chg",
      {},
      registrant !== undefined && dom("registrant", {}, registrant === "" ? false : registrant),
      newAuthInfo !== undefined && dom("authInfo", {}, newAuthInfo === null ? dom("null") : dom("pw", {}, newAuthInfo)),
    );
  }
  const extension: XmlElement[] = [];
  if (command.ds !== undefined) {
    const { rem: dsRem, add: dsAdd, urgent, maxSigLife } = command.ds;
    if (command.ds.unsupported !== undefined) throw new EppInputError("ds.unsupported", "is read from clients, never sent");
    if (dsRem === undefined && (dsAdd === undefined || dsAdd.length === 0) && maxSigLife === undefined)
      throw new EppInputError("ds", "remove or add at least one DS record");
    if (maxSigLife !== undefined) check("ds.maxSigLife", maxSigLife === 0 ? "must be at least 1" : unsignedProblem(maxSigLife, 2 ** 31 - 1));
    extension.push(
      sec(
        "update",
        urgent ? { urgent: "true" } : {},
        dsRem !== undefined && (dsRem === "all" ? sec("rem", {}, sec("all", {}, "true")) : dsRem.length > 0 && sec("rem", {}, dsData("ds.rem", dsRem))),
        dsAdd !== undefined && dsAdd.length > 0 && sec("add", {}, dsData("ds.add", dsAdd)),
        maxSigLife !== undefined && sec("chg", {}, sec("maxSigLife", {}, String(maxSigLife))),
      ),
    );
  }
  if (command.restore !== undefined) extension.push(rgp("update", {}, restore(command.restore)));
  extension.push(...feeAgreement("update", command.fee));
  // RFC 5731 §3.2.5: an update names at least one of add, rem and chg; one that only
  // carries an extension (a restore, DS records) sends an empty <domain:chg/> (RFC 3915 §4.2.5).
  const verb = epp("update", {}, dom("update", {}, dom("name", {}, command.name), add, rem, chg ?? (add === undefined && rem === undefined && dom("chg"))));
  if (add === undefined && rem === undefined && chg === undefined && extension.length === 0) throw new EppInputError("update", "changes nothing");
  return { verb, extension };
}

function restore(value: NonNullable<DomainUpdateCommand["restore"]>): XmlElement {
  if (value.op === "request") return rgp("restore", { op: "request" });
  if (value.op !== "report") throw new EppInputError("restore.op", 'must be "request" or "report"');
  const report: RgpReport = value.report;
  for (const key of ["preData", "postData", "resReason"] as const) check(`restore.report.${key}`, normalizedProblem(report[key], 1, 10_000));
  check("restore.report.delTime", dateTimeProblem(report.delTime));
  check("restore.report.resTime", dateTimeProblem(report.resTime));
  if (report.statements.length < 1 || report.statements.length > 2) throw new EppInputError("restore.report.statements", "one or two statements");
  report.statements.forEach((statement, i) => {
    check(`restore.report.statements[${i}]`, normalizedProblem(statement, 1, 10_000));
  });
  if (report.other !== undefined) check("restore.report.other", normalizedProblem(report.other, 1, 10_000));
  return rgp(
    "restore",
    { op: "report" },
    rgp(
      "report",
      {},
      rgp("preData", {}, report.preData),
      rgp("postData", {}, report.postData),
      rgp("delTime", {}, report.delTime),
      rgp("resTime", {}, report.resTime),
      rgp("resReason", {}, report.resReason),
      report.statements.map((statement) => rgp("statement", {}, statement)),
      report.other !== undefined && rgp("other", {}, report.other),
    ),
  );
}

function domainTransfer(command: DomainTransferCommand): { verb: XmlElement; extension: XmlElement[] } {
  check("op", transferOpProblem(command.op));
  check("name", labelProblem(command.name));
  if (command.authInfo !== undefined) check("authInfo", authInfoProblem(command.authInfo));
  const verb = epp(
    "transfer",
    { op: command.op },
    dom("transfer", {}, dom("name", {}, command.name), period("period", command.period), command.authInfo !== undefined && authInfo(dom, command.authInfo)),
  );
  return { verb, extension: feeAgreement("transfer", command.fee) };
}

function addresses(field: string, values: string[]): XmlElement[] {
  return values.map((address, i) => {
    const ip = ipVersion(address);
    if (ip === null) throw new EppInputError(`${field}[${i}]`, "must be an IPv4 or IPv6 address");
    return hst("addr", { ip }, address);
  });
}

function hostUpdate(command: HostUpdateCommand): XmlElement {
  check("name", labelProblem(command.name));
  const addRem = (which: "add" | "rem") => {
    const part = command[which];
    if (part === undefined) return undefined;
    const children = [...addresses(`${which}.addresses`, part.addresses ?? []), ...statuses(`${which}.statuses`, part.statuses, HOST_CLIENT_STATUSES, hst)];
    return children.length > 0 ? hst(which, {}, children) : undefined;
  };
  const add = addRem("add");
  const rem = addRem("rem");
  if (command.newName !== undefined) check("newName", labelProblem(command.newName));
  const chg = command.newName !== undefined ? hst("chg", {}, hst("name", {}, command.newName)) : undefined;
  if (add === undefined && rem === undefined && chg === undefined) throw new EppInputError("update", "changes nothing");
  return epp("update", {}, hst("update", {}, hst("name", {}, command.name), add, rem, chg));
}

function postalInfo(field: string, info: PostalInfo): XmlElement {
  check(`${field}.type`, info.type === "int" || info.type === "loc" ? null : 'must be "int" or "loc"');
  const line = (key: string, value: string | undefined, min: number, max: number) => {
    if (value === undefined) return;
    check(`${field}.${key}`, normalizedProblem(value, min, max));
    if (info.type === "int") check(`${field}.${key}`, asciiProblem(value));
  };
  line("name", info.name, 1, 255);
  line("org", info.org, 0, 255);
  return con("postalInfo", { type: info.type }, con("name", {}, info.name), info.org !== undefined && con("org", {}, info.org), address(field, info, line));
}

function address(
  field: string,
  addr: { street?: string[]; city: string; sp?: string; pc?: string; cc: string },
  line: (key: string, value: string | undefined, min: number, max: number) => void,
): XmlElement {
  const street = addr.street ?? [];
  if (street.length > 3) throw new EppInputError(`${field}.street`, "at most three lines");
  street.forEach((value, i) => {
    line(`street[${i}]`, value, 1, 255);
  });
  line("city", addr.city, 1, 255);
  line("sp", addr.sp, 0, 255);
  line("pc", addr.pc, 0, 16);
  check(`${field}.cc`, countryProblem(addr.cc));
  return con(
    "addr",
    {},
    street.map((value) => con("street", {}, value)),
    con("city", {}, addr.city),
    addr.sp !== undefined && con("sp", {}, addr.sp),
    addr.pc !== undefined && con("pc", {}, addr.pc),
    con("cc", {}, addr.cc.toUpperCase()),
  );
}

function phone(field: string, name: "voice" | "fax", value: Phone | null | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
  if (value === null) return con(name);
  check(`${field}.number`, phoneProblem(value.number));
  if (value.ext !== undefined) check(`${field}.ext`, tokenProblem(value.ext, 1, 64));
  return con(name, { x: value.ext }, value.number);
}

function disclose(field: string, value: Disclose | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
  const typed = (key: "name" | "org" | "addr") =>
    (value[key] ?? []).map((type, i) => {
      check(`${field}.${key}[${i}]`, type === "int" || type === "loc" ? null : 'must be "int" or "loc"');
      return con(key, { type });
    });
  const children = [
    ...typed("name"),
    ...typed("org"),
    ...typed("addr"),
    value.voice && con("voice"),
    value.fax && con("fax"),
    value.email && con("email"),
  ].filter((child): child is XmlElement => child !== undefined && child !== false);
  if (children.length === 0) throw new EppInputError(field, "names no element");
  return con("disclose", { flag: value.flag ? "1" : "0" }, children);
}

function checkPostalTypes(field: string, values: { type: string }[], min: number): void {
  if (values.length < min || values.length > 2) throw new EppInputError(field, min === 1 ? "one or two" : "at most two");
  if (values.length === 2 && values[0]!.type === values[1]!.type) throw new EppInputError(field, "one int and one loc at most");
}

function contactCreate(command: ContactCreateCommand): XmlElement {
  check("id", clIdProblem(command.id));
  checkPostalTypes("postalInfo", command.postalInfo, 1);
  check("email", emailProblem(command.email));
  check("authInfo", authInfoProblem(command.authInfo));
  return epp(
    "create",
    {},
    con(
      "create",
      {},
      con("id", {}, command.id),
      command.postalInfo.map((info, i) => postalInfo(`postalInfo[${i}]`, info)),
      phone("voice", "voice", command.voice),
      phone("fax", "fax", command.fax),
      con("email", {}, command.email),
      authInfo(con, command.authInfo),
      disclose("disclose", command.disclose),
    ),
  );
}

function postalInfoChange(field: string, info: PostalInfoChange): XmlElement {
  check(`${field}.type`, info.type === "int" || info.type === "loc" ? null : 'must be "int" or "loc"');
  const line = (key: string, value: string | undefined, min: number, max: number) => {
    if (value === undefined) return;
    check(`${field}.${key}`, normalizedProblem(value, min, max));
    if (info.type === "int") check(`${field}.${key}`, asciiProblem(value));
  };
  line("name", info.name, 1, 255);
  line("org", info.org, 0, 255);
  if (info.name === undefined && info.org === undefined && info.addr === undefined) throw new EppInputError(field, "changes nothing");
  return con(
    "postalInfo",
    { type: info.type },
    info.name !== undefined && con("name", {}, info.name),
    info.org !== undefined && con("org", {}, info.org),
    info.addr !== undefined && address(`${field}.addr`, info.addr, line),
  );
}

function contactUpdate(command: ContactUpdateCommand): XmlElement {
  check("id", clIdProblem(command.id));
  const addRem = (which: "add" | "rem") => {
    const part = command[which];
    if (part === undefined || part.statuses.length === 0) return undefined;
    return con(which, {}, statuses(`${which}.statuses`, part.statuses, CONTACT_CLIENT_STATUSES, con));
  };
  const add = addRem("add");
  const rem = addRem("rem");
  let chg: XmlElement | undefined;
  if (command.chg !== undefined) {
    const change = command.chg;
    if (change.postalInfo !== undefined) checkPostalTypes("chg.postalInfo", change.postalInfo, 0);
    if (change.email !== undefined) check("chg.email", emailProblem(change.email));
    if (change.authInfo !== undefined) check("chg.authInfo", authInfoProblem(change.authInfo));
    const children = [
      ...(change.postalInfo ?? []).map((info, i) => postalInfoChange(`chg.postalInfo[${i}]`, info)),
      phone("chg.voice", "voice", change.voice),
      phone("chg.fax", "fax", change.fax),
      change.email !== undefined && con("email", {}, change.email),
      change.authInfo !== undefined && authInfo(con, change.authInfo),
      disclose("chg.disclose", change.disclose),
    ].filter((child): child is XmlElement => child !== undefined && child !== false);
    if (children.length > 0) chg = con("chg", {}, children);
  }
  if (add === undefined && rem === undefined && chg === undefined) throw new EppInputError("update", "changes nothing");
  return epp("update", {}, con("update", {}, con("id", {}, command.id), add, rem, chg));
}
