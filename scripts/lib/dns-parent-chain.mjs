// A real DNS chain on loopback for the end-to-end scripts that need a parent a resolver
// walks down to (scripts/dnssec-rollover-e2e.mjs): one BIND 9.18 `named`, started as root
// on port 53 of a /24 of 127.0.0.0/8 picked at random for the run (two runs side by side
// never meet; nothing else is bound), with a view per address (`match-destinations`).
// named listens only on its interfaces' addresses, and `lo` holds 127.0.0.1 alone, so its
// three addresses are added to `lo` (/32, `ip addr add`) for the run and removed after.
//
// - <net>.1: the root zone `.`, signed, delegating `com.` to <net>.2 (glue) with its DS;
// - <net>.2: `com.`, signed, delegating the children the caller sets (NS names, glue
//   addresses, DS lines), signed again and reloaded (`rndc reload`) at each change;
// - <net>.4: a validating recursive resolver (recursion in that view alone), its hints the
//   root at <net>.1, its only trust anchor the root's KSK.
//
// <net>.3 and <net>.5 and up are left for the caller (the tier's secondary, say). Zones are
// signed by `dnssec-keygen` / `dnssec-signzone` here, one key of algorithm 13 per zone
// (fast); rndc has a key and port of its own on <net>.1. `delv` through the resolver with
// the root's anchor alone says whether a name fully validates; `rndc flush` empties the
// resolver's cache between looks. Readiness is asked by querying; every limit is a hang
// detector. `stop()` stops named by its PID (scripts/lib/daemons.mjs) and removes the
// directory and the addresses; a process that exits without it still removes both.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupSockets, lastLines, runCommand, startDaemon, stopDaemon, waitFor } from "./daemons.mjs";

