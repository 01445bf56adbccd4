// Greetings and responses built from typed values, for a server (the local registry):
// the same values responses.ts reads, written as the schemas of RFC 5730–5733, 5910,
// 3915 and 8748 order them (the tests validate each kind with xmllint and read it back).
import { NS, PREFIXES } from "./namespaces";
import { resultCode } from "./result-codes";
import type {
  CheckItem,
  ContactInfo,
  Credit,
  Disclose,
  DomainInfo,
  DsData,
  EppResponse,
  ExtensionData,
  Fee,
  FeeTransformData,
  Greeting,
  HostAddress,
  HostInfo,
  KeyData,
  PendingActionData,
  Period,
  Phone,
  PostalInfo,
  ResData,
  StatusValue,
  TransferData,
} from "./types";
import { EppInputError } from "./values";
import { el, parseXml, serialize, type XmlChild, type XmlElement } from "./xml";

type Make = (name: string, attrs?: Record<string, string | undefined>, ...children: XmlChild[]) => XmlElement;
const maker =
  (ns: string): Make =>
  (name, attrs = {}, ...children) =>
    el(ns, name, attrs, ...children);
const epp = maker(NS.epp);
const dom = maker(NS.domain);
const hst = maker(NS.host);
const con = maker(NS.contact);
const sec = maker(NS.secDNS);
const rgp = maker(NS.rgp);
const fee = maker(NS.fee);

/** A result as a server gives it: the RFC's message for the code unless told. */
export interface ResultInput {
  code: number;
  msg?: string;
  lang?: string;
  /** XML of the offending elements. */
  values?: string[];
  extValues?: { value: string; reason: string; lang?: string }[];
}

/** A response as a server gives it (`code` is its first result's). */
export interface ResponseInput {
  results: ResultInput[];
  msgQ?: EppResponse["msgQ"];
  resData?: ResData[];
  extensions?: ExtensionData[];
  trID: EppResponse["trID"];
}

/** The greeting document. */
export function buildGreeting(greeting: Greeting): string {
  const { dcp } = greeting;
  return serialize(
    epp(
      "epp",
      {},
      epp(
        "greeting",
        {},
        epp("svID", {}, greeting.svID),
        epp("svDate", {}, greeting.svDate),
        epp(
          "svcMenu",
          {},
          greeting.versions.map((version) => epp("version", {}, version)),
          greeting.langs.map((lang) => epp("lang", {}, lang)),
          greeting.objURIs.map((uri) => epp("objURI", {}, uri)),
          greeting.extURIs.length > 0 &&
            epp(
              "svcExtension",
              {},
              greeting.extURIs.map((uri) => epp("extURI", {}, uri)),
            ),
        ),
        epp(
          "dcp",
          {},
          epp("access", {}, epp(dcp.access)),
          dcp.statements.map((statement) =>
            epp(
              "statement",
              {},
              epp(
                "purpose",
                {},
                statement.purpose.map((name) => epp(name)),
              ),
              epp(
                "recipient",
                {},
                statement.recipient.map((name) => epp(name)),
              ),
              epp("retention", {}, epp(statement.retention)),
            ),
          ),
          dcp.expiry !== undefined &&
            epp("expiry", {}, "absolute" in dcp.expiry ? epp("absolute", {}, dcp.expiry.absolute) : epp("relative", {}, dcp.expiry.relative)),
        ),
      ),
    ),
    PREFIXES,
  );
}

/** The response document. Throws EppInputError when a value given as XML is not XML. */
export function buildResponse(response: ResponseInput): string {
  if (response.results.length === 0) throw new EppInputError("results", "at least one");
  const { msgQ } = response;
  return serialize(
    epp(
      "epp",
      {},
      epp(
        "response",
        {},
        response.results.map((result, i) =>
          epp(
            "result",
            { code: String(result.code) },
            epp("msg", { lang: result.lang }, result.msg ?? resultCode(result.code).message),
            (result.values ?? []).map((value, j) => epp("value", {}, xmlFragment(`results[${i}].values[${j}]`, value))),
            (result.extValues ?? []).map((extValue, j) =>
              epp(
                "extValue",
                {},
                epp("value", {}, xmlFragment(`results[${i}].extValues[${j}].value`, extValue.value)),
                epp("reason", { lang: extValue.lang }, extValue.reason),
              ),
            ),
          ),
        ),
        msgQ !== undefined &&
          epp(
            "msgQ",
            { count: String(msgQ.count), id: msgQ.id },
            msgQ.qDate !== undefined && epp("qDate", {}, msgQ.qDate),
            msgQ.msg !== undefined && epp("msg", { lang: msgQ.lang }, msgQ.msg),
          ),
        (response.resData ?? []).length > 0 &&
          epp(
            "resData",
            {},
            (response.resData ?? []).map((data, i) => resDataElement(`resData[${i}]`, data)),
          ),
        (response.extensions ?? []).length > 0 &&
          epp(
            "extension",
            {},
            (response.extensions ?? []).map((data, i) => extensionElement(`extensions[${i}]`, data)),
          ),
        epp("trID", {}, response.trID.clTRID !== undefined && epp("clTRID", {}, response.trID.clTRID), epp("svTRID", {}, response.trID.svTRID)),
      ),
    ),
    PREFIXES,
  );
}

