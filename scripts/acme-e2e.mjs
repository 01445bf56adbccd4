#!/usr/bin/env node
// End to end, ACME as a user runs it (docs/acme.md, docs/dns-update.md):
// `npm start` on a free port with a throwaway D1, the zone example.com made through the
// API, `npm run dns` (scripts/dns.mjs: the hidden primary, PowerDNS, the secondary, Knot
// DNS, and the update gateway that takes DNS UPDATE for the service) on free ports, and
// Debian's pebble, a test ACME CA, on loopback, its validation authority asking the tier's
// secondary (`-dnsserver`). Then:
//
// - docs/acme.md's bash blocks run as written (scripts/lib/readme-blocks.mjs), with
//   BASE, UPDATES, SECONDARY and ACME pointing at this run's servers: a TSIG key restricted
//   to `_acme-challenge` and `_acme-challenge.www` TXT minted with curl, nsupdate and
//   knsupdate with it, then certbot (dns-rfc2136) and lego (--dns rfc2136) each obtaining
//   a certificate for example.com and www.example.com, their DNS-01 challenges written by
//   DNS UPDATE and checked by pebble on the secondary;
// - both certificates checked by openssl: SAN exactly the two names, chained to pebble's
//   root; pebble validated every challenge through the secondary;
// - the clients removed their challenge records (the API and the secondary agree), and
//   every record event names the key as its token;
// - the same key is refused an A record, a TXT record at another name, another zone, and
//   certbot a certificate for another name: the rcode, and nothing stored (the API, the
//   secondary, the serial).
//
// Loopback only (lego is kept from the public DNS by --dns.resolvers and
// --dns.disable-cp, as docs/acme.md says); every daemon stopped by its PID (process group),
// temp dirs removed. Time limits are hang detectors, generous for a loaded machine.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tierSecondaryVar } from "./lib/dns-tier.mjs";
import { assertEqual, createHarness, freePort, httpClient, lastLines, mustClient, runCommand, startDaemon, startDnsTier, waitFor } from "./lib/harness.mjs";
import { assembleScript, bashBlocks, reportRun, runBash } from "./lib/readme-blocks.mjs";

/** The tier's secondary: the service names it in every zone's ALSO-NOTIFY (DNS_TIER_SECONDARIES). */
const secondaryPort = await freePort();
const harness = createHarness({
  name: "acme-e2e",
  label: "ACME-E2E",
  startArgs: tierSecondaryVar(secondaryPort),
  readyTimeoutMs: 120_000,
  totalTimeoutMs: 600_000,
});
const { check, ok, notOk, assert } = harness;

const ZONE = "example.com";
const NAMES = ["example.com", "www.example.com"];
const KEY_NAME = "acme-writer.example.com";
const ACME_PAGE_HEADING = "# ACME and DNS clients"; // docs/acme.md, as a reader follows it
const BASH_TIMEOUT_MS = 300_000;

// The daemons (the tier: PowerDNS and Knot; pebble) are stopped by the harness's cleanup, pebble first.
await harness.runWithService(main);

