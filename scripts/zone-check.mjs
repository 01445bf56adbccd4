#!/usr/bin/env node
// Proves with BIND's own `named-checkzone` that the zones this service exports are valid.
// Like e2e.mjs it runs `node scripts/start.mjs` on a free port with a throwaway D1 state
// dir (own process group, always torn down), then over real HTTP:
//   1. creates a zone from JSON and adds records of every supported type through
//      POST /v1/records (tricky ones included: long and escaped TXT, wildcard and IDN
//      owners, _sip._tcp SRV, null MX, delegation with glue and DS), exports it and runs
//      the strictest sensible named-checkzone on it; BIND must read back every TXT string
//      as sent; export → import (`?name=`) → export must be lossless;
//   2. generates a master file of > 1,000 records of every type in varied syntax, imports
//      it in one POST (text/dns), exports it, runs named-checkzone, checks that BIND reads
//      the upload and the export as the same zone, and that the round trip is lossless;
//   3. sends hostile master files (binary junk, unbalanced parentheses/quotes, thousands
//      of bad lines, one bad line in a good file, over the 2 MiB limit): 422 (413 for the size), never
//      5xx, and no zone is created;
//   4. imports every file of the corpus test/zones/ (scripts/lib/zone-corpus.mjs says how
//      each names its expectations) and checks each against BIND in the same run: no file
//      BIND refuses is accepted; a file BIND accepts is accepted, its export passes BIND and
//      holds the same zone, or it is refused by a choice docs/dns.md states;
//   5. property test (fast-check): random sequences of API writes, valid or not, on fresh
//      zones; whatever the API accepted, the export passes
//      `named-checkzone -k fail -M fail -S fail -n fail -i local`.
// Prints `ok - …` / `not ok - …` per check and `ZONE-CHECK: N passed, M failed`; exits 1
// on failure. Needs named-checkzone (Debian: bind9-utils; .ci/run installs it).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { assert, createHarness, expectStatus, freePort, httpClient } from "./lib/harness.mjs";
import {
  comparableDump,
  corpusExpectation,
  readCorpus,
  dnsChapter,
  runCheckzone as checkzoneWith,
  STRICT_ARGS,
  writeArbitrary,
  writesThenCheck,
} from "./lib/zone-corpus.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const CHECKZONE = process.env.NAMED_CHECKZONE || "named-checkzone";
// The strictest named-checkzone (BIND 9.18) settings that make sense for a primary zone:
// check-names, MX/NS targets that look like addresses, MX/SRV pointing at a CNAME and
// DNSSEC-distinct duplicates all fail the load; integrity checks of in-zone targets and
// glue (`local`: out-of-zone names would need the network). -W and -T only warn; any
// warning is reported as its own failed check.
const CHECKZONE_ARGS = ["-k", "fail", "-m", "fail", "-M", "fail", "-n", "fail", "-r", "fail", "-S", "fail", "-i", "local"];
const INSTALL_HINT =
  "install BIND's tools: `apt-get update && apt-get install -y --no-install-recommends bind9-utils` (Debian/Ubuntu; .ci/run does this in CI)";

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_MASTER_FILE_BYTES = 2 * 1024 * 1024; // src/resources/zones/master-file.ts
const MEDIA_DNS = "text/dns";

const harness = createHarness({
  name: "zone-check",
  label: "ZONE-CHECK",
  readyTimeoutMs: 120_000,
  totalTimeoutMs: 420_000,
});
const { ok, notOk, check } = harness;

// ---------------------------------------------------------------------------------------
// Test data

const hex = (algorithm, seed) => createHash(algorithm).update(String(seed)).digest("hex");

/** The record types the service supports, read from the TypeScript source (one list to trust). */
function supportedTypes() {
  const source = readFileSync(join(ROOT, "src", "dns", "rdata", "index.ts"), "utf8");
  const list = /RDATA_DESCRIPTORS\s*=\s*\{([^}]*)\}/.exec(source);
  if (!list) throw new Error("RDATA_DESCRIPTORS not found in src/dns/rdata/index.ts");
  return [...list[1].matchAll(/[A-Z][A-Z0-9]*/g)].map((m) => m[0]);
}

const ZONE = "zone-check.example.com";
const ZONE_COPY = "zone-check-copy.example.com";
const BULK_ZONE = "zone-check-bulk.example.org";
const BULK_COPY = "zone-check-bulk-copy.example.org";

const P256_KEY = "GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==";
const P256_DS = "B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17";
const OPENPGP_KEY = "mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u120JkFsaWNlIExvdmVsYWNlIDxhbGljZUBvcGVucGdwLmV4YW1wbGU+";
const DKIM_TEXT = `v=DKIM1; k=rsa; p=${Buffer.from(hex("sha512", "dkim").repeat(4), "hex").toString("base64")}`; // > 255 bytes
const ECH = "AEX+DQBBpQAgACB/RBnVH0LiL0rpqn8aKhdE0bjvWNgfQBkKdGqvvr1wUgAEAAEAAQASY2xvdWRmbGFyZS1lY2guY29tAAA=";

