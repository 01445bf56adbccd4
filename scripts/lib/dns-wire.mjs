// Just enough of the DNS wire format (RFC 1035 §4) for the scripts that talk to a DNS
// server themselves: a question to send, and the header of the answer (`npm run dns`
// waits for PowerDNS and Knot with it).
import { createSocket } from "node:dgram";
import { connect } from "node:net";

const TYPE_CODES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  CDS: 59,
  CDNSKEY: 60,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
  DNAME: 39,
  AXFR: 252,
  ANY: 255,
};
export const RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"];

/**
 * A query for `name` (no escapes) of `type`, recursion not desired, with EDNS0 (RFC 6891)
 * for a 1232-byte answer; `opcode` 5 makes it an unsigned DNS UPDATE of zone `name` with
 * nothing to update (what `npm run dns` asks the update gateway to see it answer).
 * @param {number} id
 * @param {string} name
 * @param {string} type a mnemonic of TYPE_CODES, or TYPEnnn
 * @param {number} [opcode]
 * @returns {Buffer}
 */
export function encodeQuery(id, name, type, opcode = 0) {
  const labels = name.replace(/\.$/, "").split(".").filter(Boolean);
  const qname = Buffer.concat([
    ...labels.map((/** @type {string} */ l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, "ascii")])),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE((opcode & 0x0f) << 11, 2); // QUERY (or UPDATE), RD=0
  header.writeUInt16BE(1, 4); // QDCOUNT
  header.writeUInt16BE(1, 10); // ARCOUNT: the OPT record
  const question = Buffer.alloc(4);
  const code =
    /** @type {Record<string, number | undefined>} */ (TYPE_CODES)[type.toUpperCase()] ?? (/^TYPE[0-9]{1,5}$/i.test(type) ? Number(type.slice(4)) : Number.NaN);
  // An unknown mnemonic would go out as type 0 and be answered as that (NOTIMP, or NOERROR).
  if (!(code >= 1 && code <= 65535)) throw new Error(`encodeQuery: unknown type ${type} (add it to TYPE_CODES, or write TYPEnnn)`);
  question.writeUInt16BE(code, 0);
  question.writeUInt16BE(1, 2); // IN
  const opt = Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0]); // root, OPT, 1232, no flags, no options
  return Buffer.concat([header, qname, question, opt]);
}

/**
 * @typedef {{ id: number, rcode: string, aa: boolean, tc: boolean, answers: number, authority: number }} DnsHeader
 */

/**
 * The header of an answer: id, rcode name, the AA/TC flags and the section counts.
 * @param {Buffer} message
 * @returns {DnsHeader | null}
 */
export function decodeHeader(message) {
  if (message.length < 12) return null;
  const flags = message.readUInt16BE(2);
  return {
    id: message.readUInt16BE(0),
    rcode: RCODES[flags & 0x0f] ?? `RCODE${flags & 0x0f}`,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    answers: message.readUInt16BE(6),
    authority: message.readUInt16BE(8),
  };
}

/**
 * One question over UDP to 127.0.0.1:`port`; resolves to the answer's header, or null after `timeoutMs`.
 * @param {number} port
 * @param {string} name
 * @param {string} type
 * @param {{ timeoutMs?: number, opcode?: number }} [options]
 * @returns {Promise<DnsHeader | null>}
 */
export function udpQuery(port, name, type, { timeoutMs = 1000, opcode = 0 } = {}) {
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    const id = Math.floor(Math.random() * 0x10000);
    const done = (/** @type {DnsHeader | null} */ value) => {
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on("error", () => done(null));
    socket.on("message", (message) => {
      const header = decodeHeader(message);
      if (header?.id === id) done(header);
    });
    socket.send(encodeQuery(id, name, type, opcode), port, "127.0.0.1");
  });
}

/**
 * One question over TCP (RFC 1035 §4.2.2, RFC 7766) to 127.0.0.1:`port`; resolves to the
 * header of the first message of the answer (for AXFR, its first message), or null after
 * `timeoutMs` or when the connection fails.
 * @param {number} port
 * @param {string} name
 * @param {string} type
 * @param {{ timeoutMs?: number, opcode?: number }} [options]
 * @returns {Promise<DnsHeader | null>}
 */
export function tcpQuery(port, name, type, { timeoutMs = 1000, opcode = 0 } = {}) {
  return new Promise((resolve) => {
    const id = Math.floor(Math.random() * 0x10000);
    const query = encodeQuery(id, name, type, opcode);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(query.length, 0);
    let received = Buffer.alloc(0);
    const socket = connect({ host: "127.0.0.1", port });
    const done = (/** @type {DnsHeader | null} */ value) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on("error", () => done(null));
    socket.on("close", () => done(null));
    socket.on("connect", () => socket.write(Buffer.concat([length, query])));
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const header = decodeHeader(received.subarray(2, 2 + received.readUInt16BE(0)));
      done(header?.id === id ? header : null);
    });
  });
}
