#!/usr/bin/env node
// End to end, the serving tier (docs/serving.md): `npm start` on a free port with a
// throwaway D1, `npm run dns` on free ports (the hidden primary, PowerDNS 4.7 on this
// service's remote backend, and the secondary, Knot DNS 3.2 fed by the primary's catalog
// zone, NOTIFY and AXFR), and two references: BIND's `named` loaded with the service's own
// export of each zone (`Accept: text/dns`), and PowerDNS reading the same files itself.
// Then, with `dig`:
//
// - the same questions (hundreds per zone: every owner name and names that do not exist,
//   in mixed letter case, times every stored type and ANY) to the secondary, the
//   reference BIND, the primary and PowerDNS on the files: the secondary answers each one
//   as BIND on the export does, every section, but where the RFCs leave the choice to the
//   server (ANY, RFC 8482; additional data: secondaryDifference); the primary as PowerDNS on the files does,
//   and as BIND does but for PowerDNS's own answers (listed);
// - AXFR from the primary and from the secondary equal the export (AXFR from BIND), as
//   RRsets, but for what PowerDNS itself leaves out of a transfer (listed);
// - freshness at the secondary, driven by NOTIFY: a record created, changed or deleted, a
//   zone created or deleted, DNSSEC turned on and off, an account suspended and made
//   active again, each answered so within 5 s;
// - restarts: the primary, the secondary and the API each stopped and started again, a
//   change made meanwhile (where the API is up), and the tier converges, losing nothing.
//
// Loopback only, bounded loops; every daemon is stopped by its PID, temp dirs removed.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createHarness,
  freePort,
  httpClient,
  runCommand,
  startDaemon,
  startDnsTier,
  startPowerDns,
  stopDaemon,
  waitFor as waitForShared,
} from "./lib/harness.mjs";
import { MAX_RETRY_SECONDS, tierSecondaryVar } from "./lib/dns-tier.mjs";
import { udpQuery } from "./lib/dns-wire.mjs";
import { pdnsSettings } from "./lib/pdns-settings.mjs";
import { openLocalD1 } from "./lib/local-d1.mjs";
import { ROOT } from "./lib/wrangler.mjs";
import { ulid } from "../src/db/ulid.js";

/** The tier's secondary: the service names it in every zone's ALSO-NOTIFY (DNS_TIER_SECONDARIES). */
const secondaryPort = await freePort();
const harness = createHarness({
  name: "dns-e2e",
  label: "DNS-E2E",
  startArgs: tierSecondaryVar(secondaryPort),
  readyTimeoutMs: 90_000,
  totalTimeoutMs: 900_000,
});
const { check, ok, notOk, assert, tempDir } = harness;

/** PowerDNS's cache time as `npm run dns` sets it by default. */
const CACHE_TTL = 2;
/** A change through the API is served so by the secondary within this (docs/serving.md, "Freshness"). */
const FRESHNESS_BOUND_MS = 5_000;
/** How long a wait goes on before it is a hang, not a slow answer: the machine may be loaded. */
const HANG_MS = 30_000;

const DS_DIGEST = "E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D";
const TLSA_DATA = "0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6";
const SSHFP_DATA = "123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789";

// Every stored type, wildcards (RFC 4592: where they apply and where they do not: an
// existing name, an empty non-terminal, below a delegation), CNAME and DNAME chains inside
// the zone, a delegation with in-bailiwick glue and a DS, empty non-terminals.
const ZONES = {
  "e2e.test": `$ORIGIN e2e.test.
$TTL 3600
@ IN SOA ns1.e2e.test. hostmaster.e2e.test. 1 7200 900 1209600 300
@ NS ns1.e2e.test.
@ NS ns2.example.net.
@ MX 10 mail.e2e.test.
@ MX 20 mail.example.net.
@ TXT "v=spf1 -all"
@ CAA 0 issue "letsencrypt.org"
@ HTTPS 1 . alpn="h3,h2"
ns1 A 192.0.2.53
ns1 AAAA 2001:db8::53
mail A 192.0.2.25
www 300 A 192.0.2.10
www 300 A 192.0.2.11
www AAAA 2001:db8::10
www SSHFP 4 2 ${SSHFP_DATA}
_443._tcp.www TLSA 3 1 1 ${TLSA_DATA}
alias CNAME www.e2e.test.
chain CNAME alias.e2e.test.
external CNAME www.example.org.
dangling CNAME nothing.e2e.test.
into-wild CNAME anything.wild.e2e.test.
*.wild A 192.0.2.99
*.wild TXT "from the wildcard"
exists.wild A 192.0.2.98
leaf.deep.ent A 192.0.2.30
*.ent TXT "wildcard above an empty non-terminal"
sub NS ns.sub.e2e.test.
sub NS ns.example.net.
sub DS 12345 13 2 ${DS_DIGEST}
ns.sub A 192.0.2.54
ns.sub AAAA 2001:db8::54
*.sub A 192.0.2.55
child NS ns1.e2e.test.
_sip._tcp SRV 10 60 5060 sip.e2e.test.
sip A 192.0.2.60
ptr PTR www.e2e.test.
naptr NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.e2e.test.
svc SVCB 1 www.e2e.test. alpn="h2,h3" port=8443
svc-alias SVCB 0 svc.e2e.test.
dname DNAME target.e2e.test.
dname2 DNAME dname.e2e.test.
www.target A 192.0.2.70
target TXT "the DNAME target"
MiXeD A 192.0.2.80
`,
  "child.e2e.test": `$ORIGIN child.e2e.test.
$TTL 600
@ IN SOA ns1.e2e.test. hostmaster.e2e.test. 1 7200 900 1209600 60
@ NS ns1.e2e.test.
www A 198.51.100.1
* MX 10 www.child.e2e.test.
`,
  // Every other stored type (src/dns/rdata), from the RFCs' own examples, and a type
  // neither BIND nor the service knows (RFC 3597 generic RDATA); a wildcard that does not
  // answer for the names that exist.
  "types.test": `$ORIGIN types.test.
$TTL 3600
@ IN SOA ns1.example.net. hostmaster.types.test. 1 7200 900 1209600 300
@ NS ns1.example.net.
@ DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==
@ CDS 55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17
@ CDNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==
@ RP louie.trantor.umd.edu. LAM1.people.umd.edu.
@ SPF "v=spf1 -all"
@ CERT PGP 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=
@ ZONEMD 2018031900 1 1 c68090d90a7aed716bc459f9340e3d7c1370d4d24b7e2fc3a1ddc0b9a87153b9a9713b3c9ae5cc27777f98b8e730044c
www HINFO "VAX-11/780" UNIX
www A 192.0.2.1
_ftp._tcp URI 10 1 "ftp://ftp1.example.com/public"
host EUI48 00-00-5e-00-53-2a
host EUI64 00-00-5e-ef-10-00-00-2a
cambridge LOC 42 21 54 N 71 06 18 W -24m 30m
alice._openpgpkey OPENPGPKEY mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=
_smimecert.alice SMIMEA 3 0 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6
private TYPE65280 \\# 4 0A000001
* TYPE65280 \\# 2 ABCD
* LOC 52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m
`,
  "second.test": `$ORIGIN second.test.
$TTL 300
@ IN SOA ns1.second.test. admin.second.test. 1 3600 600 86400 120
@ NS ns1.second.test.
ns1 A 203.0.113.1
* A 203.0.113.2
* AAAA 2001:db8::2
a.b.c TXT "deep"
`,
};

