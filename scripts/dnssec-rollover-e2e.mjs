#!/usr/bin/env node
// End to end, DNSSEC key rollovers (docs/dnssec-rollovers.md, contract §22): `npm start` on
// a free port with a throwaway D1, then `npm run dns` (PowerDNS 4.7 signing online with the
// keys and flags the connector hands it, Knot DNS holding what it transferred), and a real
// DNS chain on a /24 of loopback of this run's (scripts/lib/dns-parent-chain.mjs: a Knot
// serving a signed root on <net>.1:53, another a signed com. on <net>.2:53, and a validating
// resolver, `named` on 127.0.0.1 at a free port, whose only trust anchor is the root's KSK;
// com. delegates the zones here to the secondary, which also answers on <net>.5:53, with the
// DS their parent shows). A domain
// registered here (the builtin repository: its stored DS is the parent's DS set) and its
// zone, signed with a KSK and a ZSK of RSASHA256 (8), go through three rolls on an
// accelerated clock, each step taken by `POST /v1/dnssec/run` with `as_of` (loopback only):
//
// - a ZSK roll (pre-publication), started by `POST /v1/zones/{zone}/dnssec/rollover`;
// - a KSK roll (double-DS), started by the run when the KSK's lifetime says so;
// - an algorithm roll 8 → 13 (RFC 6781 §4.1.4), started by the run after the policy changed;
// - an algorithm roll 13 → 15 (Ed25519, RFC 8080: keys the Worker makes, PowerDNS signs with).
//
// At every step, asked of the secondary (the address resolvers ask):
//
// - the DNSKEY RRset holds exactly the keys the API says are published, and the RRSIGs over
//   `www` and over the DNSKEY RRset are made by exactly the keys the API says sign them:
//   PowerDNS's signatures follow the key states;
// - the CDS and CDNSKEY are exactly the DS set the API says the parent must show (the
//   engine's, served by the backend: not PowerDNS's entry points), signed by the keys that sign;
// - for every DS set the parent showed within its TTL (a resolver may still hold any of
//   them), `delv` with that set as its only trust anchor fully validates `www` A and the
//   NXDOMAIN of a name that does not exist (NSEC);
// - through the chain, the resolver's cache flushed: `delv` with the root's KSK alone fully
//   validates `www` A and the NXDOMAIN, and the resolver answers both with AD; com. shows the
//   domain's DS as `GET /v1/domains/{domain}` has it (the registry publishes what the domain
//   holds), signed again and reloaded at each change (what a resolver asking now is shown);
// - the zone transferred from the secondary passes `dnssec-verify`.
//
// And the events: each key's steps (`dnssec.key.*`) and the parent's (`dnssec.ds.*`) in
// /v1/events, in order. Each roll's length in zone-days (default TTLs) is printed.
//
// Then a zone whose parent is not managed here (`externalParent`): the parent is another
// zone on the tier, signed here and delegated from com. with its DS, whose DS for the child
// the test writes as a parent that reads CDS would, and the run asks the parent's name
// servers itself, down from the chain's root (DNSSEC_ROOT_SERVERS: <net>.1). Its first DS is
// seen only once the parent shows it, a CSK roll waits for the parent at each DS step, and
// turning signing off (202) serves RFC 8078's delete until the parent's DS is gone, then
// unsigns the zone. At each of its steps the chain resolves `www` and an NXDOMAIN of the
// child: fully validated while the parent shows a DS, proved insecure (an unsigned answer,
// no failure) while it shows none.
//
// Loopback only (port 53 of the chain's /24 needs root, as `npm test` runs; the host's
// network configuration is left as it is), bounded loops; every daemon stopped by its PID,
// temp dirs removed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freeLoopbackNet, startParentChain } from "./lib/dns-parent-chain.mjs";
import { tierSecondaryVar } from "./lib/dns-tier.mjs";
import { assert, assertEqual, createHarness, freePort, httpClient, lastLines, runCommand, startDnsTier, waitFor } from "./lib/harness.mjs";

/** The tier's secondary: the service names it in every zone's ALSO-NOTIFY (DNS_TIER_SECONDARIES). */
const secondaryPort = await freePort();
/**
 * The DNS chain's /24 of loopback, this run's alone (scripts/lib/dns-parent-chain.mjs): the
 * root at .1 (DNSSEC_ROOT_SERVERS: the run asks a parent not managed here from there down),
 * com. at .2 (each a Knot of the chain's), and the tier's secondary also at .5:53, where
 * com. delegates the zones here; the validating resolver is on 127.0.0.1 at a free port.
 */
const CHAIN_NET = freeLoopbackNet();
const TIER_ADDRESS = `${CHAIN_NET}.5`;
const harness = createHarness({
  name: "dnssec-rollover-e2e",
  label: "DNSSEC-ROLLOVER-E2E",
  startArgs: [...tierSecondaryVar(secondaryPort), "--var", `DNSSEC_ROOT_SERVERS:${CHAIN_NET}.1`],
  readyTimeoutMs: 90_000,
  totalTimeoutMs: 600_000,
});
const { check, ok, notOk } = harness;

