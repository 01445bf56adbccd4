#!/usr/bin/env node
// The serving tier's update gateway (docs/dns-update.md), as `npm run dns` runs it beside
// PowerDNS and Knot: DNS UPDATE over UDP and TCP on 127.0.0.1, each message forwarded to
// the service (scripts/lib/update-gateway.mjs). The dns token comes from the environment
// (DNS_BACKEND_TOKEN), never from the command line, which every user of the machine can
// read (/proc/PID/cmdline); it is never printed.
//
//   DNS_BACKEND_TOKEN=tok_… node scripts/update-gateway.mjs --api URL [--port N]
//
// --api: the service (default http://127.0.0.1:8787, or PORT from the environment);
// --port: UDP and TCP on 127.0.0.1 (default 5302). SIGINT and SIGTERM stop it.
import { parseArgs } from "node:util";
import { startUpdateGateway } from "./lib/update-gateway.mjs";

const USAGE = "usage: DNS_BACKEND_TOKEN=tok_… node scripts/update-gateway.mjs [--api URL] [--port N]";

function fail(message) {
  console.error(`[update] ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: { api: { type: "string" }, port: { type: "string", default: "5302" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  fail(error.message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const token = process.env.DNS_BACKEND_TOKEN ?? "";
if (!/^tok_[0-9A-Z]{26}\.\S+$/.test(token)) fail("DNS_BACKEND_TOKEN must hold a token of scope dns (npm run token -- create --scope dns)");
if (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) < 1 || Number(values.port) > 65535) fail(`--port must be 1 to 65535, got "${values.port}"`);
const port = Number(values.port);
const api = values.api ?? `http://127.0.0.1:${process.env.PORT || 8787}`;
try {
  new URL(api);
} catch {
  fail(`--api must be a URL, got "${api}"`);
}

let gateway;
try {
  gateway = await startUpdateGateway({ api, token, port, log: (line) => console.log(`[update] ${line}`) });
} catch (error) {
  console.error(`[update] could not listen on 127.0.0.1:${port}: ${error.message}`);
  process.exit(1);
}
console.log(`[update] the update gateway takes DNS UPDATE on 127.0.0.1:${gateway.port} (UDP and TCP) for ${api}`);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    void gateway.close().then(() => process.exit(0));
  });
}
