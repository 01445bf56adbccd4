// The update gateway of the serving tier (docs/dns-update.md): DNS UPDATE (RFC 2136) over
// UDP and TCP (RFC 1035 §4.2.2's two-octet length framing, RFC 7766), each message
// forwarded whole, with the client's address, in ONE HTTP request to the service's DNS
// backend (`POST /v1/pdns/<dns token>/update`), which verifies the TSIG, decides and
// answers; the gateway sends that answer back. It knows nothing of DNS but the framing and
// a header: everything else is the service's (src/resources/pdns/dns-update.ts). Requests
// run side by side, so one client's large update holds no one else's (HTTP keep-alive
// connections to the service, as many as there are updates in flight).
//
// What the service answers 422 (not a DNS request: too short, or a response) is dropped, as
// a DNS server drops what it cannot answer; when the service cannot be reached or fails
// (5xx), the client gets SERVFAIL, built here from the request's header.
// Questions go the same way: clients find the zone to update by asking the server they
// update for its SOA (certbot's dns-rfc2136 does, signed with its update key), and the
// service answers that too.
import { createSocket } from "node:dgram";
import { createServer } from "node:net";

/** The largest DNS message (one TCP message). */
const MAX_MESSAGE = 65_535;
/** How long the service may take to answer one update (a 1 000-record one takes about a second). */
const SERVICE_TIMEOUT_MS = 30_000;
/** A TCP connection with no message for this long is closed (RFC 7766 §6.2.3 suggests seconds). */
const TCP_IDLE_MS = 10_000;

/**
 * SERVFAIL for a request: its id and opcode, QR set, no sections (RFC 1035 §4.1.1).
 * @param {Buffer} request
 */
export function servfail(request) {
  const answer = Buffer.alloc(12);
  answer.writeUInt16BE(request.readUInt16BE(0), 0);
  answer.writeUInt16BE(0x8000 | (request.readUInt16BE(2) & 0x7800) | 2, 2);
  return answer;
}

/** `address#port`, as the service's DNS-Client header takes it. */
const clientOf = (/** @type {string} */ address, /** @type {number} */ port) => `${address.replace(/^::ffff:/, "")}#${port}`;

/**
 * Starts a gateway on `host`:`port` (UDP and TCP) for the service at `api` with the dns
 * token `token`. Resolves once both listen, to { port, close() }.
 * `log(line)` receives one line per update (the client, the transport, the size, the
 * outcome and the time).
 * @param {{ api: string, token: string, host?: string, port: number, log?: (line: string) => void }} options
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
export async function startUpdateGateway({ api, token, host = "127.0.0.1", port, log = () => {} }) {
  const url = `${api.replace(/\/+$/, "")}/v1/pdns/${token}/update`;
  /**
   * The answer to one message: the octets to send back, or null to send nothing.
   * @param {Buffer} message
   * @param {string} client
   * @param {"udp" | "tcp"} transport
   * @returns {Promise<Buffer | null>}
   */
  async function forward(message, client, transport) {
    if (message.length < 12 || ((message[2] ?? 0) & 0x80) !== 0) return null;
    const started = Date.now();
    let outcome;
    let answer;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/dns-message", "dns-client": client },
        body: message,
        signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
      });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status === 200) {
        answer = body;
        outcome = decodeOutcome(response.headers.get("dns-update-outcome") ?? "");
      } else if (response.status === 422) {
        answer = null;
        outcome = "dropped (not a DNS request)";
      } else {
        answer = servfail(message);
        outcome = `SERVFAIL (the service answered HTTP ${response.status})`;
      }
    } catch (caught) {
      const error = /** @type {Error} */ (caught);
      answer = servfail(message);
      outcome = `SERVFAIL (the service did not answer: ${error.name === "TimeoutError" ? "timeout" : error.message})`;
    }
    log(`${client} ${transport} ${message.length} B: ${outcome} (${Date.now() - started} ms)`);
    return answer;
  }

  const udp = createSocket({ type: "udp4", recvBufferSize: 1 << 20 });
  udp.on("message", (message, remote) => {
    forward(message, clientOf(remote.address, remote.port), "udp").then((answer) => {
      if (answer) udp.send(answer, remote.port, remote.address);
    });
  });

  const tcp = createServer({ noDelay: true }, (socket) => {
    let buffered = Buffer.alloc(0);
    let queue = Promise.resolve();
    const client = clientOf(socket.remoteAddress ?? "", socket.remotePort ?? 0);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Each complete message in order; their answers in the same order (one client's updates are sequential).
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        socket.setTimeout(SERVICE_TIMEOUT_MS + TCP_IDLE_MS);
        queue = queue.then(async () => {
          const answer = await forward(Buffer.from(message), client, "tcp");
          if (!answer || socket.destroyed) return;
          const framed = Buffer.alloc(2 + answer.length);
          framed.writeUInt16BE(answer.length, 0);
          answer.copy(framed, 2);
          socket.write(framed);
          socket.setTimeout(TCP_IDLE_MS);
        });
      }
      if (buffered.length > 2 + MAX_MESSAGE) socket.destroy();
    });
  });

  await new Promise((/** @type {(value?: undefined) => void} */ resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen({ host, port, exclusive: true }, resolve);
  });
  const bound = /** @type {import("node:net").AddressInfo} */ (tcp.address()).port;
  await new Promise((/** @type {(value?: undefined) => void} */ resolve, reject) => {
    udp.once("error", reject);
    udp.bind({ address: host, port: bound, exclusive: true }, resolve);
  });
  return {
    port: bound,
    close: () =>
      new Promise((/** @type {(value?: undefined) => void} */ resolve) => {
        udp.close();
        tcp.close(() => resolve());
      }),
  };
}

/**
 * The service's DNS-Update-Outcome header (non-ASCII percent-encoded) as text.
 * @param {string} text
 */
function decodeOutcome(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
