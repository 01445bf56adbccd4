#!/usr/bin/env node
// End to end, DNSSEC (contract §14): `npm start` on a free port with a throwaway D1, a zone
// imported and signed through the API (POST /v1/zones/{zone}/dnssec), then `npm run dns`
// (PowerDNS 4.7 signing online with the key the connector hands it). With BIND's tools:
//
// - `delv` with the API's DS as the only trust anchor reports "fully validated" for a
//   positive answer of every type, NXDOMAIN, NODATA and a wildcard answer;
// - the apex DNSKEY, CDS and CDNSKEY served are the API's;
// - no private key material in any API answer the test sees, nor in any log line of the
//   service or of PowerDNS.
//
// Loopback only, bounded loops; every daemon stopped by its PID, temp dirs removed.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHarness, freePort, httpClient, runCommand } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const harness = createHarness({ name: "dnssec-e2e", label: "DNSSEC-E2E", readyTimeoutMs: 90_000, totalTimeoutMs: 300_000 });
const { check, ok, notOk, assert, tempDir } = harness;

const ZONE = "signed.test";
const TLSA_DATA = "0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6";
const SSHFP_DATA = "123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789";

// Every type a signed zone answers positively here, a wildcard, an empty non-terminal.
// (No delegation: PowerDNS needs the backend's `auth` flag to leave a delegation unsigned,
// which the connector does not send yet.)
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

  const pdnsPort = await freePort();
  const dns = startDaemon(process.execPath, [join(ROOT, "scripts", "dns.mjs"), "--api", base, "--port", String(pdnsPort), "--persist-to", stateDir], {
    ready: /\[dns\] PowerDNS \(pdns_server pid \d+\) answers/,
  });
  daemons.push(dns);
  const ready = await Promise.race([dns.isReady, new Promise((resolve) => setTimeout(() => resolve(false), 90_000))]);
  if (!ready) {
    notOk("npm run dns starts PowerDNS", dns.output.split("\n").slice(-15).join(" | "));
    return;
  }
  ok(`npm run dns: PowerDNS serves ${ZONE} on 127.0.0.1:${pdnsPort}`);

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

  // Not checked: AXFR. PowerDNS 4.7 refuses to transfer a zone in NSEC3 narrow mode (the
  // chain exists only per answer), and the connector keeps no ordered names for the
  // other modes yet; see docs/dnssec.md.

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
