#!/usr/bin/env node
// `npm run bench -- --registry [--quick]`: registering a domain through a connected registry
// (docs/registries.md) against registering one where the service is the registry itself:
//
// - the local registry (`npm run registry -- --port 0 --keep-frames`: every frame it
//   receives checked against the EPP schemas by libxml2 in its process, as in production
//   and the tests, and all of them judged again by one xmllint run after the rounds, which
//   must agree) and a fresh service started with a connector for `verisign` (com), on free
//   ports, without wrangler's inspector;
// - one contact, and a warm-up registration on each side (the contact and the external
//   name-server hosts then exist at the registry, the sessions are logged in);
// - each round, N registrations of new .com names (through EPP: one `<domain:create>` on a
//   warm session) and N of new .org names (pir has no connector: builtin), one request at a
//   time, in pairs of one of each whose order alternates (so that both sides meet the same
//   moments of a shared machine's load).
//
// The figure judged is the median over the rounds of each round's p50 ratio, connected ÷
// builtin (target ≤ 1.5, issue 39), with its spread (the lowest and highest round): the
// registry's round trip, its schema check and the gateway's hop are what a connected
// registration adds. The registry's own part comes from its log (`GET /commands`: each
// `<domain:create>`'s schema check and its time from frame to answer, p50); the rest of
// the difference is the Worker's hop to the gateway and the gateway's EPP round trip.
// Results go to bench/results.json under "registry" (and its ratio to bench/history.json).
// Everything on 127.0.0.1; every process is stopped by its PID (process group), temp dirs
// removed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startDaemon, stopDaemon, stopDaemons } from "../scripts/lib/daemons.mjs";
import { freePort } from "../scripts/lib/harness.mjs";
import { writeResults } from "./results.mjs";
import { benchLog, loads, median, mustBeReady, serviceApi } from "./common.mjs";

const log = benchLog("registry");

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const TARGET = 1.5;
const READY = /local registry ready: epp 127\.0\.0\.1:(\d+) control (http:\/\/127\.0\.0\.1:\d+) ca (\S+)/;
const NAMESERVERS = ["ns1.bench.example.fr", "ns2.bench.example.fr"];

const round3 = (value) => Number(value.toFixed(3));

/** One registration, timed from the request to its 201. */
async function register(base, name, registrant) {
  const t0 = performance.now();
  await serviceApi(base, "POST", "/v1/domains", { name, registrant, nameservers: NAMESERVERS });
  return performance.now() - t0;
}

