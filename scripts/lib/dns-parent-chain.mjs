// A real DNS chain on loopback for the end-to-end scripts that need a parent a resolver
// walks down to (scripts/dnssec-rollover-e2e.mjs), on a /24 of 127.0.0.0/8 picked at random
// for the run (two runs side by side never meet) and on 127.0.0.1 at free ports. Nothing of
// the host's network configuration changes: Linux routes all of 127.0.0.0/8 to `lo`, and
// Knot binds any address of it as it is.
//
// - <net>.1:53: the root zone `.`, signed, delegating `com.` to <net>.2 (glue) with its DS,
//   served by a Knot DNS (`knotd`) of its own;
// - <net>.2:53: `com.`, signed, delegating the children the caller sets (NS names, glue
//   addresses, DS lines), signed again and reloaded (`knotc zone-reload`) at each change,
//   served by a second `knotd` (one server holding both zones would answer a child's DS
//   from `com.` itself, never referring from the root down);
// - 127.0.0.1 at a free port: a validating recursive resolver (BIND `named`), its hints the
//   root at <net>.1, its only trust anchor the root's KSK; it asks the servers it is
//   referred to on their port 53.
//
// <net>.3 and up are left for the caller (the tier's secondary, say). Zones are signed by
// `dnssec-keygen` / `dnssec-signzone` here, one key of algorithm 13 per zone (fast), and
// served from their files (Knot signs nothing). `delv` through the resolver with the root's
// anchor alone says whether a name fully validates; `rndc flush` (named's control channel
// on 127.0.0.1 at a free port, its key in the directory) empties the resolver's cache
// between looks. Readiness is asked by querying; every limit is a hang detector. `stop()`
// stops the daemons by their PIDs (scripts/lib/daemons.mjs) and removes the directory; a
// process that exits without it still removes the directory.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeAddress, freePort, lastLines, runCommand, socketTable, startDaemon, stopDaemon, waitFor } from "./daemons.mjs";

/** Hang detectors (the machine may be loaded): a command, a daemon's start, a reload reaching the server. */
const COMMAND_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 120_000;
const RELOAD_WITHIN_MS = 60_000;
const KNOTD = "/usr/sbin/knotd";
const NAMED = "/usr/sbin/named";

/**
 * A child of `com.` as its delegation: NS names (with their glue addresses when they are
 * under `com.`) and the DS lines ("tag algorithm digest-type HEX").
 * @typedef {{ ns: { name: string, address?: string }[], ds: string[] }} Delegation
 */
/**
 * @typedef {object} ParentChain
 * @property {string} net the run's /24, "127.a.b"
 * @property {string} root the root's address (<net>.1): what DNSSEC_ROOT_SERVERS names
 * @property {string} tld com.'s address (<net>.2)
 * @property {string} resolver the validating resolver's address (127.0.0.1)
 * @property {number} resolverPort the validating resolver's port (free when the chain started)
 * @property {string} anchorFile the root's KSK as a `trust-anchors` statement (delv -a)
 * @property {string | null} notReady null when the chain answers, else why not
 * @property {() => string} output what the three daemons printed (the root's Knot, com.'s, named)
 * @property {(children: Record<string, Delegation>) => Promise<void>} setDelegations
 *   com.'s children become these (and only these): com. is signed again, reloaded, and
 *   resolves once <net>.2 serves the new serial
 * @property {() => Promise<void>} flush empties the resolver's cache (rndc flush)
 * @property {(name: string, type: string) => Promise<Looked>} delv `delv @resolver -p resolverPort -a anchorFile`
 * @property {(name: string, type: string) => Promise<Asked>} ask the resolver's own answer (dig, DNSSEC OK)
 * @property {() => Promise<void>} stop the daemons stopped by their PIDs, the directory removed
 */
/** @typedef {{ validated: boolean, output: string }} Looked */
/** @typedef {{ status: string, ad: boolean, output: string }} Asked */

/**
 * A /24 of 127.0.0.0/8 ("127.a.b") no socket of this machine is bound in, picked at random
 * (a from 100 to 254: clear of 127.0.0.1 and of 127.0.0.53, systemd-resolved's).
 * @returns {string}
 */