// Every type a record may have (docs/dns.md), SOA, and ANY.
const TYPES = [
  ...["A", "AAAA", "NS", "SOA", "CNAME", "MX", "TXT", "SRV", "CAA", "PTR", "DS", "TLSA", "SSHFP", "NAPTR", "SVCB", "HTTPS", "DNAME"],
  ...["DNSKEY", "CDNSKEY", "CDS", "HINFO", "RP", "URI", "SPF", "EUI48", "EUI64", "LOC", "CERT", "OPENPGPKEY", "SMIMEA", "ZONEMD", "TYPE65280"],
  "ANY",
];

// Names asked beside every owner name of a zone: where names do not exist, where a
// wildcard or a DNAME answers, below a delegation, empty non-terminals, another zone.
const EXTRA_NAMES = {
  "e2e.test": [
    "nx",
    "nx.www",
    "wild",
    "foo.wild",
    "a.b.wild",
    "x.exists.wild",
    "ent",
    "deep.ent",
    "x.deep.ent",
    "y.ent",
    "x.leaf.deep.ent",
    "x.sub",
    "a.b.sub",
    "x.ns.sub",
    "x.child",
    "www.dname",
    "a.b.dname",
    "nothing.dname",
    "www.dname2",
    "x.alias",
    "target",
    "x._tcp",
    "_tcp",
    "out-of-zone.example",
  ],
  "child.e2e.test": ["nx", "anything", "a.b"],
  "types.test": ["nx", "x.www", "_tcp", "alice", "_openpgpkey.alice", "x.host"],
  "second.test": ["nx", "x.y", "b.c", "c", "x.a.b.c", "x.ns1"],
};

// PowerDNS 4.7's zone parser reads CERT's type and algorithm only as numbers (RFC 4398
// §2.2 allows mnemonics, which the export writes as BIND does); its copy of the export has
// numbers there, as the connector gives them (src/dns/rdata/cert.ts certWithNumbers).
const CERT_TYPES = { PKIX: 1, SPKI: 2, PGP: 3, IPKIX: 4, ISPKI: 5, IPGP: 6, ACPKIX: 7, IACPKIX: 8, URI: 253, OID: 254 };
const ALGORITHMS = { RSAMD5: 1, DH: 2, DSA: 3, RSASHA1: 5, NSEC3DSA: 6, NSEC3RSASHA1: 7, RSASHA256: 8, RSASHA512: 10, ECCGOST: 12 };
Object.assign(ALGORITHMS, { ECDSAP256SHA256: 13, ECDSAP384SHA384: 14, ED25519: 15, ED448: 16, INDIRECT: 252, PRIVATEDNS: 253, PRIVATEOID: 254 });
function certWithNumbers(masterFile) {
  return masterFile.replace(
    /(\sCERT\s+)(\S+)(\s+\d+\s+)(\S+)/g,
    (_all, head, type, tag, algorithm) => `${head}${CERT_TYPES[type] ?? type}${tag}${ALGORITHMS[algorithm] ?? algorithm}`,
  );
}

/** A seeded generator, so that a failure can be reproduced with the same mixed-case names. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function mixCase(name, random) {
  return [...name].map((ch) => (random() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join("");
}

function ownerNames(masterFile) {
  const names = new Set(["@"]);
  for (const line of masterFile.split("\n").slice(3)) {
    const owner = line.split(/\s+/)[0];
    if (owner && !owner.startsWith("$")) names.add(owner);
  }
  return [...names];
}

function absoluteName(owner, zone) {
  if (owner === "out-of-zone.example") return "out-of-zone.example.";
  return owner === "@" ? `${zone}.` : `${owner}.${zone}.`;
}

/** The questions asked of both servers for one zone: [name, type]. */
function questions(zone, random) {
  const names = [...ownerNames(ZONES[zone]), ...EXTRA_NAMES[zone]].map((owner) => absoluteName(owner, zone));
  const out = [];
  for (const name of names) {
    for (const type of TYPES) out.push([random() < 0.5 ? mixCase(name, random) : name.toLowerCase(), type]);
  }
  return out;
}

// dig's rendering of one answer: the header and the sections, one line per record.
function parseDigOutput(text) {
  const answers = [];
  let current = null;
  let section = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("; <<>> DiG")) {
      current = { command: line, status: null, aa: null, answer: [], authority: [], additional: [], error: null };
      answers.push(current);
      section = null;
      continue;
    }
    if (!current) continue;
    const header = /status: ([A-Z]+)/.exec(line);
    if (line.includes("->>HEADER<<-") && header) current.status = header[1];
    else if (line.startsWith(";; flags:")) current.aa = /flags:[^;]*\baa\b/.test(line);
    else if (line.startsWith(";; ANSWER SECTION:")) section = "answer";
    else if (line.startsWith(";; AUTHORITY SECTION:")) section = "authority";
    else if (line.startsWith(";; ADDITIONAL SECTION:")) section = "additional";
    else if (/^;; (connection timed out|communications error|no servers)/.test(line)) current.error = line;
    else if (line.trim() === "" || line.startsWith(";")) {
      if (line.trim() === "") section = null;
    } else if (section) current[section].push(line.trim());
  }
  return answers;
}

/**
 * A record line with whitespace normalised and everything outside quoted strings
 * lowercased: names compare case-insensitively (RFC 4343), and a server may render a
 * name in the letter case of the question it compressed it against (PowerDNS does).
 */
/**
 * Types whose TTL PowerDNS sets itself with direct-dnskey (docs/serving.md): the SOA minimum
 * in transfers and in DNSKEY answers, the record's own where it answers from the lookup.
 */