// What POST /v1/records gets. `expect`: the canonical content the API should return;
// `txt`: the strings (UTF-8 text) a TXT record holds; `txtJoined`: their concatenation,
// when the service chooses the split (each string ≤ 255 bytes).
const RECORDS = [
  { name: "@", type: "A", content: "192.0.2.1" },
  { name: "www", type: "A", content: "192.0.2.10", ttl: 300 },
  { name: "mail", type: "A", content: "192.0.2.25" },
  { name: "sip", type: "A", content: "192.0.2.50" },
  { name: "*.wild", type: "A", content: "192.0.2.99", why: "wildcard owner" },
  { name: "münchen", type: "A", content: "192.0.2.80", why: "IDN owner", expectName: "xn--mnchen-3ya" },
  { name: "ns1.sub", type: "A", content: "192.0.2.53", why: "glue below a delegation" },
  { name: "@", type: "AAAA", content: "2001:db8::1" },
  { name: "www", type: "AAAA", content: "2001:0DB8:0000:0000:0000:0000:0000:0010", ttl: 300, expect: "2001:db8::10", why: "uncompressed input" },
  { name: "mail", type: "AAAA", content: "2001:db8::25" },
  { name: "ns1.sub", type: "AAAA", content: "2001:db8::53", why: "glue below a delegation" },
  { name: "ftp", type: "CNAME", content: `www.${ZONE}.` },
  { name: "ext", type: "CNAME", content: "target.example.net", expect: "target.example.net.", why: "absolute without the dot" },
  { name: "@", type: "MX", content: `10 mail.${ZONE}.` },
  { name: "@", type: "MX", content: "20 mx.example.net." },
  { name: "nomail", type: "MX", content: "0 .", why: "null MX (RFC 7505)" },
  { name: "sub", type: "NS", content: `ns1.sub.${ZONE}.`, why: "delegation with in-zone glue" },
  { name: "sub", type: "NS", content: "ns2.example.net." },
  { name: "@", type: "TXT", content: '"v=spf1 mx -all"', txt: ["v=spf1 mx -all"] },
  {
    name: "_dmarc",
    type: "TXT",
    content: '"v=DMARC1; p=reject; rua=mailto:dmarc@example.com"',
    txt: ["v=DMARC1; p=reject; rua=mailto:dmarc@example.com"],
    why: "semicolons",
  },
  { name: "dkim._domainkey", type: "TXT", content: DKIM_TEXT, txtJoined: DKIM_TEXT, why: `unquoted, ${Buffer.byteLength(DKIM_TEXT)} bytes > 255` },
  { name: "quotes", type: "TXT", content: '"say \\"hi\\"; then \\\\ leave"', txt: ['say "hi"; then \\ leave'], why: "quotes, backslash, semicolon" },
  {
    name: "multi",
    type: "TXT",
    content: '"first" "second; with \\"quotes\\"" ""',
    txt: ["first", 'second; with "quotes"', ""],
    why: "several strings, one empty",
  },
  { name: "decimal", type: "TXT", content: '"\\065\\066C tab:\\009. nul:\\000"', txt: ["ABC tab:\t. nul:\0"], why: "\\DDD escapes" },
  { name: "utf8", type: "TXT", content: '"café ☕ 日本"', txt: ["café ☕ 日本"], why: "UTF-8" },
  { name: "literal", type: "TXT", content: 'unquoted "text"; with \\ backslash', txt: ['unquoted "text"; with \\ backslash'], why: "unquoted text is literal" },
  { name: "*.wild", type: "TXT", content: '"wildcard"', txt: ["wildcard"], why: "wildcard owner" },
  { name: "_sip._tcp", type: "SRV", content: "10 5 5060 sip.zone-check.example.com." },
  { name: "_sips._tcp", type: "SRV", content: "0 0 0 .", why: "service not offered" },
  { name: "_xmpp-server._tcp", type: "SRV", content: "5 0 5269 xmpp.example.net" },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "@", type: "CAA", content: '0 issuewild ";"' },
  { name: "@", type: "CAA", content: `128 iodef "mailto:security@${ZONE}"` },
  { name: "ptr", type: "PTR", content: `www.${ZONE}.` },
  { name: "sub", type: "DS", content: `12345 13 2 ${hex("sha256", "ds").toUpperCase()}`, why: "at the delegation" },
  { name: "_443._tcp.www", type: "TLSA", content: `3 1 1 ${hex("sha256", "tlsa")}`, expect: `3 1 1 ${hex("sha256", "tlsa").toUpperCase()}` },
  { name: "_25._tcp.mail", type: "TLSA", content: `2 0 2 ${hex("sha512", "tlsa").toUpperCase()}` },
  { name: "www", type: "SSHFP", content: `4 2 ${hex("sha256", "sshfp").toUpperCase()}` },
  { name: "www", type: "SSHFP", content: `1 1 ${hex("sha1", "sshfp").toUpperCase()}` },
  { name: "@", type: "NAPTR", content: `100 10 "S" "SIP+D2U" "" _sip._udp.${ZONE}.` },
  { name: "e164", type: "NAPTR", content: '10 100 "u" "E2U+sip" "!^\\\\+1(.*)$!sip:\\\\1@example.com!" .', why: "regexp with backslashes" },
  { name: "_dns.resolver", type: "SVCB", content: '1 dns.example.net. alpn="dot,h2" port=853' },
  { name: "svc", type: "SVCB", content: "0 svc.example.net.", why: "AliasMode" },
  { name: "@", type: "HTTPS", content: '1 . alpn="h3,h2" ipv4hint=192.0.2.1 ipv6hint=2001:db8::1' },
  { name: "www", type: "HTTPS", content: `1 . mandatory=alpn alpn=h2 no-default-alpn port=8443 ech=${ECH}`, ttl: 300 },
  { name: "legacy", type: "DNAME", content: "zone-check.example.net." },
  { name: "@", type: "DNSKEY", content: `257 3 13 ${P256_KEY}`, why: "RFC 6605 §6.1's key" },
  { name: "@", type: "CDS", content: "55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17", expect: `55648 13 2 ${P256_DS}` },
  { name: "@", type: "CDNSKEY", content: "0 3 0 AA==", why: "deletion (RFC 8078 §4)" },
  { name: "www", type: "HINFO", content: '"RFC8482" ""', why: "RFC 8482 §4.2" },
  { name: "@", type: "RP", content: `hostmaster.${ZONE} contact.${ZONE}`, expect: `hostmaster.${ZONE}. contact.${ZONE}.` },
  { name: "ops", type: "RP", content: "first_last.example.net. .", why: "underscore in the mailbox, root TXT name" },
  { name: "_http._tcp", type: "URI", content: '10 1 "https://www.example.com/path?q=1"' },
  { name: "@", type: "SPF", content: "v=spf1 mx -all", expect: '"v=spf1 mx -all"', why: "beside the TXT that says the same" },
  { name: "host", type: "EUI48", content: "00-00-5E-00-53-2A", expect: "00-00-5e-00-53-2a" },
  { name: "host", type: "EUI64", content: "00-00-5e-ef-10-00-00-2a" },
  { name: "@", type: "LOC", content: "42 21 54 N 71 06 18 W -24m 30m", expect: "42 21 54.000 N 71 6 18.000 W -24.00m 30m 10000m 10m", why: "RFC 1876" },
  { name: "south", type: "LOC", content: "32 7 19.5 S 116 2 25 E 10.25m 15m 0.5m 0m", expect: "32 7 19.500 S 116 2 25.000 E 10.25m 10m 0.50m 0.00m" },
  { name: "@", type: "CERT", content: "1 65535 8 AQID", expect: "PKIX 65535 RSASHA256 AQID" },
  { name: "alice._openpgpkey", type: "OPENPGPKEY", content: OPENPGP_KEY },
  { name: "_smimecert.alice", type: "SMIMEA", content: `3 0 1 ${hex("sha256", "smimea")}`, expect: `3 0 1 ${hex("sha256", "smimea").toUpperCase()}` },
  { name: "@", type: "ZONEMD", content: `2018031900 1 1 ${hex("sha384", "zonemd")}`, expect: `2018031900 1 1 ${hex("sha384", "zonemd").toUpperCase()}` },
];

