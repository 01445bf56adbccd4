#!/usr/bin/env node
// End to end, DNSSEC (docs/dnssec.md): `npm start` on a free port with a throwaway D1, a
// zone imported and signed through the API (POST /v1/zones/{zone}/dnssec), then `npm run
// dns`: the primary (PowerDNS 4.7 signing online with the key the connector hands it) and
// the secondary (Knot DNS, holding the signed zone it transferred). Every question goes to the
// secondary, the address resolvers ask. With BIND's tools:
//
// - `delv` with the API's DS as the only trust anchor reports "fully validated" for a
//   positive answer of every type, NXDOMAIN, NODATA (an empty non-terminal too) and a
//   wildcard answer, and for the DS of a secure delegation and the proved absence of one
//   at an insecure delegation;
// - a referral to either delegation carries its NS and glue unsigned (RFC 4035 §2.2),
//   with the signed DS or the signed NSEC that proves there is none;
// - the apex DNSKEY, CDS and CDNSKEY served are the API's, in the zone's JSON and export;
// - AXFR of the signed zone (NSEC, computed by PowerDNS) from the secondary and from the
//   primary passes `dnssec-verify` and `named-checkzone` with the checks zone-check.mjs
//   uses; every signature the secondary holds has begun and is good for 7 days more;
// - no private key material in any API answer the test sees, nor in any log line of the
//   service or of PowerDNS.
//
// Loopback only, bounded loops; every daemon stopped by its PID, temp dirs removed.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHarness, freePort, httpClient, runCommand } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const harness = createHarness({ name: "dnssec-e2e", label: "DNSSEC-E2E", readyTimeoutMs: 90_000, totalTimeoutMs: 420_000 });
const { check, ok, notOk, assert, tempDir } = harness;

const ZONE = "signed.test";
const TLSA_DATA = "0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6";
const SSHFP_DATA = "123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789";

// Every type a signed zone answers positively here, a wildcard, an empty non-terminal, and
// two delegations: `insecure` (no DS: its child is unsigned) and `secure` (a DS).
const MASTER_FILE = `$ORIGIN ${ZONE}.
$TTL 3600
@ IN SOA ns1.${ZONE}. hostmaster.${ZONE}. 1 7200 900 1209600 300
@ NS ns1.${ZONE}.
@ MX 10 mail.${ZONE}.
@ TXT "v=spf1 -all"
@ CAA 0 issue "letsencrypt.org"
@ HTTPS 1 . alpn="h3,h2"
ns1 A 192.0.2.53
ns1 AAAA 2001:db8::53
mail A 192.0.2.25
www A 192.0.2.10
www AAAA 2001:db8::10
www SSHFP 4 2 ${SSHFP_DATA}
_443._tcp.www TLSA 3 1 1 ${TLSA_DATA}
alias CNAME www.${ZONE}.
*.wild A 192.0.2.99
*.wild TXT "from the wildcard"
leaf.deep.ent A 192.0.2.30
_sip._tcp SRV 10 60 5060 sip.${ZONE}.
sip A 192.0.2.60
ptr PTR www.${ZONE}.
naptr NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.${ZONE}.
svc SVCB 1 www.${ZONE}. alpn="h2,h3" port=8443
dname DNAME target.${ZONE}.
target TXT "the DNAME target"
insecure NS ns.insecure.${ZONE}.
ns.insecure A 192.0.2.77
secure NS ns.secure.${ZONE}.
secure DS 12345 13 2 ${TLSA_DATA}
ns.secure A 192.0.2.78
`;

