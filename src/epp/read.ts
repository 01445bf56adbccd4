// Reading typed values out of a parsed EPP tree, by namespace URI and local name. A reader
// that finds the message not as the schema has it throws Malformed, which the parse
// functions (responses.ts, command-reader.ts) turn into their typed error: nothing thrown
// here escapes them.
import type { Period, StatusValue } from "./types";
import { childElement, childElements, collapse, textOf, type XmlElement } from "./xml";

export class Malformed extends Error {}

export function malformed(message: string): never {
  throw new Malformed(message);
}

export function optionalChild(parent: XmlElement, ns: string, name: string): XmlElement | undefined {
  return childElement(parent, ns, name);
}

export function requiredChild(parent: XmlElement, ns: string, name: string): XmlElement {
  return childElement(parent, ns, name) ?? malformed(`<${parent.name}> has no <${name}>`);
}

export function all(parent: XmlElement, ns: string, name: string): XmlElement[] {
  return childElements(parent, ns, name);
}

/** A token's value: collapsed whitespace. */
export function token(element: XmlElement): string {
  return collapse(textOf(element));
}

/** A child's token, or undefined when the child is absent. */
export function optionalToken(parent: XmlElement, ns: string, name: string): string | undefined {
  const child = childElement(parent, ns, name);
  return child === undefined ? undefined : token(child);
}

/** A child's token, which must be there and not empty. */
export function requiredToken(parent: XmlElement, ns: string, name: string): string {
  const value = token(requiredChild(parent, ns, name));
  if (value === "") malformed(`<${name}> is empty`);
  return value;
}

/** A child's token when it is there and not empty (registries send `<contact:voice/>` for none). */
export function nonEmptyToken(parent: XmlElement, ns: string, name: string): string | undefined {
  const value = optionalToken(parent, ns, name);
  return value === undefined || value === "" ? undefined : value;
}

/** A normalizedString's value as written, trimmed (free text: messages, reasons). */
export function text(element: XmlElement): string {
  return textOf(element)
    .replace(/[\t\n\r]/g, " ")
    .trim();
}

export function booleanValue(value: string | undefined, what: string): boolean {
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  return malformed(`${what} is not a boolean: ${JSON.stringify(value)}`);
}

export function integerValue(value: string | undefined, what: string, min: number, max: number): number {
  const trimmed = value === undefined ? "" : collapse(value);
  if (!/^[+]?\d{1,20}$/.test(trimmed)) return malformed(`${what} is not a whole number: ${JSON.stringify(value)}`);
  const number = Number(trimmed);
  if (number < min || number > max) return malformed(`${what} is out of range: ${number}`);
  return number;
}

export function periodOf(element: XmlElement | undefined): Period | undefined {
  if (element === undefined) return undefined;
  const unit = element.attrs.unit;
  if (unit !== "y" && unit !== "m") return malformed(`a period's unit is ${JSON.stringify(unit)}`);
  return { value: integerValue(textOf(element), "a period", 1, 99), unit };
}

/** `<x:status s="…" lang="…">reason</x:status>` elements. */
export function statusesOf(parent: XmlElement, ns: string, name = "status"): StatusValue[] {
  return all(parent, ns, name).map((element) => {
    const s = element.attrs.s;
    if (s === undefined || s === "") malformed(`a <${name}> has no s`);
    const status: StatusValue = { s };
    const reason = text(element);
    if (reason !== "") status.text = reason;
    if (element.attrs.lang !== undefined) status.lang = element.attrs.lang;
    return status;
  });
}
