// The DS set a parent not managed here shows, asked of the parent's own name servers
// (docs/dnssec-rollovers.md "The parent"; the choice in docs/decisions.md): `DS <zone>`
// resolved iteratively (RD=0, EDNS0 with DO) from the root servers down the referrals to the
// servers authoritative for the zone's parent, and then asked of every one of the parent's
// name servers, concluding only when all of them show the same set. Pure: the queries are
// built and the responses read here (src/dns/message.ts's codec); sending a query is the
// caller's `ask` (src/jobs/dns-tcp.ts, over TCP), so the iteration runs as well over wire
// messages a test builds.
import { hexText } from "../rdata/wire";
import { CLASS_IN, type MessageRecord, nameText, parseMessage, RCODE, renderMessage, TYPE_OPT, TYPE_SOA, wireName } from "../message";
import { parseIPv4, parseIPv6 } from "../ip";
import type { DsFields, ParentAnswer } from "./parent-ds";

export const TYPE_A = 1;
export const TYPE_NS = 2;
export const TYPE_CNAME = 5;
export const TYPE_AAAA = 28;
export const TYPE_DS = 43;
export const TYPE_RRSIG = 46;

/** A name server's address: an IP address (canonical text) and a TCP port. */
export interface ServerAddress {
  ip: string;
  port: number;
}

/** `192.0.2.1:53`, `[2001:db8::1]:53`: the address as `connect()` takes it. */
export function addressText(address: ServerAddress): string {
  return address.ip.includes(":") ? `[${address.ip}]:${address.port}` : `${address.ip}:${address.port}`;
}

/**
 * The IANA root servers' IPv4 addresses, a to m (https://www.iana.org/domains/root/servers;
 * b's since 27 November 2023), where the iteration starts unless DNSSEC_ROOT_SERVERS names others.
 */
export const ROOT_SERVERS_IPV4: readonly string[] = [
  "198.41.0.4",
  "170.247.170.2",
  "192.33.4.12",
  "199.7.91.13",
  "192.203.230.10",
  "192.5.5.241",
  "192.112.36.4",
  "198.97.190.53",
  "192.36.148.17",
  "192.58.128.30",
  "193.0.14.129",
  "199.7.83.42",
  "202.12.27.33",
];