/**
 * A master file of `blocks` × ~14 records covering every supported type, in the syntax a
 * hand-written zone uses: relative and absolute names, `@`, blank owners, omitted TTL or
 * class, class before TTL, TTL units, parentheses over several lines, comments, escapes.
 */
function bulkMasterFile(origin, blocks) {
  const lines = [];
  let records = 0;
  const rr = (line) => {
    lines.push(line);
    records++;
  };
  lines.push(`; ${origin}: generated by scripts/zone-check.mjs`, `$ORIGIN ${origin}.`, "$TTL 1h");
  lines.push(`@ IN SOA ns1.example.net. hostmaster.${origin}. ( 2026010101 ; serial`, "        2h 15m 2w 5m ) ; refresh retry expire minimum");
  rr("@ NS ns1.example.net.");
  rr("  NS ns2.example.net. ; blank owner");
  rr(`@ 3600 IN A 203.0.113.1`);
  rr(`@ ZONEMD 2026010101 1 2 ( ${hex("sha512", origin).slice(0, 64)}\n    ${hex("sha512", origin).slice(64)} )`);
  for (let m = 0; m < 5; m++) rr(`mail${m} 300 A 203.0.113.${10 + m}`);
  for (let i = 0; i < blocks; i++) {
    const h = `h${i}`;
    const ip4 = `198.51.${100 + (i >> 8)}.${i % 256}`;
    lines.push(`; block ${i}`);
    rr(i % 2 ? `${h} 300 IN A ${ip4}` : `${h}.${origin}. IN 300 A ${ip4}`);
    rr(
      i % 3
        ? `  AAAA 2001:db8:${(i + 1).toString(16)}::${(i % 97) + 1}`
        : `${h} 300 IN AAAA 2001:0db8:${(i + 1).toString(16)}:0:0:0:0:${((i % 97) + 1).toString(16)}`,
    );
    rr(`${h} MX ${(i % 3) * 10} mail${i % 5}${i % 4 ? "" : `.${origin}.`}`);
    const txt = [
      `"v=spf1 ip4:${ip4} -all"`,
      `"semi;colon \\"quoted\\" back\\\\slash \\065" "second string"`,
      `( "${"x".repeat(200)}" ; first part\n    "${"y".repeat(200)}" "${i}" )`,
      `unquoted-${i} two-words ""`,
    ][i % 4];
    rr(`${h} 300 IN TXT ${txt}`);
    rr(`_sip._tcp.${h} SRV 10 ${i % 7} ${5060 + i} ${h}`);
    rr(`${h} CAA ${i % 5 ? 0 : 128} ${["issue", "issuewild", "iodef"][i % 3]} "${i % 3 === 2 ? `mailto:ca${i}@example.net` : `ca${i % 4}.example.net`}"`);
    rr(`ptr${i} PTR ${h}.${origin}.`);
    rr(`_443._tcp.${h} TLSA 3 1 1 ${hex("sha256", `tlsa${i}`)}`);
    rr(i % 2 ? `${h} SSHFP 4 2 ${hex("sha256", `ssh${i}`)}` : `${h} SSHFP 1 1 ${hex("sha1", `ssh${i}`).toUpperCase()}`);
    rr(`${h} NAPTR ( ${100 + (i % 3)} ${i % 10}\n      "S" "SIP+D2U" "" _sip._udp.${h} )`);
    rr(i % 2 ? `_${8000 + i}._svc.${h} SVCB 1 ${h} alpn=h2 port=${8000 + i}` : `_${8000 + i}._svc.${h} SVCB 0 svc${i}.example.net.`);
    rr(`${h} HTTPS 1 . alpn="h3,h2" ipv4hint=${ip4}${i % 3 ? "" : ` ipv6hint=2001:db8::${(i + 1).toString(16)}`}`);
    rr(`alias${i} CNAME ${h}`);
    if (i % 2 === 0) rr(`old${i} 1d DNAME ${h}.${origin}.`);
    if (i % 8 === 0) {
      rr(`d${i} NS ns.d${i}`);
      rr(`d${i} NS ns2.example.net.`);
      rr(`ns.d${i} A 192.0.2.${(i % 200) + 1} ; glue`);
      rr(`d${i} DS ${10000 + i} 13 2 ${hex("sha256", `ds${i}`)}`);
    }
    if (i % 10 === 0) rr(`*.w${i} A 192.0.2.${(i % 200) + 1}`);
    if (i % 5 === 0) rr(`k${i} DNSKEY ${i % 2 ? 256 : 257} 3 ECDSAP256SHA256 ( ${P256_KEY.slice(0, 44)}\n      ${P256_KEY.slice(44)} )`);
    if (i % 5 === 1) rr(`k${i} CDS 55648 13 SHA-256 ${P256_DS.toLowerCase()}`);
    if (i % 5 === 2) rr(`k${i} CDNSKEY ${i % 10 === 2 ? "0 3 0 AA==" : `257 3 13 ${P256_KEY}`}`);
    if (i % 4 === 3) rr(`${h} HINFO "cpu-${i}" ${i % 8 === 3 ? "os" : '""'}`);
    if (i % 4 === 1) rr(`${h} RP admin${i % 3 ? "" : `.${origin}.`} ${i % 2 ? "." : "info"}`);
    if (i % 4 === 2) rr(`_http._tcp.${h} URI ${i % 7} 1 "https://${h}.example.net/${i}"`);
    // BIND warns of an SPF record without a TXT record saying the same: the TXT of i % 4 === 0 does.
    if (i % 4 === 0) rr(`${h} SPF "v=spf1 ip4:${ip4} -all"`);
    if (i % 6 === 0) rr(`${h} EUI48 ${[0, 0, 0x5e, 0, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, "0")).join("-")}`);
    if (i % 3 === 1)
      rr(`${h} LOC ( ${i % 90} ${i % 60} ${(i % 60) + 0.5} ${i % 2 ? "N" : "S"}\n      ${i % 180} ${i % 60} ${i % 2 ? "E" : "W"} ${i - 40}m ${i}m )`);
    if (i % 7 === 0)
      rr(`${h} CERT ${["PKIX", "PGP", 3, "URI"][i % 4]} ${i} ${["RSASHA256", 13, 0][i % 3]} ( ${OPENPGP_KEY.slice(0, 64)}\n      ${OPENPGP_KEY.slice(64)} )`);
    if (i % 7 === 1) rr(`h${i}._openpgpkey OPENPGPKEY ${OPENPGP_KEY}`);
    if (i % 7 === 2) rr(`_smimecert.${h} SMIMEA ${i % 4} ${i % 2} 1 ${hex("sha256", `smimea${i}`)}`);
    if (i % 6 === 3) rr(`${h} EUI64 00-00-5E-EF-10-00-${((i >> 8) & 255).toString(16).padStart(2, "0")}-${(i & 255).toString(16).padStart(2, "0")}`);
  }
  return { text: `${lines.join("\n")}\n`, records };
}

