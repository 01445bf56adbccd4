// The XML under the EPP codec: a small element tree, a serializer that escapes every text
// and attribute value and declares each namespace where it is first used, and a parser
// (saxes, strict XML 1.0 with namespaces) that refuses a DOCTYPE (so no entity is ever
// declared, let alone expanded: no XXE, no billion laughs) and bounds the input's size,
// depth and element count. Elements are named by namespace URI, never by prefix: a
// registry may write `domain:`, `d:` or a default namespace for the same element.
import { SaxesParser } from "saxes";

/** An element: its namespace URI, local name, attributes and children (elements and text). */
export interface XmlElement {
  /** Namespace URI; "" for an element in no namespace. */
  ns: string;
  /** Local name. */
  name: string;
  /** The prefix it was read with, or should be written with ("" = the default namespace); unset: the usual one. */
  prefix?: string;
  /** Attributes in no namespace, by local name. */
  attrs: Record<string, string>;
  /** Attributes in a namespace (`xsi:schemaLocation`, …), kept so that a subtree written back out says what it said. */
  nsAttrs?: { ns: string; name: string; prefix: string; value: string }[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Children as the builder takes them: false, null and undefined are left out; arrays are flattened. */
export type XmlChild = XmlNode | false | null | undefined | XmlChild[];

/** An element in a namespace; attributes whose value is undefined are left out. */
export function el(ns: string, name: string, attrs: Record<string, string | undefined> = {}, ...children: XmlChild[]): XmlElement {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined) kept[key] = value;
  return { ns, name, attrs: kept, children: flatten(children) };
}

function flatten(children: XmlChild[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) out.push(...flatten(child));
    else out.push(child);
  }
  return out;
}

