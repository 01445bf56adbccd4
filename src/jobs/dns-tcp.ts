// DNS over TCP from the Worker (RFC 1035 §4.2.2, RFC 7766 §8: each message behind a
// two-octet length), through `connect()` (a Worker has no UDP): one query a connection, the
// connection closed once its response is read, on a timeout or on any failure. What the
// iteration of src/dns/dnssec/parent-servers.ts sends its queries through. The close is
// awaited (for at most CLOSE_WAIT_MS) before the query's result is returned.
import { type Ask, addressText, type ServerAddress } from "../dns/dnssec/parent-servers";
import { framedMessage, readFramed } from "../dns/tcp-frame";

/**
 * The runtime's sockets (`connect()`), loaded at the first query: the app is also bundled for
 * Node by the scripts that read the documents it serves (scripts/lib/in-process-app.mjs),
 * where no such module is, and there a query finds no sockets instead of the bundle failing.
 */
const sockets = () => import("cloudflare:sockets").catch(() => null);

type Socket = ReturnType<typeof import("cloudflare:sockets").connect>;

/** How long one query may take, connecting included: a server slower than this has not answered. */
export const QUERY_TIMEOUT_MS = 3_000;

/**
 * How long a query waits for its socket to close before the next query may open one: a
 * Worker has at most 6 connections open at once, and a close not awaited would leave them
 * to pile up behind a lookup's queries (one at a time). A close slower than this is left to finish.
 */
export const CLOSE_WAIT_MS = 1_000;

/** Closes `socket` (when one was opened), waiting for it at most CLOSE_WAIT_MS; a close that fails is nothing to report. */
async function closed(socket: Socket | null): Promise<void> {
  if (socket === null) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
  });
  // Closing a socket that never opened rejects: that is nothing to report.
  await Promise.race([socket.close().catch(() => undefined), waited]);
  if (timer !== undefined) clearTimeout(timer);
}

/** One query to one server over TCP: its response, or why none came within `timeoutMs`. */
export async function askOverTcp(server: ServerAddress, query: Uint8Array, timeoutMs = QUERY_TIMEOUT_MS): Promise<Uint8Array | { error: string }> {
  let socket: Socket | null = null;
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ error: string }>((resolve) => {
    timer = setTimeout(() => resolve({ error: `no response within ${timeoutMs / 1000} s` }), timeoutMs);
  });
  const exchange = async (): Promise<Uint8Array | { error: string }> => {
    const runtime = await sockets();
    if (!runtime) return { error: "this runtime has no sockets (cloudflare:sockets)" };
    // The time ran out while the module loaded: no connection is opened that nothing would close.
    if (over) return { error: "no time left to connect" };
    socket = runtime.connect(addressText(server));
    await socket.opened;
    const writer = socket.writable.getWriter();
    await writer.write(framedMessage(query));
    writer.releaseLock();
    return readFramed(socket.readable.getReader());
  };
  try {
    return await Promise.race([
      exchange().catch((error: unknown) => ({ error: `the connection failed (${error instanceof Error ? error.message.slice(0, 120) : "error"})` })),
      timeout,
    ]);
  } finally {
    over = true;
    if (timer !== undefined) clearTimeout(timer);
    await closed(socket as Socket | null);
  }
}

/**
 * An `Ask` over TCP for one zone's lookup, each query within QUERY_TIMEOUT_MS and all of
 * them within `budgetMs`: a lookup held up by slow servers ends, unconcluded, instead of
 * holding the run.
 */
export function tcpAsk(budgetMs: number): Ask {
  const deadline = Date.now() + budgetMs;
  return (server, query) => {
    const left = deadline - Date.now();
    if (left <= 0) return Promise.resolve({ error: `the lookup's ${budgetMs / 1000} s ran out` });
    return askOverTcp(server, query, Math.min(QUERY_TIMEOUT_MS, left));
  };
}
