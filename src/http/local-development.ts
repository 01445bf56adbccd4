// Local development: a request made on this machine to `npm start`. The switches only
// `npm start` passes (AUTH_DISABLED, CLOCK_OVERRIDE, the local credential, loopback webhook
// targets and secondaries, `test` zones) are obeyed for such requests only, so that none
// of them can open or bend a deployed Worker.
import type { Env } from "../env";

// The exact host names `npm start` prints and serves (scripts/start.mjs binds 127.0.0.1).
// The Host header is compared as sent, not as the URL parser reads it: WHATWG URL turns
// `127.1`, `2130706433` and `LOCALHOST` into loopback names too.
const LOCAL_HOST_HEADER = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;
const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1"]);

/**
 * A request made on this machine to `npm start`: the Host is one of the names it serves
 * AND the connection came from a loopback address. The connection's address is what the
 * runtime tells: `CF-Connecting-IP`, which Cloudflare sets on every request to a deployed
 * Worker (a client cannot forge it there) and wrangler dev sets from its socket — so a
 * deployed Worker never qualifies, even behind a proxy that forwards `Host: 127.0.0.1`.
 */
export function isLocalDevelopment(request: Request): boolean {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (!LOCAL_HOST_HEADER.test(host)) return false;
  const address = request.headers.get("cf-connecting-ip");
  return address === null || LOOPBACK_ADDRESSES.has(address);
}

/**
 * Auth is off only when AUTH_DISABLED is "true" AND the request is local development
 * (above): the setting is for `npm start` (wrangler dev --var AUTH_DISABLED:true) and does
 * nothing on a deployed Worker.
 */
export function authDisabled(env: Env, request: Request): boolean {
  return env.AUTH_DISABLED === "true" && isLocalDevelopment(request);
}

/**
 * The sweep may run at a time the request names (`as_of`) only when CLOCK_OVERRIDE is
 * "true" AND the request is local development, exactly as AUTH_DISABLED is obeyed: the
 * setting is for `npm start` and does nothing on a deployed Worker.
 */
export function clockOverridable(env: Env, request: Request): boolean {
  return env.CLOCK_OVERRIDE === "true" && isLocalDevelopment(request);
}
