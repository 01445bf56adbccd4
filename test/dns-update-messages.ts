// DNS UPDATE messages for the tests, built with the service's own codec (src/dns/message.ts,
// src/dns/tsig.ts, each record type's wire form from src/dns/rdata/): an update as nsupdate
// writes one, from presentation-form records, signed as `nsupdate -y` signs it.
import { CLASS_ANY, CLASS_IN, CLASS_NONE, OPCODE_UPDATE, parseMessage, renderMessage, TYPE_ANY, TYPE_SOA, wireName } from "../src/dns/message";
import { rdataWire, typeCode, type StoredType } from "../src/dns/rdata";
import { signRequest, type TsigAlgorithm } from "../src/dns/tsig";

export interface TestKey {
  name: string;
  algorithm: TsigAlgorithm;
  /** base64, as POST /v1/tsig-keys answers it. */
  secret: string;
}

/** One line of an update, as nsupdate's commands say it. */
export type UpdateLine =
  | { add: string; ttl?: number; type: string; content: string }
  | { deleteRrset: string; type: string }
  | { deleteName: string }
  | { deleteRecord: string; type: string; content: string };

/** One prerequisite (RFC 2136 §2.4), as nsupdate's `prereq` says it. */
export type PrereqLine = { yxdomain: string } | { nxdomain: string } | { yxrrset: string; type: string; content?: string } | { nxrrset: string; type: string };

const code = (type: string) => typeCode(type.toUpperCase() as StoredType);

function rdata(type: string, content: string): Uint8Array {
  const wire = rdataWire(type.toUpperCase() as StoredType, content);
  if (!wire.ok) throw new Error(`${type} ${content}: ${wire.error}`);
  return wire.value;
}

const NONE = new Uint8Array(0);

function prereqRecord(line: PrereqLine) {
  if ("yxdomain" in line) return { name: wireName(line.yxdomain), type: TYPE_ANY, class: CLASS_ANY, ttl: 0, rdata: NONE };
  if ("nxdomain" in line) return { name: wireName(line.nxdomain), type: TYPE_ANY, class: CLASS_NONE, ttl: 0, rdata: NONE };
  if ("nxrrset" in line) return { name: wireName(line.nxrrset), type: code(line.type), class: CLASS_NONE, ttl: 0, rdata: NONE };
  if (line.content === undefined) return { name: wireName(line.yxrrset), type: code(line.type), class: CLASS_ANY, ttl: 0, rdata: NONE };
  return { name: wireName(line.yxrrset), type: code(line.type), class: CLASS_IN, ttl: 0, rdata: rdata(line.type, line.content) };
}

function updateRecord(line: UpdateLine) {
  if ("add" in line) return { name: wireName(line.add), type: code(line.type), class: CLASS_IN, ttl: line.ttl ?? 300, rdata: rdata(line.type, line.content) };
  if ("deleteRrset" in line) return { name: wireName(line.deleteRrset), type: code(line.type), class: CLASS_ANY, ttl: 0, rdata: NONE };
  if ("deleteName" in line) return { name: wireName(line.deleteName), type: TYPE_ANY, class: CLASS_ANY, ttl: 0, rdata: NONE };
  return { name: wireName(line.deleteRecord), type: code(line.type), class: CLASS_NONE, ttl: 0, rdata: rdata(line.type, line.content) };
}

let nextId = 1;

/** An unsigned UPDATE of `zone` (absolute names everywhere, no trailing dot needed). */
export function updateMessage(zone: string, updates: readonly UpdateLine[], prerequisites: readonly PrereqLine[] = [], id = nextId++ & 0xffff): Uint8Array {
  return renderMessage({
    id,
    opcode: OPCODE_UPDATE,
    questions: [{ name: wireName(zone), type: TYPE_SOA, class: CLASS_IN }],
    sections: [prerequisites.map(prereqRecord), updates.map(updateRecord), []],
  });
}

export function keyBytes(key: TestKey): Uint8Array {
  return Uint8Array.from(atob(key.secret), (c) => c.charCodeAt(0));
}

/** The message signed with `key` at `time` (seconds; now by default). */
export function signed(message: Uint8Array, key: TestKey, time = Math.floor(Date.now() / 1000)): Promise<Uint8Array> {
  return signRequest(message, { name: key.name, algorithm: key.algorithm, secret: keyBytes(key) }, time);
}

/** The answer's rcode and the TSIG error its TSIG carries (0 without one). */
export function answerOf(bytes: Uint8Array): { rcode: number; tsigError: number; signed: boolean; id: number; zone: number } {
  const parsed = parseMessage(bytes);
  if (!parsed.ok) throw new Error(`the answer does not read: ${parsed.error}`);
  const tsig = parsed.message.sections[2].find((r) => r.type === 250);
  let tsigError = 0;
  let macLength = 0;
  if (tsig) {
    const r = tsig.rdata;
    let at = 0;
    while (r[at] !== 0) at += r[at]! + 1;
    at += 1 + 6 + 2;
    macLength = (r[at]! << 8) | r[at + 1]!;
    at += 2 + macLength + 2;
    tsigError = (r[at]! << 8) | r[at + 1]!;
  }
  return { rcode: parsed.message.header.rcode, tsigError, signed: macLength > 0, id: parsed.message.header.id, zone: parsed.message.questions.length };
}
