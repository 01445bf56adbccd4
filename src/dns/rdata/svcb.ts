// SVCB and HTTPS (RFC 9460): priority, target name, then SvcParams `key[=value]`.
// Keys known here: mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint
// (RFC 9460 §7), dohpath (RFC 9461), ohttp (RFC 9540), and any `keyNNNNN`.
import { parseIPv4, parseIPv6 } from "../ip";
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS, octetsToLatin1, utf8 } from "./character-string";
import { countProblem, nameField, uintField, type RdataParser } from "./fields";
import { content, fail, ok, show, type Check, type RdataResult } from "../result";
import type { Token } from "./tokens";
import type { RecordType } from "./types";

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

/** A parameter ready to print: its key number, presentation text, and wire length. */
interface SvcParam {
  key: number;
  text: string;
  octets: number;
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
function splitValueList(bytes: Uint8Array): Uint8Array[] {
  const items: Uint8Array[] = [];
  let item: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x5c && i + 1 < bytes.length) item.push(bytes[++i]!);
    else if (b === 0x2c) {
      items.push(Uint8Array.from(item));
      item = [];
    } else item.push(b);
  }
  items.push(Uint8Array.from(item));
  return items;
}

function joinValueList(items: Uint8Array[]): Uint8Array {
  const out: number[] = [];
  items.forEach((item, index) => {
    if (index > 0) out.push(0x2c);
    for (const b of item) {
      if (b === 0x2c || b === 0x5c) out.push(0x5c);
      out.push(b);
    }
  });
  return Uint8Array.from(out);
}

function param(key: number, text: string, octets: number): Check<SvcParam> {
  return ok({ key, text, octets });
}

function parseAlpn(value: Uint8Array): Check<SvcParam> {
  const ids = splitValueList(value);
  if (ids.some((id) => id.length === 0 || id.length > 255))
    return fail("alpn must be a comma-separated list of protocol ids, each 1–255 bytes (e.g. alpn=h2,h3)");
  const octets = ids.reduce((sum, id) => sum + 1 + id.length, 0);
  return param(1, `alpn=${encodeCharString(joinValueList(ids))}`, octets);
}

function parseHints(key: 4 | 6, value: string): Check<SvcParam> {
  const name = KEY_NAMES[key]!;
  const parse = key === 4 ? parseIPv4 : parseIPv6;
  const addresses = value.split(",").map((text) => parse(text));
  if (value === "" || addresses.some((ip) => ip === null)) {
    return fail(`${name} must be a comma-separated list of IPv${key} addresses`);
  }
  return param(key, `${name}=${addresses.map((ip) => ip!.text).join(",")}`, addresses.length * (key === 4 ? 4 : 16));
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
  return param(0, `mandatory=${keys.map(keyName).join(",")}`, keys.length * 2);
}

function parseEch(value: string): Check<SvcParam> {
  // ECHConfigList in base64 (RFC 4648 §4), as RFC 9460 §9 presents it.
  if (value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    return fail("ech must be an ECHConfigList in base64");
  }
  const padding = value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0;
  return param(5, `ech=${value}`, (value.length / 4) * 3 - padding);
}

/** Parses one known or generic parameter from its decoded value (null: no `=value`). */
function parseParam(key: number, value: Uint8Array | null): Check<SvcParam> {
  const name = keyName(key);
  const text = value === null ? "" : octetsToLatin1(value);
  const needsValue = key === 0 || key === 1 || key === 3 || key === 4 || key === 5 || key === 6 || key === 7;
  if (needsValue && text === "") return fail(`${KEY_NAMES[key]} needs a value (${KEY_NAMES[key]}=…)`);
  switch (key) {
    case 0:
      return parseMandatory(text);
    case 1:
      return parseAlpn(value!);
    case 2:
    case 8:
      return text === "" ? param(key, name, 0) : fail(`${KEY_NAMES[key]} takes no value`);
    case 3: {
      const port = uintField({ raw: text, quoted: false }, 65535, "port");
      return port.ok ? param(3, `port=${port.value}`, 2) : port;
    }
    case 4:
    case 6:
      return parseHints(key, text);
    case 5:
      return parseEch(text);
    case 7:
      // RFC 9461 §5: a relative URI template that uses the "dns" variable.
      if (!text.startsWith("/") || !/\{[?&]?dns\}/.test(text)) return fail('dohpath must be a path template with a {?dns} variable, e.g. "/dns-query{?dns}"');
      return param(7, `dohpath=${encodeCharString(value!)}`, value!.length);
    default:
      return param(key, value && value.length > 0 ? `${name}=${encodeCharString(value)}` : name, value?.length ?? 0);
  }
}

/** Splits `key=value` / `key="value"` / `key` (RFC 9460 §2.1) into its key and decoded value. */
function readParam(token: Token): Check<{ key: number; value: Uint8Array | null }> {
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

function canonicalServiceBinding(type: RecordType): RdataParser {
  return (tokens, origin) => {
    const problem = countProblem(type, tokens, 2, Number.POSITIVE_INFINITY);
    if (problem) return fail(problem);
    const priority = uintField(tokens[0], 65535, `${type} priority`);
    if (!priority.ok) return priority;
    const target = nameField(tokens[1], origin, `${type} target`, { root: true, underscore: true });
    if (!target.ok) return target;
    const paramTokens = tokens.slice(2);
    // RFC 9460 §2.4.2: AliasMode (priority 0) carries no SvcParams.
    if (priority.value === 0 && paramTokens.length > 0) return fail(`${type} with priority 0 (AliasMode) takes no parameters (RFC 9460 §2.4.2)`);
    return renderParams(type, `${priority.value} ${target.value}`, target.value, paramTokens);
  };
}

function renderParams(type: RecordType, head: string, target: string, tokens: Token[]): RdataResult {
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
  const sorted = [...params.values()].sort((a, b) => a.key - b.key);
  const octets = 2 + (target === "." ? 1 : utf8(target).length + 1) + sorted.reduce((sum, p) => sum + 4 + p.octets, 0);
  if (octets > MAX_RDATA_OCTETS) return fail(`${type} data is longer than ${MAX_RDATA_OCTETS} octets`);
  return content([head, ...sorted.map((p) => p.text)].join(" "));
}

export const canonicalSvcb = canonicalServiceBinding("SVCB");
export const canonicalHttps = canonicalServiceBinding("HTTPS");