/** A value that cannot be written as XML 1.0 text (a control character, a lone surrogate). */
export class XmlCharacterError extends Error {
  constructor(readonly value: string) {
    super(`not a character XML 1.0 allows: U+${(value.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
  }
}

// XML 1.0 §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function checkChars(value: string): void {
  const bad = NOT_XML_CHAR.exec(value);
  if (bad) throw new XmlCharacterError(bad[0]);
}

export function escapeText(value: string): string {
  checkChars(value);
  return value.replace(/[&<>\r]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#13;"));
}

export function escapeAttribute(value: string): string {
  checkChars(value);
  return value.replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!);
}
const ATTRIBUTE_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/**
 * The document: an XML declaration and the element, each namespace declared on the
 * outermost element that uses it, with its usual prefix (`prefixes`) unless the element
 * carries one. Throws XmlCharacterError for a value XML cannot hold.
 */
export function serialize(root: XmlElement, prefixes: Readonly<Record<string, string>> = {}): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n${serializeElement(root, prefixes)}`;
}

/** One element and its subtree, declaring every namespace it uses (no XML declaration). */
export function serializeElement(root: XmlElement, prefixes: Readonly<Record<string, string>> = {}): string {
  const out: string[] = [];
  let generated = 0;
  const prefixFor = (ns: string, wanted: string | undefined, scope: Map<string, string>, forAttribute: boolean): string => {
    if (wanted !== undefined && !(forAttribute && wanted === "")) return wanted;
    const usual = prefixes[ns];
    if (usual !== undefined && !(forAttribute && usual === "")) return usual;
    for (const [prefix, uri] of scope) if (uri === ns && prefix !== "") return prefix;
    generated += 1;
    return `ns${generated}`;
  };
  const write = (element: XmlElement, scope: Map<string, string>) => {
    const inner = new Map(scope);
    const declarations: string[] = [];
    const declare = (prefix: string, ns: string) => {
      if (inner.get(prefix) === ns) return;
      inner.set(prefix, ns);
      declarations.push(prefix === "" ? ` xmlns="${escapeAttribute(ns)}"` : ` xmlns:${prefix}="${escapeAttribute(ns)}"`);
    };
    let qname: string;
    if (element.ns === "") {
      if ((inner.get("") ?? "") !== "") declare("", "");
      qname = element.name;
    } else {
      const prefix = prefixFor(element.ns, element.prefix, inner, false);
      declare(prefix, element.ns);
      qname = prefix === "" ? element.name : `${prefix}:${element.name}`;
    }
    const attributes: string[] = [];
    for (const [name, value] of Object.entries(element.attrs)) attributes.push(` ${name}="${escapeAttribute(value)}"`);
    for (const attribute of element.nsAttrs ?? []) {
      const prefix = prefixFor(attribute.ns, attribute.prefix, inner, true);
      declare(prefix, attribute.ns);
      attributes.push(` ${prefix}:${attribute.name}="${escapeAttribute(attribute.value)}"`);
    }
    out.push(`<${qname}${declarations.join("")}${attributes.join("")}`);
    if (element.children.length === 0) {
      out.push("/>");
      return;
    }
    out.push(">");
    for (const child of element.children) {
      if (typeof child === "string") out.push(escapeText(child));
      else write(child, inner);
    }
    out.push(`</${qname}>`);
  };
  write(root, new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
  return out.join("");
}

// ---- parsing ---------------------------------------------------------------------------

export interface XmlLimits {
  /** Characters of the document (after decoding); larger input is refused unread. */
  maxChars: number;
  /** Nesting depth of elements. */
  maxDepth: number;
  /** Elements in the document. */
  maxElements: number;
  /** Attributes of one element. */
  maxAttributes: number;
}

/** 1 MiB, 64 levels, 50 000 elements: ten times what a 50-name check with fees or a large domain info takes. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 1 << 20, maxDepth: 64, maxElements: 50_000, maxAttributes: 64 };

export type XmlErrorCode = "too_large" | "not_utf8" | "unsupported_encoding" | "doctype_refused" | "not_well_formed" | "too_deep" | "too_many_elements";

export interface XmlError {
  code: XmlErrorCode;
  message: string;
}

export type XmlParsed = { ok: true; root: XmlElement } | { ok: false; error: XmlError };

class Refused extends Error {
  constructor(readonly error: XmlError) {
    super(error.message);
  }
}

/**
 * The document's root element, or why it was refused. Bytes are UTF-8 (a declaration
 * naming another encoding is refused); a DOCTYPE is refused outright, so no entity but
 * XML's five and character references is ever read. Never throws.
 */
export function parseXml(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlParsed {
  let text: string;
  if (typeof input === "string") {
    text = input;
  } else {
    if (input.length > limits.maxChars * 4) return refused("too_large", `the document is larger than ${limits.maxChars} characters`);
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(input);
    } catch {
      return refused("not_utf8", "the document is not valid UTF-8");
    }
  }
  if (text.length > limits.maxChars) return refused("too_large", `the document is larger than ${limits.maxChars} characters`);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  const fail = (code: XmlErrorCode, message: string): never => {
    throw new Refused({ code, message: `${message} (line ${parser.line}, column ${parser.column})` });
  };
  parser.on("error", (error) => fail("not_well_formed", error.message.replace(/^\d+:\d+: /, "")));
  parser.on("doctype", () => fail("doctype_refused", "a DOCTYPE is not accepted (EPP has none; entities are never read)"));
  parser.on("xmldecl", (declaration) => {
    if (declaration.version !== undefined && declaration.version !== "1.0")
      fail("unsupported_encoding", `XML ${declaration.version} is not accepted; EPP is XML 1.0`);
    if (declaration.encoding !== undefined && !/^utf-8$/i.test(declaration.encoding)) {
      fail("unsupported_encoding", `the encoding ${declaration.encoding} is not accepted; EPP here is UTF-8`);
    }
  });
  parser.on("opentag", (tag) => {
    elements += 1;
    if (elements > limits.maxElements) fail("too_many_elements", `more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) fail("too_deep", `elements nested deeper than ${limits.maxDepth}`);
    const attrs: Record<string, string> = {};
    const nsAttrs: NonNullable<XmlElement["nsAttrs"]> = [];
    let count = 0;
    for (const attribute of Object.values(tag.attributes)) {
      count += 1;
      if (count > limits.maxAttributes) fail("too_many_elements", `more than ${limits.maxAttributes} attributes on one element`);
      if (attribute.uri === "http://www.w3.org/2000/xmlns/") continue;
      if (attribute.uri === "") attrs[attribute.local] = attribute.value;
      else nsAttrs.push({ ns: attribute.uri, name: attribute.local, prefix: attribute.prefix, value: attribute.value });
    }
    const element: XmlElement = { ns: tag.uri, name: tag.local, prefix: tag.prefix, attrs, children: [] };
    if (nsAttrs.length > 0) element.nsAttrs = nsAttrs;
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  const addText = (value: string) => {
    const parent = stack[stack.length - 1];
    if (!parent) return;
    const last = parent.children[parent.children.length - 1];
    if (typeof last === "string") parent.children[parent.children.length - 1] = last + value;
    else parent.children.push(value);
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: error.error };
    return refused("not_well_formed", error instanceof Error ? error.message : String(error));
  }
  if (!root) return refused("not_well_formed", "no root element");
  return { ok: true, root };
}

function refused(code: XmlErrorCode, message: string): { ok: false; error: XmlError } {
  return { ok: false, error: { code, message } };
}

// ---- reading a tree --------------------------------------------------------------------

/** The element children of `element` (in `ns`, named `name` when given). */
export function childElements(element: XmlElement, ns?: string, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child === "string") continue;
    if (ns !== undefined && child.ns !== ns) continue;
    if (name !== undefined && child.name !== name) continue;
    out.push(child);
  }
  return out;
}

/** The first child element in `ns` named `name`. */
export function childElement(element: XmlElement, ns: string, name: string): XmlElement | undefined {
  for (const child of element.children) if (typeof child !== "string" && child.ns === ns && child.name === name) return child;
  return undefined;
}

/** The element's text content (its own and its descendants'), as written. */
export function textOf(element: XmlElement): string {
  let out = "";
  for (const child of element.children) out += typeof child === "string" ? child : textOf(child);
  return out;
}

/** XML Schema's `token` reading of a value: leading and trailing space gone, inner runs one space. */
export function collapse(value: string): string {
  return value.replace(/[\t\n\r ]+/g, " ").trim();
}
