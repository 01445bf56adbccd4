// The DNS backend's token travels in its URL path (`/v1/pdns/<token>/…`: PowerDNS's HTTP
// connector sends no headers), so that path is never printed: `wrangler dev` logs every
// request's path, and PowerDNS may log its connector URL. The scripts that show those
// programs' output (start.mjs, dns.mjs) pass it through here.

/** A line that names a DNS backend path (`/v1/pdns/…`): it carries a token. */
export function namesDnsBackendPath(line) {
  return /\/v1\/pdns\//i.test(line);
}

/** The line with every `/v1/pdns/<token>` and every given secret replaced. */
export function redactDnsBackend(line, secrets = []) {
  let out = line.replace(/\/v1\/pdns\/[^/\s"',]+/gi, "/v1/pdns/<dns token>");
  for (const secret of secrets) if (secret) out = out.split(secret).join("<dns token>");
  return out;
}

/**
 * Copies `input` to `output` line by line, through `transform` (a line → the line to
 * print, or null to drop it). Partial lines wait for their end; the last one is flushed
 * when the input ends. Resolves when the input has ended.
 */
export function forwardLines(input, output, transform) {
  let pending = "";
  const emit = (line) => {
    const kept = transform(line);
    if (kept !== null) output.write(`${kept}\n`);
  };
  return new Promise((resolve) => {
    input.setEncoding("utf8");
    input.on("data", (chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
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

/** What `npm start` prints of wrangler dev: every line but those naming a DNS backend path. */
export function withoutDnsBackendPaths(line) {
  return namesDnsBackendPath(line) ? null : line;
}
