// Where a webhook may send (docs/webhooks.md, Safety): the service must not become a way
// into the network it runs in (server-side request forgery). One check, `targetProblem`,
// when the URL is set (create, update) and again by the sender before every attempt, since
// a name's addresses can change:
//
// - the URL is absolute `https` with no user name or password in it and no fragment;
//   plain `http` only on a loopback deployment (`npm start`), and then only to loopback;
// - its host is compared in canonical form: lowercase (the URL parser's), without a
//   trailing dot, an IP address in its canonical text (the URL parser reads `2130706433`,
//   `0x7f.1`, `127.1` as 127.0.0.1, and `[0:0::1]` as ::1);
// - a host that is an IP address is checked directly against the special-purpose ranges
//   (src/dns/special-addresses.ts, the IPv6 forms that carry an IPv4 address judged as
//   that address): loopback (allowed on a loopback deployment only), private, link-local,
//   CGNAT, multicast, documentation, reserved, unspecified;
// - a name: `localhost` and names under it are loopback (RFC 6761 §6.3); single-label
//   names and the special-use names that never lead to the public Internet (`.local`,
//   `.internal`, `.home.arpa`, `.localdomain`, `.invalid`, `.onion`, `.alt`) are refused;
//   any other name is resolved (A and AAAA, over DNS-over-HTTPS, WEBHOOK_DNS_RESOLVER) and
//   every address it has is checked like a literal. When set, a name the resolver cannot
//   answer for is accepted (the check runs again at each attempt); at an attempt it fails it.
// - the URL may not name the service itself (`namesTheService`): the host the API was
//   called at when the URL was set, under any spelling; on a loopback deployment, any
//   loopback host at the API's port.
import { parseIp } from "../dns/ip";
import { specialAddress } from "../dns/special-addresses";

export const MAX_URL_LENGTH = 2048;

/** Resolves names over DNS-over-HTTPS (RFC 8484's JSON form, as Cloudflare and Google serve it). */
export const DEFAULT_DNS_RESOLVER = "https://cloudflare-dns.com/dns-query";
const RESOLVE_TIMEOUT_MS = 3_000;

/** The resolver a deployment checks names with: WEBHOOK_DNS_RESOLVER, else DEFAULT_DNS_RESOLVER. */
export function dnsResolver(env: { WEBHOOK_DNS_RESOLVER?: string }): string {
  return env.WEBHOOK_DNS_RESOLVER || DEFAULT_DNS_RESOLVER;
}

export interface TargetPolicy {
  /** The webhook is written by, and delivered from, a loopback deployment (npm start). */
  loopbackDeployment: boolean;
  /** The host (and port) of the API itself, as requests name it. */
  apiHost: string;
}

/** A URL that passed the checks that need no resolver: its parsed form, and whether its host still has to be resolved. */
export type StaticCheck = { ok: true; url: URL; resolve: string | null } | { ok: false; problem: string };

const SPECIAL_USE_SUFFIXES = ["local", "internal", "home.arpa", "localdomain", "invalid", "onion", "alt"];

function addressProblem(text: string, policy: TargetPolicy, via?: string): string | null {
  const ip = parseIp(text);
  if (!ip) return via ? `The URL's host ${via} resolves to "${text}", which is no address` : `The URL has an address "${text}" that cannot be read`;
  const special = specialAddress(ip);
  if (!special) return null;
  if (special.class === "loopback" && policy.loopbackDeployment) return null;
  const where = via ? `The URL's host ${via} resolves to ${ip.text}` : `The URL names ${ip.text}`;
  const extra = special.class === "loopback" ? " (loopback is allowed only on a local development server, npm start)" : "";
  return `${where}, a ${special.class} address (${special.range})${extra}; webhooks go to public Internet addresses only`;
}

/**
 * A host as the rules compare hosts: the URL parser's hostname (lowercase, IDNA, every
 * spelling of an IPv4 address as its dotted quad) without brackets or trailing dots, an IP
 * address in canonical text (src/dns/ip.ts: RFC 5952, `::ffff:127.0.0.1` for a mapped one).
 */
export function canonicalHost(hostname: string): string {
  const bare = (hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname).toLowerCase().replace(/\.+$/, "");
  return parseIp(bare)?.text ?? bare;
}

/** Whether a canonical host is loopback: `localhost` and every name under it (RFC 6761 §6.3: always loopback), or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const ip = parseIp(host);
  return ip !== null && specialAddress(ip)?.class === "loopback";
}

/** The port a URL reaches: the one it names, else its scheme's. */
function portOf(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "http:" ? 80 : 443;
}

/**
 * Whether the URL names the service itself: the host the API was called at when the URL
 * was set (`policy.apiHost`), compared in canonical form, so that no spelling of it passes
 * (`API.example.com.`, `[0:0::1]`, `2130706433`). Deployed, at any port: a hostname proxied
 * by Cloudflare reaches its Worker on several (443, 8443, 2053, …). On a loopback deployment,
 * at the API's port (its receivers are on loopback too, at ports of their own), and every
 * loopback host there is the service (`localhost`, `api.localhost`, 127.0.0.2, ::1).
 * Names are compared, not what they resolve to: a deployment's addresses are Cloudflare's,
 * shared by every site it proxies, so a receiver behind Cloudflare resolves to them too.
 */
export function namesTheService(url: URL, policy: TargetPolicy): boolean {
  let api: URL;
  try {
    api = new URL(`http://${policy.apiHost}`);
  } catch {
    return false;
  }
  const host = canonicalHost(url.hostname);
  const apiHost = canonicalHost(api.hostname);
  if (!policy.loopbackDeployment) return host === apiHost;
  // The API's scheme is not kept: a host without a port was called at 80 or 443.
  const apiPorts = api.port !== "" ? [Number(api.port)] : [80, 443];
  if (!apiPorts.includes(portOf(url))) return false;
  return host === apiHost || (isLoopbackHost(host) && isLoopbackHost(apiHost));
}

