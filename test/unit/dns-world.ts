// Small authoritative DNS servers over wire messages built with the codec (src/dns/message.ts),
// and a world of them at their addresses: what the DS lookup of a parent not managed here
// (src/dns/dnssec/parent-servers.ts) is tested against, in test/unit/ and through the run.
import type { DsFields } from "../../src/dns/dnssec/parent-ds";
import { type Ask, addressText, isAtOrBelow, type ServerAddress, TYPE_A, TYPE_DS, TYPE_NS, TYPE_RRSIG } from "../../src/dns/dnssec/parent-servers";
import { CLASS_IN, type MessageRecord, nameText, parseMessage, RCODE, renderMessage, TYPE_SOA, wireName } from "../../src/dns/message";
import { concatWire, hexOctets, nameWire, u16, u32, u8 } from "../../src/dns/rdata/wire";

export type Rec = Omit<MessageRecord, "offset">;
export interface Query {
  id: number;
  name: string;
  type: number;
}

export const rec = (owner: string, type: number, rdata: Uint8Array): Rec => ({ name: wireName(owner), type, class: CLASS_IN, ttl: 3600, rdata });
export const nsRec = (owner: string, target: string) => rec(owner, TYPE_NS, Uint8Array.from(nameWire(target)));
export const aRec = (owner: string, ip: string) => rec(owner, TYPE_A, Uint8Array.from(ip.split(".").map(Number)));
export const soaRec = (owner: string) =>
  rec(owner, TYPE_SOA, concatWire(nameWire(`ns.${owner}`), nameWire(`hostmaster.${owner}`), u32(1), u32(7200), u32(900), u32(1_209_600), u32(300)));
export const dsRec = (owner: string, ds: DsFields) =>
  rec(owner, TYPE_DS, concatWire(u16(ds.key_tag), u8(ds.algorithm), u8(ds.digest_type), hexOctets(ds.digest)));
export const rrsigRec = (owner: string, covered: number, signer: string) =>
  rec(
    owner,
    TYPE_RRSIG,
    concatWire(u16(covered), u8(13), u8(2), u32(3600), u32(2_000_000_000), u32(1_700_000_000), u16(4242), nameWire(signer), new Uint8Array(64)),
  );

/** A response to `q` as a server writes it (AA and TC set by hand: the codec's renderMessage writes neither). */
export function respond(
  q: Query,
  r: { aa?: boolean; tc?: boolean; rcode?: number; answer?: Rec[]; authority?: Rec[]; additional?: Rec[]; id?: number; name?: string },
): Uint8Array {
  const bytes = renderMessage({
    id: r.id ?? q.id,
    opcode: 0,
    qr: true,
    rcode: r.rcode ?? RCODE.NOERROR,
    questions: [{ name: wireName(r.name ?? q.name), type: q.type, class: CLASS_IN }],
    sections: [r.answer ?? [], r.authority ?? [], r.additional ?? []],
  });
  bytes[2]! |= (r.aa ? 0x04 : 0) | (r.tc ? 0x02 : 0);
  return bytes;
}

/** A zone as a small authoritative server serves it: its NS set, its delegations (with glue, or without), the DS sets it holds, its A records. */
export interface Zone {
  apex: string;
  ns: string[];
  delegations?: Record<string, [string, string?][]>;
  ds?: Record<string, DsFields[]>;
  a?: Record<string, string>;
  signed?: boolean;
}

export type Server = (q: Query) => Uint8Array | { error: string };

/** An authoritative server of `zones` (RFC 1034 §4.3.2, the DS at the parent's side of a cut as RFC 4035 §3.1.4.1 has it). */
export function authoritative(...zones: Zone[]): Server {
  return (q) => {
    const zone = zones.filter((z) => isAtOrBelow(q.name, z.apex)).sort((a, b) => b.apex.length - a.apex.length)[0];
    if (!zone) return respond(q, { rcode: RCODE.REFUSED });
    const cut = Object.keys(zone.delegations ?? {}).find((d) => isAtOrBelow(q.name, d) && !(q.type === TYPE_DS && q.name === d));
    if (cut) {
      const servers = zone.delegations![cut]!;
      return respond(q, {
        authority: servers.map(([name]) => nsRec(cut, name)),
        additional: servers.flatMap(([name, ip]) => (ip ? [aRec(name, ip)] : [])),
      });
    }
    const answer: Rec[] = [];
    if (q.type === TYPE_DS && zone.ds?.[q.name]) answer.push(...zone.ds[q.name]!.map((d) => dsRec(q.name, d)));
    if (q.type === TYPE_NS && q.name === zone.apex) answer.push(...zone.ns.map((n) => nsRec(zone.apex, n)));
    if (q.type === TYPE_A && zone.a?.[q.name]) answer.push(aRec(q.name, zone.a[q.name]!));
    if (answer.length > 0) {
      if (zone.signed) answer.push(rrsigRec(q.name, q.type, zone.apex));
      // An NS set's addresses the zone holds go in the additional section (RFC 1034 §4.3.2 step 6).
      const additional = q.type === TYPE_NS ? zone.ns.flatMap((n) => (zone.a?.[n] ? [aRec(n, zone.a[n]!)] : [])) : [];
      return respond(q, { aa: true, answer, additional });
    }
    const exists = q.name === zone.apex || q.name in (zone.ds ?? {}) || q.name in (zone.a ?? {}) || q.name in (zone.delegations ?? {});
    return respond(q, { aa: true, rcode: exists ? RCODE.NOERROR : RCODE.NXDOMAIN, authority: [soaRec(zone.apex)] });
  };
}

/** The servers at their addresses, and what was asked of each. */
export function world(servers: Record<string, Server>) {
  const asked: { server: string; name: string; type: number; query: Uint8Array }[] = [];
  const ask: Ask = async (address: ServerAddress, query: Uint8Array) => {
    const parsed = parseMessage(query);
    if (!parsed.ok) throw new Error(parsed.error);
    const question = parsed.message.questions[0]!;
    const q = { id: parsed.message.header.id, name: nameText(question.name), type: question.type };
    asked.push({ server: addressText(address), name: q.name, type: q.type, query });
    const server = servers[addressText(address)];
    return server ? server(q) : { error: "the connection failed (connection refused)" };
  };
  return { ask, asked };
}
