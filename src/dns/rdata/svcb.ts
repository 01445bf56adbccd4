// SVCB (RFC 9460): priority, target name, then SvcParams `key[=value]`; HTTPS shares
// the format (https.ts). Keys known here: mandatory, alpn, no-default-alpn, port,
// ipv4hint, ech, ipv6hint (RFC 9460 §7), dohpath (RFC 9461), ohttp (RFC 9540), and any
// `keyNNNNN`.
import { parseIPv4, parseIPv6 } from "../ip";
import { fail, ok, show, type Check } from "../result";
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS, type Octets } from "./character-string";
import { defineRdata, referencedName, type RdataDescriptor } from "./descriptor";
import { nameField, uintField } from "./fields";
import type { Token } from "./tokens";
import { charString, concatWire, nameWire, octetList, u16, type WireReader, wireReader } from "./wire";
import { base64Octets, base64Text } from "../../crypto/base64";

const KEY_NAMES: Record<number, string> = {
  0: "mandatory",
  1: "alpn",
  2: "no-default-alpn",
  3: "port",
  4: "ipv4hint",
  5: "ech",
  6: "ipv6hint",
  7: "dohpath",
  8: "ohttp",
};
const KEY_NUMBERS: Record<string, number> = Object.fromEntries(Object.entries(KEY_NAMES).map(([n, name]) => [name, Number(n)]));
// Key 65535 is the reserved "invalid key" (RFC 9460 §14.3.2).
const MAX_KEY = 65534;

/** One SvcParam: its key number, its presentation text and its value on the wire. */
export interface SvcParam {
  key: number;
  text: string;
  value: Uint8Array;
}

export interface ServiceBinding {
  priority: number;
  /** Absolute, with the trailing dot; "." is the owner itself (RFC 9460 §2.5). */
  target: string;
  /** In ascending key order (RFC 9460 §2.2). */
  params: SvcParam[];
}

/** The presentation name of a key. ohttp is written key8: BIND 9.18 does not know its name. */
function keyName(key: number): string {
  return key === 8 ? "key8" : (KEY_NAMES[key] ?? `key${key}`);
}

function parseKey(name: string): Check<number> {
  const known = KEY_NUMBERS[name];
  if (known !== undefined) return ok(known);
  const generic = /^key([0-9]{1,5})$/.exec(name);
  if (generic) {
    const key = Number(generic[1]);
    if (key <= MAX_KEY) return ok(key);
    return fail(`SvcParamKey ${name} is out of range (key65535 is reserved, RFC 9460 §14.3.2)`);
  }
  return fail(`unknown SvcParamKey ${show(name)} (known: ${Object.values(KEY_NAMES).join(", ")}, or keyNNNNN)`);
}

/** RFC 9460 appendix A.1 value-list: commas separate items, `\,` and `\\` escape within one. */
function splitValueList(octets: Octets): Octets[] {
  const items: Octets[] = [];
  let item = "";
  for (let i = 0; i < octets.length; i++) {
    const c = octets[i]!;
    if (c === "\\" && i + 1 < octets.length) item += octets[++i];
    else if (c === ",") {
      items.push(item);
      item = "";
    } else item += c;
  }
  items.push(item);
  return items;
}

function joinValueList(items: Octets[]): Octets {
  return items.map((item) => item.replace(/[,\\]/g, "\\$&")).join(",");
}

function param(key: number, text: string, ...value: Parameters<typeof concatWire>): Check<SvcParam> {
  return ok({ key, text, value: concatWire(...value) });
}

function parseAlpn(value: Octets): Check<SvcParam> {
  const ids = splitValueList(value);
  if (ids.some((id) => id.length === 0 || id.length > 255))
    return fail("alpn must be a comma-separated list of protocol ids, each 1–255 bytes (e.g. alpn=h2,h3)");
  return param(1, `alpn=${encodeCharString(joinValueList(ids))}`, ...ids.map(charString));
}

function parseHints(key: 4 | 6, value: string): Check<SvcParam> {
  const name = KEY_NAMES[key]!;
  const parse = key === 4 ? parseIPv4 : parseIPv6;
  const addresses = value.split(",").map((text) => parse(text));
  if (value === "" || addresses.some((ip) => ip === null)) {
    return fail(`${name} must be a comma-separated list of IPv${key} addresses`);
  }
  return param(key, `${name}=${addresses.map((ip) => ip!.text).join(",")}`, ...addresses.map((ip) => ip!.bytes));
}

