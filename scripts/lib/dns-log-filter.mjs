// The DNS backend's token travels in its URL path (`/v1/pdns/<token>/…`: PowerDNS's HTTP
// connector sends no headers), so that path is never printed: `wrangler dev` logs every
// request's path, and PowerDNS may log its connector URL. The scripts that show those
// programs' output (start.mjs, dns.mjs) pass it through here.
//
// A path is recognised however it is written, as a client may send it and a log print it
// before any URL parser has read it: letter case (`/v1/PDNS/`), percent-encoding
// (`/v1/%70dns/`, `%2F`), doubled slashes (`/v1//pdns/`), dot segments (`/v1/pdns/./`,
// `/v1/x/../pdns/`), backslashes. The Worker serves only `/v1/pdns/<token>/…` written as
// is (src/http/dns-backend-path.ts); the logs redact every spelling.

/**
 * A line's text with its percent-escapes decoded (malformed ones kept), at most three times over.
 * @param {string} text
 */
function decoded(text) {
  let current = text;
  for (let i = 0; i < 3; i++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, /** @type {string} */ hex) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

// A `pdns` path segment: after a slash (or backslash), before a slash, the end, or what ends a path.
const PDNS_SEGMENT = /[/\\]pdns(?=[/\\?#;\s"',]|$)/i;
// What a token looks like (`tok_<id>.<secret>`), wherever it stands.
const TOKEN_SHAPE = /tok_[0-9A-Za-z]{26}\.[A-Za-z0-9_-]+/;

/** A line that names a DNS backend path, however written, or holds a token: it may carry a secret. */
/** @type {typeof import("./dns-log-filter.mjs").namesDnsBackendPath} */
export function namesDnsBackendPath(line) {
  const plain = decoded(line);
  return PDNS_SEGMENT.test(plain) || TOKEN_SHAPE.test(plain);
}

/**
 * The line with everything after a `pdns` path segment (in any spelling) replaced, every
 * token-shaped text replaced, and every given secret replaced.
 * @type {typeof import("./dns-log-filter.mjs").redactDnsBackend}
 */
export function redactDnsBackend(line, secrets = []) {
  // Word by word (a path ends at white space or a quote): a word through /pdns/ keeps what
  // comes before the segment, decoded, and nothing after it.
  // Punctuation that ends the word (`url=…/A, timeout=…`) stays.
  let out = line.replace(/[^\s"'<>]+/g, (word) => {
    const plain = decoded(word);
    const at = plain.search(PDNS_SEGMENT);
    return at === -1 ? word : `${plain.slice(0, at)}/pdns/<dns token>${/[,;)\]]*$/.exec(word)?.[0] ?? ""}`;
  });
  out = out.replace(new RegExp(TOKEN_SHAPE.source, "g"), "<dns token>");
  for (const secret of secrets) if (secret) out = out.split(secret).join("<dns token>");
  return out;
}

/**
 * Copies `input` to `output` line by line, through `transform` (a line → the line to
 * print, or null to drop it). Partial lines wait for their end; the last one is flushed
 * when the input ends. Resolves when the input has ended.
 * @type {typeof import("./dns-log-filter.mjs").forwardLines}
 */
export function forwardLines(input, output, transform) {
  let pending = "";
  const emit = (/** @type {string} */ line) => {
    const kept = transform(line);
    if (kept !== null) output.write(`${kept}\n`);
  };
  return new Promise((/** @type {(value?: undefined) => void} */ resolve) => {
    input.setEncoding("utf8");
    input.on("data", (/** @type {string} */ chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) emit(line);
    });
    input.on("end", () => {
      if (pending) emit(pending);
      pending = "";
      resolve();
    });
    input.on("error", () => resolve());
  });
}

/**
 * What `npm start` prints of wrangler dev: every line but those naming a DNS backend path.
 * @type {typeof import("./dns-log-filter.mjs").withoutDnsBackendPaths}
 */
export function withoutDnsBackendPaths(line) {
  return namesDnsBackendPath(line) ? null : line;
}
