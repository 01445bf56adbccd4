#!/usr/bin/env node
// End to end, TSIG keys and DNS UPDATE (docs/dns-update.md): `npm start` on a free port
// with a throwaway D1; zones, TSIG keys and a declared secondary made through the API;
// PowerDNS 4.7 on the API as the primary (`dnsupdate=no`, its transfer ACL narrowed to
// 127.0.0.1, so that the other loopback addresses stand for the Internet) and the update
// gateway (scripts/update-gateway.mjs) beside it, which forwards each DNS UPDATE to the
// service; BIND 9 as every zone's declared secondary, transferring from 127.0.0.2 with its
// TSIG key. Then real clients, BIND's `nsupdate -y` and Knot's `knsupdate` each through
// every case, sent to the gateway: add, replace, delete, prerequisites that hold and that
// fail (nothing applied), a key for another zone, a key whose rules refuse the name or the
// type, two update keys on one zone each held to its own rules, an unsigned update, a
// wrong secret, a deleted and an expired key, a CNAME beside other data, a record the
// API's rules refuse, an update over TCP of 1 000 records and one of 1 001 (refused whole).
// Each case checks the rcode, the zone as the API reads it, and the secondary: at the
// API's serial (NOTIFYed after an update, then transferred) and answering the names the
// case touched as the API stores them. A signed UDP packet captured on its way to the
// gateway and sent again with node:dgram is refused (BADSIG) and applies nothing. Then
// AXFR without the key from the secondary's address, from an undeclared address, or with
// an update-only key is refused, and PowerDNS itself takes no update.
//
// Loopback only, bounded waits; every daemon stopped by its PID, temp dirs removed.
import { createSocket } from "node:dgram";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertEqual, createHarness, freePort, httpClient, mustClient, runCommand, sleep, startDaemon, startPowerDns, waitFor } from "./lib/harness.mjs";
import { ROOT } from "./lib/wrangler.mjs";
import { pdnsSettings } from "./lib/pdns-settings.mjs";

// No tier secondaries (DNS_TIER_SECONDARIES empty): PowerDNS NOTIFYs each zone's declared secondary alone.
const harness = createHarness({
  name: "update-e2e",
  label: "UPDATE-E2E",
  startArgs: ["--var", "DNS_TIER_SECONDARIES:"],
  readyTimeoutMs: 120_000,
  totalTimeoutMs: 480_000,
});
const { check, ok, notOk, assert, tempDir } = harness;

const ZONE = "upd.test";
const ACME_ZONE = "acme.test";
// quiet-*: zones without an update key; life-*: a zone per client for its keys' lifecycle;
// bulk.test: the large updates.
const ALL_ZONES = [ZONE, ACME_ZONE, "quiet-n.test", "quiet-k.test", "life-n.test", "life-k.test", "bulk.test"];
// The declared secondary takes NOTIFY on 127.0.0.1 (BIND listens only on an interface's
// address) and transfers from 127.0.0.2; 127.0.0.3 is a stranger.
const SECONDARY = "127.0.0.1";
const TRANSFER_SOURCE = "127.0.0.2";
const STRANGER = "127.0.0.3";

// The daemons (PowerDNS, BIND) are stopped by the harness's cleanup, whatever ends the run.
await harness.runWithService(main);