async function main({ base, stateDir, work }) {
  const must = mustClient(httpClient(base));

  const zoneMade = await check(`zone ${ZONE} is made through the API (docs/acme.md takes the tour's zone)`, async () => {
    await must("POST", "/v1/zones", { name: ZONE, nameservers: ["ns1.example.net", "ns2.example.net"] }, 201);
    await must("POST", "/v1/records", { zone: ZONE, name: "www", type: "A", content: "192.0.2.80" }, 201);
  });
  if (!zoneMade) return;

  // The tier, as `npm run dns` runs it, on free ports.
  const primaryPort = await freePort();
  const dns = await startDnsTier({ api: base, port: secondaryPort, primaryPort, persistTo: stateDir, graceMs: 20_000 });
  if (dns.notReady) {
    notOk("npm run dns starts the tier", dns.notReady);
    return;
  }
  const dig = async (name, type, port = secondaryPort) =>
    (await runCommand("dig", ["@127.0.0.1", "-p", String(port), "+norec", "+short", "+time=5", "+tries=2", name, type], { timeoutMs: 20_000 })).output.trim();
  const apiSerial = async () => (await must("GET", `/v1/zones/${ZONE}`, undefined, 200)).soa.serial;
  const secondarySerial = async () => Number((await dig(ZONE, "SOA")).split(/\s+/)[2]);
  /** The secondary holds the zone at the API's serial (NOTIFY and AXFR done). */
  const secondaryCaughtUp = async (ms = 60_000) => {
    let expected = await apiSerial();
    const took = await waitFor(
      async () => {
        expected = await apiSerial();
        return (await secondarySerial()) === expected;
      },
      { timeoutMs: ms, stop: () => harness.aborting },
    );
    return took !== null;
  };
  if (!(await secondaryCaughtUp(90_000))) {
    notOk(`the secondary serves ${ZONE} at the API's serial`, `secondary ${await secondarySerial()}, API ${await apiSerial()}: ${lastLines(dns.output)}`);
    return;
  }
  ok(
    `npm run dns: the secondary (Knot) on 127.0.0.1:${secondaryPort} serves ${ZONE}; the primary (PowerDNS) is on 127.0.0.1:${primaryPort}, the update gateway on 127.0.0.1:${dns.updatePort}`,
  );

  // pebble on loopback: its HTTPS listener uses a self-signed certificate made as the
  // docs/acme.md makes it (pebble.pem is what REQUESTS_CA_BUNDLE and LEGO_CA_CERTIFICATES trust).
  const cert = await runCommand(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "30",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      "pebble.key",
      "-out",
      "pebble.pem",
    ],
    { cwd: work, timeoutMs: 30_000 },
  );
  if (cert.code !== 0) {
    notOk("openssl makes pebble's TLS certificate", cert.output.slice(-300));
    return;
  }
  const [acmePort, managementPort, httpPort, tlsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(work, "pebble.json"),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: "pebble.pem",
        privateKey: "pebble.key",
        httpPort,
        tlsPort,
      },
    }),
  );
  const pebble = await startDaemon("pebble", ["-config", "pebble.json", "-dnsserver", `127.0.0.1:${secondaryPort}`], {
    cwd: work,
    timeoutMs: 60_000,
    graceMs: 20_000,
    // No random sleeps before validating, no nonces refused on purpose, no authorization
    // reused between the clients' accounts: every challenge is checked, now.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
    ready: /ACME directory available at/,
  });
  if (pebble.notReady) {
    notOk("pebble starts", pebble.notReady);
    return;
  }
  const acme = `https://127.0.0.1:${acmePort}/dir`;
  await check(`pebble serves its directory on ${acme} and checks challenges through the secondary (127.0.0.1:${secondaryPort})`, async () => {
    const directory = await runCommand("curl", ["-sf", "--cacert", "pebble.pem", acme], { cwd: work, timeoutMs: 20_000 });
    assert(/"newOrder"/.test(directory.output), directory.output.slice(0, 300));
    assert(pebble.output.includes(`Using custom DNS resolver for ACME challenges: 127.0.0.1:${secondaryPort}`), lastLines(pebble.output));
  });

  // docs/acme.md, as written.
  const serialBefore = await apiSerial();
  const assembled = assembleScript({
    blocks: bashBlocks(ACME_PAGE_HEADING, undefined, "docs/acme.md"),
    checks: String.raw`check "SECRET is the key's secret (base64 of 32 bytes)" '[[ "$SECRET" =~ ^[A-Za-z0-9+/]{43}=$ ]]'`,
  });
  const scriptPath = join(work, "readme-acme.sh");
  writeFileSync(scriptPath, assembled.script);
  // Updates go to the update gateway (UPDATES), questions to the secondary.
  const env = { ...process.env, BASE: base, UPDATES: String(dns.updatePort), SECONDARY: String(secondaryPort), ACME: acme, FORCE_COLOR: "0" };
  const ran = await runBash(scriptPath, { cwd: work, env, timeoutMs: BASH_TIMEOUT_MS });
  reportRun(ran, assembled, { ok, notOk, what: `docs/acme.md` });
  if (ran.code !== 0) console.log(`# pebble output (last 20 lines):\n#   ${lastLines(pebble.output, 20).replaceAll(" | ", "\n#   ")}`);

  const keys = (await must("GET", "/v1/tsig-keys?limit=100", undefined, 200)).data;
  const key = keys.find((k) => k.name === `${KEY_NAME}.`);
  if (!key) {
    notOk("docs/acme.md's key is in /v1/tsig-keys", JSON.stringify(keys).slice(0, 300));
    return;
  }
  const secret = readSecret(work);

  // The certificates, by openssl.
  const root = join(work, "pebble-root.pem");
  const rootFetched = await runCommand("curl", ["-sf", "--cacert", "pebble.pem", "-o", root, `https://127.0.0.1:${managementPort}/roots/0`], {
    cwd: work,
    timeoutMs: 20_000,
  });
  const checkCertificate = async (client, leafPath, chainPath) => {
    await check(`${client}'s certificate: SAN exactly ${NAMES.join(", ")}, issued by pebble and chained to its root`, async () => {
      assert(existsSync(leafPath), `no ${leafPath}`);
      const san = await runCommand("openssl", ["x509", "-in", leafPath, "-noout", "-ext", "subjectAltName", "-issuer"], { timeoutMs: 20_000 });
      const names = [...san.output.matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1]).sort();
      assert(JSON.stringify(names) === JSON.stringify([...NAMES].sort()), san.output);
      assert(/issuer=.*Pebble Intermediate CA/.test(san.output), san.output);
      assert(rootFetched.code === 0, `pebble's root: ${rootFetched.output.slice(0, 200)}`);
      const verified = await runCommand("openssl", ["verify", "-CAfile", root, "-untrusted", chainPath, leafPath], { timeoutMs: 20_000 });
      assert(verified.code === 0 && /: OK$/m.test(verified.output), verified.output);
    });
  };
  const live = join(work, "certbot", "config", "live", ZONE);
  await checkCertificate("certbot", join(live, "cert.pem"), join(live, "chain.pem"));
  const legoCerts = join(work, "lego", "certificates");
  await checkCertificate("lego", join(legoCerts, `${ZONE}.crt`), join(legoCerts, `${ZONE}.issuer.crt`));

  await check("pebble validated each client's two DNS-01 challenges (4 authorizations set valid, none invalid)", async () => {
    const valid = pebble.output.match(/set VALID by completed challenge/g) ?? [];
    assert(valid.length === 4, `${valid.length} valid: ${lastLines(pebble.output)}`);
    assert(!/set INVALID|invalid authorization/i.test(pebble.output), lastLines(pebble.output));
  });

  // What the clients left: nothing, on the API and on the secondary.
  const records = async () =>
    (await must("GET", `/v1/zones/${ZONE}/records?limit=200`, undefined, 200)).data.map((r) => `${r.name} ${r.type} ${r.content}`).sort();
  const challengeNames = ["_acme-challenge", "_acme-challenge.www"];
  await check("the clients removed their challenge records: none in the API, none on the secondary (at the API's serial)", async () => {
    const now = await records();
    assert(!now.some((line) => line.startsWith("_acme-challenge")), now.join(", "));
    assert(await secondaryCaughtUp(), `secondary ${await secondarySerial()}, API ${await apiSerial()}`);
    for (const name of challengeNames) assert((await dig(`${name}.${ZONE}`, "TXT")) === "", `${name}: ${await dig(`${name}.${ZONE}`, "TXT")}`);
  });

  await check(
    "every record event since the key was made names it as token: a create and a delete at each challenge name, per client and for nsupdate/knsupdate",
    async () => {
      const events = (await must("GET", `/v1/events?token=${key.id}&limit=200`, undefined, 200)).data;
      assert(
        events.every((e) => e.token === key.id && e.type === "record"),
        JSON.stringify(events.find((e) => e.token !== key.id || e.type !== "record")),
      );
      const count = (operation, name) => events.filter((e) => e.operation === operation && (e.after ?? e.before)?.name === name).length;
      // nsupdate + knsupdate (apex, once), certbot and lego (both names).
      assert(count("create", "_acme-challenge") === 3 && count("delete", "_acme-challenge") === 3, `apex: ${count("create", "_acme-challenge")} created`);
      assert(
        count("create", "_acme-challenge.www") === 2 && count("delete", "_acme-challenge.www") === 2,
        `www: ${count("create", "_acme-challenge.www")} created, ${count("delete", "_acme-challenge.www")} deleted`,
      );
      assert((await apiSerial()) > serialBefore, "the serial did not move");
    },
  );

  // The same key, everything else: refused, nothing stored.
  if (!secret) {
    notOk("docs/acme.md's SECRET is known to the test", "no dns_rfc2136_secret in rfc2136.ini");
    return;
  }
  const nsupdate = async (lines, zone = ZONE) => {
    const script = join(work, `refused-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(script, [`server 127.0.0.1 ${dns.updatePort}`, `zone ${zone}`, ...lines, "send", ""].join("\n"));
    const result = await runCommand("nsupdate", ["-t", "10", "-y", `hmac-sha256:${KEY_NAME}:${secret}`, script], { timeoutMs: 30_000 });
    return { rcode: /update failed: (\w+)/.exec(result.output)?.[1] ?? (result.code === 0 ? "NOERROR" : `exit ${result.code}`), output: result.output.trim() };
  };
  const unchanged = async (before, serial, names) => {
    assertEqual(await records(), before, "the zone's records");
    assert((await apiSerial()) === serial, `serial moved from ${serial} to ${await apiSerial()}`);
    assert((await secondarySerial()) === serial, `secondary at ${await secondarySerial()}, expected ${serial}`);
    for (const [name, type] of names) {
      const answer = await dig(name, type);
      assert(answer === "", `${name} ${type} on the secondary: ${answer}`);
    }
  };
  assert(await secondaryCaughtUp(), "the secondary lags the API");
  const before = await records();
  const serial = await apiSerial();

  await check("the same key is refused an A record at its own challenge name (REFUSED), nothing stored: the API, the serial, the secondary", async () => {
    // nsupdate checks owner names of A records itself unless told not to: the server is what is tested.
    const result = await nsupdate(["check-names no", "update add _acme-challenge.www.example.com. 60 A 192.0.2.66"]);
    assert(result.rcode === "REFUSED", `${result.rcode}: ${result.output.slice(0, 300)}`);
    await unchanged(before, serial, [["_acme-challenge.www.example.com", "A"]]);
  });

  await check("the same key is refused a TXT record at another name, and www's A record (REFUSED), nothing stored", async () => {
    for (const lines of [
      ['update add other.example.com. 60 TXT "nope"'],
      ['update add _acme-challenge.shop.example.com. 60 TXT "nope"'],
      ["update delete www.example.com. A"],
      ['update add _acme-challenge.example.com. 60 TXT "in rules"', 'update add mail.example.com. 60 TXT "not in rules"'],
    ]) {
      const result = await nsupdate(lines);
      assert(result.rcode === "REFUSED", `${lines.join("; ")}: ${result.rcode}: ${result.output.slice(0, 300)}`);
    }
    await unchanged(before, serial, [
      ["other.example.com", "TXT"],
      ["_acme-challenge.shop.example.com", "TXT"],
      ["_acme-challenge.example.com", "TXT"],
      ["mail.example.com", "TXT"],
    ]);
    assert((await dig("www.example.com", "A")) === "192.0.2.80", `www A on the secondary: ${await dig("www.example.com", "A")}`);
  });

  await check("the same key is REFUSED in another zone of the account, nothing stored there", async () => {
    await must("POST", "/v1/zones", { name: "other.test", nameservers: ["ns1.example.net"] }, 201);
    const result = await nsupdate(['update add _acme-challenge.other.test. 60 TXT "nope"'], "other.test");
    assert(result.rcode === "REFUSED", `${result.rcode}: ${result.output.slice(0, 300)}`);
    const there = (await must("GET", "/v1/zones/other.test/records?limit=50", undefined, 200)).data;
    assert(!there.some((r) => r.type === "TXT"), JSON.stringify(there));
  });

  await check("certbot with the same key, for a name outside its rules (shop.example.com): the update is refused, no certificate, nothing stored", async () => {
    const result = await runCommand(
      "certbot",
      [
        "certonly",
        "--non-interactive",
        "--agree-tos",
        "-m",
        "hostmaster@example.com",
        "--server",
        acme,
        "--config-dir",
        "certbot/config",
        "--work-dir",
        "certbot/work",
        "--logs-dir",
        "certbot/logs",
        "--authenticator",
        "dns-rfc2136",
        "--dns-rfc2136-credentials",
        "rfc2136.ini",
        "--dns-rfc2136-propagation-seconds",
        "1",
        "-d",
        "shop.example.com",
      ],
      { cwd: work, env: { ...process.env, REQUESTS_CA_BUNDLE: join(work, "pebble.pem") }, timeoutMs: 120_000 },
    );
    assert(result.code !== 0 && /Received response from server: REFUSED/.test(result.output), `exit ${result.code}: ${lastLines(result.output, 6)}`);
    assert(!existsSync(join(work, "certbot", "config", "live", "shop.example.com")), "a certificate was saved");
    await unchanged(before, serial, [["_acme-challenge.shop.example.com", "TXT"]]);
  });
}

/** The key's secret, as docs/acme.md's block wrote it into rfc2136.ini. */
function readSecret(work) {
  try {
    return /^dns_rfc2136_secret = (\S+)$/m.exec(readFileSync(join(work, "rfc2136.ini"), "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}