/** XML given as text (a `<value>`'s element, an unknown payload), as elements. */
function xmlFragment(field: string, xml: string): XmlElement {
  const parsed = parseXml(xml);
  if (!parsed.ok) throw new EppInputError(field, `not XML: ${parsed.error.message}`);
  return parsed.root;
}

function statusElements(make: Make, statuses: StatusValue[], name = "status"): XmlElement[] {
  return statuses.map((status) => make(name, { s: status.s, lang: status.lang }, status.text ?? false));
}

function checkData(make: Make, key: "name" | "id", items: CheckItem[]): XmlElement {
  return make(
    "chkData",
    {},
    items.map((item) => make("cd", {}, make(key, { avail: item.avail ? "1" : "0" }, item.name), item.reason !== undefined && make("reason", {}, item.reason))),
  );
}

function optionalElements<T extends object>(make: Make, value: T, keys: readonly (keyof T & string)[]): XmlElement[] {
  return keys.flatMap((key) => (value[key] === undefined ? [] : [make(key, {}, String(value[key]))]));
}

function transferElements(make: Make, data: TransferData): XmlElement[] {
  return [
    make("trStatus", {}, data.trStatus),
    make("reID", {}, data.reID),
    make("reDate", {}, data.reDate),
    make("acID", {}, data.acID),
    make("acDate", {}, data.acDate),
  ];
}

function panData(make: Make, key: "name" | "id", subject: string, data: PendingActionData): XmlElement {
  return make(
    "panData",
    {},
    make(key, { paResult: data.paResult ? "1" : "0" }, subject),
    make("paTRID", {}, data.paTRID.clTRID !== undefined && epp("clTRID", {}, data.paTRID.clTRID), epp("svTRID", {}, data.paTRID.svTRID)),
    make("paDate", {}, data.paDate),
  );
}

function addressElements(make: Make, name: string, addresses: HostAddress[]): XmlElement[] {
  return addresses.map((address) => make(name, { ip: address.ip }, address.address));
}

function domainInfo(info: DomainInfo): XmlElement {
  const ns =
    info.hostAttrs.length > 0
      ? dom(
          "ns",
          {},
          info.hostAttrs.map((attr) => dom("hostAttr", {}, dom("hostName", {}, attr.name), addressElements(dom, "hostAddr", attr.addresses))),
        )
      : info.nameservers.length > 0 &&
        dom(
          "ns",
          {},
          info.nameservers.map((name) => dom("hostObj", {}, name)),
        );
  return dom(
    "infData",
    {},
    dom("name", {}, info.name),
    dom("roid", {}, info.roid),
    statusElements(dom, info.statuses),
    info.registrant !== undefined && dom("registrant", {}, info.registrant),
    info.contacts.map((contact) => dom("contact", { type: contact.type }, contact.id)),
    ns,
    info.hosts.map((host) => dom("host", {}, host)),
    dom("clID", {}, info.clID),
    optionalElements(dom, info, ["crID", "crDate", "upID", "upDate", "exDate", "trDate"]),
    info.authInfo !== undefined && dom("authInfo", {}, dom("pw", {}, info.authInfo)),
  );
}

function hostInfo(info: HostInfo): XmlElement {
  return hst(
    "infData",
    {},
    hst("name", {}, info.name),
    hst("roid", {}, info.roid),
    statusElements(hst, info.statuses),
    addressElements(hst, "addr", info.addresses),
    hst("clID", {}, info.clID),
    hst("crID", {}, info.crID),
    hst("crDate", {}, info.crDate),
    optionalElements(hst, info, ["upID", "upDate", "trDate"]),
  );
}

function postalInfo(info: PostalInfo): XmlElement {
  return con(
    "postalInfo",
    { type: info.type },
    con("name", {}, info.name),
    info.org !== undefined && con("org", {}, info.org),
    con(
      "addr",
      {},
      (info.street ?? []).map((line) => con("street", {}, line)),
      con("city", {}, info.city),
      info.sp !== undefined && con("sp", {}, info.sp),
      info.pc !== undefined && con("pc", {}, info.pc),
      con("cc", {}, info.cc),
    ),
  );
}

function phone(name: "voice" | "fax", value: Phone | undefined): XmlElement | undefined {
  return value === undefined ? undefined : con(name, { x: value.ext }, value.number);
}

function disclose(value: Disclose | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
  return con(
    "disclose",
    { flag: value.flag ? "1" : "0" },
    (["name", "org", "addr"] as const).map((key) => (value[key] ?? []).map((type) => con(key, { type }))),
    value.voice && con("voice"),
    value.fax && con("fax"),
    value.email && con("email"),
  );
}

