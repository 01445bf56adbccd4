// A master file is octets (RFC 1035 §5.1), read here as text. UTF-8 is the usual case; an
// octet that is not part of valid UTF-8 becomes the `\DDD` escape that means that very
// octet in a master file, so the file still reads: inside a quoted string it is kept as
// the octet it was (as BIND keeps it), and in an owner name the line is refused for its
// escape, not the whole file for its encoding.

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
// A byte-order mark is kept where it is: the lexer skips one at the very start.
const runDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The length of the valid UTF-8 sequence at `at` (RFC 3629 §4), or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const b0 = bytes[at]!;
  if (b0 < 0x80) return 1;
  const continuation = (i: number, low = 0x80, high = 0xbf) => {
    const b = bytes[at + i];
    return b !== undefined && b >= low && b <= high;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return continuation(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [low, high] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [low, high] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/** The text of a master file's octets; octets outside valid UTF-8 become `\DDD`. */
export function decodeMasterFile(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    // Some octets are not UTF-8: decode the valid runs, escape the rest.
  }
  let text = "";
  let runStart = 0;
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    let run = runDecoder.decode(bytes.subarray(runStart, at));
    // A backslash before the octet escaped it: `\` + octet is the octet itself, so the
    // escape replaces both (an escaped backslash before it, `\\`, stays as it is).
    let backslashes = 0;
    while (backslashes < run.length && run[run.length - 1 - backslashes] === "\\") backslashes++;
    if (backslashes % 2 === 1) run = run.slice(0, -1);
    text += `${run}\\${String(bytes[at]).padStart(3, "0")}`;
    at += 1;
    runStart = at;
  }
  return text + runDecoder.decode(bytes.subarray(runStart));
}