/** Hang detectors (the machine may be loaded): a command, named's start, a reload reaching its view. */
const COMMAND_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 120_000;
const RELOAD_WITHIN_MS = 60_000;
/** rndc's port on <net>.1: the address is this run's, so any port is free there. */
const RNDC_PORT = 953;

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
 * @property {string} resolver the validating resolver's address (<net>.4)
 * @property {string} anchorFile the root's KSK as a `trust-anchors` statement (delv -a)
 * @property {string | null} notReady null when the chain answers, else why not
 * @property {() => string} output what named printed
 * @property {(children: Record<string, Delegation>) => Promise<void>} setDelegations
 *   com.'s children become these (and only these): com. is signed again, reloaded, and
 *   resolves once <net>.2 serves the new serial
 * @property {() => Promise<void>} flush empties the resolver's cache (rndc flush)
 * @property {(name: string, type: string) => Promise<Looked>} delv `delv @resolver -a anchorFile`
 * @property {(name: string, type: string) => Promise<Asked>} ask the resolver's own answer (dig, DNSSEC OK)
 * @property {() => Promise<void>} stop named stopped by its PID, the directory and the addresses removed
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
  for (const table of ["tcp", "udp"]) {
    let text = "";
    try {
      text = readFileSync(`/proc/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const hex = (line.trim().split(/\s+/)[1] ?? "").split(":")[0] ?? "";
      // An IPv4 address in host order (little-endian here): "0100007F" is 127.0.0.1.
      const bytes = (hex.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)).reverse();
      if (bytes.length === 4 && bytes[0] === 127) nets.add(bytes.slice(0, 3).join("."));
    }
  }
  return nets;
}

/**
 * Starts the chain on `net` (a free /24 of loopback when not given). Resolves to the chain;
 * `notReady` says why when it does not answer (named, if started, is stopped then).
 * @param {{ net?: string, timeoutMs?: number }} [options]
 * @returns {Promise<ParentChain>}
 */
export async function startParentChain({ net = freeLoopbackNet(), timeoutMs = START_TIMEOUT_MS } = {}) {
  const root = `${net}.1`;
  const tld = `${net}.2`;
  const resolver = `${net}.4`;
  const dir = mkdtempSync(join(tmpdir(), "domain-api-dns-chain-"));
  /** @type {string[]} */
  const added = []; // the addresses added to lo
  const removeAll = () => {
    for (const address of added.splice(0)) spawnSync("ip", ["addr", "del", `${address}/32`, "dev", "lo"], { stdio: "ignore", timeout: 10_000 });
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", removeAll);
  const anchorFile = join(dir, "root.anchor");
  /** @type {import("./daemons.mjs").Daemon | null} */
  let named = null;
  /** @type {ParentChain} */
  const chain = {
    net,
    root,
    tld,
    resolver,
    anchorFile,
    notReady: null,
    output: () => named?.output ?? "",
    setDelegations,
    flush,
    delv,
    ask,
    stop,
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

  const rndc = (/** @type {string[]} */ args) => run("rndc", ["-c", join(dir, "rndc.conf"), ...args]);

  /**
   * dig at `server`, recursion not desired unless `recurse`; its output.
   * @param {string} server
   * @param {string[]} args
   */
  const dig = async (server, args) =>
    (await runCommand("dig", [`@${server}`, "+time=3", "+tries=2", ...args], { cwd: dir, timeoutMs: COMMAND_TIMEOUT_MS })).output;

  for (const address of [root, tld, resolver]) {
    const result = await runCommand("ip", ["addr", "add", `${address}/32`, "dev", "lo"], { timeoutMs: COMMAND_TIMEOUT_MS });
    if (result.code !== 0) {
      chain.notReady = `ip addr add ${address}/32 dev lo: ${lastLines(result.output, 3)} (named listens only on its interfaces' addresses)`;
      removeAll();
      return chain;
    }
    added.push(address);
  }

  const comKey = await keygen("com").catch((error) => error);
  const rootKey = typeof comKey === "string" ? await keygen(".").catch((error) => error) : comKey;
  if (typeof comKey !== "string" || typeof rootKey !== "string") {
    chain.notReady = String(/** @type {Error} */ (typeof comKey !== "string" ? comKey : rootKey)?.message);
    removeAll();
    return chain;
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

  const secret = randomBytes(32).toString("base64");
  const keyStatement = `key "rndc-key" { algorithm hmac-sha256; secret "${secret}"; };\n`;
  writeFileSync(join(dir, "rndc.conf"), `${keyStatement}options { default-key "rndc-key"; default-server ${root}; default-port ${RNDC_PORT}; };\n`, {
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
  listen-on port 53 { ${root}; ${tld}; ${resolver}; };
  listen-on-v6 { none; };
  notify no;
  recursion no;
  dnssec-validation no;
  minimal-responses yes;
};
${keyStatement}controls { inet ${root} port ${RNDC_PORT} allow { 127.0.0.0/8; } keys { "rndc-key"; }; };
view "root" {
  match-destinations { ${root}; };
  zone "." { type primary; file "${join(dir, "root.db.signed")}"; };
};
view "com" {
  match-destinations { ${tld}; };
  zone "com" { type primary; file "${join(dir, "com.db.signed")}"; };
};
view "resolver" {
  match-destinations { ${resolver}; };
  recursion yes;
  allow-recursion { 127.0.0.0/8; };
  allow-query-cache { 127.0.0.0/8; };
  dnssec-validation yes;
  trust-anchors { ${anchor} };
  empty-zones-enable no;
  servfail-ttl 0;
  zone "." { type hint; file "${join(dir, "root.hints")}"; };
};
`,
  );

  const answers = async (/** @type {string} */ server, /** @type {string} */ name, /** @type {string[]} */ flagsWanted) => {
    const out = await dig(server, ["+norec", name, "SOA"]);
    return /status: NOERROR/.test(out) && flagsWanted.every((f) => new RegExp(`flags:[^;]*\\b${f}\\b`).test(out));
  };
  named = await startDaemon("/usr/sbin/named", ["-g", "-n", "1", "-c", join(dir, "named.conf")], {
    name: "named (the DNS chain)",
    // The root and com. answer with authority, and the resolver resolves com. validated (AD).
    ready: async () =>
      (await answers(root, ".", ["aa"])) &&
      (await answers(tld, "com", ["aa"])) &&
      /status: NOERROR[\s\S]*flags:[^;]* ad\b/.test(await dig(resolver, ["+dnssec", "com", "SOA"])),
    timeoutMs,
  });
  if (named.notReady) {
    chain.notReady = named.notReady;
    removeAll();
    return chain;
  }
  // Its three addresses are this named's (not another process's that had them first).
  const held = (groupSockets(/** @type {number} */ (named.pid)) ?? []).filter((s) => s.tcp && s.listening && s.port === 53).map((s) => s.address);
  const missing = [root, tld, resolver].filter((address) => !held.includes(address));
  if (groupSockets(/** @type {number} */ (named.pid)) !== null && missing.length) {
    chain.notReady = `named does not listen on ${missing.map((a) => `${a}:53`).join(", ")}: ${lastLines(named.output, 10)}`;
    await stop();
    return chain;
  }
  return chain;

  /** @param {Record<string, Delegation>} children */
  async function setDelegations(children) {
    const serial = await signCom(children);
    await rndc(["reload", "com", "IN", "com"]);
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
    await rndc(["flush", "resolver"]);
  }

  /**
   * @param {string} name
   * @param {string} type
   * @returns {Promise<Looked>}
   */
  async function delv(name, type) {
    const result = await runCommand("delv", [`@${resolver}`, "-a", anchorFile, "+root=.", "+tcp", "+nocomments", name, type], {
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
    const output = await dig(resolver, ["+dnssec", name, type]);
    return { status: /status: (\w+)/.exec(output)?.[1] ?? "no answer", ad: /flags:[^;]* ad\b/.test(output), output };
  }

  async function stop() {
    await stopDaemon(named);
    removeAll();
    process.off("exit", removeAll);
  }
}
