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
 * arrive split, or why none came whole (the stream ended first, an empty message). Each
 * octet is copied once: the two of the length apart, then the message into a buffer of its
 * size (at most MAX_MESSAGE_OCTETS, what two octets say), so a server sending one octet at
 * a time costs no more than one sending it whole.
 */
export async function readFramed(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | { error: string }> {
  const prefix = new Uint8Array(2);
  let prefixRead = 0;
  let message: Uint8Array | null = null;
  let filled = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { error: "the server closed the connection before its whole response" };
    let at = 0;
    while (message === null && prefixRead < 2 && at < value.length) prefix[prefixRead++] = value[at++]!;
    if (message === null) {
      if (prefixRead < 2) continue;
      const length = (prefix[0]! << 8) | prefix[1]!;
      if (length === 0) return { error: "the server sent an empty message" };
      message = new Uint8Array(Math.min(length, MAX_MESSAGE_OCTETS));
    }
    // What follows the message is not read.
    const take = Math.min(value.length - at, message.length - filled);
    message.set(value.subarray(at, at + take), filled);
    filled += take;
    if (filled === message.length) return message;
  }
}