const ZONE = "rollover-e2e.com";
/** TTLds: the parent's DS TTL the service assumes (src/db/zone-keys.ts DEFAULT_DS_TTL). */
const DS_TTL_SECONDS = 86_400;
/** The most steps one roll may take here: a hang detector (the longest, an algorithm roll, takes 5). */
const MAX_STEPS = 12;
/** A change through the API reaches the secondary in about a second; this bound only catches a change that never arrives. */
const SECONDARY_WITHIN_MS = 60_000;

// TTLkey 300 (the SOA minimum: PowerDNS serves DNSKEY with it), TTLsig 3600 ($TTL): the service's defaults.
const MASTER_FILE = `$ORIGIN ${ZONE}.
$TTL 3600
@ IN SOA ns1.${ZONE}. hostmaster.${ZONE}. 1 7200 900 1209600 300
@ NS ns1.${ZONE}.
@ MX 10 mail.${ZONE}.
ns1 A ${TIER_ADDRESS}
mail A 192.0.2.25
www A 192.0.2.10
www AAAA 2001:db8::10
`;

const PUBLISHED = new Set(["published", "ready", "active", "retired"]);

/** A zone whose parent is not managed here: the parent is another zone on the tier (externalParent below). */
const PARENT = "parent-e2e.com";
const CHILD = `child.${PARENT}`;
const PARENT_FILE = `$ORIGIN ${PARENT}.
$TTL 3600
@ IN SOA ns1.${PARENT}. hostmaster.${PARENT}. 1 7200 900 1209600 300
@ NS ns1.${PARENT}.
ns1 A ${TIER_ADDRESS}
child NS ns1.${PARENT}.
`;
const CHILD_FILE = `$ORIGIN ${CHILD}.
$TTL 3600
@ IN SOA ns1.${PARENT}. hostmaster.${CHILD}. 1 7200 900 1209600 300
@ NS ns1.${PARENT}.
www A 192.0.2.11
`;

await harness.runWithService(async (service) => {
  const chain = await startParentChain({ net: CHAIN_NET });
  if (chain.notReady) {
    notOk("the DNS chain starts (Knot: the root, com.; named: a validating resolver)", chain.notReady);
    return;
  }
  ok(
    `the DNS chain answers: the root (signed) on ${chain.root}:53, com. (signed) on ${chain.tld}:53, a validating resolver on ${chain.resolver}:${chain.resolverPort}`,
  );
  try {
    await main({ ...service, chain });
  } finally {
    await chain.stop();
  }
});