/** The checks a URL passes or fails on its own (no DNS); a problem is a sentence without its full stop. */
export function checkUrl(input: string, policy: TargetPolicy): StaticCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, problem: "The URL is not an absolute URL (https://host/path)" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, problem: `The URL has the scheme ${url.protocol.slice(0, -1)}; webhooks are https` };
  if (url.username !== "" || url.password !== "") {
    return {
      ok: false,
      problem: "The URL has a user name or password; a webhook authenticates its deliveries by their signature, and URLs are shown in every read",
    };
  }
  if (url.hash !== "" || input.includes("#")) return { ok: false, problem: "The URL has a fragment (#…), which is never sent" };
  const host = canonicalHost(url.hostname);
  if (namesTheService(url, policy)) return { ok: false, problem: `The URL names this service itself (${url.host})` };

  const literalIp = parseIp(host);
  const loopbackHost = isLoopbackHost(host);
  if (url.protocol === "http:" && !(policy.loopbackDeployment && loopbackHost)) {
    return { ok: false, problem: "The URL is plain http; webhooks are https (http only to a loopback address of a local development server, npm start)" };
  }
  if (literalIp !== null) {
    const problem = addressProblem(literalIp.text, policy);
    return problem ? { ok: false, problem } : { ok: true, url, resolve: null };
  }
  if (loopbackHost) {
    return policy.loopbackDeployment
      ? { ok: true, url, resolve: null }
      : {
          ok: false,
          problem: `The URL names ${host}, a loopback name (RFC 6761; allowed only on a local development server, npm start); webhooks go to public Internet hosts only`,
        };
  }
  if (!host.includes(".")) return { ok: false, problem: `The URL names ${host}, a single-label name that only a local network can resolve` };
  const suffix = SPECIAL_USE_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) {
    return {
      ok: false,
      problem: `The URL names ${host}, under .${suffix}, a special-use name that never leads to the public Internet (RFC 6761, RFC 8375, RFC 9476)`,
    };
  }
  return { ok: true, url, resolve: host };
}

/** What resolving a name found: its addresses, or why there are none to check. */
export type Resolution = { kind: "addresses"; addresses: string[] } | { kind: "nxdomain" } | { kind: "unavailable"; reason: string };

interface DohAnswer {
  Status?: number;
  Answer?: { type?: number; data?: string }[];
}

/** A and AAAA of `name` from a DNS-over-HTTPS resolver (JSON API). */
export async function resolveName(resolver: string, name: string): Promise<Resolution> {
  const addresses: string[] = [];
  let nxdomain = 0;
  for (const type of ["A", "AAAA"] as const) {
    let answer: DohAnswer;
    try {
      const response = await fetch(`${resolver}?name=${encodeURIComponent(name)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(RESOLVE_TIMEOUT_MS),
      });
      if (!response.ok) return { kind: "unavailable", reason: `the resolver answered HTTP ${response.status}` };
      answer = (await response.json()) as DohAnswer;
    } catch (error) {
      return { kind: "unavailable", reason: `the resolver could not be reached (${error instanceof Error ? error.name : "error"})` };
    }
    if (answer.Status === 3) nxdomain++;
    else if (answer.Status !== 0) return { kind: "unavailable", reason: `the resolver answered rcode ${answer.Status}` };
    for (const record of answer.Answer ?? []) {
      if ((record.type === 1 || record.type === 28) && typeof record.data === "string") addresses.push(record.data);
    }
  }
  if (addresses.length > 0) return { kind: "addresses", addresses };
  return nxdomain > 0 ? { kind: "nxdomain" } : { kind: "addresses", addresses: [] };
}

/** The first refused address a resolution found, as a problem; null when every address is public. */
function resolvedProblem(name: string, addresses: readonly string[], policy: TargetPolicy): string | null {
  for (const address of addresses) {
    const problem = addressProblem(address, policy, name);
    if (problem) return problem;
  }
  return null;
}

/**
 * When a URL is checked: when it is `set` (create, update: 422 naming the problem) or
 * before an attempt to `send` to it (the sender: a failed attempt saying why).
 */
export type CheckMoment = "set" | "send";

/**
 * Why the URL may not be sent to, or null when it may: the one check of a webhook's URL,
 * made when it is set and by the sender before every attempt (docs/webhooks.md, "Safety").
 * They differ in one way: when the URL is set, a name the resolver cannot vouch for
 * (NXDOMAIN, no address, no answer) passes, as a receiver's name may be published after
 * its webhook; before an attempt it refuses the attempt. A problem is a sentence without its full stop.
 */
export async function targetProblem(resolver: string, url: string, policy: TargetPolicy, moment: CheckMoment): Promise<string | null> {
  const check = checkUrl(url, policy);
  if (!check.ok) return check.problem;
  if (check.resolve === null) return null;
  const name = check.resolve;
  const resolution = await resolveName(resolver, name);
  if (resolution.kind === "addresses" && resolution.addresses.length > 0) return resolvedProblem(name, resolution.addresses, policy);
  if (moment === "set") return null;
  if (resolution.kind === "nxdomain") return `${name} does not exist in the DNS (NXDOMAIN)`;
  if (resolution.kind === "unavailable") return `${name} could not be resolved to check its addresses: ${resolution.reason}`;
  return `${name} has no A or AAAA record`;
}
