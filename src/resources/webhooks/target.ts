// Where a webhook may send (docs/webhooks.md, Safety): the service must not become a way
// into the network it runs in (server-side request forgery). Checked when the URL is set
// (create, update) and again before every delivery, since a name's addresses can change:
//
// - the URL is absolute `https` with no user name or password in it and no fragment;
//   plain `http` only on a loopback deployment (`npm start`), and then only to loopback;
// - a host that is an IP address (in any spelling the URL parser reads as one: `127.1`,
//   `0x7f.0.0.1`, `[::ffff:127.0.0.1]`) is checked directly against the special-purpose
//   ranges (src/dns/special-addresses.ts): loopback (allowed on a loopback deployment
//   only), private, link-local, CGNAT, multicast, documentation, reserved, unspecified;
// - a name: `localhost` and names under it are loopback; single-label names and the
//   special-use names that never lead to the public Internet (`.local`, `.internal`,
//   `.home.arpa`, `.localdomain`, `.invalid`, `.onion`, `.alt`) are refused; any other name is
//   resolved (A and AAAA, over DNS-over-HTTPS, WEBHOOK_DNS_RESOLVER) and every address it
//   has is checked like a literal. When set, a name the resolver cannot answer for is
//   accepted (the check runs again at each delivery); at a delivery it fails the attempt.
// - the URL may not name the service itself: the host (and port) the API was called at
//   when the URL was set.
import { parseIp } from "../../dns/ip";
import { specialAddress } from "../../dns/special-addresses";

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
  if (!ip) return `has an address "${text}" that cannot be read`;
  const special = specialAddress(ip);
  if (!special) return null;
  if (special.class === "loopback" && policy.loopbackDeployment) return null;
  const where = via ? `${via} resolves to ${ip.text}` : `names ${ip.text}`;
  const extra = special.class === "loopback" ? " (loopback is allowed only on a local development server, npm start)" : "";
  return `${where}, a ${special.class} address (${special.range})${extra}; webhooks go to public Internet addresses only`;
}

/** The checks a URL passes or fails on its own (no DNS). */
export function checkUrl(input: string, policy: TargetPolicy): StaticCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, problem: "is not an absolute URL (https://host/path)" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, problem: `has the scheme ${url.protocol.slice(0, -1)}; webhooks are https` };
  if (url.username !== "" || url.password !== "") {
    return { ok: false, problem: "has a user name or password; a webhook authenticates its deliveries by their signature, and URLs are shown in every read" };
  }
  if (url.hash !== "" || input.includes("#")) return { ok: false, problem: "has a fragment (#…), which is never sent" };
  const host = url.hostname.toLowerCase();
  if (url.host.toLowerCase() === policy.apiHost.toLowerCase()) return { ok: false, problem: `names this service itself (${url.host})` };

  // The URL parser has already read every spelling of an IPv4 address as its dotted quad.
  const literal = host.startsWith("[") ? host.slice(1, -1) : /^[0-9.]+$/.test(host) ? host : null;
  const literalIp = literal === null ? null : parseIp(literal);
  const isLocalhost = host === "localhost" || host.endsWith(".localhost");
  if (url.protocol === "http:") {
    const loopbackLiteral = literalIp !== null && specialAddress(literalIp)?.class === "loopback";
    if (!policy.loopbackDeployment || !(loopbackLiteral || isLocalhost)) {
      return { ok: false, problem: "is plain http; webhooks are https (http only to a loopback address of a local development server, npm start)" };
    }
  }
  if (literal !== null) {
    const problem = addressProblem(literal, policy);
    return problem ? { ok: false, problem } : { ok: true, url, resolve: null };
  }
  if (isLocalhost) {
    return policy.loopbackDeployment
      ? { ok: true, url, resolve: null }
      : {
          ok: false,
          problem: `names ${host}, a loopback name (allowed only on a local development server, npm start); webhooks go to public Internet hosts only`,
        };
  }
  if (!host.includes(".")) return { ok: false, problem: `names ${host}, a single-label name that only a local network can resolve` };
  const suffix = SPECIAL_USE_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix)
    return { ok: false, problem: `names ${host}, under .${suffix}, a special-use name that never leads to the public Internet (RFC 6761, RFC 8375, RFC 9476)` };
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
export function resolvedProblem(name: string, resolution: Resolution, policy: TargetPolicy): string | null {
  if (resolution.kind !== "addresses") return null;
  for (const address of resolution.addresses) {
    const problem = addressProblem(address, policy, name);
    if (problem) return problem;
  }
  return null;
}
