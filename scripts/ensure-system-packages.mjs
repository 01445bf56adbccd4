#!/usr/bin/env node
// The system tools the tests need, checked before anything else runs (`npm test` and
// `.ci/run` start with it), so a machine without them stops in the first seconds instead
// of failing a suite minutes in:
//
//   node scripts/ensure-system-packages.mjs
//
// Every tool is looked for where the tests look for it. When some are missing and this
// runs as root on a machine with apt-get (CI, a container), it installs their Debian
// packages (apt-get update first, no recommended extras, no service started); otherwise
// it prints one line naming the missing packages and the command that installs them, and
// exits 1. Nothing is printed when everything is there.
//
// SYSTEM_PACKAGES (env) replaces the list below, for a check of some packages only or a
// test of this script: space-separated `package` (an entry of the table) or
// `package:tool,tool` (tools: commands looked up as below, or absolute paths).
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * One row per Debian package: the tools the tests use from it (a command on PATH or in
 * an sbin directory, or an absolute path; `*` matches one directory level) and who uses
 * them. Add a row when a test needs another package.
 */
export const SYSTEM_PACKAGES = [
  { name: "bind9-utils", tools: ["named-checkzone"], usedBy: "scripts/zone-check.mjs: BIND's named-checkzone checks exported zones" },
  { name: "bind9-dnsutils", tools: ["dig", "delv"], usedBy: "DNS answers checked with dig and the validating delv" },
  { name: "bind9", tools: ["named"], usedBy: "BIND's server: the reference the answers are compared with (dns-e2e), a declared secondary (update-e2e)" },
  { name: "knot", tools: ["knotd"], usedBy: "Knot DNS's server: the serving tier's secondary (npm run dns, bench --dns)" },
  { name: "pdns-server", tools: ["pdns_server"], usedBy: "PowerDNS, serving zones from this service's HTTP backend" },
  { name: "pdns-backend-remote", tools: ["/usr/lib/*/pdns/libremotebackend.so"], usedBy: "PowerDNS's remote (HTTP) backend" },
  {
    name: "pdns-backend-bind",
    tools: ["/usr/lib/*/pdns/libbindbackend.so"],
    usedBy: "scripts/dns-e2e.mjs: PowerDNS reading the exported zone files itself, the reference",
  },
  { name: "knot-dnsutils", tools: ["knsupdate"], usedBy: "scripts/update-e2e.mjs and acme-e2e.mjs: Knot's knsupdate sends DNS UPDATE signed with TSIG" },
  { name: "pebble", tools: ["pebble"], usedBy: "scripts/acme-e2e.mjs: Debian's pebble, a test ACME CA on loopback" },
  { name: "certbot", tools: ["certbot"], usedBy: "scripts/acme-e2e.mjs: certbot obtains a certificate through DNS UPDATE" },
  {
    name: "python3-certbot-dns-rfc2136",
    tools: ["/usr/lib/python3/dist-packages/certbot_dns_rfc2136/__init__.py"],
    usedBy: "scripts/acme-e2e.mjs: certbot's dns-rfc2136 authenticator",
  },
  { name: "lego", tools: ["lego"], usedBy: "scripts/acme-e2e.mjs: lego obtains a certificate with --dns rfc2136" },
  { name: "chromium", tools: ["/usr/bin/chromium"], usedBy: "scripts/docs-e2e.mjs: the /v1/docs page in a headless browser" },
  { name: "openssl", tools: ["openssl"], usedBy: "scripts/deploy-tour.mjs and acme-e2e.mjs: the README's commands (a deploy; pebble's certificate)" },
  { name: "curl", tools: ["curl"], usedBy: "scripts/readme-tour.mjs and deploy-tour.mjs: the README's commands as written" },
  { name: "sqlite3", tools: ["sqlite3"], usedBy: "scripts/safety-e2e.mjs: another program holding the write lock of the database npm start serves" },
  {
    name: "libxml2-utils",
    tools: ["xmllint"],
    usedBy:
      "the EPP schema tests (test/unit/epp-*.test.ts) and the local registry (npm run registry), which checks every frame it receives with xmllint --schema",
  },
];