const KEY_TYPES = new Set(["DNSKEY", "CDS", "CDNSKEY"]);

function normalise(line, { maskSoaTtl = false } = {}) {
  const [owner, ttl, klass, type, ...rdata] = line.split(/\s+/);
  const shownTtl = (maskSoaTtl && type === "SOA") || KEY_TYPES.has(type) ? "*" : ttl;
  const text = rdata.join(" ").replace(/("(?:[^"\\]|\\.)*")|[^"]+/g, (part, quoted) => quoted ?? part.toLowerCase());
  return [owner.toLowerCase(), shownTtl, klass, type, text].join(" ");
}

function isReferral(answer) {
  return !answer.aa && answer.answer.length === 0 && answer.authority.some((line) => line.split(/\s+/)[3] === "NS");
}

/** How the two answers to one question differ, or null; `additional`: compare that section in full too. */
function difference(pdns, bind, { additional = false } = {}) {
  if (pdns.error || bind.error) return `no answer (${pdns.error ?? bind.error})`;
  if (pdns.status !== bind.status) return `rcode ${pdns.status} vs ${bind.status}`;
  if (pdns.aa !== bind.aa) return `AA ${pdns.aa} vs ${bind.aa}`;
  const compare = (what, a, b) => {
    const left = a.map((l) => normalise(l, { maskSoaTtl: true })).sort();
    const right = b.map((l) => normalise(l, { maskSoaTtl: true })).sort();
    return JSON.stringify(left) === JSON.stringify(right) ? null : `${what}:\n      pdns ${JSON.stringify(left)}\n      bind ${JSON.stringify(right)}`;
  };
  const glue = (a) => a.filter((l) => ["A", "AAAA"].includes(l.split(/\s+/)[3]));
  return (
    compare("answer", pdns.answer, bind.answer) ??
    compare("authority", pdns.authority, bind.authority) ??
    (additional ? compare("additional", pdns.additional, bind.additional) : null) ??
    (isReferral(bind) ? compare("referral glue", glue(pdns.additional), glue(bind.additional)) : null)
  );
}

/**
 * How the secondary's answer to one question differs from BIND's on the export, or null.
 * Two choices the RFCs leave to the server, where Knot (the secondary) and BIND (the
 * reference, `minimal-responses yes`) choose otherwise, are held to what the RFCs allow:
 *
 * - ANY (RFC 8482 §4.1): Knot answers with one RRset of the name, as RFC 8482 lets a
 *   server do, where BIND gives them all: the secondary's answer must be whole RRsets of
 *   BIND's (and at least one when BIND has any); everything else compares as usual.
 * - The additional section (RFC 1034 §4.3.2 step 6, RFC 2181 §5.4.1; RFC 9460 §4 for
 *   SVCB): Knot adds the addresses of MX, SRV, NS and SVCB targets in the zone, BIND with
 *   minimal responses none: the secondary's additional section must hold all of BIND's
 *   (the glue of a referral, exactly) and nothing that is not a record of a zone served
 *   (`records`: every zone's AXFR from BIND, normalised).
 */
function secondaryDifference(secondary, bind, type, records) {
  if (secondary.error || bind.error) return `no answer (${secondary.error ?? bind.error})`;
  const lines = (list) => list.map((l) => normalise(l, { maskSoaTtl: true })).sort();
  const rrset = (line) => {
    const [owner, , klass, kind] = line.split(" ");
    return `${owner} ${klass} ${kind}`;
  };
  if (type === "ANY" && secondary.status === bind.status && secondary.aa === bind.aa) {
    const mine = lines(secondary.answer);
    const theirs = lines(bind.answer);
    const sets = new Set(mine.map(rrset));
    const whole = [...sets].every((set) => JSON.stringify(mine.filter((l) => rrset(l) === set)) === JSON.stringify(theirs.filter((l) => rrset(l) === set)));
    if (whole && (sets.size > 0 || theirs.length === 0)) bind = { ...bind, answer: secondary.answer };
  }
  const basic = difference(secondary, bind);
  if (basic) return basic;
  const mine = lines(secondary.additional);
  const theirs = lines(bind.additional);
  const missing = theirs.filter((line) => !mine.includes(line));
  const foreign = mine.filter((line) => !theirs.includes(line) && !records.has(line));
  if (missing.length === 0 && foreign.length === 0) return null;
  return `additional:\n      secondary ${JSON.stringify(mine)}\n      bind ${JSON.stringify(theirs)}\n      (missing ${JSON.stringify(missing)}, not in any zone ${JSON.stringify(foreign)})`;
}

/**
 * ANY at a CNAME or below a DNAME, answered by following the chain: BIND stops at the
 * (synthesised) CNAME, which ANY matches (RFC 1034 §4.3.2); Knot follows it as for any
 * other type (RFC 6672 §3.2), and sets the rcode of the chain's last name (RFC 6604 §2:
 * NXDOMAIN when the target does not exist). True when the secondary's answer holds all
 * of BIND's, adds only records of a zone served, and the AA flag is the same.
 */
function followsChain(secondary, bind, type, records) {
  if (type !== "ANY" || secondary.error || bind.error || secondary.aa !== bind.aa) return false;
  const lines = (list) => list.map((l) => normalise(l, { maskSoaTtl: true }));
  const mine = lines(secondary.answer);
  const theirs = lines(bind.answer);
  return (
    theirs.some((line) => line.split(" ")[3] === "CNAME") &&
    [bind.status, "NXDOMAIN"].includes(secondary.status) &&
    theirs.every((line) => mine.includes(line)) &&
    mine.every((line) => theirs.includes(line) || records.has(line))
  );
}

async function dig(port, args, timeoutMs = 120_000) {
  return runCommand("dig", [`@127.0.0.1`, "-p", String(port), ...args], { timeoutMs });
}

/** Each server's answers to a batch of questions (dig -f: one process per server, all at once). */
async function askAll(ports, batch, dir, label) {
  const file = join(dir, `${label}.questions`);
  writeFileSync(file, `${batch.map(([name, type]) => `${name} ${type}`).join("\n")}\n`);
  const options = ["+norec", "+time=5", "+tries=1", "+noall", "+cmd", "+comments", "+answer", "+authority", "+additional", "-f", file];
  const outputs = await Promise.all(ports.map((port) => dig(port, options)));
  return outputs.map((result) => parseDigOutput(result.output));
}

let pdnsServerPid = null;
let secondaryPid = null;
const waitFor = (predicate, options) => waitForShared(predicate, { intervalMs: 100, ...options });

