// RFC 5734 §4's framing (src/epp/framing.ts): a 4-byte big-endian length that counts
// itself, then the UTF-8 XML; the decoder yields whole frames from chunks of any size and
// refuses a length under 4 or over its maximum before buffering the body.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/epp/command-reader";
import { buildHello } from "../../src/epp/commands";
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameDecoder } from "../../src/epp/framing";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
const header = (length: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, length, false);
  return bytes;
};

describe("encodeFrame: the length counts its own 4 bytes, big-endian, then the XML as UTF-8", () => {
  it("a hello's frame is 4 + its UTF-8 length, in network byte order", () => {
    const xml = buildHello();
    const frame = encodeFrame(xml);
    const utf8 = new TextEncoder().encode(xml);
    expect(frame.length).toBe(4 + utf8.length);
    expect([...frame.subarray(0, 4)]).toEqual([0, 0, (frame.length >> 8) & 0xff, frame.length & 0xff]);
    expect(frame.subarray(4)).toEqual(utf8);
  });

  it("characters beyond ASCII are counted in bytes, not characters", () => {
    const frame = encodeFrame("<x>é€😀</x>");
    expect(new DataView(frame.buffer).getUint32(0, false)).toBe(4 + 7 + 2 + 3 + 4);
  });
});

describe("FrameDecoder: whole frames out of a byte stream in chunks of any size", () => {
  it("a frame split across chunks comes out once, when its last byte arrives (even a split header)", () => {
    const frame = encodeFrame(buildHello());
    const decoder = new FrameDecoder();
    expect(decoder.push(frame.subarray(0, 2))).toEqual({ frames: [] });
    expect(decoder.push(frame.subarray(2, 30))).toEqual({ frames: [] });
    expect(decoder.buffered).toBe(30);
    const last = decoder.push(frame.subarray(30));
    expect(last.frames.map(text)).toEqual([buildHello()]);
    expect(decoder.buffered).toBe(0);
    expect(parseCommand(last.frames[0]!)).toEqual({ ok: true, value: { type: "hello" } });
  });

  it("several frames in one chunk come out together, in order, the partial one after them kept", () => {
    const frames = ["<a/>", "<b>two</b>", "<c>three</c>"].map(encodeFrame);
    const decoder = new FrameDecoder();
    const chunk = concat(frames[0]!, frames[1]!, frames[2]!.subarray(0, 5));
    expect(decoder.push(chunk).frames.map(text)).toEqual(["<a/>", "<b>two</b>"]);
    expect(decoder.buffered).toBe(5);
    expect(decoder.push(frames[2]!.subarray(5)).frames.map(text)).toEqual(["<c>three</c>"]);
  });

  it("any cutting of a stream of frames into chunks yields the same frames (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 8 }), fc.array(fc.nat(60), { maxLength: 20 }), (messages, cuts) => {
        const stream = concat(...messages.map(encodeFrame));
        const decoder = new FrameDecoder();
        const out: string[] = [];
        let at = 0;
        for (const cut of cuts) {
          const end = Math.min(stream.length, at + cut);
          out.push(...decoder.push(stream.subarray(at, end)).frames.map(text));
          at = end;
        }
        out.push(...decoder.push(stream.subarray(at)).frames.map(text));
        return JSON.stringify(out) === JSON.stringify(messages) && decoder.buffered === 0;
      }),
      { numRuns: 300 },
    );
  });

  it("the frames it yields are its own copies: a chunk's buffer reused by the caller changes nothing", () => {
    const frame = encodeFrame("<hello-again/>");
    const decoder = new FrameDecoder();
    const buffer = new Uint8Array(frame.length);
    buffer.set(frame.subarray(0, 10));
    decoder.push(buffer.subarray(0, 10));
    buffer.fill(0x58);
    buffer.set(frame.subarray(10), 0);
    expect(decoder.push(buffer.subarray(0, frame.length - 10)).frames.map(text)).toEqual(["<hello-again/>"]);
  });

  it("a length of exactly 4 is an empty frame (which the XML reader then refuses)", () => {
    expect(new FrameDecoder().push(header(4)).frames).toEqual([new Uint8Array(0)]);
  });
});

describe("FrameDecoder refuses a hostile length before it buffers anything", () => {
  it("a length smaller than 4 (it cannot count its own header): frame_length_invalid, and the stream stays failed", () => {
    const decoder = new FrameDecoder();
    const result = decoder.push(concat(header(3), new Uint8Array(10)));
    expect(result).toEqual({
      frames: [],
      error: { code: "frame_length_invalid", length: 3, message: "a frame's length is 3, less than its own 4-byte header" },
    });
    expect(decoder.buffered).toBe(0);
    expect(decoder.push(encodeFrame("<a/>"))).toEqual({ frames: [], error: result.error });
  });

  it("a length over the maximum is refused from its header alone (a 4 GiB announcement buffers nothing): frame_too_large", () => {
    const decoder = new FrameDecoder();
    const result = decoder.push(header(0xffffffff));
    expect(result).toEqual({
      frames: [],
      error: { code: "frame_too_large", length: 0xffffffff, message: `a frame of 4294967295 bytes is over the maximum of ${DEFAULT_MAX_FRAME_BYTES}` },
    });
    expect(decoder.buffered).toBe(0);
  });

  it("the maximum is configurable and inclusive; frames before the bad one still come out", () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 12 });
    const fits = encodeFrame("12345678");
    expect(fits.length).toBe(12);
    const result = decoder.push(concat(fits, encodeFrame("123456789")));
    expect(result.frames.map(text)).toEqual(["12345678"]);
    expect(result.error).toEqual({ code: "frame_too_large", length: 13, message: "a frame of 13 bytes is over the maximum of 12" });
    expect(() => new FrameDecoder({ maxFrameBytes: 3 })).toThrow(RangeError);
  });
});