// ---------------------------------------------------------------------------------------
// Reading DNS presentation text

/** The strings of TXT RDATA in presentation form, as byte buffers (RFC 1035 §5.1). */
function txtStrings(rdata) {
  const strings = [];
  let i = 0;
  while (i < rdata.length) {
    if (/\s/.test(rdata[i])) {
      i++;
      continue;
    }
    const quoted = rdata[i] === '"';
    if (quoted) i++;
    const bytes = [];
    for (; i < rdata.length; i++) {
      const c = rdata[i];
      if (quoted ? c === '"' : /\s/.test(c)) break;
      if (c === "\\") {
        const ddd = /^[0-9]{3}/.exec(rdata.slice(i + 1, i + 4));
        if (ddd) {
          bytes.push(Number(ddd[0]));
          i += 3;
        } else bytes.push(...Buffer.from(rdata[++i] ?? "", "utf8"));
      } else bytes.push(...Buffer.from(c, "utf8"));
    }
    if (quoted) i++;
    strings.push(Buffer.from(bytes));
  }
  return strings;
}
const showStrings = (strings) => JSON.stringify(strings.map((s) => s.toString("utf8")));

/** Master-file record lines (not $ directives, not the SOA) split into owner, ttl, class, type, rdata. */
function recordLines(text) {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("$") && !line.startsWith(";"))
    .map((line) => {
      const m = /^(\S+)\s+(\d+)\s+(IN)\s+(\S+)\s+(.*)$/.exec(line);
      return m ? { line, owner: m[1], ttl: Number(m[2]), type: m[4], rdata: m[5] } : { line, owner: null };
    });
}

const withoutOrigin = (text) => text.replace(/^\$ORIGIN [^\n]*\n/m, "");

function firstDifference(a, b) {
  const left = a.split("\n");
  const right = b.split("\n");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) return `line ${i + 1}: ${JSON.stringify(left[i] ?? "<end>")} vs ${JSON.stringify(right[i] ?? "<end>")}`;
  }
  return "same";
}

// ---------------------------------------------------------------------------------------
// named-checkzone

function runCheckzone(zone, file, dumpFile) {
  const args = [...CHECKZONE_ARGS, ...(dumpFile ? ["-D", "-o", dumpFile] : []), zone, file];
  const result = spawnSync(CHECKZONE, args, { encoding: "utf8", timeout: 60_000 });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  return { status: result.status, output, error: result.error, command: `${CHECKZONE} ${args.join(" ")}` };
}