/** A zone row and its records written as a database from before the ownership rules may hold them. */
async function legacyZone(db, { name, accountId, createdAt, records }) {
  const id = `zon_${ulid()}`;
  await db.run(
    `INSERT INTO zones (id, account_id, name, reversed_name, default_ttl, soa_mname, soa_rname, soa_serial, soa_refresh, soa_retry, soa_expire, soa_minimum, created_at, updated_at)
     VALUES (?, ?, ?, ?, 300, 'ns1.example.net', 'hostmaster.example.net', 2026010101, 7200, 900, 1209600, 300, ?, ?)`,
    id,
    accountId,
    name,
    name.split(".").reverse().join("."),
    createdAt,
    createdAt,
  );
  for (const [owner, type, content] of [["@", "NS", "ns1.example.net."], ...records]) {
    const order = owner === "@" ? "" : owner.split(".").reverse().join(" ");
    await db.run(
      "INSERT INTO records (id, zone_id, name, type, content, ttl, owner_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 300, ?, ?, ?)",
      `rec_${ulid()}`,
      id,
      owner,
      type,
      content,
      order,
      createdAt,
      createdAt,
    );
  }
}

async function ownershipChecks({ api, stateDir, pdnsPort, customerId, accountStatus }) {
  const rcode = async (name, type) => (await udpQuery(pdnsPort, name, type, { timeoutMs: 2_000 }))?.rcode ?? "no answer";
  const becomes = async (name, type, expected) => {
    const took = await waitFor(async () => (await rcode(name, type)) === expected, { timeoutMs: FRESHNESS_BOUND_MS + 5_000 });
    assert(took !== null, `${name} ${type} answers ${await rcode(name, type)}, not ${expected}`);
  };
  let squatter = null;
  await check("a squatter's zones from before the ownership rules are written into the database", async () => {
    const account = await api("POST", "/v1/accounts", { name: "dns-e2e squatter" });
    assert(account.status === 201, `POST /v1/accounts: ${account.status} ${account.text}`);
    squatter = account.json.id;
    const db = await openLocalD1(stateDir);
    try {
      const now = new Date().toISOString();
      await legacyZone(db, { name: "test", accountId: squatter, createdAt: now, records: [["*", "A", "203.0.113.66"]] });
      await legacyZone(db, { name: "secret.customer.test", accountId: squatter, createdAt: now, records: [["@", "A", "203.0.113.66"]] });
    } finally {
      await db.close();
    }
  });
  if (!squatter) return;
  await check("a customer's zone at a top-level name answers nothing: a .test name no zone here holds is REFUSED, not the squatter's wildcard", async () => {
    await becomes("nobody-hosts-this.test", "A", "REFUSED");
    await becomes("test", "SOA", "REFUSED");
  });
  await check("a zone made inside another account's zone answers nothing: the customer's zone answers its name (NXDOMAIN)", async () => {
    await becomes("secret.customer.test", "A", "NXDOMAIN");
    const answer = await shortAnswer(pdnsPort, "secret.customer.test", "A");
    assert(answer === "", `answered ${answer}`);
  });
  await check("while the customer is suspended, its names are REFUSED: no zone of the squatter answers for them", async () => {
    await accountStatus("suspended")();
    try {
      for (const [name, type] of [
        ["www.customer.test", "A"],
        ["customer.test", "SOA"],
        ["secret.customer.test", "A"],
        ["anything.customer.test", "A"],
      ])
        await becomes(name, type, "REFUSED");
    } finally {
      await accountStatus("active")();
    }
  });
  await check("npm run zone-conflicts lists both zones, with the rules they break", async () => {
    const listed = await runCommand(process.execPath, [join(ROOT, "scripts", "zone-conflicts.mjs"), "--persist-to", stateDir]);
    assert(listed.code === 0, listed.output);
    for (const line of [
      new RegExp(`^zon_\\S+  test  ${squatter}  reserved_name `, "m"),
      new RegExp(`^zon_\\S+  test  ${squatter}  above_zone .*: customer\\.test \\(${customerId}\\)`, "m"),
      new RegExp(`^zon_\\S+  secret\\.customer\\.test  ${squatter}  inside_zone .*: customer\\.test \\(${customerId}\\)`, "m"),
    ])
      assert(line.test(listed.output), `${line} not in:\n${listed.output}`);
  });
}

async function shortAnswer(port, name, type) {
  let result = await dig(port, ["+norec", "+time=2", "+tries=1", "+short", name, type], 10_000);
  // No answer within 2 s is not an answer: the primary asks the API on a cache miss, which
  // a loaded CI run once kept waiting longer ("no servers could be reached"). Asked once
  // more, waiting longer; what is compared is the answer, not its speed.
  if (/no servers could be reached/.test(result.output)) result = await dig(port, ["+norec", "+time=10", "+tries=1", "+short", name, type], 20_000);
  return result.output.trim().split("\n").filter(Boolean).sort().join(" ");
}

// Every daemon (and `npm run dns`'s servers, in its process group) is stopped by the harness's cleanup.
await harness.run(main);