function contactInfo(info: ContactInfo): XmlElement {
  return con(
    "infData",
    {},
    con("id", {}, info.id),
    con("roid", {}, info.roid),
    statusElements(con, info.statuses),
    info.postalInfo.map(postalInfo),
    phone("voice", info.voice),
    phone("fax", info.fax),
    con("email", {}, info.email),
    con("clID", {}, info.clID),
    con("crID", {}, info.crID),
    con("crDate", {}, info.crDate),
    optionalElements(con, info, ["upID", "upDate", "trDate"]),
    info.authInfo !== undefined && con("authInfo", {}, con("pw", {}, info.authInfo)),
    disclose(info.disclose),
  );
}

function resDataElement(field: string, data: ResData): XmlElement {
  switch (data.kind) {
    case "domain:chkData":
      return checkData(dom, "name", data.items);
    case "domain:infData":
      return domainInfo(data);
    case "domain:creData":
      return dom("creData", {}, dom("name", {}, data.name), dom("crDate", {}, data.crDate), data.exDate !== undefined && dom("exDate", {}, data.exDate));
    case "domain:renData":
      return dom("renData", {}, dom("name", {}, data.name), data.exDate !== undefined && dom("exDate", {}, data.exDate));
    case "domain:trnData":
      return dom("trnData", {}, dom("name", {}, data.name), transferElements(dom, data), data.exDate !== undefined && dom("exDate", {}, data.exDate));
    case "domain:panData":
      return panData(dom, "name", data.name, data);
    case "host:chkData":
      return checkData(hst, "name", data.items);
    case "host:infData":
      return hostInfo(data);
    case "host:creData":
      return hst("creData", {}, hst("name", {}, data.name), hst("crDate", {}, data.crDate));
    case "host:panData":
      return panData(hst, "name", data.name, data);
    case "contact:chkData":
      return checkData(con, "id", data.items);
    case "contact:infData":
      return contactInfo(data);
    case "contact:creData":
      return con("creData", {}, con("id", {}, data.id), con("crDate", {}, data.crDate));
    case "contact:trnData":
      return con("trnData", {}, con("id", {}, data.id), transferElements(con, data));
    case "contact:panData":
      return panData(con, "id", data.id, data);
    case "unknown":
      return xmlFragment(`${field}.xml`, data.xml);
  }
}

function periodElement(make: Make, value: Period | undefined): XmlElement | undefined {
  return value === undefined ? undefined : make("period", { unit: value.unit }, String(value.value));
}

function feeElement(item: Fee): XmlElement {
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

function creditElement(item: Credit): XmlElement {
  return fee("credit", { description: item.description, lang: item.lang }, item.amount);
}

function dsElement(ds: DsData): XmlElement {
  return sec(
    "dsData",
    {},
    sec("keyTag", {}, String(ds.keyTag)),
    sec("alg", {}, String(ds.alg)),
    sec("digestType", {}, String(ds.digestType)),
    sec("digest", {}, ds.digest),
  );
}

function keyElement(key: KeyData): XmlElement {
  return sec(
    "keyData",
    {},
    sec("flags", {}, String(key.flags)),
    sec("protocol", {}, String(key.protocol)),
    sec("alg", {}, String(key.alg)),
    sec("pubKey", {}, key.pubKey),
  );
}

function feeTransform(name: string, data: FeeTransformData): XmlElement {
  return fee(
    name,
    {},
    data.currency !== undefined && fee("currency", {}, data.currency),
    periodElement(fee, data.period),
    data.fees.map(feeElement),
    data.credits.map(creditElement),
    data.balance !== undefined && fee("balance", {}, data.balance),
    data.creditLimit !== undefined && fee("creditLimit", {}, data.creditLimit),
  );
}

function extensionElement(field: string, data: ExtensionData): XmlElement {
  switch (data.kind) {
    case "secDNS:infData":
      return sec(
        "infData",
        {},
        data.maxSigLife !== undefined && sec("maxSigLife", {}, String(data.maxSigLife)),
        data.dsData.length > 0 ? data.dsData.map(dsElement) : data.keyData.map(keyElement),
      );
    case "rgp:infData":
    case "rgp:upData":
      return rgp(data.kind === "rgp:infData" ? "infData" : "upData", {}, statusElements(rgp, data.rgpStatus, "rgpStatus"));
    case "fee:chkData":
      return fee(
        "chkData",
        {},
        fee("currency", {}, data.currency),
        data.items.map((item) =>
          fee(
            "cd",
            { avail: item.avail ? "1" : "0" },
            fee("objID", {}, item.objID),
            item.class !== undefined && fee("class", {}, item.class),
            item.commands.map((command) =>
              fee(
                "command",
                {
                  name: command.name,
                  customName: command.customName,
                  phase: command.phase,
                  subphase: command.subphase,
                  standard: command.standard ? "1" : undefined,
                },
                periodElement(fee, command.period),
                command.fees.map(feeElement),
                command.credits.map(creditElement),
                command.reason !== undefined && fee("reason", {}, command.reason),
              ),
            ),
            item.reason !== undefined && fee("reason", {}, item.reason),
          ),
        ),
      );
    case "fee:creData":
    case "fee:renData":
    case "fee:trnData":
    case "fee:updData":
    case "fee:delData": {
      const { kind, ...rest } = data;
      return feeTransform(kind.slice(4), rest);
    }
    case "unknown":
      return xmlFragment(`${field}.xml`, data.xml);
  }
}