// [name, type, what delv must say]: positive answers of every type, then the negatives.
const POSITIVE = [
  ["@", "SOA"],
  ["@", "NS"],
  ["@", "MX"],
  ["@", "TXT"],
  ["@", "CAA"],
  ["@", "HTTPS"],
  ["@", "DNSKEY"],
  ["@", "CDS"],
  ["@", "CDNSKEY"],
  ["ns1", "A"],
  ["ns1", "AAAA"],
  ["www", "SSHFP"],
  ["_443._tcp.www", "TLSA"],
  ["alias", "CNAME"],
  ["_sip._tcp", "SRV"],
  ["ptr", "PTR"],
  ["naptr", "NAPTR"],
  ["svc", "SVCB"],
  ["dname", "DNAME"],
  ["secure", "DS"],
];
const WILDCARD = [["anything.wild", "A"]];
const NXDOMAIN = [
  ["nothing-here", "A"],
  ["x.www", "AAAA"],
];
const NODATA = [
  ["www", "MX"],
  ["ent", "A"],
  ["@", "SRV"],
  ["insecure", "DS"],
];

const PRIVATE_MARKERS = [/Private-key-format/i, /PrivateKey:/, /private_key/i];

const daemons = [];
process.on("exit", () => {
  for (const daemon of daemons) if (daemon.child.exitCode === null) daemon.child.kill("SIGKILL");
});

function startDaemon(command, args, { ready }) {
  let output = "";
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0" } });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const isReady = new Promise((resolve) => {
    const onData = (chunk) => {
      output += chunk.toString();
      if (ready.test(output)) resolve(true);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    exited.then(() => resolve(false));
  });
  return {
    child,
    exited,
    isReady,
    get output() {
      return output;
    },
  };
}

async function stopDaemon(daemon, graceMs = 15_000) {
  if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
  daemon.child.kill("SIGTERM");
  const inTime = await Promise.race([daemon.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), graceMs))]);
  if (!inTime) {
    daemon.child.kill("SIGKILL");
    await daemon.exited;
  }
}

const absolute = (owner) => (owner === "@" ? `${ZONE}.` : `${owner}.${ZONE}.`);

await harness.run(async () => {
  try {
    await main();
  } finally {
    for (const daemon of daemons) await stopDaemon(daemon);
  }
});