export async function registryBench({ quick = false } = {}) {
  const rounds = quick ? 3 : 7;
  const perRound = quick ? 20 : 40;
  const work = mkdtempSync(join(tmpdir(), "domain-api-bench-registry-"));
  const results = { mode: quick ? "quick" : "full", rounds, registrations_per_round: perRound, cpus: cpus().length, load_before: loads() };
  let exitCode = 0;
  try {
    const registry = mustBeReady(
      await startDaemon(process.execPath, [join(ROOT, "scripts", "registry.mjs"), "--port", "0", "--keep-frames", "--dir", join(work, "registry")], {
        name: "local registry",
        ready: READY,
        timeoutMs: 120_000,
      }),
    );
    const [, eppPort, control, caFile] = READY.exec(registry.output);
    const connectors = join(work, "registries.json");
    writeFileSync(
      connectors,
      JSON.stringify({
        verisign: { host: "127.0.0.1", port: Number(eppPort), client_id: "domain-api", password: "local-pw-1", ca: readFileSync(caFile, "utf8") },
      }),
      { mode: 0o600 },
    );
    const apiPort = await freePort();
    const base = `http://127.0.0.1:${apiPort}`;
    log(`the local registry on 127.0.0.1:${eppPort}; starting the service on ${base} with a connector for verisign`);
    const service = mustBeReady(
      await startDaemon(
        process.execPath,
        [join(ROOT, "scripts", "start.mjs"), "--port", String(apiPort), "--persist-to", join(work, "state"), "--no-inspector", "--registries", connectors],
        { name: "the service", ready: /Ready on http/, timeoutMs: 180_000, graceMs: 10_000 },
      ),
    );
    for (let i = 0; i < 600; i++) {
      const repository = await serviceApi(base, "GET", "/v1/repositories/verisign");
      if (repository.connector?.state === "up") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const contact = await serviceApi(base, "POST", "/v1/contacts", {
      name: "Bench Registrant",
      email: "bench@example.org",
      address: { street: ["1 Bench Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" },
    });
    // Warm-up: the contact and the hosts created at the registry, each side's isolate paths and caches.
    await register(base, "bench-warm-connected.com", contact.id);
    await register(base, "bench-warm-builtin.org", contact.id);

    const runs = [];
    for (let round = 0; round < rounds; round++) {
      const times = { connected: [], builtin: [] };
      // In pairs, one of each side, the pair's order alternating: both sides meet the same moments of a shared machine's load.
      for (let i = 0; i < perRound; i++)
        for (const side of (round + i) % 2 === 0 ? ["connected", "builtin"] : ["builtin", "connected"])
          times[side].push(await register(base, `bench-r${round}-${i}.${side === "connected" ? "com" : "org"}`, contact.id));
      const run = { connected_p50_ms: Number(median(times.connected).toFixed(1)), builtin_p50_ms: Number(median(times.builtin).toFixed(1)), load: loads() };
      run.ratio = round3(run.connected_p50_ms / run.builtin_p50_ms);
      runs.push(run);
      log(
        `round ${round + 1}/${rounds}: connected p50 ${run.connected_p50_ms} ms, builtin ${run.builtin_p50_ms} ms, ratio ${run.ratio}; load ${run.load.join(" ")}`,
      );
    }
    const ratio = median(runs.map((run) => run.ratio));
    // The registry's own part of each measured <domain:create> (its log), then xmllint's verdict on every frame.
    const creates = (await serviceApi(control, "GET", "/commands")).commands.filter((c) => c.kind === "domain:create" && /^bench-r/.test(c.object ?? ""));
    const registryPart = {
      commands: creates.length,
      schema_check_p50_ms: median(creates.map((c) => c.check_ms)),
      frame_to_answer_p50_ms: median(creates.map((c) => c.work_ms)),
    };
    const xmllint = await serviceApi(control, "POST", "/xmllint");
    if (xmllint.disagreements.length > 0)
      throw new Error(
        `xmllint judged ${xmllint.disagreements.length} frame(s) otherwise than the registry: ${JSON.stringify(xmllint.disagreements).slice(0, 800)}`,
      );
    log(`xmllint: the registry's verdict on all ${xmllint.checked} frames of the run`);
    Object.assign(results, {
      connected_p50_ms: median(runs.map((run) => run.connected_p50_ms)),
      builtin_p50_ms: median(runs.map((run) => run.builtin_p50_ms)),
      ratios: { register_connected_vs_builtin_p50: ratio },
      ratio_spread: [Math.min(...runs.map((run) => run.ratio)), Math.max(...runs.map((run) => run.ratio))],
      registry_part: registryPart,
      frames_checked_by_xmllint: xmllint.checked,
      target: `≤ ${TARGET}`,
      met: ratio <= TARGET,
      runs,
      load_after: loads(),
      date: new Date().toISOString(),
    });
    console.log(
      `\nregister through the connected registry: p50 ${results.connected_p50_ms} ms; builtin ${results.builtin_p50_ms} ms; ratio ${ratio} (median of ${rounds} rounds, ${results.ratio_spread.join("–")}; target ≤ ${TARGET}: ${results.met ? "met" : "NOT met"})`,
    );
    console.log(
      `the registry's own part of a <domain:create> (p50 of ${registryPart.commands}): schema check ${registryPart.schema_check_p50_ms} ms, frame to answer ${registryPart.frame_to_answer_p50_ms} ms`,
    );
    writeResults({ registry: results });
    log("wrote bench/results.json (registry)");
    await stopDaemon(service);
    await stopDaemon(registry);
  } catch (error) {
    console.error(`[bench registry] ${error.stack ?? error}`);
    exitCode = 1;
  } finally {
    await stopDaemons();
    rmSync(work, { recursive: true, force: true });
  }
  return exitCode;
}