function parseMandatory(value: string): Check<SvcParam> {
  const keys: number[] = [];
  for (const name of value.split(",")) {
    const key = parseKey(name);
    if (!key.ok) return fail(`mandatory: ${key.error}`);
    // RFC 9460 §8: mandatory never lists itself, nor a key twice.
    if (key.value === 0) return fail("mandatory must not list mandatory itself (RFC 9460 §8)");
    if (keys.includes(key.value)) return fail(`mandatory lists ${name} twice`);
    keys.push(key.value);
  }
  keys.sort((a, b) => a - b);
  return param(0, `mandatory=${keys.map(keyName).join(",")}`, ...keys.map(u16));
}

function parseEch(value: string): Check<SvcParam> {
  // ECHConfigList in base64 (RFC 4648 §4), as RFC 9460 §9 presents it.
  if (value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    return fail("ech must be an ECHConfigList in base64");
  }
  return param(5, `ech=${value}`, base64Octets(value));
}

/** Parses one known or generic parameter from its decoded value (null: no `=value`). */
function parseParam(key: number, value: Octets | null): Check<SvcParam> {
  const name = keyName(key);
  const text = value ?? "";
  const needsValue = key === 0 || key === 1 || key === 3 || key === 4 || key === 5 || key === 6 || key === 7;
  if (needsValue && text === "") return fail(`${KEY_NAMES[key]} needs a value (${KEY_NAMES[key]}=…)`);
  switch (key) {
    case 0:
      return parseMandatory(text);
    case 1:
      return parseAlpn(value!);
    case 2:
    case 8:
      return text === "" ? param(key, name) : fail(`${KEY_NAMES[key]} takes no value`);
    case 3: {
      const port = uintField({ raw: text, quoted: false }, 65535, "port");
      return port.ok ? param(3, `port=${port.value}`, u16(port.value)) : port;
    }
    case 4:
    case 6:
      return parseHints(key, text);
    case 5:
      return parseEch(text);
    case 7:
      // RFC 9461 §5: a relative URI template that uses the "dns" variable.
      if (!text.startsWith("/") || !/\{[?&]?dns\}/.test(text)) return fail('dohpath must be a path template with a {?dns} variable, e.g. "/dns-query{?dns}"');
      return param(7, `dohpath=${encodeCharString(value!)}`, octetList(value!));
    default:
      return param(key, value ? `${name}=${encodeCharString(value)}` : name, octetList(value ?? ""));
  }
}

/** A parameter's presentation form from its wire value (RFC 9460 §7 and appendix A). */
function paramText(key: number, value: Uint8Array, r: WireReader): string {
  const name = keyName(key);
  const octets = String.fromCharCode(...value);
  const lengthIs = (ok: boolean) => {
    if (!ok) r.fail(`SvcParam ${name} has ${value.length} octets, which is not a valid length for it`);
  };
  switch (key) {
    case 0:
      lengthIs(value.length > 0 && value.length % 2 === 0);
      return `mandatory=${Array.from({ length: value.length / 2 }, (_, i) => keyName((value[2 * i]! << 8) | value[2 * i + 1]!)).join(",")}`;
    case 1: {
      const ids: string[] = [];
      const list = wireReader(value);
      while (list.left > 0 && list.failure === null) ids.push(list.charString());
      if (list.failure !== null) r.fail(`SvcParam alpn: ${list.failure}`);
      return `alpn=${encodeCharString(joinValueList(ids))}`;
    }
    case 2:
    case 8:
      lengthIs(value.length === 0);
      return name;
    case 3:
      lengthIs(value.length === 2);
      return `port=${(value[0]! << 8) | value[1]!}`;
    case 4:
      lengthIs(value.length > 0 && value.length % 4 === 0);
      return `ipv4hint=${Array.from({ length: value.length / 4 }, (_, i) => [...value.subarray(4 * i, 4 * i + 4)].join(".")).join(",")}`;
    case 5:
      return `ech=${base64Text(value)}`;
    case 6: {
      lengthIs(value.length > 0 && value.length % 16 === 0);
      const address = (i: number) => Array.from({ length: 8 }, (_, g) => ((value[16 * i + 2 * g]! << 8) | value[16 * i + 2 * g + 1]!).toString(16)).join(":");
      return `ipv6hint=${Array.from({ length: value.length / 16 }, (_, i) => address(i)).join(",")}`;
    }
    case 7:
      return `dohpath=${encodeCharString(octets)}`;
    default:
      return value.length > 0 ? `${name}=${encodeCharString(octets)}` : name;
  }
}

/** Splits `key=value` / `key="value"` / `key` (RFC 9460 §2.1) into its key and decoded value. */
function readParam(token: Token): Check<{ key: number; value: Octets | null }> {
  if (token.quoted) return fail(`SvcParam ${show(token.raw)} must be written key=value`);
  const eq = token.raw.indexOf("=");
  const key = parseKey((eq === -1 ? token.raw : token.raw.slice(0, eq)).toLowerCase());
  if (!key.ok) return key;
  if (eq === -1) return ok({ key: key.value, value: null });
  let raw = token.raw.slice(eq + 1);
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) return fail(`SvcParam ${show(token.raw)} has text after its quoted value`);
    raw = raw.slice(1, -1);
  }
  const value = decodeCharString(raw);
  return value.ok ? ok({ key: key.value, value: value.value }) : fail(`SvcParam ${show(token.raw)}: ${value.error}`);
}

