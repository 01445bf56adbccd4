// RFC 5734 §4's data units: a 4-byte big-endian length that counts itself and the UTF-8
// XML after it. encodeFrame writes one; FrameDecoder reads them from a byte stream fed in
// chunks of any size, and refuses a length under 4 or over its maximum before it buffers
// a byte of the body, so a hostile peer cannot make it hold more than one maximum frame.

/** RFC 5734's header: 4 bytes. */
export const FRAME_HEADER_BYTES = 4;

/** 1 MiB: a 50-name check with fees is about 30 kB; registries answer far less. */
export const DEFAULT_MAX_FRAME_BYTES = 1 << 20;

export type FrameErrorCode = "frame_too_large" | "frame_length_invalid";

export interface FrameError {
  code: FrameErrorCode;
  message: string;
  /** The length the header announced. */
  length: number;
}

/** The data unit for one EPP message: the header (total length, itself included), then the XML as UTF-8. */
export function encodeFrame(xml: string | Uint8Array): Uint8Array {
  const body = typeof xml === "string" ? new TextEncoder().encode(xml) : xml;
  const total = FRAME_HEADER_BYTES + body.length;
  if (total > 0xffffffff) throw new RangeError("an EPP frame holds at most 4 GiB");
  const frame = new Uint8Array(total);
  new DataView(frame.buffer).setUint32(0, total, false);
  frame.set(body, FRAME_HEADER_BYTES);
  return frame;
}

export interface FrameDecoderOptions {
  /** The largest frame accepted, header included (DEFAULT_MAX_FRAME_BYTES unless told). */
  maxFrameBytes?: number;
}

/** What one push yields: the whole frames' bodies (the XML bytes), and the error that ended the stream, if one did. */
export interface FramePush {
  frames: Uint8Array[];
  error?: FrameError;
}

/**
 * Reads frames from a stream, chunk by chunk: a frame split across chunks comes out
 * whole when its last byte arrives, several in one chunk come out together. After an
 * error the stream has lost its framing: every later push answers the same error and no
 * frame (the connection is to be closed).
 */
export class FrameDecoder {
  readonly maxFrameBytes: number;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #error: FrameError | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isInteger(max) || max < FRAME_HEADER_BYTES || max > 0xffffffff) throw new RangeError("maxFrameBytes must be a whole number from 4 to 2^32-1");
    this.maxFrameBytes = max;
  }

  /** Bytes held for a frame not yet whole. */
  get buffered(): number {
    return this.#buffered;
  }

  /** The error that ended the stream, if one did. */
  get error(): FrameError | undefined {
    return this.#error;
  }

  push(chunk: Uint8Array): FramePush {
    if (this.#error) return { frames: [], error: this.#error };
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    while (this.#buffered >= FRAME_HEADER_BYTES) {
      const header = this.#peek(FRAME_HEADER_BYTES);
      const length = new DataView(header.buffer, header.byteOffset, FRAME_HEADER_BYTES).getUint32(0, false);
      if (length < FRAME_HEADER_BYTES)
        return this.#fail({ code: "frame_length_invalid", length, message: `a frame's length is ${length}, less than its own 4-byte header` }, frames);
      if (length > this.maxFrameBytes) {
        return this.#fail({ code: "frame_too_large", length, message: `a frame of ${length} bytes is over the maximum of ${this.maxFrameBytes}` }, frames);
      }
      if (this.#buffered < length) break;
      const frame = this.#take(length);
      frames.push(frame.subarray(FRAME_HEADER_BYTES));
    }
    // What stays of this chunk is copied, so the caller may reuse its buffer (each byte is
    // copied once at most: earlier chunks were copied by their own push).
    const last = this.#chunks.length - 1;
    if (last >= 0 && this.#chunks[last]!.buffer === chunk.buffer) this.#chunks[last] = this.#chunks[last]!.slice();
    return { frames };
  }

  #fail(error: FrameError, frames: Uint8Array[]): FramePush {
    this.#error = error;
    this.#chunks = [];
    this.#buffered = 0;
    return { frames, error };
  }

  /** The first `count` buffered bytes, without consuming them. */
  #peek(count: number): Uint8Array {
    const first = this.#chunks[0]!;
    if (first.length >= count) return first.subarray(0, count);
    const out = new Uint8Array(count);
    let filled = 0;
    for (const chunk of this.#chunks) {
      const part = chunk.subarray(0, count - filled);
      out.set(part, filled);
      filled += part.length;
      if (filled === count) break;
    }
    return out;
  }

  /** The first `count` buffered bytes, consumed, as a copy of their own. */
  #take(count: number): Uint8Array {
    const out = new Uint8Array(count);
    let filled = 0;
    while (filled < count) {
      const chunk = this.#chunks[0]!;
      const need = count - filled;
      if (chunk.length <= need) {
        out.set(chunk, filled);
        filled += chunk.length;
        this.#chunks.shift();
      } else {
        out.set(chunk.subarray(0, need), filled);
        filled += need;
        this.#chunks[0] = chunk.subarray(need);
      }
    }
    this.#buffered -= count;
    return out;
  }
}