async function main({ base, work }) {
  const must = mustClient(httpClient(base));

  // The API side, all before PowerDNS starts (it caches TSIG-ALLOW-AXFR for a minute): the
  // zones, their keys, and one declared secondary (BIND) for every zone, so that each
  // update's outcome is checked on a secondary as well as through the API.
  const secondaryPort = await freePort();
  const keys = {};
  await check("zones, TSIG keys and a declared secondary (loopback, allowed on local development) are made through the API", async () => {
    for (const zone of ALL_ZONES) await must("POST", "/v1/zones", { name: zone, nameservers: ["ns1.example.net"] }, 201);
    await must("POST", "/v1/records", { zone: ZONE, name: "ns1", type: "A", content: "192.0.2.53" }, 201);
    await must("POST", "/v1/records", { zone: ZONE, name: "keep", type: "A", content: "192.0.2.1" }, 201);
    keys.update = await must("POST", "/v1/tsig-keys", { name: "updater.upd.test", allow: ["update"], zones: [ZONE] }, 201);
    keys.transfer = await must("POST", "/v1/tsig-keys", { name: "xfr.upd.test", algorithm: "hmac-sha512", allow: ["transfer"], zones: ALL_ZONES }, 201);
    keys.acme = await must(
      "POST",
      "/v1/tsig-keys",
      { name: "acme-writer.acme.test", allow: ["update"], zones: [ACME_ZONE], records: [{ name: "_acme-challenge", types: ["TXT"] }] },
      201,
    );
    // A second update key on the same zone: a dynamic-DNS updater, its own name and types.
    keys.ddns = await must(
      "POST",
      "/v1/tsig-keys",
      { name: "ddns.acme.test", algorithm: "hmac-sha512", allow: ["update"], zones: [ACME_ZONE], records: [{ name: "home", types: ["A", "AAAA"] }] },
      201,
    );
    keys.bulk = await must("POST", "/v1/tsig-keys", { name: "bulk.bulk.test", allow: ["update"], zones: ["bulk.test"] }, 201);
    for (const zone of ALL_ZONES) {
      const patched = await must("PATCH", `/v1/zones/${zone}`, { secondaries: [{ address: SECONDARY, port: secondaryPort, tsig_key: keys.transfer.id }] }, 200);
      assert(patched.secondaries[0].address === SECONDARY, JSON.stringify(patched.secondaries));
    }
  });
  if (!keys.acme) return;
  const token = (await must("POST", "/v1/tokens", { name: "update-e2e-dns", scope: "dns" }, 201)).secret;

  // The primary: PowerDNS on the API, taking no DNS UPDATE (the gateway brings those to the service).
  const pdnsPort = await freePort();
  const pdnsDir = tempDir("domain-api-update-e2e-pdns-");
  writeFileSync(
    join(pdnsDir, "pdns.conf"),
    [
      "launch=remote",
      `remote-connection-string=http:url=${base}/v1/pdns/${token},timeout=5000`,
      "remote-dnssec=yes",
      ...pdnsSettings({ port: pdnsPort, cache: 0 }),
      "dnsupdate=no",
      "primary=yes",
      // As the tier's primary: serials that moved are found (and NOTIFYed) within a second.
      "xfr-cycle-interval=1",
      // Only the tier's own address may transfer by address: 127.0.0.2 and .3 stand for the Internet.
      "allow-axfr-ips=127.0.0.1/32",
      "only-notify=127.0.0.0/8",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const pdns = await startPowerDns(pdnsDir, {
    ready: /Done launching threads|ready to distribute questions/,
    timeoutMs: 60_000,
  });
  if (pdns.notReady) {
    notOk("PowerDNS starts as the primary", pdns.notReady);
    return;
  }
  ok(`PowerDNS answers for ${ZONE} on 127.0.0.1:${pdnsPort} with dnsupdate=no`);

  // The update gateway, as npm run dns runs it: the dns token in its environment.
  const gatewayPort = await freePort();
  const gateway = await startDaemon(process.execPath, [join(ROOT, "scripts", "update-gateway.mjs"), "--api", base, "--port", String(gatewayPort)], {
    name: "the update gateway",
    env: { ...process.env, DNS_BACKEND_TOKEN: token },
    ready: /takes DNS UPDATE on 127\.0\.0\.1:/,
    timeoutMs: 30_000,
    holds: { tcp: [gatewayPort], udp: [gatewayPort] },
  });
  if (gateway.notReady) {
    notOk("the update gateway starts", gateway.notReady);
    return;
  }
  ok(`the update gateway takes DNS UPDATE on 127.0.0.1:${gatewayPort} (UDP and TCP)`);

  // The declared secondary: BIND on 127.0.0.1, transferring from 127.0.0.2 with the transfer key; no control
  // channel (rndc would listen on 127.0.0.1:953, a port every run shares).
  const named = join(work, "named");
  const keyStanza = (key) => `key "${key.name.replace(/\.$/, "")}" { algorithm ${key.algorithm}; secret "${key.secret}"; };`;
  const transferKey = keys.transfer.name.replace(/\.$/, "");
  writeFileSync(
    join(work, "named.conf"),
    `options { directory "${work}"; listen-on port ${secondaryPort} { ${SECONDARY}; }; listen-on-v6 { none; }; pid-file none; recursion no; dnssec-validation no;
  transfer-source ${TRANSFER_SOURCE}; notify-source ${TRANSFER_SOURCE}; notify no; request-ixfr no; };
controls { };
${keyStanza(keys.transfer)}
${ALL_ZONES.map((zone) => `zone "${zone}" { type secondary; primaries port ${pdnsPort} { 127.0.0.1 key "${transferKey}"; }; file "${named}-${zone}.db"; };`).join("\n")}
`,
  );
  const bind = await startDaemon("/usr/sbin/named", ["-g", "-c", join(work, "named.conf")], { ready: /running/, timeoutMs: 30_000 });
  if (bind.notReady) {
    notOk("BIND starts as the declared secondary", bind.notReady);
    return;
  }

  const dig = async (name, type, server = SECONDARY, port = secondaryPort) =>
    (await runCommand("dig", [`@${server}`, "-p", String(port), "+short", "+norec", "+time=5", "+tries=2", name, type], { timeoutMs: 20_000 })).output.trim();
  const serialAt = async (zone) => {
    const text = await dig(zone, "SOA");
    const soa = text.split("\n").find((line) => /^\S+ \S+ \d+ /.test(line.trim()));
    return soa ? Number(soa.trim().split(/\s+/)[2]) : text.slice(0, 200);
  };
  const apiSerial = async (zone = ZONE) => (await must("GET", `/v1/zones/${zone}`, undefined, 200)).soa.serial;
  /** True once `predicate` holds, false after `ms` (a hang detector) or when the run is torn down. */
  const becomes = async (predicate, ms) => (await waitFor(predicate, { timeoutMs: ms, stop: () => harness.aborting })) !== null;

  await check("the declared secondary transfers every zone with its TSIG key (serial equal to the API's)", async () => {
    for (const zone of ALL_ZONES) {
      const expected = await apiSerial(zone);
      assert(
        await becomes(async () => (await serialAt(zone)) === expected, 60_000),
        `${zone}: secondary serial ${await serialAt(zone)}, API ${expected}: ${bind.output.split("\n").slice(-8).join(" | ")}`,
      );
    }
  });

  const recordsOf = async (zone) => (await must("GET", `/v1/zones/${zone}/records?limit=200`, undefined, 200)).data;
  const records = async (zone) => (await recordsOf(zone)).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
  const hasRecord = async (zone, line) => (await records(zone)).includes(line);
  const normal = (text) => text.toLowerCase().replace(/\.$/, "");

  /**
   * The secondary agrees with the API about `zone`: it holds the API's serial (NOTIFY and
   * transfer done; hang detector 30 s), and for each name (relative, "@" the apex) and
   * type its answer is the API's content, or nothing when the API has none.
   */
  const secondaryAgrees = async (zone, names) => {
    const expected = await apiSerial(zone);
    assert(await becomes(async () => (await serialAt(zone)) === expected, 30_000), `${zone}: secondary at ${await serialAt(zone)}, API at ${expected}`);
    for (const [name, type] of names) {
      const stored = (await must("GET", `/v1/zones/${zone}/records?name=${encodeURIComponent(name)}&limit=200`, undefined, 200)).data;
      const want = stored
        .filter((r) => r.name === name && r.type === type)
        .map((r) => normal(r.content))
        .sort();
      const owner = name === "@" ? `${zone}.` : `${name}.${zone}.`;
      const got = (await dig(owner, type)).split("\n").filter(Boolean).map(normal).sort();
      assertEqual(got, want, `${owner} ${type} on the secondary, against the API`);
    }
  };

  /** nsupdate or knsupdate with a script (a file: BIND's tools cannot read a Node pipe); its output and the rcode it reports. */
  const nsupdate = async (lines, { key = null, zone = ZONE, tool = "nsupdate", tcp = false, port = gatewayPort } = {}) => {
    const script = join(work, `update-${Math.random().toString(36).slice(2)}.txt`);
    const body =
      tool === "nsupdate"
        ? [`server 127.0.0.1 ${port}`, `zone ${zone}`, ...lines, "send", ""]
        : [`server 127.0.0.1 ${port}`, `zone ${zone}.`, ...lines.filter((line) => !line.startsWith("check-names")), "send", "answer", ""];
    writeFileSync(script, body.join("\n"));
    const args = key ? ["-y", `${key.algorithm}:${key.name}:${key.secret}`, script] : [script];
    const result = await runCommand(tool, ["-t", "20", ...(tcp ? ["-v"] : []), ...args], { timeoutMs: 60_000 });
    const rcode =
      /update failed: (\w+)/.exec(result.output)?.[1] ??
      /status: (\w+)/.exec(result.output)?.[1] ??
      /\b(NOTAUTH|REFUSED|SERVFAIL|NXDOMAIN|YXDOMAIN|NXRRSET|YXRRSET|FORMERR|BADKEY|BADSIG)\b/.exec(result.output)?.[1] ??
      (result.code === 0 ? "NOERROR" : `exit ${result.code}`);
    return { rcode, output: result.output.trim() };
  };
  const expectRcode = (result, expected) => assert(expected.test(result.rcode), `rcode ${result.rcode}, expected ${expected}: ${result.output.slice(0, 400)}`);
  const unchangedIn = async (zone, before) => {
    const now = await records(zone);
    assertEqual(now, before, "the zone's records");
  };

  // Every case with both clients: BIND's nsupdate and Knot's knsupdate, each on names of its own.
  for (const tool of ["nsupdate", "knsupdate"]) {
    const t = tool === "nsupdate" ? "n" : "k"; // a label of this client's names
    const www = `www-${t}`;
    const upd = (what) => `${tool}: ${what}`;

    await check(upd("add answers NOERROR; the record is in the API and on the secondary"), async () => {
      expectRcode(await nsupdate([`update add ${www}.${ZONE}. 300 A 192.0.2.10`], { key: keys.update, tool }), /^NOERROR$/);
      assert(await hasRecord(ZONE, `${www} A 192.0.2.10`), (await records(ZONE)).join(", "));
      await secondaryAgrees(ZONE, [[www, "A"]]);
    });

    await check(upd("replace (delete the RRset, add in the same message) leaves only the new content, in the API and on the secondary"), async () => {
      expectRcode(
        await nsupdate([`update delete ${www}.${ZONE}. A`, `update add ${www}.${ZONE}. 300 A 192.0.2.11`, `update add ${www}.${ZONE}. 300 A 192.0.2.12`], {
          key: keys.update,
          tool,
        }),
        /^NOERROR$/,
      );
      const now = await records(ZONE);
      assert(now.includes(`${www} A 192.0.2.11`) && now.includes(`${www} A 192.0.2.12`) && !now.includes(`${www} A 192.0.2.10`), now.join(", "));
      await secondaryAgrees(ZONE, [[www, "A"]]);
    });

    await check(upd("delete one record, then the RRset: gone from the API and the secondary"), async () => {
      expectRcode(await nsupdate([`update delete ${www}.${ZONE}. A 192.0.2.11`], { key: keys.update, tool }), /^NOERROR$/);
      let now = await records(ZONE);
      assert(!now.includes(`${www} A 192.0.2.11`) && now.includes(`${www} A 192.0.2.12`), now.join(", "));
      await secondaryAgrees(ZONE, [[www, "A"]]);
      expectRcode(await nsupdate([`update delete ${www}.${ZONE}. A`], { key: keys.update, tool }), /^NOERROR$/);
      now = await records(ZONE);
      assert(!now.some((line) => line.startsWith(`${www} `)), now.join(", "));
      await secondaryAgrees(ZONE, [[www, "A"]]);
    });

    await check(upd("prerequisites that hold (nxdomain, then yxrrset with its value) let the update through"), async () => {
      const fresh = `fresh-${t}`;
      expectRcode(
        await nsupdate([`prereq nxdomain ${fresh}.${ZONE}.`, `update add ${fresh}.${ZONE}. 300 TXT "fresh"`], { key: keys.update, tool }),
        /^NOERROR$/,
      );
      expectRcode(
        await nsupdate([`prereq yxrrset ${fresh}.${ZONE}. TXT "fresh"`, `update add ${fresh}.${ZONE}. 300 TXT "second"`], { key: keys.update, tool }),
        /^NOERROR$/,
      );
      const now = await records(ZONE);
      assert(now.includes(`${fresh} TXT "fresh"`) && now.includes(`${fresh} TXT "second"`), now.join(", "));
      await secondaryAgrees(ZONE, [[fresh, "TXT"]]);
    });

    await check(
      upd("prerequisites that fail (yxdomain, yxrrset, nxdomain, nxrrset) answer NXDOMAIN, NXRRSET, YXDOMAIN, YXRRSET; nothing applied"),
      async () => {
        const before = await records(ZONE);
        const serial = await apiSerial();
        const cases = [
          [`prereq yxdomain nothing-here.${ZONE}.`, /^NXDOMAIN$/],
          [`prereq yxrrset keep.${ZONE}. TXT`, /^NXRRSET$/],
          [`prereq nxdomain keep.${ZONE}.`, /^YXDOMAIN$/],
          [`prereq nxrrset keep.${ZONE}. A`, /^YXRRSET$/],
        ];
        for (const [prereq, rcode] of cases)
          expectRcode(await nsupdate([prereq, `update add p-${t}.${ZONE}. 300 A 192.0.2.20`], { key: keys.update, tool }), rcode);
        await unchangedIn(ZONE, before);
        assert((await apiSerial()) === serial, "the serial moved");
        await secondaryAgrees(ZONE, [[`p-${t}`, "A"]]);
      },
    );

    await check(upd("a key for another zone is REFUSED, nothing applied"), async () => {
      const before = await records(ZONE);
      expectRcode(await nsupdate([`update add other-${t}.${ZONE}. 300 A 192.0.2.30`], { key: keys.acme, tool }), /^REFUSED$/);
      await unchangedIn(ZONE, before);
      await secondaryAgrees(ZONE, [[`other-${t}`, "A"]]);
    });

    await check(upd("an unsigned update is REFUSED, in a zone with an update key and in one without; nothing applied"), async () => {
      const before = await records(ZONE);
      expectRcode(await nsupdate([`update add unsigned-${t}.${ZONE}. 300 A 192.0.2.31`], { tool }), /^REFUSED$/);
      await unchangedIn(ZONE, before);
      await secondaryAgrees(ZONE, [[`unsigned-${t}`, "A"]]);
      const quiet = `quiet-${t}.test`;
      expectRcode(await nsupdate([`update add unsigned.${quiet}. 300 A 192.0.2.31`], { zone: quiet, tool }), /^REFUSED$/);
      await secondaryAgrees(quiet, [["unsigned", "A"]]);
    });

    await check(upd("a wrong secret answers NOTAUTH, TSIG error BADSIG (an unsigned answer, RFC 8945 §5.3.2), nothing applied"), async () => {
      const before = await records(ZONE);
      const wrong = { ...keys.update, secret: btoa(`${t}`.repeat(32)) };
      const result = await nsupdate([`update add wrong-${t}.${ZONE}. 300 A 192.0.2.32`], { key: wrong, tool });
      // nsupdate prints the rcode and the TSIG error after it; knsupdate shows the TSIG error as the status.
      expectRcode(result, /^(NOTAUTH|BADSIG)$/);
      assert(/BADSIG/.test(result.output), result.output.slice(0, 400));
      await unchangedIn(ZONE, before);
      await secondaryAgrees(ZONE, [[`wrong-${t}`, "A"]]);
    });

    await check(
      upd("the key's records rules: _acme-challenge TXT is applied; an A record there, or a TXT elsewhere, is REFUSED and nothing is applied"),
      async () => {
        const challenge = `_acme-challenge.${ACME_ZONE}.`;
        expectRcode(await nsupdate([`update add ${challenge} 60 TXT "token-${t}"`], { key: keys.acme, zone: ACME_ZONE, tool }), /^NOERROR$/);
        assert(await hasRecord(ACME_ZONE, `_acme-challenge TXT "token-${t}"`), (await records(ACME_ZONE)).join(", "));
        await secondaryAgrees(ACME_ZONE, [["_acme-challenge", "TXT"]]);
        const before = await records(ACME_ZONE);
        const serial = await apiSerial(ACME_ZONE);
        // The type refused (alone, and beside an allowed change), then the name refused.
        expectRcode(await nsupdate(["check-names no", `update add ${challenge} 60 A 192.0.2.42`], { key: keys.acme, zone: ACME_ZONE, tool }), /^REFUSED$/);
        expectRcode(
          await nsupdate([`update add ${challenge} 60 TXT "token-2"`, `update add www.${ACME_ZONE}. 60 A 192.0.2.40`], {
            key: keys.acme,
            zone: ACME_ZONE,
            tool,
          }),
          /^REFUSED$/,
        );
        expectRcode(await nsupdate([`update add other.${ACME_ZONE}. 60 TXT "x"`], { key: keys.acme, zone: ACME_ZONE, tool }), /^REFUSED$/);
        await unchangedIn(ACME_ZONE, before);
        assert((await apiSerial(ACME_ZONE)) === serial, "the serial moved");
        await secondaryAgrees(ACME_ZONE, [
          ["_acme-challenge", "TXT"],
          ["_acme-challenge", "A"],
          ["www", "A"],
          ["other", "TXT"],
        ]);
      },
    );

    await check(upd("a CNAME beside other data is REFUSED (the zone as the update would leave it breaks RFC 1034 §3.6.2), nothing applied"), async () => {
      const before = await records(ZONE);
      expectRcode(await nsupdate([`update add keep.${ZONE}. 300 CNAME www.example.net.`], { key: keys.update, tool }), /^REFUSED$/);
      await unchangedIn(ZONE, before);
      await secondaryAgrees(ZONE, [
        ["keep", "CNAME"],
        ["keep", "A"],
      ]);
    });

    await check(upd("a record the API's rules refuse (an A record at a name with an underscore) is REFUSED, nothing applied"), async () => {
      const before = await records(ZONE);
      // nsupdate checks owner names itself unless told not to: the server's rules are what is tested.
      expectRcode(await nsupdate(["check-names no", `update add _bad-${t}.${ZONE}. 300 A 192.0.2.41`], { key: keys.update, tool }), /^REFUSED$/);
      await unchangedIn(ZONE, before);
      await secondaryAgrees(ZONE, [[`_bad-${t}`, "A"]]);
    });

    // A zone of its own for each client's key lifecycle.
    const life = `life-${t}.test`;
    await check(upd("a deleted key answers NOTAUTH (BADKEY) from the next message on, nothing applied"), async () => {
      const doomed = await must("POST", "/v1/tsig-keys", { name: `doomed.${life}`, allow: ["update"], zones: [life] }, 201);
      expectRcode(await nsupdate([`update add live.${life}. 60 TXT "doomed"`], { key: doomed, zone: life, tool }), /^NOERROR$/);
      await secondaryAgrees(life, [["live", "TXT"]]);
      await must("DELETE", `/v1/tsig-keys/${doomed.id}`, undefined, 204);
      const before = await records(life);
      expectRcode(await nsupdate([`update add after-delete.${life}. 60 TXT "after-delete"`], { key: doomed, zone: life, tool }), /^(NOTAUTH|BADKEY)$/);
      await unchangedIn(life, before);
      await secondaryAgrees(life, [["after-delete", "TXT"]]);
    });

    await check(upd("an expired key answers NOTAUTH (BADKEY) once its expires_at has passed, nothing applied"), async () => {
      const soon = new Date(Date.now() + 4_000).toISOString();
      const brief = await must("POST", "/v1/tsig-keys", { name: `brief.${life}`, allow: ["update"], zones: [life], expires_at: soon }, 201);
      expectRcode(await nsupdate([`update add brief.${life}. 60 TXT "in time"`], { key: brief, zone: life, tool }), /^NOERROR$/);
      await sleep(Math.max(0, Date.parse(soon) - Date.now()) + 500);
      const before = await records(life);
      expectRcode(await nsupdate([`update add brief.${life}. 60 TXT "too late"`], { key: brief, zone: life, tool }), /^(NOTAUTH|BADKEY)$/);
      await unchangedIn(life, before);
      await secondaryAgrees(life, [["brief", "TXT"]]);
    });
  }

  await check("two update keys on one zone are each held to their own records rules (nsupdate with each)", async () => {
    const serial = await apiSerial(ACME_ZONE);
    expectRcode(
      await nsupdate([`update add home.${ACME_ZONE}. 300 A 192.0.2.70`, `update add home.${ACME_ZONE}. 300 AAAA 2001:db8::70`], {
        key: keys.ddns,
        zone: ACME_ZONE,
      }),
      /^NOERROR$/,
    );
    expectRcode(await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "both"`], { key: keys.acme, zone: ACME_ZONE }), /^NOERROR$/);
    const before = await records(ACME_ZONE);
    expectRcode(await nsupdate([`update add _acme-challenge.${ACME_ZONE}. 60 TXT "ddns"`], { key: keys.ddns, zone: ACME_ZONE }), /^REFUSED$/);
    expectRcode(await nsupdate([`update add home.${ACME_ZONE}. 300 A 192.0.2.71`], { key: keys.acme, zone: ACME_ZONE }), /^REFUSED$/);
    await unchangedIn(ACME_ZONE, before);
    assert((await apiSerial(ACME_ZONE)) === serial + 2, "two updates applied, two serial steps");
    const byKey = async (key) => (await must("GET", `/v1/events?token=${key.id}&limit=200`, undefined, 200)).data.map((e) => e.after?.name ?? e.before?.name);
    assert(
      (await byKey(keys.ddns)).every((name) => name === "home"),
      JSON.stringify(await byKey(keys.ddns)),
    );
    assert(
      (await byKey(keys.acme)).every((name) => name === "_acme-challenge"),
      JSON.stringify(await byKey(keys.acme)),
    );
    await secondaryAgrees(ACME_ZONE, [
      ["home", "A"],
      ["home", "AAAA"],
      ["_acme-challenge", "TXT"],
    ]);
  });

  await check("a signed UDP packet captured on its way to the gateway and sent again (node:dgram) answers NOTAUTH/BADSIG and applies nothing", async () => {
    // nsupdate sends to a relay that keeps what it forwards to the gateway.
    const relay = createSocket("udp4");
    const upstream = createSocket("udp4");
    let captured = null;
    let client = null;
    relay.on("message", (message, remote) => {
      captured = Buffer.from(message);
      client = remote;
      upstream.send(message, gatewayPort, "127.0.0.1");
    });
    upstream.on("message", (answer) => relay.send(answer, client.port, client.address));
    await new Promise((resolve) => relay.bind(0, "127.0.0.1", resolve));
    await new Promise((resolve) => upstream.bind(0, "127.0.0.1", resolve));
    try {
      expectRcode(await nsupdate([`update add replayed.${ZONE}. 300 TXT "once"`], { key: keys.update, port: relay.address().port }), /^NOERROR$/);
      assert(captured !== null, "nothing went through the relay");
      assert(await hasRecord(ZONE, 'replayed TXT "once"'), (await records(ZONE)).join(", "));
      // The record goes through the API; the captured message must not bring it back.
      const [stored] = (await recordsOf(ZONE)).filter((r) => r.name === "replayed");
      await must("DELETE", `/v1/records/${stored.id}`, undefined, 204);
      const before = await records(ZONE);
      const serial = await apiSerial();
      const answer = await new Promise((resolve, reject) => {
        const socket = createSocket("udp4");
        const timer = setTimeout(() => {
          socket.close();
          reject(new Error("no answer to the replayed packet within 10 s"));
        }, 10_000);
        socket.on("message", (message) => {
          clearTimeout(timer);
          socket.close();
          resolve(Buffer.from(message));
        });
        socket.send(captured, gatewayPort, "127.0.0.1");
      });
      // NOTAUTH in the header; the TSIG's error field (its last six octets: error, other length) is BADSIG (16).
      assert((answer.readUInt16BE(2) & 0x0f) === 9, `rcode ${answer.readUInt16BE(2) & 0x0f}`);
      assert(answer.readUInt16BE(answer.length - 4) === 16, `TSIG error ${answer.readUInt16BE(answer.length - 4)}`);
      await unchangedIn(ZONE, before);
      assert((await apiSerial()) === serial, "the serial moved");
      await secondaryAgrees(ZONE, [["replayed", "TXT"]]);
    } finally {
      relay.close();
      upstream.close();
    }
  });

  await check("over TCP (nsupdate -v), an update of 1 000 records is applied in one serial step; one of 1 001 is REFUSED whole", async () => {
    const adds = (count, prefix) => Array.from({ length: count }, (_, i) => `update add ${prefix}${i}.bulk.test. 60 TXT "bulk ${i}"`);
    const serial = await apiSerial("bulk.test");
    expectRcode(await nsupdate(adds(1000, "r"), { key: keys.bulk, zone: "bulk.test", tcp: true }), /^NOERROR$/);
    assert((await must("GET", "/v1/zones/bulk.test", undefined, 200)).record_count === 1001, "1 000 records and the apex NS");
    assert((await apiSerial("bulk.test")) === serial + 1, "one serial step");
    const result = await nsupdate(adds(1001, "s"), { key: keys.bulk, zone: "bulk.test", tcp: true });
    expectRcode(result, /^REFUSED$/);
    assert((await must("GET", "/v1/zones/bulk.test", undefined, 200)).record_count === 1001, "nothing of the 1 001 applied");
    await secondaryAgrees("bulk.test", [
      ["r999", "TXT"],
      ["s0", "TXT"],
    ]);
  });

  await check("the events of applied updates name the update key as token", async () => {
    const events = (await must("GET", `/v1/events?token=${keys.update.id}&limit=200`, undefined, 200)).data;
    assert(events.length >= 12 && events.every((e) => e.token === keys.update.id && e.type === "record"), JSON.stringify(events.slice(0, 3)));
  });

  await check("after an update, the secondary receives NOTIFY and follows within 5 s", async () => {
    expectRcode(await nsupdate([`update add notified.${ZONE}. 300 A 192.0.2.50`], { key: keys.update }), /^NOERROR$/);
    const expected = await apiSerial();
    assert(await becomes(async () => (await serialAt(ZONE)) === expected, 5_000), `secondary still at ${await serialAt(ZONE)}, API ${expected}`);
    assert(/received notify for zone/i.test(bind.output), "BIND logged no NOTIFY");
    const answer = await dig(`notified.${ZONE}`, "A");
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

  await check("PowerDNS itself takes no update (dnsupdate=no): a signed update sent to it is refused, nothing applied", async () => {
    const before = await records(ZONE);
    const result = await nsupdate([`update add to-pdns.${ZONE}. 300 A 192.0.2.99`], { key: keys.update, port: pdnsPort });
    assert(result.rcode !== "NOERROR", result.output.slice(0, 300));
    await unchangedIn(ZONE, before);
  });
}
