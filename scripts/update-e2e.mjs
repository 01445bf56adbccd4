#!/usr/bin/env node
// End to end, TSIG keys and DNS UPDATE (docs/dns-update.md): `npm start` on a free port
// with a throwaway D1; zones, TSIG keys and a declared secondary made through the API;
// PowerDNS 4.7 on the API as the primary (`dnsupdate=yes`, its transfer ACL narrowed to
// 127.0.0.1, so that the other loopback addresses stand for the Internet); BIND 9 as the
// zone's declared secondary, transferring from 127.0.0.2 with its TSIG key. Then real
// clients, each answer's rcode AND the zone as the API reads it checked:
//
// - BIND's `nsupdate -y` and Knot's `knsupdate`: add, replace, delete, prerequisites that
//   hold and that fail (nothing applied), a key for another zone, a key whose rules refuse
//   the name or type, an unsigned update, a wrong secret, an expired and a deleted key, a
//   CNAME beside other data;
// - the declared secondary transfers with its key and, NOTIFYed, follows an update; AXFR
//   without the key from its address, from an undeclared address, or with an update-only
//   key is refused.
//
// Loopback only, bounded waits; every daemon stopped by its PID, temp dirs removed.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHarness, freePort, httpClient, runCommand } from "./lib/harness.mjs";
import { pdnsSettings } from "./lib/pdns-settings.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const harness = createHarness({ name: "update-e2e", label: "UPDATE-E2E", readyTimeoutMs: 90_000, totalTimeoutMs: 300_000 });
const { check, ok, notOk, assert, tempDir } = harness;

const ZONE = "upd.test";
const ACME_ZONE = "acme.test";
// The declared secondary takes NOTIFY on 127.0.0.1 (BIND listens only on an interface's
// address) and transfers from 127.0.0.2; 127.0.0.3 is a stranger.
const SECONDARY = "127.0.0.1";
const TRANSFER_SOURCE = "127.0.0.2";
const STRANGER = "127.0.0.3";

const daemons = [];
process.on("exit", () => {
  for (const daemon of daemons) if (daemon.child.exitCode === null) daemon.child.kill("SIGKILL");
});