export function freeLoopbackNet() {
  const used = boundLoopbackNets();
  for (let attempt = 0; attempt < 50; attempt++) {
    const net = `127.${100 + Math.floor(Math.random() * 155)}.${Math.floor(Math.random() * 256)}`;
    if (!used.has(net)) return net;
  }
  throw new Error("no free /24 of 127.0.0.0/8 in 50 tries");
}

/**
 * The /24s of 127.0.0.0/8 some socket is bound in (Linux, /proc/net; empty elsewhere).
 * @returns {Set<string>}
 */
function boundLoopbackNets() {
  /** @type {Set<string>} */
  const nets = new Set();
  for (const { fields } of socketTable(["tcp", "udp"])) {
    const address = decodeAddress((fields[1] ?? "").split(":")[0] ?? "");
    if (address.startsWith("127.")) nets.add(address.split(".").slice(0, 3).join("."));
  }
  return nets;
}

/**
 * knot.conf for one `knotd` serving one zone, pre-signed, from `file` on `address`@53; its
 * control socket, PID file, journal and timers in `dir` (one per process). Knot signs
 * nothing and keeps no journal: each `knotc zone-reload` reads the file whole.
 * @param {{ dir: string, address: string, zone: string, file: string }} options
 * @returns {string}
 */
function knotConfig({ dir, address, zone, file }) {
  return `# written by scripts/lib/dns-parent-chain.mjs; removed when the chain stops
server:
  listen: ${address}@53
  rundir: "${dir}"
  udp-workers: 1
  tcp-workers: 1
  background-workers: 1
control:
  listen: "${join(dir, "knot.sock")}"
database:
  storage: "${dir}"
log:
  - target: stderr
    any: info
zone:
  - domain: "${zone}"
    storage: "${dir}"
    file: "${file}"
    zonefile-load: whole
    zonefile-sync: -1
    journal-content: none
`;
}

/**
 * Starts the chain on `net` (a free /24 of loopback when not given). Resolves to the chain;
 * `notReady` says why when it does not answer (what was started is stopped then).
 * @param {{ net?: string, timeoutMs?: number }} [options]
 * @returns {Promise<ParentChain>}
 */