function checkzoneAvailable() {
  const result = spawnSync(CHECKZONE, ["-v"], { encoding: "utf8", timeout: 10_000 });
  if (result.error) return { ok: false, why: result.error.code === "ENOENT" ? `${CHECKZONE} not found` : result.error.message };
  if (result.status !== 0) return { ok: false, why: `\`${CHECKZONE} -v\` exited ${result.status}: ${(result.stderr || result.stdout).trim()}` };
  return { ok: true, version: result.stdout.trim() };
}

/** Prints a zone's text as comment lines, for the record when BIND refuses it. */
function printZone(title, text, maxLines = 200) {
  const lines = text.trimEnd().split("\n");
  console.log(`# ${title} (${lines.length} lines${lines.length > maxLines ? `, first ${maxLines}` : ""}):`);
  for (const line of lines.slice(0, maxLines)) console.log(`#   ${line}`);
}

/**
 * The named-checkzone checks on one exported zone: exit 0 with OK, no warnings. Returns
 * BIND's canonical dump (one record per line) when it loaded the zone, else null.
 */
async function checkWithBind(label, zone, text, dir) {
  const file = join(dir, `${zone}.zone`);
  const dumpFile = join(dir, `${zone}.dump`);
  writeFileSync(file, text);
  let result;
  const accepted = await check(`named-checkzone ${CHECKZONE_ARGS.join(" ")} accepts ${label}`, async () => {
    result = runCheckzone(zone, file, dumpFile);
    if (result.error) throw new Error(`${result.command}: ${result.error.message}`);
    assert(result.status === 0 && /^OK$/m.test(result.output), `exit ${result.status}: ${result.output.replaceAll("\n", " | ")}`);
  });
  if (!accepted) {
    console.log(`# ${result?.command}`);
    for (const line of (result?.output ?? "").split("\n")) console.log(`#   BIND: ${line}`);
    printZone(`the zone text BIND refused (${label})`, text);
    return null;
  }
  await check(`named-checkzone prints no warnings for ${label}`, async () => {
    const noise = result.output.split("\n").filter((line) => !/^zone \S+: loaded serial \d+$/.test(line) && line !== "OK");
    assert(noise.length === 0, noise.join(" | "));
  });
  return readFileSync(dumpFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^(\S+)\s+(\d+)\s+(\S+)\s+(\S+)\s+/, "$1 $2 $3 $4 "));
}

// ---------------------------------------------------------------------------------------