async function main({ base, stateDir, work, chain }) {
  const api = httpClient(base, { timeoutMs: 60_000 });

  /** The request, its status asserted; its JSON. */
  const must = async (method, path, body, status, headers) => {
    const response = await api(method, path, body, headers);
    assert(response.status === status, `${method} ${path} answered ${response.status}: ${response.text.slice(0, 500)}`);
    return response.json;
  };

  const ready = await check(
    `${ZONE} is registered here (builtin repository), its zone imported, a KSK and a ZSK of algorithm 8 signing it, and the domain's DS names the KSK`,
    async () => {
      await must("POST", "/v1/domains", { name: ZONE }, 201);
      await must("POST", "/v1/zones", MASTER_FILE, 201, { "content-type": "text/dns" });
      await must("PATCH", `/v1/zones/${ZONE}/dnssec`, { policy: { algorithm: 8, single_key: false } }, 200);
      const state = await must("POST", `/v1/zones/${ZONE}/dnssec`, undefined, 201);
      assertEqual(
        state.keys.map((k) => [k.role, k.algorithm, k.flags, k.state]).sort(),
        [
          ["ksk", 8, 257, "active"],
          ["zsk", 8, 256, "active"],
        ],
        "the keys",
      );
      const domain = await must("GET", `/v1/domains/${ZONE}`, undefined, 200);
      const ksk = state.keys.find((k) => k.role === "ksk");
      assertEqual(domain.ds.map(dsText), [ksk.ds[0]], "the domain's DS");
    },
  );
  if (!ready) return;

  const primaryPort = await freePort();
  const dns = await startDnsTier({
    api: base,
    port: secondaryPort,
    primaryPort,
    persistTo: stateDir,
    args: ["--also-listen", `${TIER_ADDRESS}:53`],
  });
  if (dns.notReady) {
    notOk("npm run dns starts the tier", dns.notReady);
    return;
  }
  ok(`npm run dns: the secondary (Knot) on 127.0.0.1:${secondaryPort} and ${TIER_ADDRESS}:53, the primary (PowerDNS) on 127.0.0.1:${primaryPort}`);

  // com.'s children: the zones here, delegated to the secondary's second address with the DS their parent shows.
  const delegations = {};
  const delegate = async (zone, ds) => {
    delegations[zone] = { ns: [{ name: `ns1.${zone}`, address: TIER_ADDRESS }], ds };
    await chain.setDelegations(delegations);
  };

  // What the parent showed: each DS set, from when the domain's DS became it until it changed.
  // com. shows it too (the registry publishes what the domain holds): written again at each change.
  const parent = [];
  let clock = Date.now(); // the run's clock: real time until the first `as_of`, then the steps' times
  const observeParent = async () => {
    const domain = await must("GET", `/v1/domains/${ZONE}`, undefined, 200);
    const set = domain.ds.map(dsText).sort();
    const last = parent.at(-1);
    if (!last || JSON.stringify(last.set) !== JSON.stringify(set)) {
      const at = Date.parse(domain.updated_at);
      if (last) last.until = at;
      parent.push({ set, from: at, until: null });
      await delegate(ZONE, set);
    }
  };
  const delegated = await check(
    `com. delegates ${ZONE} to ${TIER_ADDRESS} with the domain's DS (GET /v1/domains/${ZONE}), and the secondary answers there`,
    async () => {
      await observeParent();
      const soa = await runCommand("dig", [`@${TIER_ADDRESS}`, "+norec", "+time=3", "+tries=2", ZONE, "SOA"], { timeoutMs: 20_000 });
      assert(/status: NOERROR/.test(soa.output) && /flags:[^;]* aa\b/.test(soa.output), `the secondary at ${TIER_ADDRESS}:53: ${soa.output.slice(0, 600)}`);
    },
  );
  if (!delegated) return;

  /**
   * Through the real chain, the resolver's cache emptied first: `delv` with the root's KSK
   * as its only anchor, and the resolver's own answer (AD: it validated). `secure`: the
   * parent shows a DS (www and the NXDOMAIN fully validated); else a proof of insecurity
   * (an unsigned answer, no failure).
   */
  const throughChain = async (zone, address, secure) => {
    await chain.flush();
    const www = await chain.delv(`www.${zone}.`, "A");
    const wwwLine = new RegExp(`\\sA\\s+${address.replaceAll(".", "\\.")}$`, "m");
    const show = (text) => text.trim().split("\n").slice(0, 6).join(" | ");
    if (secure) assert(/^; fully validated$/m.test(www.output) && wwwLine.test(www.output), `delv www.${zone}: ${show(www.output)}`);
    else assert(/^; unsigned answer$/m.test(www.output) && wwwLine.test(www.output), `delv www.${zone} (the parent shows no DS): ${show(www.output)}`);
    const none = await chain.delv(`nothing-here.${zone}.`, "A");
    if (secure) assert(/^; negative response, fully validated$/m.test(none.output), `delv nothing-here.${zone}: ${show(none.output)}`);
    else assert(/^; negative response, unsigned answer$/m.test(none.output), `delv nothing-here.${zone} (the parent shows no DS): ${show(none.output)}`);
    const asked = await chain.ask(`www.${zone}`, "A");
    assertEqual([asked.status, asked.ad], ["NOERROR", secure], `the resolver's answer for www.${zone} (status, AD)`);
    const missing = await chain.ask(`nothing-here.${zone}`, "A");
    assertEqual([missing.status, missing.ad], ["NXDOMAIN", secure], `the resolver's answer for nothing-here.${zone} (status, AD)`);
  };
  const CHAIN_RULE = "through the DNS chain (root → com. → the tier; the root's KSK the only anchor), the resolver flushed";

  const dig = (args) => runCommand("dig", ["@127.0.0.1", "-p", String(secondaryPort), "+norec", "+time=3", "+tries=2", ...args], { timeoutMs: 20_000 });
  let steps = 0;

  /**
   * What resolvers see after a step, at the run's clock `at`: the secondary at the API's
   * serial, its keys and signatures as the key states say, every DS set the parent showed
   * within its TTL a trust anchor `delv` validates with, and the transfer dnssec-verify takes.
   */
  const verifyStep = async (label, at) => {
    steps++;
    await observeParent();
    const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
    const zone = await must("GET", `/v1/zones/${ZONE}`, undefined, 200);
    const describe = state.keys.map((k) => `${k.role} ${k.algorithm}/${k.key_tag} ${k.state}`).join(", ");
    const passed = await check(`${label} [${describe}]: the secondary serves serial ${zone.soa.serial}`, async () => {
      let last = "";
      const took = await waitFor(
        async () => {
          last = (await dig(["+short", ZONE, "SOA"])).output.trim();
          return last.split(" ")[2] === String(zone.soa.serial);
        },
        { timeoutMs: SECONDARY_WITHIN_MS, stop: () => harness.aborting },
      );
      assert(took !== null, `the secondary answers SOA ${last}, the API's serial is ${zone.soa.serial}: ${lastLines(dns.output, 10)}`);
    });
    if (!passed) return false;

    const rolling = state.rollover?.kind === "algorithm";
    const signs = (k) =>
      k.state === "active" ||
      k.state === "pre-published" ||
      k.state === "post-active" ||
      // An algorithm roll's new keys sign from before they are published (RFC 6781 §4.1.4).
      (rolling && (k.state === "published" || k.state === "ready") && k.algorithm === state.policy.algorithm);
    const expectedDnskey = state.keys.filter((k) => PUBLISHED.has(k.state)).map((k) => k.key_tag);
    const expectedZoneSigners = state.keys.filter((k) => signs(k) && k.role !== "ksk").map((k) => k.key_tag);
    const expectedKeySigners = state.keys.filter((k) => signs(k) && k.role !== "zsk").map((k) => k.key_tag);
    const sorted = (list) => [...new Set(list)].sort((a, b) => a - b);

    await check(`${label}: the DNSKEY RRset holds the published keys, signed by the KSKs that sign; www's RRSIGs are the signing ZSKs'`, async () => {
      const keys = await dig(["+dnssec", "+noall", "+answer", ZONE, "DNSKEY"]);
      const rrs = records(keys.output);
      const served = rrs.filter((f) => f[3] === "DNSKEY").map((f) => keyTagOf(f.slice(4).join(" ")));
      assertEqual(sorted(served), sorted(expectedDnskey), "DNSKEY key tags served");
      const keySigners = rrs.filter((f) => f[3] === "RRSIG" && f[4] === "DNSKEY").map((f) => Number(f[10]));
      assertEqual(sorted(keySigners), sorted(expectedKeySigners), "key tags of the DNSKEY RRset's RRSIGs");
      const www = records((await dig(["+dnssec", "+noall", "+answer", `www.${ZONE}`, "A"])).output);
      const zoneSigners = www.filter((f) => f[3] === "RRSIG" && f[4] === "A").map((f) => Number(f[10]));
      assertEqual(sorted(zoneSigners), sorted(expectedZoneSigners), "key tags of www A's RRSIGs");
    });

    // The CDS set is the engine's (docs/dnssec.md): the keys whose DS the parent must show, not
    // PowerDNS's entry points (in an algorithm roll the new KSK is one from its publication).
    const wanted = state.keys.filter((k) => (k.ds_state === "submitted" || k.ds_state === "seen") && PUBLISHED.has(k.state));
    await check(
      `${label}: CDS and CDNSKEY are the DS set the parent must show {${wanted.map((k) => k.key_tag).join(", ")}}, signed by the keys that sign`,
      async () => {
        const cds = records((await dig(["+dnssec", "+noall", "+answer", ZONE, "CDS"])).output);
        const served = cds.filter((f) => f[3] === "CDS").map((f) => `${f[4]} ${f[5]} ${f[6]} ${f.slice(7).join("").toUpperCase()}`);
        assertEqual(served.sort(), wanted.map((k) => k.ds[0]).sort(), "CDS served");
        const cdsSigners = cds.filter((f) => f[3] === "RRSIG" && f[4] === "CDS").map((f) => Number(f[10]));
        // RFC 7344 §4.1: signed by a key of the DS set (the KSKs); PowerDNS 4.7 signs CDS and CDNSKEY with every signing key.
        assertEqual(sorted(cdsSigners), sorted([...expectedKeySigners, ...expectedZoneSigners]), "key tags of the CDS RRset's RRSIGs");
        const cdnskey = records((await dig(["+noall", "+answer", ZONE, "CDNSKEY"])).output);
        const keys = cdnskey.filter((f) => f[3] === "CDNSKEY").map((f) => keyTagOf(f.slice(4).join(" ")));
        assertEqual(sorted(keys), sorted(wanted.map((k) => k.key_tag)), "CDNSKEY key tags served");
      },
    );

    const cached = parent.filter((p) => p.until === null || at < p.until + DS_TTL_SECONDS * 1000);
    for (const [i, shown] of cached.entries()) {
      const anchors = join(work, `anchors-${steps}-${i}.conf`);
      const lines = shown.set.map((ds) => {
        const [tag, algorithm, digestType, digest] = ds.split(" ");
        return `  "${ZONE}." static-ds ${tag} ${algorithm} ${digestType} "${digest}";`;
      });
      writeFileSync(anchors, `trust-anchors {\n${lines.join("\n")}\n};\n`);
      const age = shown.until === null ? "shown now" : `replaced ${Math.round((at - shown.until) / 1000)} s before`;
      await check(
        `${label}: delv fully validates www A and an NXDOMAIN with the parent's DS set {${shown.set.map((d) => d.split(" ").slice(0, 2).join("/")).join(", ")}} (${age})`,
        async () => {
          const delv = (name, type) =>
            runCommand("delv", ["@127.0.0.1", "-p", String(secondaryPort), `+root=${ZONE}`, "-a", anchors, "+tcp", "+nocomments", name, type], {
              timeoutMs: 30_000,
            });
          const www = (await delv(`www.${ZONE}.`, "A")).output;
          assert(/^; fully validated$/m.test(www) && /\sA\s+192\.0\.2\.10$/m.test(www), `www: ${www.trim().split("\n").slice(0, 6).join(" | ")}`);
          const none = (await delv(`nothing-here.${ZONE}.`, "A")).output;
          assert(
            /fully validated/.test(none) && /^;; resolution failed: ncache nxdomain$|^; negative response, fully validated$/m.test(none),
            `nothing-here: ${none.trim().split("\n").slice(0, 6).join(" | ")}`,
          );
        },
      );
    }

    await check(`${label}: ${CHAIN_RULE}, delv fully validates www A and an NXDOMAIN, and the resolver answers both with AD`, () =>
      throughChain(ZONE, "192.0.2.10", true),
    );

    await check(`${label}: the zone transferred from the secondary passes dnssec-verify`, async () => {
      const axfr = await dig(["+nocmd", "+nostats", "+nocomments", ZONE, "AXFR"]);
      const lines = axfr.output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith(";"));
      const soaAt = lines.map((line, i) => (line.split(/\s+/)[3] === "SOA" ? i : -1)).filter((i) => i >= 0);
      assert(soaAt.length === 2 && soaAt[0] === 0 && soaAt[1] === lines.length - 1, `not a whole transfer: ${axfr.output.slice(0, 600)}`);
      const file = join(work, `axfr-${steps}.zone`);
      writeFileSync(file, `${lines.slice(0, -1).join("\n")}\n`);
      const verify = await runCommand("dnssec-verify", ["-o", ZONE, file], { timeoutMs: 60_000 });
      assert(verify.code === 0 && /Zone fully signed/.test(verify.output), `dnssec-verify: ${verify.output.trim().split("\n").slice(-8).join(" | ")}`);
    });
    return true;
  };

  /** POST /v1/dnssec/run at `at` (ms); the run's report. */
  const runAt = async (at) => {
    clock = at;
    return must("POST", "/v1/dnssec/run", { as_of: new Date(at).toISOString() }, 200);
  };

  /** Runs each step of the roll under way at its time, verifying after each, until the keys are at rest. */
  const walk = async (name) => {
    for (let i = 0; i < MAX_STEPS; i++) {
      const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
      if (state.rollover === null) return true;
      if (state.next_step_at === null) {
        notOk(`${name}: the roll has a next step`, JSON.stringify(state));
        return false;
      }
      const at = Math.max(Date.parse(state.next_step_at), clock);
      const report = await runAt(at);
      const after = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
      const label = `${name} +${Math.round((at - rollStart) / 1000)} s`;
      if (report.failed > 0 || report.zones === 0) {
        notOk(`${label}: the run took the zone's step`, JSON.stringify(report));
        return false;
      }
      if (!(await verifyStep(`${label}${after.rollover === null ? " (done)" : ""}`, at))) return false;
    }
    notOk(`${name} ends within ${MAX_STEPS} steps`, "it did not");
    return false;
  };

  let rollStart = clock;
  const durations = [];
  if (!(await verifyStep("signed", clock))) return;

  // The ZSK roll, started now through the API.
  rollStart = Date.now();
  clock = rollStart;
  const zskStarted = await check("POST …/dnssec/rollover {kind: zsk} publishes a new ZSK", async () => {
    const state = await must("POST", `/v1/zones/${ZONE}/dnssec/rollover`, { kind: "zsk" }, 200);
    assert(state.rollover?.kind === "zsk", JSON.stringify(state.rollover));
    assert(
      state.keys.some((k) => k.role === "zsk" && k.state === "published"),
      JSON.stringify(state.keys),
    );
  });
  if (!zskStarted || !(await verifyStep("zsk +0 s", rollStart))) return;
  if (!(await walk("zsk"))) return;
  durations.push(["ZSK", clock - rollStart]);

  // The KSK roll: a lifetime of 2 days starts it a day after the KSK began to sign (Dreg + IpubP before its end).
  const kskPolicy = await check("PATCH …/dnssec {policy: {ksk_lifetime_days: 2}} schedules a KSK roll", async () => {
    await must("PATCH", `/v1/zones/${ZONE}/dnssec`, { policy: { ksk_lifetime_days: 2 } }, 200);
    await runAt(clock);
    const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
    assert(state.rollover === null && state.next_step_at !== null && Date.parse(state.next_step_at) > clock, JSON.stringify(state));
  });
  if (!kskPolicy) return;
  {
    const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
    rollStart = Date.parse(state.next_step_at);
    const report = await runAt(rollStart);
    const after = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
    const started = await check("the run at the KSK's scheduled roll publishes a new KSK, its DS beside the old one at the parent", async () => {
      assert(report.zones === 1 && report.failed === 0, JSON.stringify(report));
      assert(after.rollover?.kind === "ksk", JSON.stringify(after.rollover));
      assertEqual(
        after.keys
          .filter((k) => k.role === "ksk")
          .map((k) => [k.state, k.ds_state])
          .sort(),
        [
          ["active", "seen"],
          ["published", "seen"],
        ].sort(),
        "the KSKs",
      );
    });
    if (!started || !(await verifyStep("ksk +0 s", rollStart))) return;
  }
  if (!(await walk("ksk"))) return;
  durations.push(["KSK", clock - rollStart]);
  const kskWindow = [rollStart, clock];

  /**
   * An algorithm roll: the policy changes, the next run starts it (new KSK and ZSK
   * pre-published), it is walked to its end, and at rest a KSK and a ZSK of the new
   * algorithm remain, the domain's DS naming the KSK alone. False when a step failed.
   */
  const algorithmRoll = async ({ policy, algorithm, startCheck, label, duration, restCheck }) => {
    const started = await check(startCheck, async () => {
      await must("PATCH", `/v1/zones/${ZONE}/dnssec`, { policy }, 200);
      // A second after the last roll's last step, so that the two rolls' events are told apart by time.
      rollStart = clock + 1000;
      await runAt(rollStart);
      const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
      assert(state.rollover?.kind === "algorithm", JSON.stringify(state.rollover));
      assertEqual(
        state.keys
          .filter((k) => k.algorithm === algorithm)
          .map((k) => [k.role, k.state])
          .sort(),
        [
          ["ksk", "pre-published"],
          ["zsk", "pre-published"],
        ],
        "the new keys",
      );
    });
    if (!started || !(await verifyStep(`${label} +0 s`, rollStart))) return false;
    if (!(await walk(label))) return false;
    durations.push([duration, clock - rollStart]);
    await check(restCheck, async () => {
      const state = await must("GET", `/v1/zones/${ZONE}/dnssec`, undefined, 200);
      assertEqual(
        state.keys.map((k) => [k.role, k.algorithm, k.state]).sort(),
        [
          ["ksk", algorithm, "active"],
          ["zsk", algorithm, "active"],
        ],
        "the keys",
      );
      const domain = await must("GET", `/v1/domains/${ZONE}`, undefined, 200);
      assertEqual(domain.ds.map(dsText), [state.keys.find((k) => k.role === "ksk").ds[0]], "the domain's DS");
    });
    return true;
  };

  // The algorithm roll 8 → 13.
  const to13 = await algorithmRoll({
    policy: { algorithm: 13, ksk_lifetime_days: null },
    algorithm: 13,
    startCheck: "PATCH …/dnssec {policy: {algorithm: 13, ksk_lifetime_days: null}} and the next run starts an algorithm roll",
    label: "algorithm",
    duration: "algorithm 8 → 13",
    restCheck: "at rest: a KSK and a ZSK of algorithm 13, the domain's DS names the KSK alone",
  });
  if (!to13) return;

  // The algorithm roll 13 → 15: Ed25519 keys (RFC 8080) the Worker makes, which PowerDNS signs with.
  const to15 = await algorithmRoll({
    policy: { algorithm: 15 },
    algorithm: 15,
    startCheck: "PATCH …/dnssec {policy: {algorithm: 15}} and the next run starts an algorithm roll to Ed25519 (RFC 8080)",
    label: "ed25519",
    duration: "algorithm 13 → 15",
    restCheck: "at rest: a KSK and a ZSK of Ed25519 (15), the domain's DS names the KSK alone",
  });
  if (!to15) return;

  await check(
    "each step is an event: the KSK roll's are dnssec.key.published, dnssec.ds.submitted, dnssec.ds.seen, dnssec.key.ready, active, retired, removed, dnssec.ds.submitted, dnssec.ds.seen",
    async () => {
      const events = [];
      let cursor = null;
      for (let page = 0; page < 50; page++) {
        const list = await must("GET", `/v1/events?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, undefined, 200);
        events.push(...list.data);
        cursor = list.next_cursor;
        if (!cursor) break;
      }
      const [from, until] = kskWindow;
      const kskRoll = events
        .filter((e) => e.type.startsWith("dnssec.") && Date.parse(e.at) >= from && Date.parse(e.at) <= until)
        .map((e) => `${e.type}.${e.operation}`);
      assertEqual(
        kskRoll,
        [
          "dnssec.key.published",
          "dnssec.ds.submitted",
          "dnssec.ds.seen",
          "dnssec.key.ready",
          "dnssec.key.active",
          "dnssec.key.retired",
          "dnssec.key.removed",
          "dnssec.ds.submitted",
          "dnssec.ds.seen",
        ],
        "the KSK roll's events",
      );
      const names = new Set(events.filter((e) => e.type.startsWith("dnssec.")).map((e) => `${e.type}.${e.operation}`));
      assert(names.has("dnssec.key.published") && names.has("dnssec.key.removed"), [...names].join(", "));
    },
  );

  await externalParent({
    must,
    dig,
    runAt: async (at) => runAt(Math.max(at, clock)),
    clock: () => clock,
    delegate,
    chainStep: (label, secure) =>
      check(
        `${label}: ${CHAIN_RULE}, ${secure ? "delv fully validates" : "delv proves insecure (no DS at the parent)"} www.${CHILD} A and an NXDOMAIN, the resolver answers both ${secure ? "with" : "without"} AD`,
        () => throughChain(CHILD, "192.0.2.11", secure),
      ),
  });

  for (const [name, ms] of durations) console.log(`#   ${name} roll: ${(ms / 1000).toFixed(0)} s of zone time, ${(ms / 86_400_000).toFixed(3)} zone-days`);
  console.log(`#   ${steps} steps verified`);
}

// ---- a parent not managed here (docs/dnssec-rollovers.md "The parent", "Leaving DNSSEC") ----

/**
 * A zone whose parent is not managed here: the parent is another zone on the tier (signed
 * here too, delegated from com. with its DS), whose DS at the delegation this test writes as
 * a parent that reads CDS would (RFC 7344), and the DNSSEC run asks the parent's name servers
 * itself, down from the chain's root (DNSSEC_ROOT_SERVERS). The roll waits until the parent
 * shows what the CDS asks for, and leaving DNSSEC publishes RFC 8078's delete and waits until
 * the parent's DS is gone. At every step the chain resolves the child: validated while the
 * parent shows a DS, proved insecure when it shows none.
 */
async function externalParent({ must, dig, runAt, clock, delegate, chainStep }) {
  const serialServed = async (zone) => {
    const serial = String((await must("GET", `/v1/zones/${zone}`, undefined, 200)).soa.serial);
    const took = await waitFor(async () => (await dig(["+short", zone, "SOA"])).output.trim().split(" ")[2] === serial, { timeoutMs: SECONDARY_WITHIN_MS });
    assert(took !== null, `the secondary never served ${zone}'s serial ${serial}`);
  };
  const served = async (type) =>
    records((await dig(["+noall", "+answer", CHILD, type])).output)
      .filter((f) => f[3] === type)
      .map((f) => (type === "DNSKEY" || type === "CDNSKEY" ? f.slice(4, 7).join(" ") : `${f[4]} ${f[5]} ${f[6]} ${f.slice(7).join("").toUpperCase()}`))
      .sort();
  const state = () => must("GET", `/v1/zones/${CHILD}/dnssec`, undefined, 200);
  /** Whether the parent's DS set differs from what the child's CDS asks for (the delete: none). */
  const parentBehind = async () => {
    await serialServed(CHILD);
    const cds = await served("CDS");
    const shown = records((await dig(["+noall", "+answer", CHILD, "DS"])).output)
      .filter((f) => f[3] === "DS")
      .map((f) => `${f[4]} ${f[5]} ${f[6]} ${f.slice(7).join("").toUpperCase()}`)
      .sort();
    return JSON.stringify(cds.includes("0 0 0 00") ? [] : cds) !== JSON.stringify(shown);
  };
  /** The parent reads the child's CDS and publishes it as the DS set at the delegation (RFC 7344 §4; the delete: none, RFC 8078). */
  const parentFollows = async () => {
    await serialServed(CHILD);
    const cds = await served("CDS");
    const wanted = cds.includes("0 0 0 00") ? [] : cds;
    const list = await must("GET", `/v1/records?zone=${PARENT}&name=child&type=DS&limit=50`, undefined, 200);
    for (const record of list.data) await must("DELETE", `/v1/records/${record.id}`, undefined, 204);
    for (const content of wanted) await must("POST", "/v1/records", { zone: PARENT, name: "child", type: "DS", content }, 201);
    await serialServed(PARENT);
    return wanted;
  };
  const nextRun = async () => {
    const now = await state();
    assert(now.next_step_at !== null, `no next step: ${JSON.stringify(now)}`);
    const report = await runAt(Date.parse(now.next_step_at));
    assert(report.failed === 0, JSON.stringify(report));
    return state();
  };
  /** The chain's check of the child as it is now (secure while the parent shows a DS); throws when it failed. */
  let chainSteps = 0;
  const resolves = async (label) => {
    await serialServed(CHILD);
    await serialServed(PARENT);
    const shown = records((await dig(["+noall", "+answer", CHILD, "DS"])).output).filter((f) => f[3] === "DS");
    chainSteps++;
    assert(await chainStep(`external ${chainSteps} (${label})`, shown.length > 0), `the chain's check of ${CHILD} failed (above)`);
  };

  const parentSigned = await check(`${PARENT} signed here, com. delegates it to ${TIER_ADDRESS} with its DS (GET /v1/zones/${PARENT}/dnssec)`, async () => {
    await must("POST", "/v1/zones", PARENT_FILE, 201, { "content-type": "text/dns" });
    const on = await must("POST", `/v1/zones/${PARENT}/dnssec`, undefined, 201);
    await delegate(
      PARENT,
      on.keys.filter((k) => k.role !== "zsk").map((k) => k.ds[0]),
    );
    await serialServed(PARENT);
  });
  if (!parentSigned) return;

  const signed = await check(
    `${CHILD} (its parent ${PARENT} another zone on the tier, not managed here) signed: the secondary serves its CDS, the run asks the parent's name servers from the root down and finds no DS: submitted still`,
    async () => {
      await must("POST", "/v1/zones", CHILD_FILE, 201, { "content-type": "text/dns" });
      const on = await must("POST", `/v1/zones/${CHILD}/dnssec`, undefined, 201);
      await serialServed(CHILD);
      assertEqual(await served("CDS"), [on.keys[0].ds[0]], "the CDS served");
      await resolves("signed, no DS at the parent");
      const after = await nextRun();
      assertEqual(after.keys[0].ds_state, "submitted", "the key's DS while the parent shows none");
      await resolves("the run found no DS");
    },
  );
  if (!signed) return;

  await check("the parent publishes the DS the CDS asks for: the next run asks and sees it (ds_state seen)", async () => {
    await parentFollows();
    await resolves("the parent shows the DS");
    const after = await nextRun();
    assertEqual(after.keys[0].ds_state, "seen", "the key's DS");
    await resolves("the run saw the DS");
  });

  await check(
    "a CSK roll waits for the parent: its new DS is seen only once the parent shows it, and it ends with the parent showing the new DS alone",
    async () => {
      const started = await must("POST", `/v1/zones/${CHILD}/dnssec/rollover`, { kind: "csk" }, 200);
      const incoming = started.keys.find((k) => k.state === "published");
      await serialServed(CHILD);
      assertEqual((await served("CDS")).length, 2, "CDS served during the roll (old and new)");
      await resolves("csk roll started");
      const waiting = await nextRun();
      assertEqual(waiting.keys.find((k) => k.id === incoming.id)?.ds_state, "submitted", "the new key's DS before the parent shows it");
      assertEqual(waiting.keys.find((k) => k.id === incoming.id)?.state, "published", "the new key waits");
      await resolves("csk roll waits for the parent");
      let now = waiting;
      for (let i = 0; i < 12 && now.rollover !== null; i++) {
        // A parent that reads CDS acts on what the zone serves, not on what the API lists.
        if (await parentBehind()) {
          await parentFollows();
          await resolves("csk roll, the parent followed the CDS");
        }
        now = await nextRun();
        await resolves(`csk roll, run ${i + 1}${now.rollover === null ? " (done)" : ""}`);
      }
      assertEqual(now.rollover, null, "the roll ended");
      assertEqual(
        now.keys.map((k) => [k.id, k.state, k.ds_state]),
        [[incoming.id, "active", "seen"]],
        "the keys",
      );
      const parentDs = records((await dig(["+noall", "+answer", CHILD, "DS"])).output).filter((f) => f[3] === "DS");
      assertEqual(
        parentDs.map((f) => Number(f[4])),
        [incoming.key_tag],
        "the parent's DS",
      );
    },
  );

  await check(
    "DELETE …/dnssec: 202, the secondary serves CDS 0 0 0 00 and CDNSKEY 0 3 0 AA==, the zone still signed while the parent shows the DS",
    async () => {
      const leaving = await must("DELETE", `/v1/zones/${CHILD}/dnssec`, undefined, 202);
      assertEqual(leaving.rollover?.kind, "unsign", "the process");
      await serialServed(CHILD);
      assertEqual(await served("CDS"), ["0 0 0 00"], "CDS served");
      assertEqual(await served("CDNSKEY"), ["0 3 0"], "CDNSKEY served (flags, protocol, algorithm)");
      const cdnskey = (await dig(["+noall", "+answer", CHILD, "CDNSKEY"])).output;
      assert(/\sCDNSKEY\s+0 3 0 AA==/.test(cdnskey), cdnskey);
      await resolves("the delete served");
      const still = await nextRun();
      assertEqual([still.enabled, still.rollover?.kind], [true, "unsign"], "signed, leaving, while the parent shows the DS");
      assertEqual((await served("DNSKEY")).length, 1, "DNSKEY served");
      await resolves("leaving, the parent shows the DS");
    },
  );

  await check("the parent removes the DS: the run sees it gone and, IpubP later, unsigns the zone (no DNSKEY, no CDS served)", async () => {
    assertEqual(await parentFollows(), [], "the parent's DS after the delete");
    await resolves("the parent removed the DS");
    const gone = await nextRun();
    assertEqual(gone.keys[0]?.ds_state, "absent", "the key's DS once the parent shows none");
    await resolves("the run saw the DS gone");
    const off = await nextRun();
    assertEqual([off.enabled, off.keys.length, off.rollover], [false, 0, null], "unsigned");
    await serialServed(CHILD);
    assertEqual(await served("DNSKEY"), [], "DNSKEY served");
    assertEqual(await served("CDS"), [], "CDS served");
    // IpubP: DprpP (an hour for a parent not managed here, src/db/zone-keys.ts) and TTLds (a day).
    assert(Date.parse(gone.next_step_at) - clock() <= (3_600 + 86_400) * 1000 + 60_000, "IpubP (an hour and a day) after the parent showed none");
    await resolves("unsigned");
  });
}

/** A domain's dsData as DS text ("tag alg type HEX"). */
function dsText(ds) {
  return `${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest.toUpperCase()}`;
}

/** dig's answer lines as fields. */
function records(text) {
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 5 && !f[0].startsWith(";"));
}

/** The key tag of a DNSKEY's presentation ("flags protocol algorithm base64…"), RFC 4034 appendix B. */
function keyTagOf(text) {
  const [flags, protocol, algorithm, ...rest] = text.split(/\s+/);
  const key = Buffer.from(rest.join(""), "base64");
  const rdata = Buffer.concat([Buffer.from([Number(flags) >> 8, Number(flags) & 0xff, Number(protocol), Number(algorithm)]), key]);
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i] : rdata[i] << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}