export async function startParentChain({ net = freeLoopbackNet(), timeoutMs = START_TIMEOUT_MS } = {}) {
  const root = `${net}.1`;
  const tld = `${net}.2`;
  const resolver = "127.0.0.1";
  const dir = mkdtempSync(join(tmpdir(), "domain-api-dns-chain-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.on("exit", removeDir);
  const anchorFile = join(dir, "root.anchor");
  const rootDir = join(dir, "knot-root");
  const comDir = join(dir, "knot-com");
  for (const sub of [rootDir, comDir]) mkdirSync(sub);
  /** @type {import("./daemons.mjs").Daemon[]} the root's Knot, com.'s, named: in the order started */
  const daemons = [];
  /** @type {ParentChain} */
  const chain = {
    net,
    root,
    tld,
    resolver,
    resolverPort: 0,
    anchorFile,
    notReady: null,
    output: () => daemons.map((d) => `[${d.name}] ${d.output}`).join("\n"),
    setDelegations,
    flush,
    delv,
    ask,
    stop,
  };
  /** Stops what was started and removes the directory; the chain, `notReady` set to `why`. */
  const fail = async (/** @type {string} */ why) => {
    chain.notReady = why;
    await stop();
    return chain;
  };

  /**
   * A command that must succeed; its output.
   * @param {string} file
   * @param {string[]} args
   */
  const run = async (file, args) => {
    const result = await runCommand(file, args, { cwd: dir, timeoutMs: COMMAND_TIMEOUT_MS });
    if (result.code !== 0)
      throw new Error(`${file} ${args.join(" ")}: ${result.timedOut ? "timed out" : `exit ${result.code}`}: ${lastLines(result.output, 8)}`);
    return result.stdout;
  };

  /**
   * A key of algorithm 13 with the SEP bit (one key signs everything: -z); its file's base name.
   * @param {string} zone "." or "com"
   */
  const keygen = async (zone) => (await run("dnssec-keygen", ["-q", "-K", dir, "-a", "13", "-f", "KSK", zone])).trim();

  /**
   * Signs `zone` (its unsigned text) with `key` into <file>.signed.
   * @param {string} zone
   * @param {string} file
   * @param {string} text
   * @param {string} key
   */
  const sign = async (zone, file, text, key) => {
    writeFileSync(join(dir, file), `${text}$INCLUDE ${join(dir, `${key}.key`)}\n`);
    await run("dnssec-signzone", ["-q", "-z", "-K", dir, "-o", zone, "-N", "keep", "-f", join(dir, `${file}.signed`), join(dir, file), key]);
  };

  /** @type {string} rndc's configuration (its key, named's control channel), written below */
  const rndcConf = join(dir, "rndc.conf");
  const rndc = (/** @type {string[]} */ args) => run("rndc", ["-c", rndcConf, ...args]);

  /**
   * dig at `server` (port 53 unless `port`); its output.
   * @param {string} server
   * @param {string[]} args
   * @param {number} [port]
   */
  const dig = async (server, args, port = 53) =>
    (await runCommand("dig", [`@${server}`, "-p", String(port), "+time=3", "+tries=2", ...args], { cwd: dir, timeoutMs: COMMAND_TIMEOUT_MS })).output;

  let comKey;
  let rootKey;
  try {
    comKey = await keygen("com");
    rootKey = await keygen(".");
  } catch (error) {
    return fail(String(/** @type {Error} */ (error)?.message));
  }
  const comDs = (await run("dnssec-dsfromkey", ["-2", join(dir, `${comKey}.key`)])).trim();
  // The root's KSK ("flags protocol algorithm base64…" after DNSKEY in its .key file) as the anchor.
  const rootDnskey = readFileSync(join(dir, `${rootKey}.key`), "utf8")
    .split("\n")
    .find((line) => !line.startsWith(";") && /\sDNSKEY\s/.test(line));
  const fields = (rootDnskey ?? "").trim().split(/\s+/);
  const [flags, protocol, algorithm, ...material] = fields.slice(fields.indexOf("DNSKEY") + 1);
  const anchor = `. static-key ${flags} ${protocol} ${algorithm} "${material.join("")}";`;
  writeFileSync(anchorFile, `trust-anchors {\n  ${anchor}\n};\n`);

  const soa = (/** @type {string} */ origin, /** @type {number} */ serial) =>
    `${origin} 300 IN SOA a.root-servers. hostmaster.root-servers. ${serial} 1800 900 604800 300\n`;
  await sign(
    ".",
    "root.db",
    `${soa(".", 1)}. 300 IN NS a.root-servers.\na.root-servers. 300 IN A ${root}\ncom. 300 IN NS ns1.com.\nns1.com. 300 IN A ${tld}\n${comDs}\n`,
    rootKey,
  );
  let comSerial = 0;
  /** com. with these children, signed and written to com.db.signed; its serial. */
  const signCom = async (/** @type {Record<string, Delegation>} */ children) => {
    comSerial++;
    const lines = [soa("com.", comSerial), "com. 300 IN NS ns1.com.\n", `ns1.com. 300 IN A ${tld}\n`];
    for (const [child, { ns, ds }] of Object.entries(children)) {
      const owner = `${child.replace(/\.$/, "")}.`;
      for (const { name, address } of ns) {
        lines.push(`${owner} 300 IN NS ${name.replace(/\.$/, "")}.\n`);
        if (address) lines.push(`${name.replace(/\.$/, "")}. 300 IN A ${address}\n`);
      }
      for (const line of ds) lines.push(`${owner} 300 IN DS ${line}\n`);
    }
    await sign("com", "com.db", [...new Set(lines)].join(""), comKey);
    return comSerial;
  };
  await signCom({});

  /**
   * Answers `name` SOA with authority at `server`:53 (+norec).
   * @param {string} server
   * @param {string} name
   */
  const authoritative = async (server, name) => {
    const out = await dig(server, ["+norec", name, "SOA"]);
    return /status: NOERROR/.test(out) && /flags:[^;]*\baa\b/.test(out);
  };
  // The root's Knot, then com.'s: each answers its zone with authority on its address's port 53.
  for (const [zone, address, sub, file] of /** @type {const} */ ([
    [".", root, rootDir, "root.db.signed"],
    ["com.", tld, comDir, "com.db.signed"],
  ])) {
    const conf = join(sub, "knot.conf");
    writeFileSync(conf, knotConfig({ dir: sub, address, zone, file: join(dir, file) }));
    const knot = await startDaemon(KNOTD, ["-c", conf], {
      name: `knotd (the chain's ${zone === "." ? "root" : zone})`,
      ready: () => authoritative(address, zone),
      timeoutMs,
      holds: { tcp: [53], udp: [53] },
    });
    daemons.push(knot);
    if (knot.notReady) return fail(knot.notReady);
  }

  const [resolverPort, controlPort] = [await freePort(), await freePort()];
  chain.resolverPort = resolverPort;
  const secret = randomBytes(32).toString("base64");
  const keyStatement = `key "rndc-key" { algorithm hmac-sha256; secret "${secret}"; };\n`;
  writeFileSync(rndcConf, `${keyStatement}options { default-key "rndc-key"; default-server 127.0.0.1; default-port ${controlPort}; };\n`, {
    mode: 0o600,
  });
  writeFileSync(join(dir, "root.hints"), `. 3600000 NS a.root-servers.\na.root-servers. 3600000 A ${root}\n`);
  writeFileSync(
    join(dir, "named.conf"),
    `# written by scripts/lib/dns-parent-chain.mjs; removed when the chain stops
options {
  directory "${dir}";
  pid-file none;
  session-keyfile "${join(dir, "session.key")}";
  managed-keys-directory "${dir}";
  listen-on port ${resolverPort} { 127.0.0.1; };
  listen-on-v6 { none; };
  notify no;
  recursion yes;
  allow-recursion { 127.0.0.0/8; };
  allow-query-cache { 127.0.0.0/8; };
  dnssec-validation yes;
  empty-zones-enable no;
  servfail-ttl 0;
};
trust-anchors { ${anchor} };
${keyStatement}controls { inet 127.0.0.1 port ${controlPort} allow { 127.0.0.1; } keys { "rndc-key"; }; };
zone "." { type hint; file "${join(dir, "root.hints")}"; };
`,
  );
  const named = await startDaemon(NAMED, ["-g", "-n", "1", "-c", join(dir, "named.conf")], {
    name: "named (the chain's resolver)",
    // It resolves com. from the root down, validated (AD).
    ready: async () => /status: NOERROR[\s\S]*flags:[^;]* ad\b/.test(await dig(resolver, ["+dnssec", "com", "SOA"], resolverPort)),
    timeoutMs,
    holds: { tcp: [resolverPort, controlPort], udp: [resolverPort] },
  });
  daemons.push(named);
  if (named.notReady) return fail(named.notReady);
  return chain;

  /** @param {Record<string, Delegation>} children */
  async function setDelegations(children) {
    const serial = await signCom(children);
    await run("knotc", ["-s", join(comDir, "knot.sock"), "zone-reload", "com."]);
    let last = "";
    const took = await waitFor(
      async () => {
        last = (await dig(tld, ["+short", "+norec", "com", "SOA"])).trim();
        return last.split(" ")[2] === String(serial);
      },
      { timeoutMs: RELOAD_WITHIN_MS },
    );
    if (took === null) throw new Error(`com. at ${tld} answers SOA "${last}", not serial ${serial}: ${lastLines(chain.output(), 8)}`);
  }

  async function flush() {
    await rndc(["flush"]);
  }

  /**
   * @param {string} name
   * @param {string} type
   * @returns {Promise<Looked>}
   */
  async function delv(name, type) {
    const result = await runCommand("delv", [`@${resolver}`, "-p", String(resolverPort), "-a", anchorFile, "+root=.", "+tcp", "+nocomments", name, type], {
      cwd: dir,
      timeoutMs: COMMAND_TIMEOUT_MS,
    });
    return { validated: /^; (negative response, )?fully validated$/m.test(result.output), output: result.output };
  }

  /**
   * @param {string} name
   * @param {string} type
   * @returns {Promise<Asked>}
   */
  async function ask(name, type) {
    const output = await dig(resolver, ["+dnssec", name, type], resolverPort);
    return { status: /status: (\w+)/.exec(output)?.[1] ?? "no answer", ad: /flags:[^;]* ad\b/.test(output), output };
  }

  async function stop() {
    for (const daemon of daemons.splice(0).reverse()) await stopDaemon(daemon);
    removeDir();
    process.off("exit", removeDir);
  }
}