async function main() {
  const bind = checkzoneAvailable();
  if (!bind.ok) {
    notOk("named-checkzone is installed", `${bind.why}: ${INSTALL_HINT}`);
    return;
  }
  ok(`named-checkzone is installed (${bind.version})`);
  const types = supportedTypes();
  const dir = harness.tempDir("domain-api-zone-check-files-");

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const notReady = await harness.startServer(port);
  if (notReady) {
    notOk(`npm start comes up on ${base}`, notReady);
    return;
  }
  ok(`npm start comes up on ${base} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  // The run sends more requests than the rate limit allows a client in a minute (600,
  // wrangler.toml): on 429 it waits as Retry-After says, as a careful client does.
  const send = httpClient(base, { timeoutMs: REQUEST_TIMEOUT_MS });
  let throttled = 0;
  const request = async (...args) => {
    for (;;) {
      const res = await send(...args);
      if (res.status !== 429) return res;
      throttled++;
      await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(Number(res.headers.get("retry-after")) || 1, 60)));
    }
  };
  const exportZone = async (zone) => {
    const res = await request("GET", `/v1/zones/${zone}`, undefined, { accept: MEDIA_DNS });
    expectStatus(res, 200);
    const type = res.headers.get("content-type") ?? "";
    assert(type.startsWith(MEDIA_DNS), `content-type is ${type}`);
    assert(res.text.startsWith(`$ORIGIN ${zone}.\n`), `does not start with "$ORIGIN ${zone}.": ${JSON.stringify(res.text.slice(0, 80))}`);
    return res.text;
  };
  const importZone = (text, name) => request("POST", `/v1/zones${name ? `?name=${encodeURIComponent(name)}` : ""}`, text, { "content-type": MEDIA_DNS });
  const zoneJson = async (zone) => {
    const res = await request("GET", `/v1/zones/${zone}`);
    expectStatus(res, 200);
    return res.json;
  };

  /** Export → import under `copyName` (without the $ORIGIN line) → export gives the same text. */
  async function roundTrip(zone, copyName, exported, recordCount) {
    await check(`export of ${zone} → import as ${copyName} → export is lossless`, async () => {
      const imported = await importZone(withoutOrigin(exported), copyName);
      expectStatus(imported, 201);
      assert(imported.json?.name === copyName, `imported zone is named ${imported.json?.name}`);
      assert(imported.json?.record_count === recordCount, `record_count ${imported.json?.record_count}, want ${recordCount}`);
      const again = await exportZone(copyName);
      const [a, b] = [withoutOrigin(exported), withoutOrigin(again)];
      if (a !== b) {
        printZone(`export of ${zone}`, exported);
        printZone(`export of ${copyName} (imported from it)`, again);
        throw new Error(`exports differ at ${firstDifference(a, b)}`);
      }
    });
  }

  // --- 1. Records of every type through the JSON API ----------------------------------
  await check(`the script's records cover every type in RECORD_TYPES (${types.join(", ")})`, async () => {
    const covered = new Set(RECORDS.map((r) => r.type));
    const missing = types.filter((t) => !covered.has(t));
    assert(missing.length === 0, `add records of ${missing.join(", ")} to RECORDS in scripts/zone-check.mjs`);
  });

  const zoneCreated = await check(`POST /v1/zones ${ZONE} (JSON) is 201`, async () => {
    const res = await request("POST", "/v1/zones", { name: ZONE, nameservers: ["ns1.example.net", "ns2.example.net"] });
    expectStatus(res, 201);
  });
  if (!zoneCreated) return;

  const created = [];
  for (const record of RECORDS) {
    const label = `${record.type} at ${record.name}${record.why ? ` (${record.why})` : ""}`;
    await check(`POST /v1/records ${label} is 201 with canonical content`, async () => {
      const res = await request("POST", "/v1/records", {
        zone: ZONE,
        name: record.name,
        type: record.type,
        content: record.content,
        ...(record.ttl ? { ttl: record.ttl } : {}),
      });
      expectStatus(res, 201);
      if (record.expectName) assert(res.json.name === record.expectName, `name is ${res.json.name}, want ${record.expectName}`);
      if (record.expect) assert(res.json.content === record.expect, `content is ${res.json.content}, want ${record.expect}`);
      if (record.txt) {
        const got = txtStrings(res.json.content);
        assert(showStrings(got) === JSON.stringify(record.txt), `content ${res.json.content} holds ${showStrings(got)}, want ${JSON.stringify(record.txt)}`);
      }
      if (record.txtJoined) {
        const got = txtStrings(res.json.content);
        assert(
          got.every((s) => s.length <= 255),
          `a string is longer than 255 bytes: ${res.json.content.slice(0, 100)}…`,
        );
        assert(Buffer.concat(got).toString("utf8") === record.txtJoined, `strings do not join to the text sent: ${res.json.content.slice(0, 100)}…`);
      }
      created.push({ ...record, response: res.json });
    });
  }

  let exported = null;
  let recordCount = null;
  await check(`GET /v1/zones/${ZONE} (Accept: text/dns) exports every record`, async () => {
    recordCount = (await zoneJson(ZONE)).record_count;
    assert(recordCount === created.length + 2, `record_count ${recordCount}, want ${created.length} + 2 apex NS`);
    exported = await exportZone(ZONE);
    const lines = recordLines(exported);
    assert(
      lines.every((l) => l.owner !== null),
      `unreadable line: ${lines.find((l) => l.owner === null)?.line}`,
    );
    const soa = lines.filter((l) => l.type === "SOA");
    assert(soa.length === 1 && soa[0].owner === "@", `want one SOA at @, got ${soa.map((l) => l.line).join(" | ")}`);
    assert(lines.length === recordCount + 1, `${lines.length - 1} record lines, want ${recordCount}`);
    const texts = new Set(lines.map((l) => l.line));
    const absent = created.map((r) => r.response).filter((r) => !texts.has(`${r.name} ${r.ttl} IN ${r.type} ${r.content}`));
    assert(absent.length === 0, `not in the export: ${absent.map((r) => `${r.name} ${r.type} ${r.content}`).join(" | ")}`);
  });

  if (exported) {
    const dump = await checkWithBind(`the export of ${ZONE}`, ZONE, exported, dir);
    if (dump) {
      await check(`BIND reads ${recordCount} records + SOA from the export`, async () => {
        assert(dump.length === recordCount + 1, `BIND's dump has ${dump.length} lines: ${dump.join(" | ")}`);
      });
      await check("BIND reads every TXT string exactly as sent to the API", async () => {
        const bad = [];
        for (const record of created.filter((r) => r.type === "TXT")) {
          const fqdn = `${record.response.fqdn}.`;
          const rdatas = dump.filter((line) => line.startsWith(`${fqdn} `) && line.split(" ")[3] === "TXT").map((line) => line.split(" ").slice(4).join(" "));
          const want = record.txt ? JSON.stringify(record.txt) : null;
          const match = rdatas.some((rdata) => {
            const strings = txtStrings(rdata);
            return want ? showStrings(strings) === want : Buffer.concat(strings).toString("utf8") === record.txtJoined;
          });
          if (!match) bad.push(`${fqdn}: BIND has ${rdatas.join(" / ") || "nothing"}, sent ${record.content}`);
        }
        assert(bad.length === 0, bad.join(" | "));
      });
    }
    await roundTrip(ZONE, ZONE_COPY, exported, recordCount);
  }

  // --- 2. A generated zone of > 1,000 records, imported as one master file --------------
  const bulk = bulkMasterFile(BULK_ZONE, 80);
  const bulkFile = join(dir, "bulk-input.zone");
  writeFileSync(bulkFile, bulk.text);
  let bulkInputDump = null;
  await check(`the generated master file (${bulk.records} records, ${(bulk.text.length / 1024).toFixed(0)} KiB) is itself valid for BIND`, async () => {
    assert(bulk.records >= 1000, `only ${bulk.records} records`);
    assert(Buffer.byteLength(bulk.text) <= MAX_MASTER_FILE_BYTES, "larger than the 2 MiB import limit");
    for (const type of types) assert(new RegExp(`\\s${type}\\s`).test(bulk.text), `no ${type} record`);
    const dumpFile = join(dir, "bulk-input.dump");
    const result = runCheckzone(BULK_ZONE, bulkFile, dumpFile);
    assert(result.status === 0, `the script's generator is wrong: ${result.output.replaceAll("\n", " | ")}`);
    bulkInputDump = readFileSync(dumpFile, "utf8");
  });

  let bulkImported = false;
  await check(`POST /v1/zones (text/dns, one request) imports ${BULK_ZONE} with record_count ${bulk.records}`, async () => {
    const t0 = Date.now();
    const res = await importZone(bulk.text);
    expectStatus(res, 201);
    assert(res.json?.name === BULK_ZONE, `name is ${res.json?.name}`);
    assert(res.json?.record_count === bulk.records, `record_count ${res.json?.record_count}, want ${bulk.records}`);
    assert(res.json?.soa?.serial === 2026010101, `SOA serial ${res.json?.soa?.serial}, want the file's 2026010101`);
    assert(res.json?.default_ttl === 3600, `default_ttl ${res.json?.default_ttl}, want 3600 ($TTL 1h)`);
    bulkImported = true;
    console.log(`# import took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });

  if (bulkImported) {
    let bulkExport = null;
    await check(`GET /v1/zones/${BULK_ZONE} (Accept: text/dns) exports ${bulk.records} records`, async () => {
      bulkExport = await exportZone(BULK_ZONE);
      const lines = recordLines(bulkExport);
      assert(
        lines.every((l) => l.owner !== null),
        `unreadable line: ${lines.find((l) => l.owner === null)?.line}`,
      );
      assert(lines.length === bulk.records + 1, `${lines.length - 1} record lines, want ${bulk.records}`);
    });
    if (bulkExport) {
      const dump = await checkWithBind(`the export of ${BULK_ZONE}`, BULK_ZONE, bulkExport, dir);
      if (dump && bulkInputDump !== null) {
        await check("BIND reads the uploaded master file and the export as the same zone", async () => {
          const want = bulkInputDump
            .split("\n")
            .filter(Boolean)
            .map((line) => line.replace(/^(\S+)\s+(\d+)\s+(\S+)\s+(\S+)\s+/, "$1 $2 $3 $4 "))
            .join("\n");
          const got = dump.join("\n");
          assert(want === got, `BIND's canonical dumps differ at ${firstDifference(want, got)}`);
        });
      }
      await roundTrip(BULK_ZONE, BULK_COPY, bulkExport, bulk.records);
    }
  }

  // --- 3. Hostile master files: 422 (413 when too large), never 5xx, nothing written -----
  const zoneNames = async () => {
    const names = [];
    let path = "/v1/zones?limit=200";
    for (let page = 0; path && page < 20; page++) {
      const res = await request("GET", path);
      expectStatus(res, 200);
      names.push(...res.json.data.map((z) => z.name));
      path = res.json.next_cursor ? `/v1/zones?limit=200&cursor=${encodeURIComponent(res.json.next_cursor)}` : null;
    }
    return names.sort();
  };
  let before = null;
  try {
    before = await zoneNames();
  } catch (error) {
    notOk("GET /v1/zones lists the zones", error.message);
  }

  let seed = 0x2f6b1c3d; // deterministic junk (xorshift32)
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const rawJunk = Uint8Array.from({ length: 64 * 1024 }, () => Math.floor(random() * 256));
  const textJunk = Array.from({ length: 32 * 1024 }, () => {
    const r = random();
    if (r < 0.1) return String.fromCharCode(Math.floor(random() * 32)); // NUL, controls
    if (r < 0.2) return '()";\\$@*.\n'[Math.floor(random() * 10)];
    if (r < 0.3) return String.fromCodePoint(0x80 + Math.floor(random() * 0x2000));
    return String.fromCharCode(0x20 + Math.floor(random() * 95));
  }).join("");
  const header = (name) => `$ORIGIN ${name}.\n$TTL 3600\n@ SOA ns1.example.net. hostmaster.${name}. 1 7200 900 1209600 300\n@ NS ns1.example.net.\n`;
  const badLines = (name, count) =>
    header(name) +
    Array.from(
      { length: count },
      (_, i) =>
        [
          `bad${i} A 192.0.2.${256 + i}`,
          `bad${i} MX x${i}`,
          `bad${i} BOGUS ${i}`,
          `bad${i} 99999999999 A 192.0.2.1`,
          `bad${i} TXT "unterminated`,
          `bad${i}..x A 192.0.2.1`,
        ][i % 6],
    ).join("\n");
  const oneBadLine = (name) => {
    const lines = bulkMasterFile(name, 80).text.split("\n");
    const at = lines.findIndex((line, i) => i >= lines.length / 2 && line.startsWith("; block")); // between two entries
    lines.splice(at, 0, `broken 300 IN AAAA 2001:db8::g`);
    return { text: lines.join("\n"), line: at + 1 };
  };
  const broken = oneBadLine("hostile-one-bad-line.example.org");
  const hostile = [
    { name: "hostile-junk-bytes.example.org", what: "64 KiB of random bytes (not UTF-8)", body: rawJunk },
    { name: "hostile-junk-text.example.org", what: "32 KiB of junk text (NUL, controls, stray parens/quotes)", body: textJunk },
    {
      name: "hostile-open-paren.example.org",
      what: "a parenthesis never closed",
      body: `${header("hostile-open-paren.example.org")}www A ( 192.0.2.1\nmail A 192.0.2.2\n`,
    },
    { name: "hostile-close-paren.example.org", what: "a ) without (", body: `${header("hostile-close-paren.example.org")}www A 192.0.2.1 )\n` },
    {
      name: "hostile-open-quote.example.org",
      what: "a quote never closed",
      body: `${header("hostile-open-quote.example.org")}www TXT "never closed\nmail A 192.0.2.2\n`,
    },
    { name: "hostile-1000-bad-lines.example.org", what: "1,000 bad lines", body: badLines("hostile-1000-bad-lines.example.org", 1000), manyErrors: true },
    { name: "hostile-20000-bad-lines.example.org", what: "20,000 bad lines", body: badLines("hostile-20000-bad-lines.example.org", 20000), manyErrors: true },
    {
      name: "hostile-one-bad-line.example.org",
      what: `one bad line (${broken.line}) among ${bulk.records} good records`,
      body: broken.text,
      badLine: broken.line,
    },
    {
      name: "hostile-too-large.example.org",
      what: "3 MiB (over the 2 MiB limit)",
      body: `${header("hostile-too-large.example.org")}${`; ${"z".repeat(1021)}\n`.repeat(3 * 1024)}`,
      status: 413,
    },
  ];
  for (const file of hostile) {
    const status = file.status ?? 422;
    await check(`hostile master file, ${file.what}: ${status} problem+json, no zone ${file.name}`, async () => {
      const res = await importZone(file.body, file.name);
      assert(res.status < 500, `5xx: ${res.status} ${res.text.slice(0, 300)}`);
      expectStatus(res, status);
      assert(/^application\/problem\+json\b/.test(res.headers.get("content-type") ?? ""), `content-type ${res.headers.get("content-type")}`);
      if (status === 422) {
        assert(res.json?.code === "validation_failed", `code ${res.json?.code}`);
        const errors = res.json?.errors;
        assert(Array.isArray(errors) && errors.length > 0, "no errors listed");
        // The reader stops at 1,000 problems (+ a note); a problem lists the first 100 and counts the rest.
        if (file.manyErrors) {
          const total = errors.length + (res.json?.errors_not_listed ?? 0);
          assert(
            errors.length === 100 && total >= 1000 && total <= 1001,
            `${errors.length} listed + ${res.json?.errors_not_listed} not, want 100 of 1,000 (+ a "stopped" note)`,
          );
        }
        if (file.badLine) {
          assert(errors.length === 1 && errors[0].line === file.badLine, `errors ${JSON.stringify(errors).slice(0, 300)}, want exactly line ${file.badLine}`);
        }
      }
      const after = await request("GET", `/v1/zones/${file.name}`);
      expectStatus(after, 404);
    });
  }
  if (before) {
    await check("the hostile imports created no zone at all", async () => {
      const after = await zoneNames();
      assert(JSON.stringify(after) === JSON.stringify(before), `zones before: ${before.join(", ")}; after: ${after.join(", ")}`);
    });
  }

  // --- 4. The corpus: zone files of every case, each checked against BIND in this run -----
  const corpus = readCorpus(join(ROOT, "test", "zones"));
  const readme = dnsChapter(ROOT);
  let accepts = 0;
  let choices = 0;
  for (const entry of corpus) {
    await check(`corpus ${entry.file} (${entry.what}): BIND ${entry.bind}s it, the service ${entry.service}s it`, async () => {
      corpusExpectation(entry, readme);
      const dumpFile = join(dir, `${entry.file}.dump`);
      const bindResult = checkzoneWith(CHECKZONE, STRICT_ARGS, entry.zone, entry.path, dumpFile);
      assert(
        bindResult.status === (entry.bind === "accept" ? 0 : 1),
        `named-checkzone exited ${bindResult.status}, the file says "bind: ${entry.bind}": ${bindResult.output.replaceAll("\n", " | ")}`,
      );
      const res = await importZone(entry.bytes, entry.zone);
      assert(res.status < 500, `5xx: ${res.status} ${res.text.slice(0, 300)}`);
      const service = res.status === 201 ? "accept" : "refuse";
      assert(
        service === entry.service,
        `the service answered ${res.status} (${service}), the file says "service: ${entry.service}": ${res.text.slice(0, 400)}`,
      );
      if (service === "refuse") {
        assert(
          res.status === 422 && res.json?.code === "validation_failed" && res.json.errors?.length > 0,
          `a refusal must be 422 naming lines: ${res.text.slice(0, 300)}`,
        );
        if (entry.bind === "accept") choices++;
        return;
      }
      accepts++;
      if (entry.warns)
        assert(
          res.json.warnings?.some((w) => w.message.includes(entry.warns)),
          `no warning says "${entry.warns}": ${JSON.stringify(res.json.warnings)}`,
        );
      const exported = await exportZone(entry.zone);
      const exportFile = join(dir, `${entry.file}.export`);
      writeFileSync(exportFile, exported);
      const exportDump = join(dir, `${entry.file}.export.dump`);
      const again = checkzoneWith(CHECKZONE, STRICT_ARGS, entry.zone, exportFile, exportDump);
      assert(again.status === 0, `named-checkzone refused the export: ${again.output.replaceAll("\n", " | ")}\n${exported}`);
      const want = comparableDump(readFileSync(dumpFile, "utf8"));
      const got = comparableDump(readFileSync(exportDump, "utf8"));
      const missing = want.filter((line) => !got.includes(line));
      const extra = got.filter((line) => !want.includes(line));
      assert(missing.length === 0 && extra.length === 0, `BIND reads the export as another zone: missing ${missing.join(" | ")}; extra ${extra.join(" | ")}`);
    });
  }
  ok(`corpus: ${corpus.length} files, ${accepts} accepted with exports BIND reads as the same zone, ${choices} refused by a documented choice`);

  // --- 5. Property test: whatever sequence of writes the API accepts, BIND loads the export ---
  let runs = 0;
  const tally = {};
  await check("property: after any sequence of API writes, the export passes named-checkzone " + STRICT_ARGS.join(" "), async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeArbitrary(), { minLength: 1, maxLength: 20 }), async (writes) => {
        runs++;
        const failure = await writesThenCheck({ request, zone: `p${runs}.property.example`, writes, checkzone: CHECKZONE, dir, tally });
        if (failure) throw new Error(failure);
      }),
      { numRuns: Number(process.env.ZONE_CHECK_RUNS ?? 40), seed: Number(process.env.ZONE_CHECK_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
  });
  console.log(`# property test: ${runs} write sequences; answers by status: ${JSON.stringify(tally)}; waited out ${throttled} 429s`);
}

await harness.run(main);