function portOf(text: string | undefined): number | null {
  if (text === undefined) return 53;
  if (!/^[1-9][0-9]{0,4}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65_535 ? port : null;
}

/**
 * The addresses of DNSSEC_ROOT_SERVERS (comma-separated `a.b.c.d`, `a.b.c.d:port`, `[v6]` or
 * `[v6]:port`, port 53 when absent); the IANA root servers when the text is empty.
 */
export function parseServerList(text: string | undefined): { ok: true; addresses: ServerAddress[] } | { ok: false; error: string } {
  if (text === undefined || text.trim() === "") return { ok: true, addresses: ROOT_SERVERS_IPV4.map((ip) => ({ ip, port: 53 })) };
  const addresses: ServerAddress[] = [];
  for (const entry of text.split(",").map((e) => e.trim())) {
    const v6 = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
    const v4 = v6 ? null : /^([0-9.]+)(?::(.*))?$/.exec(entry);
    const ip = v6 ? parseIPv6(v6[1]!) : v4 ? parseIPv4(v4[1]!) : null;
    const port = portOf((v6 ?? v4)?.[2]);
    if (!ip || port === null) {
      return { ok: false, error: `${JSON.stringify(entry.slice(0, 60))} is not an address (a.b.c.d, a.b.c.d:port, [v6] or [v6]:port)` };
    }
    addresses.push({ ip: ip.text, port });
  }
  return { ok: true, addresses };
}

/** The UDP payload size the OPT record announces (RFC 6891 §6.2.5; DNS Flag Day 2020's 1232). */
const EDNS_PAYLOAD = 1232;
/** The DO bit in the OPT record's TTL field (RFC 3225 §3). */
const EDNS_DO = 0x8000;

/** A question as the iteration asks it: `name` lower case without the trailing dot ("" for the root). */
export interface Question {
  id: number;
  name: string;
  type: number;
}

/** A query of `question`: opcode QUERY, RD=0 (the servers are asked, not a resolver), EDNS0 with DO. */
export function queryMessage(question: Question): Uint8Array {
  return renderMessage({
    id: question.id,
    opcode: 0,
    questions: [{ name: wireName(question.name), type: question.type, class: CLASS_IN }],
    sections: [[], [], [{ name: { labels: [] }, type: TYPE_OPT, class: EDNS_PAYLOAD, ttl: EDNS_DO, rdata: new Uint8Array(0) }]],
  });
}

/** A name server named in a referral or an NS set, with the addresses known for it (glue). */
export interface NameServer {
  name: string;
  addresses: ServerAddress[];
}

/** What one server's response to a question says. */
export type Reply =
  /**
   * An authoritative answer (AA, NOERROR) holding records of the question's type at its
   * name; `signers`: the RRSIGs' signer names over them; `glue`: the addresses of the
   * additional section for names in the asked server's cut.
   */
  | { kind: "answer"; records: MessageRecord[]; signers: string[]; glue: Map<string, ServerAddress[]> }
  /** An authoritative answer without them (AA NODATA, or AA NXDOMAIN); `apex`: the owner of the SOA in the authority section. */
  | { kind: "negative"; nxdomain: boolean; apex: string | null }
  /** A referral to servers of a cut strictly below the asked server's, on the way to the name. */
  | { kind: "referral"; cut: string; servers: NameServer[] }
  /** Nothing to go on: why. */
  | { kind: "unusable"; reason: string };

/** True when `name` is `ancestor` or below it ("" is the root, above every name). */
export function isAtOrBelow(name: string, ancestor: string): boolean {
  return ancestor === "" || name === ancestor || name.endsWith(`.${ancestor}`);
}

/** True when `name` lies strictly below `ancestor`. */
function isBelow(name: string, ancestor: string): boolean {
  return name !== ancestor && isAtOrBelow(name, ancestor);
}

/** A name as the iteration writes it (presentation form, lower case, no trailing dot), "." shown for the root. */
export function shownName(name: string): string {
  return name === "" ? "." : name;
}

/** The uncompressed name RDATA holds (message.ts has decompressed it), or null when it is not exactly one name. */
function rdataName(rdata: Uint8Array): string | null {
  const labels: Uint8Array[] = [];
  let at = 0;
  while (at < rdata.length) {
    const length = rdata[at]!;
    if (length === 0) return at + 1 === rdata.length ? nameText({ labels }) : null;
    if (length > 63 || at + 1 + length > rdata.length) return null;
    labels.push(rdata.subarray(at + 1, at + 1 + length));
    at += 1 + length;
  }
  return null;
}

/** The address an A (4 octets) or AAAA (16 octets) record holds. */
function rdataAddress(record: MessageRecord): string | null {
  if (record.type === TYPE_A && record.rdata.length === 4) return [...record.rdata].join(".");
  if (record.type === TYPE_AAAA && record.rdata.length === 16) {
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(((record.rdata[i]! << 8) | record.rdata[i + 1]!).toString(16));
    return parseIPv6(groups.join(":"))?.text ?? null;
  }
  return null;
}

const RCODE_NAMES = new Map<number, string>(Object.entries(RCODE).map(([name, code]) => [code, name]));

function rcodeName(rcode: number): string {
  return RCODE_NAMES.get(rcode) ?? `rcode ${rcode}`;
}

/**
 * What a response to `question`, from a server of the cut `cut`, says: a response that is
 * not one to this question (id, question section), is truncated, does not read, or is
 * neither an authoritative answer nor a referral strictly down toward the name is unusable
 * (a referral up or sideways is a lame server's). Glue is taken only for names in the asked
 * server's own cut (its bailiwick), so no server can say where another zone's servers are.
 */
export function readReply(bytes: Uint8Array, question: Question, cut: string): Reply {
  const unusable = (reason: string): Reply => ({ kind: "unusable", reason });
  const parsed = parseMessage(bytes);
  if (!parsed.ok) return unusable(`the response does not read: ${parsed.error}`);
  const { header, questions, sections } = parsed.message;
  if (!header.qr || header.opcode !== 0) return unusable("the message is not a response to a query");
  if (header.id !== question.id) return unusable("the response's id is not the query's");
  const asked = questions[0];
  if (questions.length !== 1 || !asked || nameText(asked.name) !== question.name || asked.type !== question.type || asked.class !== CLASS_IN) {
    return unusable("the response's question is not the query's");
  }
  if (header.tc) return unusable("the response is truncated");
  const [answer, authority, additional] = sections;
  const soa = authority.find((r) => r.type === TYPE_SOA && r.class === CLASS_IN);
  const apex = soa ? nameText(soa.name) : null;
  if (header.rcode === RCODE.NXDOMAIN) {
    return header.aa ? { kind: "negative", nxdomain: true, apex } : unusable("a non-authoritative NXDOMAIN");
  }
  if (header.rcode !== RCODE.NOERROR) return unusable(`the server answered ${rcodeName(header.rcode)}`);
  const atName = answer.filter((r) => r.class === CLASS_IN && nameText(r.name) === question.name);
  const records = atName.filter((r) => r.type === question.type);
  if (records.length > 0) {
    if (!header.aa) return unusable("the answer is not authoritative (AA unset)");
    const signers = atName.flatMap((r) => {
      // RRSIG RDATA (RFC 4034 §3.1): type covered (2), algorithm, labels, original TTL, expiration, inception, key tag (16 octets in all), signer's name.
      if (r.type !== TYPE_RRSIG || r.rdata.length < 19 || ((r.rdata[0]! << 8) | r.rdata[1]!) !== question.type) return [];
      const signer = rdataName(r.rdata.subarray(18, 18 + nameLength(r.rdata, 18)));
      return signer === null ? [] : [signer];
    });
    return { kind: "answer", records, signers, glue: glueOf(additional, cut) };
  }
  if (atName.some((r) => r.type === TYPE_CNAME)) return unusable(`${shownName(question.name)} is an alias (CNAME)`);
  if (header.aa) return { kind: "negative", nxdomain: false, apex };
  const ns = authority.filter((r) => r.type === TYPE_NS && r.class === CLASS_IN);
  if (ns.length === 0) return unusable("the response is neither an authoritative answer nor a referral");
  const owner = nameText(ns[0]!.name);
  if (ns.some((r) => nameText(r.name) !== owner)) return unusable("the referral's NS records have different owners");
  if (!isBelow(owner, cut) || !isAtOrBelow(question.name, owner)) {
    return unusable(`a lame referral: to ${shownName(owner)}, which is not below ${shownName(cut)} on the way to ${shownName(question.name)}`);
  }
  const glue = glueOf(additional, cut);
  const servers: NameServer[] = [];
  for (const record of ns) {
    const name = rdataName(record.rdata);
    if (name === null) return unusable("an NS record of the referral is not a name");
    if (!servers.some((s) => s.name === name)) servers.push({ name, addresses: glue.get(name) ?? [] });
  }
  return { kind: "referral", cut: owner, servers };
}

/** The A and AAAA records of an additional section whose names lie in `cut` (the asked server's bailiwick), by name. */
function glueOf(additional: readonly MessageRecord[], cut: string): Map<string, ServerAddress[]> {
  const glue = new Map<string, ServerAddress[]>();
  for (const record of additional) {
    const name = nameText(record.name);
    const ip = record.class === CLASS_IN && isAtOrBelow(name, cut) ? rdataAddress(record) : null;
    if (ip !== null) glue.set(name, [...(glue.get(name) ?? []), { ip, port: 53 }]);
  }
  return glue;
}

/** The length of the uncompressed name starting at `at` in `bytes` (to its zero octet, included). */
function nameLength(bytes: Uint8Array, at: number): number {
  let end = at;
  while (end < bytes.length && bytes[end] !== 0) end += 1 + bytes[end]!;
  return end + 1 - at;
}

/** DS RDATA (RFC 4034 §5.1): key tag, algorithm, digest type, digest (upper-case hex). */
export function dsFieldsOf(rdata: Uint8Array): DsFields | null {
  if (rdata.length < 5) return null;
  return { key_tag: (rdata[0]! << 8) | rdata[1]!, algorithm: rdata[2]!, digest_type: rdata[3]!, digest: hexText(rdata.subarray(4)).toUpperCase() };
}

/** What a DS reply says of `zone`'s DS set at its parent, and which zone (the parent's apex) said it. */
type DsView = { ok: true; records: DsFields[]; apex: string } | { ok: false; reason: string };

/**
 * A final reply to `DS <zone>` from a server reached at the cut `cut`: the DS set (an
 * authoritative answer; its RRSIGs' signer, when signed, names the parent's apex), none
 * (NODATA with the SOA of a zone above the zone, or NXDOMAIN), or nothing sure: a NODATA
 * whose SOA is the zone's own comes from a server of the child only, which cannot say
 * what the parent shows.
 */
function dsView(reply: Reply, zone: string, cut: string): DsView {
  if (reply.kind === "answer") {
    const records: DsFields[] = [];
    for (const record of reply.records) {
      const fields = dsFieldsOf(record.rdata);
      if (!fields) return { ok: false, reason: "a DS record is not DS data" };
      records.push(fields);
    }
    const signer = reply.signers.find((s) => isBelow(zone, s) && isAtOrBelow(s, cut));
    return { ok: true, records, apex: signer ?? cut };
  }
  if (reply.kind !== "negative") return { ok: false, reason: reply.kind === "unusable" ? reply.reason : "a referral" };
  if (reply.apex === zone) return { ok: false, reason: `it answered from ${zone} itself (a server of the child, not of the parent)` };
  if (reply.apex === null) return { ok: false, reason: `an authoritative ${reply.nxdomain ? "NXDOMAIN" : "NODATA"} without the zone's SOA` };
  if (!isBelow(zone, reply.apex) || !isAtOrBelow(reply.apex, cut)) {
    return { ok: false, reason: `it answered from ${shownName(reply.apex)}, which is not a zone above ${zone} below ${shownName(cut)}` };
  }
  return { ok: true, records: [], apex: reply.apex };
}

/** Sends one query to one server: the response's octets, or why none came (refused, timed out, closed). */
export type Ask = (server: ServerAddress, query: Uint8Array) => Promise<Uint8Array | { error: string }>;

/** The bounds of one zone's lookup (docs/dnssec-rollovers.md "The parent"). */
export interface ParentLookupLimits {
  /** Queries in all, referrals, the lookups of name servers without glue and the parent's servers counted. */
  queries: number;
  /** Referrals followed from the root in one iteration. */
  depth: number;
  /** Addresses tried at one cut before the iteration gives up there. */
  addressesPerCut: number;
  /** The parent's name servers asked: a parent with more concludes nothing. */
  parentServers: number;
  /** Addresses tried for one of the parent's name servers when one does not answer at all. */
  addressesPerServer: number;
  /** How deep the lookup of a glueless name server's address may nest inside another's. */
  gluelessNesting: number;
}

/**
 * 30 queries: a zone under a TLD of 13 name servers (com) takes 16 (the root, the TLD's
 * referral, the TLD's NS set, each of its 13 servers); 13 parent servers: the most a TLD
 * has (the root and com have 13).
 */
export const PARENT_LOOKUP_LIMITS: ParentLookupLimits = {
  queries: 30,
  depth: 12,
  addressesPerCut: 4,
  parentServers: 13,
  addressesPerServer: 2,
  gluelessNesting: 2,
};

function randomId(): number {
  return crypto.getRandomValues(new Uint16Array(1))[0]!;
}

/** Lower case, no trailing dot: the form names are compared in. */
function bare(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}

function dsKey(ds: DsFields): string {
  return `${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest}`;
}

/** The order addresses are tried in: IPv4 first. */
function byFamily(addresses: readonly ServerAddress[]): ServerAddress[] {
  return [...addresses.filter((a) => !a.ip.includes(":")), ...addresses.filter((a) => a.ip.includes(":"))];
}

class OutOfQueries extends Error {}

/** A server as a reason names it: its name and the address asked (a root server of DNSSEC_ROOT_SERVERS: its address). */
function serverShown(server: NameServer, address: ServerAddress): string {
  const text = addressText(address);
  return server.name === text ? text : `${server.name} (${text})`;
}

/** One zone's lookup: the cuts learnt on the way and the queries left. */
class Lookup {
  private queries = 0;
  /** The name servers of each cut a referral named ("" is the root). */
  private readonly cuts = new Map<string, NameServer[]>();
  /** Addresses looked up for glueless name servers. */
  private readonly looked = new Map<string, ServerAddress[]>();

  constructor(
    roots: readonly ServerAddress[],
    private readonly ask: Ask,
    private readonly limits: ParentLookupLimits,
    private readonly nextId: () => number,
  ) {
    this.cuts.set(
      "",
      roots.map((a) => ({ name: addressText(a), addresses: [a] })),
    );
  }

  get spent(): number {
    return this.queries;
  }

  /** Asks one server one question; OutOfQueries once the bound is reached. */
  async query(server: ServerAddress, name: string, type: number, cut: string): Promise<Reply | { kind: "silent"; reason: string }> {
    if (this.queries >= this.limits.queries) throw new OutOfQueries();
    this.queries++;
    const question = { id: this.nextId(), name, type };
    const bytes = await this.ask(server, queryMessage(question));
    if (!(bytes instanceof Uint8Array)) return { kind: "silent", reason: bytes.error };
    return readReply(bytes, question, cut);
  }

  /** The deepest cut a referral named that lies above `name` (strictly above, for `DS`: the DS is the parent's). */
  private startCut(name: string, strictly: boolean): string {
    let best = "";
    for (const cut of this.cuts.keys()) {
      if ((strictly ? isBelow(name, cut) : isAtOrBelow(name, cut)) && cut.length > best.length) best = cut;
    }
    return best;
  }

  /** The addresses of a name server: its glue, else its A (then AAAA) records looked up by the same iteration. */
  async addressesOf(server: NameServer, nesting: number): Promise<ServerAddress[]> {
    if (server.addresses.length > 0) return byFamily(server.addresses);
    const known = this.looked.get(server.name);
    if (known) return known;
    if (nesting >= this.limits.gluelessNesting || server.name.includes("\\")) return [];
    const found: ServerAddress[] = [];
    for (const type of [TYPE_A, TYPE_AAAA]) {
      const result = await this.iterate(server.name, type, nesting + 1, (reply) => {
        if (reply.kind === "negative") return { ok: true, value: [] };
        if (reply.kind !== "answer") return { ok: false, reason: "no answer" };
        return { ok: true, value: reply.records.flatMap((r) => (rdataAddress(r) ? [{ ip: rdataAddress(r)!, port: 53 }] : [])) };
      });
      if (result.ok) found.push(...result.value);
      if (found.length > 0) break;
    }
    this.looked.set(server.name, found);
    return found;
  }

  /**
   * `name`/`type` asked from the deepest cut known above it down the referrals, until a
   * server gives a final reply `accept` takes; a server whose reply it does not take, or
   * that does not answer, is passed over for the cut's next address.
   */
  async iterate<T>(
    name: string,
    type: number,
    nesting: number,
    accept: (reply: Reply, cut: string) => { ok: true; value: T } | { ok: false; reason: string },
  ): Promise<{ ok: true; value: T; cut: string; server: ServerAddress } | { ok: false; reason: string }> {
    let cut = this.startCut(name, type === TYPE_DS);
    for (let depth = 0; depth <= this.limits.depth; depth++) {
      // Servers with glue first: one without costs a lookup of its own before it can be asked.
      const known = this.cuts.get(cut) ?? [];
      const servers = [...known.filter((s) => s.addresses.length > 0), ...known.filter((s) => s.addresses.length === 0)];
      let tried = 0;
      let last = "no name server with an address";
      let next: string | null = null;
      for (const server of servers) {
        if (tried >= this.limits.addressesPerCut || next !== null) break;
        for (const address of await this.addressesOf(server, nesting)) {
          if (tried >= this.limits.addressesPerCut) break;
          tried++;
          const reply = await this.query(address, name, type, cut);
          if (reply.kind === "silent" || reply.kind === "unusable") {
            last = `${serverShown(server, address)}: ${reply.reason}`;
            continue;
          }
          if (reply.kind === "referral") {
            if (type === TYPE_DS && reply.cut === name) {
              last = `${serverShown(server, address)} referred the DS question to ${name} itself`;
              continue;
            }
            if (!this.cuts.has(reply.cut)) this.cuts.set(reply.cut, reply.servers);
            next = reply.cut;
            break;
          }
          const taken = accept(reply, cut);
          if (taken.ok) return { ...taken, cut, server: address };
          last = `${serverShown(server, address)}: ${taken.reason}`;
          break;
        }
      }
      if (next === null) return { ok: false, reason: `no server of ${shownName(cut)} answered ${shownName(name)}: ${last}` };
      cut = next;
    }
    return { ok: false, reason: `more than ${this.limits.depth} referrals on the way to ${shownName(name)}` };
  }

  /**
   * The parent's name servers: the referral's NS set to its cut, and the NS set its apex
   * answers (with the addresses the answer gives for names in the parent), together. The
   * root's are the configured root servers.
   */
  async parentServers(apex: string, server: ServerAddress): Promise<{ ok: true; servers: NameServer[] } | { ok: false; reason: string }> {
    if (apex === "") return { ok: true, servers: this.cuts.get("") ?? [] };
    const reply = await this.query(server, apex, TYPE_NS, apex);
    if (reply.kind !== "answer") {
      return {
        ok: false,
        reason: `${addressText(server)} did not answer the NS set of ${shownName(apex)}: ${reply.kind === "silent" || reply.kind === "unusable" ? reply.reason : "no NS records"}`,
      };
    }
    const servers = (this.cuts.get(apex) ?? []).map((s) => ({ name: s.name, addresses: [...s.addresses] }));
    for (const record of reply.records) {
      const name = rdataName(record.rdata);
      if (name === null) return { ok: false, reason: `an NS record of ${shownName(apex)} is not a name` };
      if (!servers.some((s) => s.name === name)) servers.push({ name, addresses: reply.glue.get(name) ?? [] });
    }
    return { ok: true, servers: servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  }
}

/**
 * The DS set `zone`'s parent shows, asked of its name servers: found from `roots` down the
 * referrals, then `DS <zone>` asked of every name server of the parent (its NS set as the
 * referral to it and its apex give it), one answer each. A set only when every one of them
 * answered and all show the same set (none: the same empty set); anything else — a server
 * that does not answer or answers nothing sure, two servers that disagree, a bound reached —
 * is `unavailable`, so a change is never seen before every server of the parent shows it.
 */
export async function lookupParentDs(
  zone: string,
  roots: readonly ServerAddress[],
  ask: Ask,
  options: { limits?: Partial<ParentLookupLimits>; nextId?: () => number } = {},
): Promise<ParentAnswer & { queries: number }> {
  const limits = { ...PARENT_LOOKUP_LIMITS, ...options.limits };
  const name = bare(zone);
  const lookup = new Lookup(roots, ask, limits, options.nextId ?? randomId);
  const unavailable = (reason: string) => ({ kind: "unavailable" as const, reason, queries: lookup.spent });
  if (name === "") return unavailable("the root has no parent");
  try {
    const found = await lookup.iterate(name, TYPE_DS, 0, (reply, cut) => {
      const view = dsView(reply, name, cut);
      return view.ok ? { ok: true, value: view.apex } : view;
    });
    if (!found.ok) return unavailable(found.reason);
    const apex = found.value;
    const parent = await lookup.parentServers(apex, found.server);
    if (!parent.ok) return unavailable(parent.reason);
    if (parent.servers.length > limits.parentServers) {
      return unavailable(`${shownName(apex)} has ${parent.servers.length} name servers, more than the ${limits.parentServers} asked`);
    }
    let first: { server: string; records: DsFields[]; keys: string } | null = null;
    for (const server of parent.servers) {
      const addresses = (await lookup.addressesOf(server, 0)).slice(0, limits.addressesPerServer);
      if (addresses.length === 0) return unavailable(`no address of ${server.name}, a name server of ${shownName(apex)}, was found`);
      let view: DsView | null = null;
      let silent = "";
      for (const address of addresses) {
        const reply = await lookup.query(address, name, TYPE_DS, apex);
        if (reply.kind === "silent") {
          silent = `${addressText(address)}: ${reply.reason}`;
          continue;
        }
        view = dsView(reply, name, apex);
        break;
      }
      if (view === null) return unavailable(`${server.name}, a name server of ${shownName(apex)}, did not answer (${silent})`);
      if (!view.ok) return unavailable(`${server.name}, a name server of ${shownName(apex)}, said nothing sure: ${view.reason}`);
      if (view.apex !== apex) return unavailable(`${server.name} answered from ${shownName(view.apex)}, not ${shownName(apex)}`);
      const keys = [...new Set(view.records.map(dsKey))].sort().join("\n");
      if (first === null) first = { server: server.name, records: view.records, keys };
      else if (keys !== first.keys) return unavailable(`${server.name} answered a different DS set than ${first.server}`);
    }
    if (first === null) return unavailable(`${shownName(apex)} has no name servers`);
    const unique = new Map(first.records.map((r) => [dsKey(r), r]));
    return { kind: "ds", records: [...unique.values()], queries: lookup.spent };
  } catch (error) {
    if (error instanceof OutOfQueries) return unavailable(`no conclusion within ${limits.queries} queries`);
    throw error;
  }
}