function consistencyProblem(params: Map<number, SvcParam>, mandatory: string | undefined): string | null {
  // RFC 9460 §8: every key listed in mandatory must be present.
  for (const name of mandatory?.slice("mandatory=".length).split(",") ?? []) {
    const key = parseKey(name);
    if (key.ok && !params.has(key.value)) return `mandatory lists ${name}, which the record does not have`;
  }
  // RFC 9460 §7.1.1: no-default-alpn only makes sense alongside alpn.
  if (params.has(2) && !params.has(1)) return "no-default-alpn requires alpn (RFC 9460 §7.1.1)";
  return null;
}

function readParams(type: string, tokens: Token[]): Check<SvcParam[]> {
  const params = new Map<number, SvcParam>();
  for (const token of tokens) {
    const read = readParam(token);
    if (!read.ok) return fail(`${type} ${read.error}`);
    if (params.has(read.value.key)) return fail(`${type} parameter ${keyName(read.value.key)} appears twice (RFC 9460 §2.2)`);
    const parsed = parseParam(read.value.key, read.value.value);
    if (!parsed.ok) return fail(`${type} ${parsed.error}`);
    params.set(read.value.key, parsed.value);
  }
  const problem = consistencyProblem(params, params.get(0)?.text);
  if (problem) return fail(`${type} ${problem}`);
  // Canonical order is ascending key number (RFC 9460 §2.2).
  return ok([...params.values()].sort((a, b) => a.key - b.key));
}

function serviceBindingWire({ priority, target, params }: ServiceBinding): Uint8Array {
  return concatWire(u16(priority), nameWire(target), ...params.flatMap((p) => [u16(p.key), u16(p.value.length), p.value]));
}

/** The descriptor of a type in the SVCB format (RFC 9460 §2): SVCB itself and HTTPS. */
export function serviceBindingRdata(about: { type: string; code: number; example: string }): RdataDescriptor<ServiceBinding> {
  const { type } = about;
  return defineRdata({
    ...about,
    shape: "a priority, a target name and optional key=value parameters",
    tokens: { min: 2, max: Number.POSITIVE_INFINITY },
    parse(tokens, origin) {
      const priority = uintField(tokens[0], 65535, `${type} priority`);
      if (!priority.ok) return priority;
      const target = nameField(tokens[1], origin, `${type} target`, { root: true, underscore: true });
      if (!target.ok) return target;
      // BIND's check-names: in ServiceMode the target is a host (an AliasMode target may be any name).
      const serviceLabel = priority.value === 0 ? undefined : target.value.split(".").find((label) => label.includes("_"));
      if (serviceLabel !== undefined) {
        return fail(
          `${type} target ${target.value} in ServiceMode (priority > 0) must be a host name: label "${serviceLabel}" has an underscore (BIND's check-names)`,
        );
      }
      const paramTokens = tokens.slice(2);
      // RFC 9460 §2.4.2: AliasMode (priority 0) carries no SvcParams.
      if (priority.value === 0 && paramTokens.length > 0) return fail(`${type} with priority 0 (AliasMode) takes no parameters (RFC 9460 §2.4.2)`);
      const params = readParams(type, paramTokens);
      if (!params.ok) return params;
      const binding = { priority: priority.value, target: target.value, params: params.value };
      if (serviceBindingWire(binding).length > MAX_RDATA_OCTETS) return fail(`${type} data is longer than ${MAX_RDATA_OCTETS} octets`);
      return ok(binding);
    },
    text: ({ priority, target, params }) => [`${priority} ${target}`, ...params.map((p) => p.text)].join(" "),
    wire: serviceBindingWire,
    names: ({ target }) => referencedName(target),
    fromWire(r) {
      const parts = [`${r.u16()}`, r.name()];
      let previous = -1;
      while (r.left > 0 && r.failure === null) {
        const key = r.u16();
        const value = r.bytes(r.u16());
        // RFC 9460 §2.2: on the wire, keys come in strictly increasing order.
        if (key <= previous) r.fail(`${type} parameters are not in strictly increasing key order (RFC 9460 §2.2)`);
        previous = key;
        parts.push(paramText(key, value, r));
      }
      return parts.join(" ");
    },
  });
}

export const SVCB = serviceBindingRdata({ type: "SVCB", code: 64, example: '1 svc.example.com. alpn="h2,h3" port=8443' });