function startDaemon(command, args, { ready, cwd = ROOT }) {
  let output = "";
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
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

async function stopDaemon(daemon) {
  if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
  daemon.child.kill("SIGTERM");
  const inTime = await Promise.race([daemon.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 15_000))]);
  if (!inTime) {
    daemon.child.kill("SIGKILL");
    await daemon.exited;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await harness.run(async () => {
  try {
    await main();
  } finally {
    for (const daemon of daemons) await stopDaemon(daemon);
  }
});

async function main() {
  const stateDir = tempDir("domain-api-update-e2e-state-");
  const work = tempDir("domain-api-update-e2e-");
  const base = await harness.startReported("npm start", { persistTo: stateDir });
  if (!base) return;
  const api = httpClient(base);
  const must = async (method, path, body, status) => {
    const response = await api(method, path, body);
    assert(response.status === status, `${method} ${path} answered ${response.status}: ${response.text.slice(0, 400)}`);
    return response.json;
  };

  // The API side: two zones, their keys, and the first zone's declared secondary.
  const secondaryPort = await freePort();
  const keys = {};
  await check("zones, TSIG keys and a declared secondary (loopback, allowed on local development) are made through the API", async () => {
    await must("POST", "/v1/zones", { name: ZONE, nameservers: ["ns1.example.net"] }, 201);
    await must("POST", "/v1/records", { zone: ZONE, name: "ns1", type: "A", content: "192.0.2.53" }, 201);
    await must("POST", "/v1/records", { zone: ZONE, name: "keep", type: "A", content: "192.0.2.1" }, 201);
    await must("POST", "/v1/zones", { name: ACME_ZONE, nameservers: ["ns1.example.net"] }, 201);
    keys.update = await must("POST", "/v1/tsig-keys", { name: "updater.upd.test", allow: ["update"], zones: [ZONE] }, 201);
    keys.transfer = await must("POST", "/v1/tsig-keys", { name: "xfr.upd.test", algorithm: "hmac-sha512", allow: ["transfer"], zones: [ZONE] }, 201);
    keys.acme = await must(
      "POST",
      "/v1/tsig-keys",
      { name: "acme-writer.acme.test", allow: ["update"], zones: [ACME_ZONE], records: [{ name: "_acme-challenge", types: ["TXT"] }] },
      201,
    );
    const patched = await must("PATCH", `/v1/zones/${ZONE}`, { secondaries: [{ address: SECONDARY, port: secondaryPort, tsig_key: keys.transfer.id }] }, 200);
    assert(patched.secondaries[0].address === SECONDARY, JSON.stringify(patched.secondaries));
  });
  if (!keys.acme) return;
  const token = (await must("POST", "/v1/tokens", { name: "update-e2e-dns", scope: "dns" }, 201)).secret;

  // The primary: PowerDNS on the API, with DNS UPDATE on.
  const pdnsPort = await freePort();
  const pdnsDir = tempDir("domain-api-update-e2e-pdns-");
  writeFileSync(
    join(pdnsDir, "pdns.conf"),
    [
      "launch=remote",
      `remote-connection-string=http:url=${base}/v1/pdns/${token},timeout=5000`,
      "remote-dnssec=yes",
      ...pdnsSettings({ port: pdnsPort, cache: 0 }),
      "dnsupdate=yes",
      "primary=yes",
      // Only the tier's own address may transfer by address: 127.0.0.2 and .3 stand for the Internet.
      "allow-axfr-ips=127.0.0.1/32",
      "only-notify=127.0.0.0/8",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const pdns = startDaemon("/usr/sbin/pdns_server", [`--config-dir=${pdnsDir}`, "--daemon=no", "--guardian=no", `--socket-dir=${pdnsDir}`], {
    ready: /Done launching threads|ready to distribute questions/,
  });
  daemons.push(pdns);
  if (!(await Promise.race([pdns.isReady, sleep(60_000).then(() => false)]))) {
    notOk("PowerDNS starts as the primary", pdns.output.split("\n").slice(-15).join(" | "));
    return;
  }
  ok(`PowerDNS answers for ${ZONE} on 127.0.0.1:${pdnsPort} with dnsupdate=yes`);

  const records = async (zone) =>
    (await must("GET", `/v1/zones/${zone}/records?limit=200`, undefined, 200)).data.map((r) => `${r.name} ${r.type} ${r.content}`).sort();
  const hasRecord = async (zone, line) => (await records(zone)).includes(line);

  /** nsupdate with a script (a file: BIND's tools cannot read a Node pipe); its output and the rcode it reports. */
  const nsupdate = async (lines, { key = null, zone = ZONE, tool = "nsupdate" } = {}) => {
    const script = join(work, `update-${Math.random().toString(36).slice(2)}.txt`);
    const body =
      tool === "nsupdate"
        ? [`server 127.0.0.1 ${pdnsPort}`, `zone ${zone}`, ...lines, "send", ""]
        : [`server 127.0.0.1 ${pdnsPort}`, `zone ${zone}.`, ...lines, "send", "answer", ""];
    writeFileSync(script, body.join("\n"));
    const args = key ? ["-y", `${key.algorithm}:${key.name}:${key.secret}`, script] : [script];
    const result = await runCommand(tool === "nsupdate" ? "nsupdate" : "knsupdate", tool === "nsupdate" ? ["-t", "10", ...args] : ["-t", "10", ...args], {
      timeoutMs: 30_000,
    });
    const rcode =
      /update failed: (\w+)/.exec(result.output)?.[1] ??
      /status: (\w+)/.exec(result.output)?.[1] ??
      /\b(NOTAUTH|REFUSED|SERVFAIL|NXDOMAIN|YXDOMAIN|NXRRSET|YXRRSET|FORMERR|BADKEY|BADSIG)\b/.exec(result.output)?.[1] ??
      (result.code === 0 ? "NOERROR" : `exit ${result.code}`);
    return { rcode, output: result.output.trim() };
  };
  const expectRcode = (result, expected) => assert(expected.test(result.rcode), `rcode ${result.rcode}, expected ${expected}: ${result.output.slice(0, 400)}`);

  await check("nsupdate -y: add answers NOERROR and the record is in the zone", async () => {
    expectRcode(await nsupdate(["update add www.upd.test. 300 A 192.0.2.10"], { key: keys.update }), /^NOERROR$/);
    assert(await hasRecord(ZONE, "www A 192.0.2.10"), (await records(ZONE)).join(", "));
  });

  await check("nsupdate -y: replace (delete the RRset, add in the same message) leaves only the new content", async () => {
    expectRcode(
      await nsupdate(["update delete www.upd.test. A", "update add www.upd.test. 300 A 192.0.2.11", "update add www.upd.test. 300 A 192.0.2.12"], {
        key: keys.update,
      }),
      /^NOERROR$/,
    );
    const now = await records(ZONE);
    assert(now.includes("www A 192.0.2.11") && now.includes("www A 192.0.2.12") && !now.includes("www A 192.0.2.10"), now.join(", "));
  });

  await check("nsupdate -y: delete one record, then the RRset", async () => {
    expectRcode(await nsupdate(["update delete www.upd.test. A 192.0.2.11"], { key: keys.update }), /^NOERROR$/);
    let now = await records(ZONE);
    assert(!now.includes("www A 192.0.2.11") && now.includes("www A 192.0.2.12"), now.join(", "));
    expectRcode(await nsupdate(["update delete www.upd.test. A"], { key: keys.update }), /^NOERROR$/);
    now = await records(ZONE);
    assert(!now.some((line) => line.startsWith("www ")), now.join(", "));
  });

  await check("a prerequisite that holds (nxdomain) lets the update through", async () => {
    expectRcode(await nsupdate(["prereq nxdomain fresh.upd.test.", 'update add fresh.upd.test. 300 TXT "fresh"'], { key: keys.update }), /^NOERROR$/);
    assert(await hasRecord(ZONE, 'fresh TXT "fresh"'), (await records(ZONE)).join(", "));
  });

  await check("a prerequisite that fails (yxdomain, yxrrset) is NXDOMAIN / NXRRSET and nothing is applied", async () => {
    const before = await records(ZONE);
    expectRcode(await nsupdate(["prereq yxdomain nothing-here.upd.test.", "update add p1.upd.test. 300 A 192.0.2.20"], { key: keys.update }), /^NXDOMAIN$/);
    expectRcode(await nsupdate(["prereq yxrrset keep.upd.test. TXT", "update add p2.upd.test. 300 A 192.0.2.21"], { key: keys.update }), /^NXRRSET$/);
    assert(JSON.stringify(await records(ZONE)) === JSON.stringify(before), (await records(ZONE)).join(", "));
  });

  await check("a key for another zone is REFUSED, nothing applied", async () => {
    expectRcode(await nsupdate(["update add other.upd.test. 300 A 192.0.2.30"], { key: keys.acme }), /^REFUSED$/);
    assert(!(await records(ZONE)).some((line) => line.startsWith("other ")), "applied");
  });

  await check("an unsigned update is REFUSED, nothing applied", async () => {
    expectRcode(await nsupdate(["update add unsigned.upd.test. 300 A 192.0.2.31"]), /^REFUSED$/);
    expectRcode(await nsupdate([`update add unsigned.${ACME_ZONE}. 300 A 192.0.2.31`], { zone: ACME_ZONE }), /^REFUSED$/);
    assert(!(await records(ZONE)).some((line) => line.startsWith("unsigned ")), "applied");
  });

  await check("a wrong secret is REFUSED (the signature does not verify: PowerDNS answers unsigned), nothing applied", async () => {
    const wrong = { ...keys.update, secret: btoa("x".repeat(32)) };
    expectRcode(await nsupdate(["update add wrong.upd.test. 300 A 192.0.2.32"], { key: wrong }), /^REFUSED$/);
    assert(!(await records(ZONE)).some((line) => line.startsWith("wrong ")), "applied");
  });

  await check("the key's records rules: _acme-challenge TXT is applied, an A there or a TXT elsewhere is SERVFAIL and nothing is applied", async () => {
    expectRcode(await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "token-1"`], { key: keys.acme, zone: ACME_ZONE }), /^NOERROR$/);
    assert(await hasRecord(ACME_ZONE, '_acme-challenge TXT "token-1"'), (await records(ACME_ZONE)).join(", "));
    const before = await records(ACME_ZONE);
    expectRcode(
      await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "token-2"`, `update add www.${ACME_ZONE}. 60 A 192.0.2.40`], {
        key: keys.acme,
        zone: ACME_ZONE,
      }),
      /^SERVFAIL$/,
    );
    expectRcode(await nsupdate([`update add other.${ACME_ZONE}. 60 TXT "x"`], { key: keys.acme, zone: ACME_ZONE }), /^SERVFAIL$/);
    assert(JSON.stringify(await records(ACME_ZONE)) === JSON.stringify(before), (await records(ACME_ZONE)).join(", "));
  });

  await check("a CNAME beside other data is REFUSED (PowerDNS checks it against lookups), nothing applied", async () => {
    expectRcode(await nsupdate(["update add keep.upd.test. 300 CNAME www.example.net."], { key: keys.update }), /^REFUSED$/);
    assert(!(await records(ZONE)).some((line) => line.startsWith("keep CNAME")), "applied");
  });

  await check("a record the API's rules refuse (an A record at a name with an underscore) is SERVFAIL, nothing applied", async () => {
    // nsupdate checks owner names itself unless told not to: the server's rules are what is tested.
    expectRcode(await nsupdate(["check-names no", "update add _bad.upd.test. 300 A 192.0.2.41"], { key: keys.update }), /^SERVFAIL$/);
    assert(!(await records(ZONE)).some((line) => line.startsWith("_bad ")), "applied");
  });

  await check("knsupdate: add and delete with the key, and the events name the key as token", async () => {
    expectRcode(await nsupdate([`update add knot.${ZONE}. 300 TXT "from knsupdate"`], { key: keys.update, tool: "knsupdate" }), /^NOERROR$/);
    assert(await hasRecord(ZONE, 'knot TXT "from knsupdate"'), (await records(ZONE)).join(", "));
    expectRcode(await nsupdate([`update delete knot.${ZONE}. TXT`], { key: keys.update, tool: "knsupdate" }), /^NOERROR$/);
    assert(!(await hasRecord(ZONE, 'knot TXT "from knsupdate"')), "not deleted");
    const events = (await must("GET", `/v1/events?token=${keys.update.id}&limit=200`, undefined, 200)).data;
    assert(events.length >= 6 && events.every((e) => e.token === keys.update.id && e.type === "record"), JSON.stringify(events.slice(0, 3)));
  });

  await check("knsupdate: a key whose rules refuse the type is SERVFAIL, nothing applied", async () => {
    expectRcode(
      await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 A 192.0.2.42`], { key: keys.acme, zone: ACME_ZONE, tool: "knsupdate" }),
      /^SERVFAIL$/,
    );
    assert(!(await records(ACME_ZONE)).some((line) => line.includes(" A ")), "applied");
  });

  await check("a deleted key is REFUSED from the next message on", async () => {
    const doomed = await must("POST", "/v1/tsig-keys", { name: "doomed.acme.test", allow: ["transfer"], zones: [ACME_ZONE] }, 201);
    await must("PATCH", `/v1/tsig-keys/${keys.acme.id}`, { allow: ["transfer"] }, 200);
    await must("PATCH", `/v1/tsig-keys/${doomed.id}`, { allow: ["update"] }, 200);
    expectRcode(await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "doomed"`], { key: doomed, zone: ACME_ZONE }), /^NOERROR$/);
    await must("DELETE", `/v1/tsig-keys/${doomed.id}`, undefined, 204);
    expectRcode(await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "after-delete"`], { key: doomed, zone: ACME_ZONE }), /^REFUSED$/);
    assert(!(await hasRecord(ACME_ZONE, '_acme-challenge TXT "after-delete"')), "applied");
  });

  await check("an expired key is REFUSED once its expires_at has passed", async () => {
    const soon = new Date(Date.now() + 4_000).toISOString();
    const brief = await must("POST", "/v1/tsig-keys", { name: "brief.acme.test", allow: ["update"], zones: [ACME_ZONE], expires_at: soon }, 201);
    expectRcode(await nsupdate([`update add brief.${ACME_ZONE}. 60 TXT "in time"`], { key: brief, zone: ACME_ZONE }), /^NOERROR$/);
    await sleep(Math.max(0, Date.parse(soon) - Date.now()) + 500);
    expectRcode(await nsupdate([`update add brief.${ACME_ZONE}. 60 TXT "too late"`], { key: brief, zone: ACME_ZONE }), /^REFUSED$/);
    assert(!(await hasRecord(ACME_ZONE, 'brief TXT "too late"')), "applied");
  });

  // The declared secondary: BIND on 127.0.0.2, transferring with the zone's transfer key.
  const named = join(work, "named");
  const keyStanza = (key) => `key "${key.name.replace(/\.$/, "")}" { algorithm ${key.algorithm}; secret "${key.secret}"; };`;
  writeFileSync(
    join(work, "named.conf"),
    `options { directory "${work}"; listen-on port ${secondaryPort} { ${SECONDARY}; }; listen-on-v6 { none; }; pid-file none; recursion no; dnssec-validation no;
  transfer-source ${TRANSFER_SOURCE}; notify-source ${TRANSFER_SOURCE}; notify no; };
${keyStanza(keys.transfer)}
zone "${ZONE}" { type secondary; primaries port ${pdnsPort} { 127.0.0.1 key "${keys.transfer.name.replace(/\.$/, "")}"; }; file "${named}-${ZONE}.db"; };
`,
  );
  const bind = startDaemon("/usr/sbin/named", ["-g", "-c", join(work, "named.conf")], { ready: /running/ });
  daemons.push(bind);
  if (!(await Promise.race([bind.isReady, sleep(30_000).then(() => false)]))) {
    notOk("BIND starts as the declared secondary", bind.output.split("\n").slice(-10).join(" | "));
    return;
  }
  const serialAt = async (server, port) => {
    const text = (await runCommand("dig", [`@${server}`, "-p", String(port), "+short", "+norec", ZONE, "SOA"], { timeoutMs: 10_000 })).output;
    const soa = text.split("\n").find((line) => /^\S+ \S+ \d+ /.test(line.trim()));
    return soa ? Number(soa.trim().split(/\s+/)[2]) : text.trim().slice(0, 200);
  };
  const apiSerial = async () => (await must("GET", `/v1/zones/${ZONE}`, undefined, 200)).soa.serial;
  const waitFor = async (predicate, ms) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await predicate()) return true;
      await sleep(250);
    }
    return false;
  };

  await check("the declared secondary transfers the zone with its TSIG key (serial equal to the API's)", async () => {
    const expected = await apiSerial();
    assert(
      await waitFor(async () => (await serialAt(SECONDARY, secondaryPort)) === expected, 20_000),
      `secondary serial ${await serialAt(SECONDARY, secondaryPort)}, API ${expected}: ${bind.output.split("\n").slice(-8).join(" | ")}`,
    );
  });

  await check("after an update, the secondary receives NOTIFY and follows within 5 s", async () => {
    expectRcode(await nsupdate(["update add notified.upd.test. 300 A 192.0.2.50"], { key: keys.update }), /^NOERROR$/);
    const expected = await apiSerial();
    // The primary NOTIFYs the zone's ALSO-NOTIFY targets (the declared secondary).
    const notify = await runCommand("pdns_control", [`--socket-dir=${pdnsDir}`, "notify", ZONE], { timeoutMs: 10_000 });
    assert(/Added to queue/.test(notify.output), notify.output);
    assert(
      await waitFor(async () => (await serialAt(SECONDARY, secondaryPort)) === expected, 5_000),
      `secondary still at ${await serialAt(SECONDARY, secondaryPort)}, API ${expected}`,
    );
    assert(/received notify for zone/i.test(bind.output), "BIND logged no NOTIFY");
    const answer = (
      await runCommand("dig", [`@${SECONDARY}`, "-p", String(secondaryPort), "+short", "+norec", `notified.${ZONE}`, "A"], { timeoutMs: 10_000 })
    ).output.trim();
    assert(answer === "192.0.2.50", answer);
  });

  const axfr = async (source, key) =>
    (
      await runCommand(
        "dig",
        ["-b", source, "@127.0.0.1", "-p", String(pdnsPort), ...(key ? ["-y", `${key.algorithm}:${key.name}:${key.secret}`] : []), ZONE, "AXFR"],
        { timeoutMs: 15_000 },
      )
    ).output;
  const transferred = (text) => /\sSOA\s[\s\S]*\sSOA\s/.test(text) && !/Transfer failed/.test(text);

  await check("AXFR without the key from the secondary's own address is refused", async () => {
    const text = await axfr(TRANSFER_SOURCE, null);
    assert(!transferred(text), text.slice(0, 300));
  });
  await check("AXFR from an undeclared address is refused; with the transfer key it is allowed; with an update-only key it is refused", async () => {
    assert(!transferred(await axfr(STRANGER, null)), "transferred without a key");
    const withKey = await axfr(STRANGER, keys.transfer);
    assert(transferred(withKey), withKey.slice(0, 300));
    assert(!transferred(await axfr(STRANGER, keys.update)), "transferred with the update key");
  });
}