async function main() {
  const stateDir = tempDir("domain-api-dnssec-e2e-state-");
  const work = tempDir("domain-api-dnssec-e2e-");
  const base = await harness.startReported("npm start", { persistTo: stateDir });
  if (!base) return;
  const api = httpClient(base);
  const seen = []; // every API answer's text, searched for key material at the end

  await check(`zone ${ZONE} is imported through the API`, async () => {
    const response = await api("POST", "/v1/zones", MASTER_FILE, { "content-type": "text/dns" });
    seen.push(response.text);
    assert(response.status === 201, `POST /v1/zones answered ${response.status}: ${response.text.slice(0, 400)}`);
  });

  let state = null;
  await check("POST /v1/zones/{zone}/dnssec turns signing on: 201, one key, algorithm 13, flags 257, SHA-256 and SHA-384 DS", async () => {
    const response = await api("POST", `/v1/zones/${ZONE}/dnssec`);
    seen.push(response.text);
    assert(response.status === 201, `answered ${response.status}: ${response.text.slice(0, 400)}`);
    state = response.json;
    assert(state.enabled === true && state.keys.length === 1, JSON.stringify(state));
    const [key] = state.keys;
    assert(key.algorithm === 13 && key.flags === 257 && /^257 3 13 /.test(key.dnskey), JSON.stringify(key));
    assert(/^\d+ 13 2 [0-9A-F]{64}$/.test(key.ds[0]) && /^\d+ 13 4 [0-9A-F]{96}$/.test(key.ds[1]), JSON.stringify(key.ds));
  });
  if (!state) return;
  const [key] = state.keys;
  for (const path of [`/v1/zones/${ZONE}`, `/v1/zones/${ZONE}/dnssec`, "/v1/events?limit=200"]) seen.push((await api("GET", path)).text);
  seen.push((await api("GET", `/v1/zones/${ZONE}`, undefined, { accept: "text/dns" })).text);

  // The trust anchor: the API's SHA-256 DS, as the parent would publish it.
  const [tag, algorithm, digestType, digest] = key.ds[0].split(" ");
  const anchors = join(work, "trust-anchors.conf");
  writeFileSync(anchors, `trust-anchors {\n  "${ZONE}." static-ds ${tag} ${algorithm} ${digestType} "${digest}";\n};\n`);

  // The tier: questions go to the secondary (pdnsPort below), transfers are checked from both.
  const pdnsPort = await freePort();
  const primaryPort = await freePort();
  const dns = startDaemon(
    process.execPath,
    [join(ROOT, "scripts", "dns.mjs"), "--api", base, "--port", String(pdnsPort), "--primary-port", String(primaryPort), "--persist-to", stateDir],
    { ready: /\[dns\] tier ready/ },
  );
  daemons.push(dns);
  const ready = await Promise.race([dns.isReady, new Promise((resolve) => setTimeout(() => resolve(false), 120_000))]);
  if (!ready) {
    notOk("npm run dns starts the tier", dns.output.split("\n").slice(-15).join(" | "));
    return;
  }
  const serial = (await api("GET", `/v1/zones/${ZONE}`)).json.soa.serial;
  const signedAtSecondary = async () => {
    const soa = await runCommand("dig", ["@127.0.0.1", "-p", String(pdnsPort), "+short", "+norec", ZONE, "SOA"], { timeoutMs: 10_000 });
    return soa.output.trim().split(" ")[2] === String(serial);
  };
  let waited = 0;
  while (!(await signedAtSecondary()) && waited < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    waited += 250;
  }
  if (!(await signedAtSecondary())) {
    notOk(`the secondary serves ${ZONE} at serial ${serial}`, dns.output.split("\n").slice(-15).join(" | "));
    return;
  }
  ok(
    `npm run dns: the secondary (Knot) serves the signed ${ZONE} on 127.0.0.1:${pdnsPort}, transferred from the primary (PowerDNS) on 127.0.0.1:${primaryPort}`,
  );

  const delv = (name, type) =>
    runCommand("delv", ["@127.0.0.1", "-p", String(pdnsPort), `+root=${ZONE}`, "-a", anchors, "+tcp", "+nocomments", absolute(name), type], {
      timeoutMs: 30_000,
    });

  for (const [group, questions, expected] of [
    ["a positive answer", POSITIVE, /^; fully validated$/m],
    ["a wildcard answer", WILDCARD, /^; fully validated$/m],
    ["NXDOMAIN", NXDOMAIN, /^;; resolution failed: ncache nxdomain$|^; negative response, fully validated$/m],
    ["NODATA", NODATA, /^; negative response, fully validated$|^;; resolution failed: ncache nxrrset$/m],
  ]) {
    for (const [name, type] of questions) {
      await check(`delv with the API's DS as trust anchor: ${group}, ${absolute(name)} ${type}, fully validated`, async () => {
        const result = await delv(name, type);
        const text = result.output;
        assert(/fully validated/.test(text) && expected.test(text), text.trim().split("\n").slice(0, 8).join(" | "));
        if (group === "a positive answer" || group === "a wildcard answer") assert(new RegExp(`\\s${type}\\s`).test(text), `no ${type} in ${text.trim()}`);
      });
    }
  }

  await check("the apex DNSKEY, CDS and CDNSKEY served are the API's (RFC 7344)", async () => {
    const dig = async (type) =>
      (await runCommand("dig", ["@127.0.0.1", "-p", String(pdnsPort), "+short", "+norec", ZONE, type], { timeoutMs: 10_000 })).output.trim().toUpperCase();
    const keyText = key.dnskey.replace(/^(\d+ \d+ \d+) /, "$1 ");
    const squash = (s) => s.replace(/\s+/g, "");
    assert(squash(await dig("DNSKEY")) === squash(keyText.toUpperCase()), `DNSKEY ${await dig("DNSKEY")} vs ${keyText}`);
    assert(squash(await dig("CDNSKEY")) === squash(keyText.toUpperCase()), `CDNSKEY ${await dig("CDNSKEY")}`);
    assert(squash(await dig("CDS")) === squash(key.ds[0]), `CDS ${await dig("CDS")} vs ${key.ds[0]}`);
  });

  const digDnssec = async (name, type) =>
    (
      await runCommand(
        "dig",
        [
          "@127.0.0.1",
          "-p",
          String(pdnsPort),
          "+dnssec",
          "+norec",
          "+nocmd",
          "+nostats",
          "+noall",
          "+authority",
          "+answer",
          "+additional",
          absolute(name),
          type,
        ],
        { timeoutMs: 10_000 },
      )
    ).output;
  const rrs = (text) =>
    text
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length >= 5 && !f[0].startsWith(";"));

  // delv asks only the server it is given, so it cannot follow a referral to the child's
  // servers (it reports a non-improving referral); what the parent proves about the child
  // (its DS, or that there is none) it validates above, and the referral is read here.
  await check("a referral to the insecure delegation: NS and glue unsigned, NSEC at the cut (NS RRSIG NSEC, no DS) signed", async () => {
    const answer = rrs(await digDnssec("host.insecure", "A"));
    const at = absolute("insecure");
    assert(
      answer.some((f) => f[0] === at && f[3] === "NS"),
      `no NS: ${JSON.stringify(answer)}`,
    );
    assert(!answer.some((f) => f[3] === "RRSIG" && f[4] === "NS"), `the delegation's NS is signed: ${JSON.stringify(answer)}`);
    assert(
      answer.some((f) => f[0] === absolute("ns.insecure") && f[3] === "A"),
      `no glue: ${JSON.stringify(answer)}`,
    );
    assert(!answer.some((f) => f[0] === absolute("ns.insecure") && f[3] === "RRSIG"), `the glue is signed: ${JSON.stringify(answer)}`);
    const nsec = answer.find((f) => f[0] === at && f[3] === "NSEC");
    assert(nsec && nsec.slice(5).join(" ") === "NS RRSIG NSEC", `NSEC at the cut: ${JSON.stringify(nsec)}`);
    assert(
      answer.some((f) => f[0] === at && f[3] === "RRSIG" && f[4] === "NSEC"),
      "the NSEC is not signed",
    );
  });
  await check("a referral to the secure delegation: NS and glue unsigned, its DS signed", async () => {
    const answer = rrs(await digDnssec("host.secure", "A"));
    const at = absolute("secure");
    assert(answer.some((f) => f[0] === at && f[3] === "NS") && !answer.some((f) => f[3] === "RRSIG" && f[4] === "NS"), JSON.stringify(answer));
    assert(answer.some((f) => f[0] === at && f[3] === "DS") && answer.some((f) => f[0] === at && f[3] === "RRSIG" && f[4] === "DS"), JSON.stringify(answer));
    assert(!answer.some((f) => f[0] === absolute("ns.secure") && f[3] === "RRSIG"), `the glue is signed: ${JSON.stringify(answer)}`);
  });

  // AXFR: PowerDNS signs the transfer itself and builds the NSEC chain from `list`; the
  // secondary holds what it transferred. dig prints the closing SOA again; BIND's tools
  // read one SOA. `dnssec-verify -z`: the one key is a combined signing key (flags 257),
  // which signs every RRset itself.
  for (const [server, port] of [
    ["the secondary", pdnsPort],
    ["the primary", primaryPort],
  ]) {
    const transferred = join(work, `axfr-${port}.zone`);
    await check(`AXFR of ${ZONE} from ${server} passes dnssec-verify -z and named-checkzone`, async () => {
      const axfr = await runCommand("dig", ["@127.0.0.1", "-p", String(port), "+nocmd", "+nostats", "+nocomments", ZONE, "AXFR"], { timeoutMs: 30_000 });
      const lines = axfr.output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith(";"));
      const soaAt = lines.map((line, i) => (line.split(/\s+/)[3] === "SOA" ? i : -1)).filter((i) => i >= 0);
      assert(soaAt.length === 2 && soaAt[0] === 0 && soaAt[1] === lines.length - 1, `not a whole transfer: ${axfr.output.slice(0, 600)}`);
      const types = new Set(lines.map((line) => line.split(/\s+/)[3]));
      for (const type of ["RRSIG", "NSEC", "DNSKEY", "CDS", "CDNSKEY"]) assert(types.has(type), `no ${type} in the transfer`);
      writeFileSync(transferred, `${lines.slice(0, -1).join("\n")}\n`);
      const verify = await runCommand("dnssec-verify", ["-z", "-o", ZONE, transferred], { timeoutMs: 60_000 });
      assert(verify.code === 0 && /Zone fully signed/.test(verify.output), `dnssec-verify: ${verify.output.trim().split("\n").slice(-6).join(" | ")}`);
      const checked = await runCommand("named-checkzone", ["-k", "fail", "-M", "fail", "-S", "fail", "-n", "fail", "-i", "local", ZONE, transferred], {
        timeoutMs: 60_000,
      });
      assert(checked.code === 0 && /^OK$/m.test(checked.output), `named-checkzone: ${checked.output.trim().split("\n").slice(-6).join(" | ")}`);
      if (port === pdnsPort) {
        // RRSIG: type covered, algorithm, labels, original TTL, expiration, inception (RFC 4034 §3.2).
        const stamp = (text) =>
          Date.UTC(+text.slice(0, 4), +text.slice(4, 6) - 1, +text.slice(6, 8), +text.slice(8, 10), +text.slice(10, 12), +text.slice(12, 14));
        const now = Date.now();
        const signatures = lines.map((line) => line.split(/\s+/)).filter((f) => f[3] === "RRSIG");
        const short = signatures.filter((f) => stamp(f[8]) - now < 7 * 86_400_000 || stamp(f[9]) > now);
        assert(short.length === 0, `signatures not begun or good for less than 7 days: ${JSON.stringify(short.slice(0, 3))}`);
      }
    });
  }

  await check("the zone's JSON and its master-file export hold the apex DNSKEY, CDS and CDNSKEY that PowerDNS serves", async () => {
    const zone = await api("GET", `/v1/zones/${ZONE}`);
    seen.push(zone.text);
    const records = zone.json.dnssec.records.map((r) => `${r.type} ${r.content}`);
    assert(zone.json.dnssec.enabled === true, JSON.stringify(zone.json.dnssec));
    assert(JSON.stringify(records) === JSON.stringify([`DNSKEY ${key.dnskey}`, `CDS ${key.ds[0]}`, `CDNSKEY ${key.dnskey}`]), JSON.stringify(records));
    const exported = await api("GET", `/v1/zones/${ZONE}`, undefined, { accept: "text/dns" });
    seen.push(exported.text);
    for (const record of zone.json.dnssec.records) {
      assert(
        exported.text.includes(`@ ${record.ttl} IN ${record.type} ${record.content}\n`),
        `the export lacks ${record.type}: ${exported.text.slice(0, 600)}`,
      );
    }
  });

  await check("with no domain here publishing its DS, turning signing off answers 204", async () => {
    const response = await api("DELETE", `/v1/zones/${ZONE}/dnssec`);
    seen.push(response.text);
    assert(response.status === 204, `answered ${response.status}: ${response.text}`);
  });

  await check("no private key material in any API answer seen, nor in the service's or PowerDNS's output", async () => {
    const places = [...seen.map((text, i) => [`answer ${i}`, text]), ["npm start output", harness.serverOutput], ["npm run dns output", dns.output]];
    for (const [where, text] of places) {
      for (const marker of PRIVATE_MARKERS) assert(!marker.test(text), `${where} matches ${marker}`);
    }
  });
}
