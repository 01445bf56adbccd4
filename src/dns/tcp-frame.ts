// DNS messages over TCP (RFC 1035 §4.2.2, RFC 7766 §8): each message behind a two-octet
// length. Pure over a stream's reader, so a test reads it from any stream.
import { MAX_MESSAGE_OCTETS } from "./message";

/** The message behind its two-octet length. */
export function framedMessage(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + message.length);
  out[0] = message.length >> 8;
  out[1] = message.length & 0xff;
  out.set(message, 2);
  return out;
}

/**
 * The first message `reader` delivers behind its two-octet length, however the octets
 * arrive split, or why none came whole (the stream ended first, an empty message).
 */
export async function readFramed(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | { error: string }> {
  let buffer = new Uint8Array(0);
  let length: number | null = null;
  for (;;) {
    if (length === null && buffer.length >= 2) {
      length = (buffer[0]! << 8) | buffer[1]!;
      if (length === 0) return { error: "the server sent an empty message" };
    }
    if (length !== null && buffer.length >= 2 + length) return buffer.slice(2, 2 + length);
    const { value, done } = await reader.read();
    if (done) return { error: "the server closed the connection before its whole response" };
    // Two octets of length say at most MAX_MESSAGE_OCTETS: what follows the message is not read.
    const grown = new Uint8Array(Math.min(buffer.length + value.length, 2 + MAX_MESSAGE_OCTETS));
    grown.set(buffer);
    grown.set(value.subarray(0, grown.length - buffer.length), buffer.length);
    buffer = grown;
  }
}