// sbin directories are searched too: a non-root PATH often lacks them, and named and
// pdns_server live there.
const SEARCH_PATH = [...(process.env.PATH ?? "").split(delimiter), "/usr/local/sbin", "/usr/sbin", "/sbin"].filter(Boolean);

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An absolute path, where each `*` segment matches any one directory. */
function pathExists(pattern) {
  const segments = pattern.split("/").filter(Boolean);
  const walk = (dir, rest) => {
    if (rest.length === 0) return existsSync(dir);
    const [head, ...tail] = rest;
    if (head !== "*") return walk(join(dir, head), tail);
    let entries = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) => entry.isDirectory() && walk(join(dir, entry.name), tail));
  };
  return walk("/", segments);
}

function toolPresent(tool) {
  if (isAbsolute(tool)) return pathExists(tool);
  return SEARCH_PATH.some((dir) => isExecutable(join(dir, tool)));
}

function packagesWanted() {
  const spec = process.env.SYSTEM_PACKAGES?.trim();
  if (!spec) return SYSTEM_PACKAGES;
  return spec.split(/\s+/).map((entry) => {
    const [name, tools] = entry.split(":");
    const known = SYSTEM_PACKAGES.find((p) => p.name === name);
    if (tools) return { name, tools: tools.split(",").filter(Boolean), usedBy: known?.usedBy ?? "SYSTEM_PACKAGES" };
    if (known) return known;
    console.error(`[packages] SYSTEM_PACKAGES names ${name}, which the table in scripts/ensure-system-packages.mjs lacks: write it as ${name}:<tool>`);
    return process.exit(2);
  });
}

function missingOf(packages) {
  return packages.filter((p) => !p.tools.every(toolPresent));
}

const isRoot = process.getuid?.() === 0;
const hasAptGet = toolPresent("apt-get");

function installCommand(names) {
  const sudo = isRoot ? "" : "sudo ";
  return `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${names.join(" ")}`;
}

function stop(missing, reason) {
  const names = missing.map((p) => p.name);
  const how = hasAptGet ? `install them with: ${installCommand(names)}` : `install these Debian packages' tools with your system's package manager`;
  console.error(`[packages] missing ${names.join(" ")} (${reason}); ${how}`);
  process.exit(1);
}

function aptGet(args) {
  // DPkg::Lock::Timeout: wait for another apt or dpkg run to finish instead of failing.
  const result = spawnSync("apt-get", ["-q", "-o", "DPkg::Lock::Timeout=300", ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

// Debian's maintainer scripts ask /usr/sbin/policy-rc.d before starting a service;
// exit 101 means "not allowed", so packages with a daemon (bind9, pdns-server, knot) install
// without starting one. Only a file this script wrote is removed afterwards.
const POLICY_RC_D = "/usr/sbin/policy-rc.d";
function withoutServiceStarts(run) {
  const created = !existsSync(POLICY_RC_D);
  if (created) writeFileSync(POLICY_RC_D, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
  try {
    return run();
  } finally {
    if (created) rmSync(POLICY_RC_D, { force: true });
  }
}

const wanted = packagesWanted();
const missing = missingOf(wanted);
if (missing.length > 0) {
  if (!isRoot) stop(missing, "not root, so not installing them");
  if (!hasAptGet) stop(missing, "no apt-get on this machine");
  const names = missing.map((p) => p.name);
  console.log(`[packages] installing ${names.join(" ")} with apt-get (the tests need them: ${missing.map((p) => p.usedBy).join("; ")})`);
  const installed = withoutServiceStarts(() => aptGet(["update"]) && aptGet(["install", "-y", "--no-install-recommends", ...names]));
  const still = missingOf(wanted);
  if (!installed || still.length > 0)
    stop(still.length > 0 ? still : missing, installed ? "installed, yet their tools are not where the tests look" : "apt-get failed, see above");
  console.log(`[packages] installed ${names.join(" ")}`);
}