async function main() {
  const stateDir = tempDir("domain-api-dns-e2e-state-");
  const work = tempDir("domain-api-dns-e2e-");
  const base = await harness.startReported("npm start", { persistTo: stateDir });
  if (!base) return;
  const api = httpClient(base);

  // The zones, through the API: master-file imports (the zone owns its SOA; the file's SOA sets it).
  for (const [zone, text] of Object.entries(ZONES)) {
    await check(`zone ${zone} is imported through the API`, async () => {
      const response = await api("POST", "/v1/zones", text, { "content-type": "text/dns" });
      assert(response.status === 201, `POST /v1/zones answered ${response.status}: ${response.text.slice(0, 400)}`);
    });
  }

  // BIND, loaded with the service's own export of each zone.
  const bindPort = await freePort();
  const zoneStatements = [];
  for (const zone of Object.keys(ZONES)) {
    const exported = await api("GET", `/v1/zones/${zone}`, undefined, { accept: "text/dns" });
    assert(exported.status === 200, `export of ${zone}: ${exported.status}`);
    writeFileSync(join(work, `${zone}.zone`), exported.text);
    writeFileSync(join(work, `${zone}.pdns.zone`), certWithNumbers(exported.text));
    zoneStatements.push(`zone "${zone}" { type primary; file "${join(work, `${zone}.zone`)}"; allow-transfer { 127.0.0.1; }; };`);
  }
  writeFileSync(
    join(work, "named.conf"),
    `options {
  directory "${work}";
  pid-file "${join(work, "named.pid")}";
  session-keyfile "${join(work, "session.key")}";
  listen-on port ${bindPort} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  notify no;
  dnssec-validation no;
  minimal-responses yes;
};
controls { };
${zoneStatements.join("\n")}
`,
  );
  const named = await startDaemon("named", ["-g", "-n", "1", "-c", join(work, "named.conf")], { ready: /running\s*$/m, timeoutMs: 30_000 });
  if (named.notReady) {
    notOk("BIND's named starts with the exported zones", named.notReady);
    return;
  }
  ok(`BIND's named (pid ${named.child.pid}) serves the exported zones on 127.0.0.1:${bindPort}`);

  // PowerDNS reading the same exported files itself (its bind backend): the reference for
  // what PowerDNS answers from exactly this data.
  const pdnsFilePort = await freePort();
  const pdnsFileDir = join(work, "pdns-zone-files");
  mkdirSync(pdnsFileDir);
  writeFileSync(
    join(pdnsFileDir, "named.conf"),
    Object.keys(ZONES)
      .map((zone) => `zone "${zone}" { type master; file "${join(work, `${zone}.pdns.zone`)}"; };`)
      .join("\n"),
  );
  writeFileSync(
    join(pdnsFileDir, "pdns.conf"),
    ["launch=bind", `bind-config=${join(pdnsFileDir, "named.conf")}`, ...pdnsSettings({ port: pdnsFilePort, cache: 0 }), ""].join("\n"),
  );
  const pdnsFile = await startPowerDns(pdnsFileDir, {
    name: "pdns_server (zone files)",
    ready: async () => (await udpQuery(pdnsFilePort, "e2e.test", "SOA", { timeoutMs: 300 }))?.aa === true,
    timeoutMs: 30_000,
  });
  if (pdnsFile.notReady) {
    notOk("PowerDNS reading the exported zone files starts", pdnsFile.notReady);
    return;
  }
  ok(`PowerDNS reading the exported files itself (pid ${pdnsFile.child.pid}) serves them on 127.0.0.1:${pdnsFilePort}`);

  // The tier, exactly as `npm run dns` runs it.
  const primaryPort = await freePort();
  const dns = await startDnsTier({ api: base, port: secondaryPort, primaryPort, persistTo: stateDir, args: ["--cache-ttl", String(CACHE_TTL)] });
  if (dns.notReady) {
    notOk("npm run dns starts the tier", dns.notReady);
    return;
  }
  const pids = () => ({
    primary: Number([...dns.output.matchAll(/pdns_server (?:pid |started again \(pid )(\d+)/g)].at(-1)?.[1]),
    secondary: Number([...dns.output.matchAll(/knotd (?:pid |started again \(pid )(\d+)/g)].at(-1)?.[1]),
  });
  pdnsServerPid = pids().primary;
  secondaryPid = pids().secondary;
  ok(
    `npm run dns: the primary, PowerDNS (pid ${pdnsServerPid}), on 127.0.0.1:${primaryPort}; the secondary, Knot (pid ${secondaryPid}), on 127.0.0.1:${secondaryPort}`,
  );

  // The secondary learns every zone from the catalog and transfers it.
  await check("the secondary serves every zone, learnt from the catalog zone, at the serial the API gives", async () => {
    for (const zone of Object.keys(ZONES)) {
      const serial = (await api("GET", `/v1/zones/${zone}`)).json.soa.serial;
      const took = await waitFor(async () => (await shortAnswer(secondaryPort, zone, "SOA")).split(" ")[2] === String(serial), { timeoutMs: HANG_MS });
      assert(took !== null, `${zone} SOA at the secondary: "${await shortAnswer(secondaryPort, zone, "SOA")}", want serial ${serial}`);
    }
  });

  // AXFR, as RRsets: the primary's transfer equals BIND's, i.e. the export as BIND reads
  // it, but where PowerDNS reading the export itself transfers otherwise: those are listed,
  // and the primary must transfer exactly what it does (DNSKEY, CDS and CDNSKEY, which
  // direct-dnskey transfers with the SOA minimum as TTL, compare without their TTL). The secondary
  // holds what the primary transferred: its own transfer equals the primary's.
  const transfer = async (port, zone) => {
    const result = await dig(port, ["+onesoa", "+nocmd", "+nostats", "+nocomments", "AXFR", zone]);
    return result.output
      .split("\n")
      .filter((line) => line.trim() && !line.startsWith(";"))
      .map((line) => normalise(line.trim()))
      .sort();
  };
  /** "owner type" of what PowerDNS leaves out of a transfer: the secondary cannot hold those. */
  const leftOut = new Set();
  /** Every record of every zone served, as BIND transfers the export (additional data must be among them). */
  const zoneRecords = new Set();
  for (const zone of Object.keys(ZONES)) {
    await check(`AXFR of ${zone} from the primary and from the secondary equals the export (AXFR from BIND), RRset by RRset`, async () => {
      const [fromPrimary, fromSecondary, fromBind, fromPdnsFile] = await Promise.all([
        transfer(primaryPort, zone),
        transfer(secondaryPort, zone),
        transfer(bindPort, zone),
        transfer(pdnsFilePort, zone),
      ]);
      assert(fromBind.length > 3, `BIND transferred ${fromBind.length} records`);
      for (const line of fromBind) zoneRecords.add(normalise(line, { maskSoaTtl: true }));
      assert(
        JSON.stringify(fromPrimary) === JSON.stringify(fromPdnsFile),
        `PowerDNS on the service and on the file differ: ${JSON.stringify(fromPrimary.filter((l) => !fromPdnsFile.includes(l)).slice(0, 5))} vs ${JSON.stringify(fromPdnsFile.filter((l) => !fromPrimary.includes(l)).slice(0, 5))}`,
      );
      const own = fromBind.filter((line) => !fromPdnsFile.includes(line));
      const missing = fromBind.filter((line) => !fromPrimary.includes(line) && !own.includes(line));
      const extra = fromPrimary.filter((line) => !fromBind.includes(line));
      assert(
        missing.length === 0 && extra.length === 0,
        `missing from the primary: ${JSON.stringify(missing.slice(0, 5))}; extra: ${JSON.stringify(extra.slice(0, 5))}`,
      );
      assert(
        JSON.stringify(fromSecondary) === JSON.stringify(fromPrimary),
        `the secondary and the primary differ: ${JSON.stringify(fromSecondary.filter((l) => !fromPrimary.includes(l)).slice(0, 5))} vs ${JSON.stringify(fromPrimary.filter((l) => !fromSecondary.includes(l)).slice(0, 5))}`,
      );
      for (const line of own) {
        const [owner, , , type] = line.split(" ");
        leftOut.add(`${owner} ${type}`);
        console.log(`#   PowerDNS's own: AXFR of ${zone} leaves out ${line}`);
      }
    });
  }

  // Transfers only to the tier: from another address (127.0.0.2, loopback too) the primary
  // and the secondary both refuse.
  await check("AXFR from an address that is not the tier's (127.0.0.2) is refused by the primary and by the secondary", async () => {
    for (const port of [primaryPort, secondaryPort]) {
      const result = await dig(port, ["-b", "127.0.0.2", "+nocmd", "+nostats", "AXFR", "e2e.test"]);
      const records = result.output.split("\n").filter((line) => line.trim() && !line.startsWith(";"));
      assert(records.length === 0 && /Transfer failed/i.test(result.output), `port ${port}: ${result.output.trim().split("\n").slice(0, 4).join(" | ")}`);
    }
  });

  // The same questions to the four. The secondary must answer exactly as BIND on the export
  // does (every section), but for the records PowerDNS leaves out of a transfer (above).
  // PowerDNS on this service must answer exactly as PowerDNS reading the exported zone
  // file does (the backend adds nothing and loses nothing), and as BIND does, but where
  // PowerDNS itself answers otherwise than BIND (its zone-file answer differs from BIND's
  // the same way): those are listed.
  const random = seeded(20261123);
  for (const zone of Object.keys(ZONES)) {
    const batch = questions(zone, random);
    const [secondary, bind, pdns, pdnsFile] = await askAll([secondaryPort, bindPort, primaryPort, pdnsFilePort], batch, work, zone);
    const fromExport = [];
    const notTransferred = [];
    const fromFile = [];
    const fromBind = [];
    const powerDnsOwn = [];
    const asPowerDns = [];
    if ([secondary, pdns, bind, pdnsFile].some((answers) => answers.length !== batch.length)) {
      fromBind.push(
        `answers read: secondary ${secondary.length}, PowerDNS ${pdns.length}, BIND ${bind.length}, PowerDNS with the zone file ${pdnsFile.length}, of ${batch.length}`,
      );
    } else {
      // A question the secondary answered otherwise is asked of it once more, a moment later:
      // on a loaded machine it may have been between two versions of a zone (a transfer or
      // a catalog update landing); a difference that stays is the secondary's own.
      const differing = batch.map((_, i) => i).filter((i) => secondaryDifference(secondary[i], bind[i], batch[i][1], zoneRecords));
      if (differing.length > 0 && differing.length <= 20) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const [again] = await askAll(
          [secondaryPort],
          differing.map((i) => batch[i]),
          work,
          `${zone}-again`,
        );
        differing.forEach((i, k) => {
          if (again?.[k]) secondary[i] = again[k];
        });
      }
      for (let i = 0; i < batch.length; i++) {
        const question = `${batch[i][0]} ${batch[i][1]}`;
        let fromSecondary = secondaryDifference(secondary[i], bind[i], batch[i][1], zoneRecords);
        // Where the two references on the export answer otherwise (PowerDNS's own answers,
        // below: ANY at a CNAME or below a DNAME, where PowerDNS follows the chain as RFC
        // 6672 §3.2 does and BIND stops at the CNAME, as RFC 1034 §4.3.2 reads), the
        // secondary may answer as either: as PowerDNS on the file, every section but the
        // additional one (held to the rule above).
        if (fromSecondary && difference(pdnsFile[i], bind[i]) && !difference(secondary[i], pdnsFile[i])) {
          asPowerDns.push(`${question}: as PowerDNS on the export answers (${fromSecondary.split("\n")[0]})`);
          fromSecondary = null;
        }
        if (fromSecondary && followsChain(secondary[i], bind[i], batch[i][1], zoneRecords)) {
          asPowerDns.push(`${question}: followed the chain, ${secondary[i].status} (${fromSecondary.split("\n")[0]})`);
          fromSecondary = null;
        }
        if (fromSecondary) {
          const name = batch[i][0].toLowerCase();
          const absent = [...leftOut].some((entry) => entry.split(" ")[0] === name && ["ANY", entry.split(" ")[1]].includes(batch[i][1]));
          (absent ? notTransferred : fromExport).push(`${question}: ${fromSecondary}`);
        }
        const file = difference(pdns[i], pdnsFile[i], { additional: true });
        if (file) fromFile.push(`${question}: ${file}`);
        const why = difference(pdns[i], bind[i]);
        if (!why) continue;
        if (difference(pdnsFile[i], bind[i]) === why) powerDnsOwn.push(`${question}: ${why}`);
        else fromBind.push(`${question}: ${why}`);
      }
    }
    const report = (what, differences) => {
      if (differences.length === 0) return ok(what);
      notOk(what, `${differences.length} differ`);
      for (const line of differences.slice(0, 30)) console.log(`#   ${line.replaceAll("\n", "\n#   ")}`);
    };
    report(
      `${zone}: the secondary answers ${batch.length - notTransferred.length - asPowerDns.length} of ${batch.length} questions as BIND on the export does (every section)${asPowerDns.length > 0 ? `, ${asPowerDns.length} where BIND stops at a chain (listed)` : ""}${notTransferred.length > 0 ? `; the other ${notTransferred.length} ask for records PowerDNS does not transfer` : ""}`,
      fromExport,
    );
    for (const line of notTransferred) console.log(`#   not transferred: ${line.split("\n")[0]}`);
    for (const line of asPowerDns) console.log(`#   BIND stops at the chain, the secondary follows it: ${line}`);
    report(`${zone}: the primary answers all ${batch.length} questions as PowerDNS reading the export does (every section)`, fromFile);
    report(
      `${zone}: the primary and BIND agree on ${batch.length - powerDnsOwn.length} of ${batch.length} questions (rcode, AA, answer, authority, referral glue)${powerDnsOwn.length > 0 ? `; the other ${powerDnsOwn.length} are PowerDNS's own answers, the same from its zone file` : ""}`,
      fromBind,
    );
    for (const line of powerDnsOwn) console.log(`#   PowerDNS's own: ${line.split("\n")[0]}`);
  }

  // Freshness at the secondary: changes through the API, driven by NOTIFY.
  const timings = [];
  const fresh = async (what, change, predicate) => {
    await check(`${what} is answered so by the secondary within ${FRESHNESS_BOUND_MS / 1000} s`, async () => {
      assert(!(await predicate()), "already answered so before the change");
      await change();
      const took = await waitFor(predicate, { timeoutMs: HANG_MS });
      if (took === null) for (const line of dns.output.split("\n").slice(-40)) console.log(`#   ${line}`);
      assert(took !== null, `not answered so after ${HANG_MS / 1000} s (the tier's last lines above)`);
      timings.push(took);
      assert(took <= FRESHNESS_BOUND_MS, `took ${took} ms`);
      console.log(`#   ${what}: ${took} ms`);
    });
  };
  const status = async (name, type) => (await udpQuery(secondaryPort, name, type, { timeoutMs: 2_000 }))?.rcode;
  let recordId = null;
  await fresh(
    "a record created through the API",
    async () => {
      const created = await api("POST", "/v1/records", { zone: "e2e.test", name: "fresh", type: "A", content: "192.0.2.200", ttl: 60 });
      assert(created.status === 201, `create: ${created.status} ${created.text}`);
      recordId = created.json.id;
    },
    async () => (await shortAnswer(secondaryPort, "fresh.e2e.test", "A")) === "192.0.2.200",
  );
  await fresh(
    "a record changed through the API",
    async () => {
      const changed = await api("PATCH", `/v1/records/${recordId}`, { content: "192.0.2.201" });
      assert(changed.status === 200, `PATCH: ${changed.status} ${changed.text}`);
    },
    async () => (await shortAnswer(secondaryPort, "fresh.e2e.test", "A")) === "192.0.2.201",
  );
  await fresh(
    "a record deleted through the API",
    async () => {
      const deleted = await api("DELETE", `/v1/records/${recordId}`);
      assert(deleted.status === 204, `DELETE: ${deleted.status} ${deleted.text}`);
    },
    async () => (await status("fresh.e2e.test", "A")) === "NXDOMAIN",
  );
  await fresh(
    "a zone created through the API",
    async () => {
      const created = await api("POST", "/v1/zones", { name: "new.test", nameservers: ["ns1.example.net"] });
      assert(created.status === 201, `POST /v1/zones: ${created.status} ${created.text}`);
    },
    async () => (await udpQuery(secondaryPort, "new.test", "SOA", { timeoutMs: 2_000 }))?.aa === true,
  );
  await fresh(
    "DNSSEC turned on through the API (the apex DNSKEY)",
    async () => {
      const enabled = await api("POST", "/v1/zones/new.test/dnssec");
      assert(enabled.status === 201, `POST dnssec: ${enabled.status} ${enabled.text}`);
    },
    async () => (await shortAnswer(secondaryPort, "new.test", "DNSKEY")).startsWith("257 3 13 "),
  );
  await fresh(
    "DNSSEC turned off through the API (at once: force, as no parent here would leave by RFC 8078)",
    async () => {
      const disabled = await api("DELETE", "/v1/zones/new.test/dnssec?force=true");
      assert(disabled.status === 204, `DELETE dnssec: ${disabled.status} ${disabled.text}`);
    },
    async () => (await shortAnswer(secondaryPort, "new.test", "DNSKEY")) === "" && (await status("new.test", "DNSKEY")) === "NOERROR",
  );
  await fresh(
    "a zone deleted through the API",
    async () => {
      const deleted = await api("DELETE", "/v1/zones/second.test");
      assert(deleted.status === 204, `DELETE zone: ${deleted.status} ${deleted.text}`);
    },
    async () => (await status("second.test", "SOA")) === "REFUSED",
  );

  // A zone of a suspended account is not served (docs/accounts.md: its data is kept, not
  // used), and is served again once the account is active.
  let accountId = null;
  await check("a zone of another account is served by the secondary", async () => {
    const account = await api("POST", "/v1/accounts", { name: "dns-e2e customer" });
    assert(account.status === 201, `POST /v1/accounts: ${account.status} ${account.text}`);
    accountId = account.json.id;
    const zone = await api("POST", "/v1/zones", { name: "customer.test", nameservers: ["ns1.example.net"], account: accountId });
    assert(zone.status === 201, `POST /v1/zones: ${zone.status} ${zone.text}`);
    const created = await api("POST", "/v1/records", { zone: "customer.test", name: "www", type: "A", content: "192.0.2.77" });
    assert(created.status === 201, `POST /v1/records: ${created.status} ${created.text}`);
    const took = await waitFor(async () => (await shortAnswer(secondaryPort, "www.customer.test", "A")) === "192.0.2.77", { timeoutMs: HANG_MS });
    assert(took !== null, "www.customer.test A is not answered");
  });
  const accountStatus = (value) => async () => {
    const changed = await api("PATCH", `/v1/accounts/${accountId}`, { status: value }, { "content-type": "application/merge-patch+json" });
    assert(changed.status === 200, `PATCH account: ${changed.status} ${changed.text}`);
  };
  if (accountId) {
    await fresh("a zone whose account is suspended", accountStatus("suspended"), async () => (await status("www.customer.test", "A")) === "REFUSED");
    await fresh(
      "the same zone once its account is active again",
      accountStatus("active"),
      async () => (await shortAnswer(secondaryPort, "www.customer.test", "A")) === "192.0.2.77",
    );
  }
  if (timings.length > 0)
    console.log(`# freshness at the secondary: at most ${Math.max(...timings)} ms over ${timings.length} changes (bound ${FRESHNESS_BOUND_MS} ms)`);

  // Restarts: each part of the tier stopped and started again loses nothing and converges.
  const everyZoneServed = async () => {
    for (const zone of ["e2e.test", "child.e2e.test", "types.test", "customer.test"]) {
      if ((await udpQuery(secondaryPort, zone, "SOA", { timeoutMs: 2_000 }))?.aa !== true) return false;
    }
    return true;
  };
  const converges = async (what, name, content) => {
    const created = await api("POST", "/v1/records", { zone: "e2e.test", name, type: "A", content });
    assert(created.status === 201, `create: ${created.status} ${created.text}`);
    const took = await waitFor(async () => (await shortAnswer(secondaryPort, `${name}.e2e.test`, "A")) === content, { timeoutMs: HANG_MS });
    if (took === null) for (const line of dns.output.split("\n").slice(-60)) console.log(`#   ${line}`);
    assert(took !== null, `${what}: ${name}.e2e.test A is not answered by the secondary (the tier's last lines above)`);
    console.log(`#   ${what}: answered after ${took} ms`);
  };
  const restarted = async (server, previous) => {
    const took = await waitFor(() => pids()[server] !== previous && Number.isInteger(pids()[server]), { timeoutMs: HANG_MS });
    assert(took !== null, `npm run dns did not start the ${server} again: ${dns.output.split("\n").slice(-5).join(" | ")}`);
  };
  // PowerDNS's word for a zone it found changed and NOTIFYed to nobody (then recorded as
  // notified all the same): what a restarted PowerDNS 4.7 did when the tier's secondaries
  // came from its `also-notify`, which it reads after its NOTIFY loop's first pass may have
  // run (docs/serving.md, "Restarts"). They come from each zone's ALSO-NOTIFY metadata now.
  const notifiedNobody = (since) =>
    dns.output
      .slice(since)
      .split("\n")
      .filter((line) => /no valid nameservers or ALSO-NOTIFYs found/.test(line));
  await check(
    "the primary stopped (SIGKILL) and started again by npm run dns: a change made while it was down is NOTIFYed by the new one and reaches the secondary",
    async () => {
      const before = pids().primary;
      const since = dns.output.length;
      process.kill(before, "SIGKILL");
      await converges("a record created while the primary was down", "while-primary-down", "192.0.2.150");
      await restarted("primary", before);
      pdnsServerPid = pids().primary;
      assert(notifiedNobody(since).length === 0, `the restarted primary NOTIFYed nobody: ${notifiedNobody(since).join(" | ")}`);
      assert(await everyZoneServed(), "a zone is no longer served by the secondary");
    },
  );
  await check(
    "the secondary stopped (SIGKILL) and started again: it serves every zone from its own files, and a change whose NOTIFY it missed arrives within the tier's bound on the SOA retry",
    async () => {
      const before = pids().secondary;
      // Stopped first (SIGSTOP: not exited, so not started again yet) until the primary has
      // given up NOTIFYing it the change (PowerDNS sends four over 17 s and logs the fifth
      // turn), then killed, which drops the NOTIFYs waiting in its socket: the change can
      // only arrive by the secondary's own SOA check, so this does not pass by the luck of
      // a NOTIFY landing after the start, as it did before on an idle machine.
      const gaveUp = new RegExp(`Notification for e2e\\.test\\.? to 127\\.0\\.0\\.1:${secondaryPort} failed after retries`, "g");
      const givenUpBefore = [...dns.output.matchAll(gaveUp)].length;
      process.kill(before, "SIGSTOP");
      const created = await api("POST", "/v1/records", { zone: "e2e.test", name: "while-secondary-down", type: "A", content: "192.0.2.151" });
      assert(created.status === 201, `create: ${created.status} ${created.text}`);
      const notified = await waitFor(() => [...dns.output.matchAll(gaveUp)].length > givenUpBefore, { timeoutMs: 34_000 + HANG_MS });
      process.kill(before, "SIGKILL");
      assert(notified !== null, "the primary did not log giving up its NOTIFY of e2e.test to the stopped secondary");
      await restarted("secondary", before);
      secondaryPid = pids().secondary;
      const startedAt = Date.now();
      assert((await waitFor(everyZoneServed, { timeoutMs: HANG_MS })) !== null, "the restarted secondary does not serve every zone");
      // Knot keeps the time of each zone's next SOA check in its timer database; npm run dns
      // drops that database before each start, so Knot checks every zone it loaded from its
      // files at once (within MAX_RETRY_SECONDS when the primary does not answer at first).
      // HANG_MS is the hang detector.
      const took = await waitFor(async () => (await shortAnswer(secondaryPort, "while-secondary-down.e2e.test", "A")) === "192.0.2.151", {
        timeoutMs: HANG_MS,
      });
      const sinceStart = Date.now() - startedAt;
      assert(
        took !== null,
        `the change is not answered ${sinceStart} ms after the secondary started again (its SOA checks are due within ${MAX_RETRY_SECONDS} s)`,
      );
      console.log(
        `#   a change whose NOTIFY the secondary missed: answered ${sinceStart} ms after it started again (bound on its SOA checks: ${MAX_RETRY_SECONDS} s)`,
      );
      assert((await shortAnswer(secondaryPort, "www.customer.test", "A")) === "192.0.2.77", "a record from before the restart is lost");
    },
  );
  await check("the API stopped and started again on its state: the secondary serves all along, and converges on the next change", async () => {
    const port = new URL(base).port;
    const since = dns.output.length;
    await harness.stopServer();
    assert(await everyZoneServed(), "the secondary stopped serving while the API was down");
    const notReady = await harness.startServer(Number(port), { persistTo: stateDir });
    assert(notReady === null, `the API did not come back: ${notReady}`);
    await converges("a record created after the API's restart", "after-api-restart", "192.0.2.152");
    assert(notifiedNobody(since).length === 0, `a restarted primary NOTIFYed nobody: ${notifiedNobody(since).join(" | ")}`);
    assert(await everyZoneServed(), "a zone is no longer served by the secondary");
  });

  // Names are owned (docs/accounts.md): zones stored before the rules that break them —
  // written straight into the database, since the API refuses to make them — are not
  // served, and no zone of one account answers for a name of another's. A squatter's zone
  // `test` with a wildcard (a customer's zone at a top-level name) and its zone
  // `secret.customer.test` made inside the customer's zone.
  if (accountId) await ownershipChecks({ api, stateDir, pdnsPort: primaryPort, customerId: accountId, accountStatus });

  // Nothing printed the DNS backend's path (it carries the token).
  await check("neither npm start nor npm run dns printed a /v1/pdns/ path", async () => {
    const leaks = `${harness.serverOutput}\n${dns.output}`.split("\n").filter((line) => /\/v1\/pdns\/tok_/i.test(line));
    assert(leaks.length === 0, leaks.slice(0, 3).join(" | "));
  });

  await check("npm run dns stops both servers by their PIDs on SIGTERM and revokes its token", async () => {
    const inTime = await stopDaemon(dns, 60_000);
    assert(inTime, "still running 60 s after SIGTERM");
    assert(!dns.leftovers, "a process it started outlived it");
    assert(/\[dns\] stopped \(SIGTERM\); token "[^"]+" revoked/.test(dns.output), dns.output.split("\n").slice(-3).join(" | "));
    for (const [what, pid] of [
      ["pdns_server", pdnsServerPid],
      ["knotd", secondaryPid],
    ]) {
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
      assert(!alive, `${what} pid ${pid} is still alive`);
    }
    pdnsServerPid = null;
    secondaryPid = null;
  });
  await check("BIND's named (the reference) stops on SIGTERM", async () => assert(await stopDaemon(named), "still running 15 s after SIGTERM"));
}
