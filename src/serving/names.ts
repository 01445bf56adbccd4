// Names as PowerDNS's remote backend sends them: DNSName::toString(), i.e. RFC 1035 §5.1
// presentation form with a trailing dot, in the letter case of the query, with `\.` and
// `\DDD` escapes for bytes that are not plain (e.g. `a\.b.example.com.`, `\032x.example.`).

/** A name ready to be compared with stored names: its labels lowercased, and its keys. */
export interface QueryName {
  /** Labels, leftmost first, each in the stored alphabet or escaped (see labelKey). */
  labels: string[];
  /** The whole name as stored names are written: lowercase, dot-separated, no trailing dot; "" for the root. */
  key: string;
}

const MAX_WIRE_OCTETS = 255;
const MAX_LABEL_OCTETS = 63;
/** What stored names are made of (src/dns/name.ts: LDH, `_`, and `*` as a whole label). */
const STORED_ALPHABET = /^[a-z0-9_*-]$/;

/**
 * A label's key: ASCII letters lowercased (DNS names compare case-insensitively, RFC 4343),
 * bytes of the stored alphabet as they are, any other byte as `\DDD`. A stored name never
 * holds a backslash, so a label with such a byte matches no stored name, and a label
 * holding a dot (`a\.b`) can never be mistaken for two labels.
 */
function labelKey(bytes: number[]): string {
  let key = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte).toLowerCase();
    key += STORED_ALPHABET.test(char) ? char : `\\${String(byte).padStart(3, "0")}`;
  }
  return key;
}

/**
 * Reads a presentation-form name (trailing dot optional). Null when it is not a name: an
 * empty label, a label over 63 octets, a name over 255 octets on the wire, a dangling or
 * out-of-range escape.
 */
export function parseQueryName(text: string): QueryName | null {
  if (text === "." || text === "") return { labels: [], key: "" };
  const labels: string[] = [];
  let current: number[] = [];
  let wire = 1;
  let i = 0;
  const endLabel = (): boolean => {
    if (current.length === 0 || current.length > MAX_LABEL_OCTETS) return false;
    wire += current.length + 1;
    labels.push(labelKey(current));
    current = [];
    return true;
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === ".") {
      if (!endLabel()) return null;
      i++;
      if (i === text.length) break;
      continue;
    }
    if (char === "\\") {
      const digits = /^[0-9]{3}/.exec(text.slice(i + 1, i + 4));
      if (digits) {
        const value = Number(digits[0]);
        if (value > 255) return null;
        current.push(value);
        i += 4;
      } else if (i + 1 < text.length) {
        current.push(text.charCodeAt(i + 1));
        i += 2;
      } else {
        return null;
      }
      continue;
    }
    const code = text.charCodeAt(i);
    if (code > 0x7f) return null; // names on the wire are octets; PowerDNS escapes the rest as \DDD
    current.push(code);
    i++;
  }
  if (current.length > 0 && !endLabel()) return null;
  if (wire > MAX_WIRE_OCTETS) return null;
  return { labels, key: labels.join(".") };
}

/** The name and every name above it (`a.b.c`, `b.c`, `c`): where its zone may start. */
export function enclosingNames(name: QueryName): string[] {
  return name.labels.map((_, i) => name.labels.slice(i).join("."));
}

/** A stored name (no trailing dot) as PowerDNS reads names: absolute, with the dot. */
export function absolute(name: string): string {
  return `${name}.`;
}
