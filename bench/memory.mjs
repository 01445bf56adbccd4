// The memory phase of `npm run bench`: what one master-file import, export or zone delete
// costs the workerd process that runs the service, per record.
//
// A Worker isolate may use 128 MB. Locally the Worker, the D1 simulator (SQLite) and
// workerd itself share one process, so its resident set is an upper bound of what the
// isolate needs: every figure here counts the simulator's share against the Worker.
//
// The isolate's own share is read from V8 through the inspector that `wrangler dev` opens
// (`Runtime.getHeapUsage`): how much the committed heap grew over the request. V8 grows
// its heap only to hold live objects plus headroom and does not give it back at once, so
// the growth read after the request bounds the heap the request needed (with garbage V8
// had no reason to collect yet: under a 128 MB limit it collects sooner).
//
// Each measurement runs on a freshly started service (so the V8 heap holds nothing
// from an earlier, larger request that a smaller one could reuse unseen): warm-up requests,
// then the peak resident set (VmHWM, reset with `echo 5 > /proc/PID/clear_refs`, Linux
// ≥ 4.0) is read around the one request measured; CPU is utime + stime of the process
// (/proc/PID/stat), D1's SQLite work included. Right after every import a GET /v1/zones
// is timed: the next request must be answered at once.
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { processTable } from "../scripts/lib/daemons.mjs";
import { masterFileOf } from "../scripts/lib/master-files.mjs";

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on

/** The workerd process of the process group led by `leader` (null while there is none). */
export function workerdOf(leader) {
  let found = null;
  for (const proc of processTable()) {
    if (proc.pgrp === leader && proc.name.startsWith("workerd") && (!found || proc.started > found.started)) found = proc;
  }
  return found?.pid ?? null;
}

/** Resident set and its high-water mark, in bytes. */
export function residentSet(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kB("VmRSS"), peak: kB("VmHWM") };
}

/** Resets the high-water mark to the current resident set; false where the kernel refuses. */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** CPU time the process has used, user + system, in milliseconds. */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Samples the resident set every `everyMs` while `run` runs: the fallback peak where
 * clear_refs is refused, and a check of VmHWM where it is not.
 */
export async function whileSampling(pid, run, everyMs = 10) {
  let sampled = residentSet(pid).rss;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, residentSet(pid).rss);
    } catch {
      // the process ended; the request will say so
    }
  }, everyMs);
  try {
    const result = await run();
    return { result, sampledPeak: Math.max(sampled, residentSet(pid).rss) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A Chrome DevTools Protocol session with the Worker's isolate through wrangler's
 * inspector proxy on `port`: a bare WebSocket client (RFC 6455, text frames) over
 * node:http, so the bench needs no WebSocket package. `call(method)` resolves to the result.
 */
export async function inspectorSession(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const url = new URL(targets[0].webSocketDebuggerUrl);
  const socket = await new Promise((resolve, reject) => {
    const upgrade = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        // wrangler's proxy admits local DevTools origins only.
        Origin: "http://localhost",
      },
    });
    upgrade.on("upgrade", (_response, upgraded, head) => {
      if (head.length > 0) upgraded.unshift(head);
      resolve(upgraded);
    });
    upgrade.on("response", (response) => reject(new Error(`inspector upgrade answered HTTP ${response.statusCode}`)));
    upgrade.on("error", reject);
    upgrade.end();
  });
  const pending = new Map();
  let nextId = 0;
  let buffer = Buffer.alloc(0);
  let fragments = [];
  socket.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      if (buffer.length < 2) return;
      const fin = (buffer[0] & 0x80) !== 0;
      const opcode = buffer[0] & 0x0f;
      let length = buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      const payload = buffer.subarray(offset, offset + length);
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x8) return socket.end();
      if (opcode !== 0x0 && opcode !== 0x1) continue; // pings and binary frames carry no CDP message
      fragments.push(payload);
      if (!fin) continue;
      const message = JSON.parse(Buffer.concat(fragments).toString("utf8"));
      fragments = [];
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  socket.on("error", () => {});
  // Client frames are masked (RFC 6455 §5.3).
  function send(text) {
    const payload = Buffer.from(text, "utf8");
    let header;
    if (payload.length < 126) header = Buffer.from([0x81, 0x80 | payload.length]);
    else if (payload.length < 65536) header = Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
    else {
      header = Buffer.alloc(10);
      header[0] = 0x81;
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    const mask = randomBytes(4);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
    socket.write(Buffer.concat([header, mask, masked]));
  }
  return {
    call(method, params = {}, timeoutMs = 60_000) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`inspector: no answer to ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, (message) => {
          clearTimeout(timer);
          if (message.error) reject(new Error(`inspector: ${method}: ${message.error.message}`));
          else resolve(message.result);
        });
        send(JSON.stringify({ id, method, params }));
      });
    },
    close() {
      socket.destroy();
    },
  };
}

/** Bytes a line of each shape takes, near enough to size files by bytes. */
export const BYTES_PER_LINE = { typical: 22, dense: 9, long: 516 };

/** Least-squares line through (x, y) points: { slope, intercept } (null with fewer than 2 x values). */
export function fitLine(points) {
  const xs = new Set(points.map((p) => p.x));
  if (xs.size < 2) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

const MB = 1024 * 1024;

/**
 * The phase. `env` gives what run.mjs owns: startService(state, port, name) → server
 * ({ child }), stopServer(server), freshState(label) → { state, token }, freePort(), log().
 * sizes: record counts; shapes: ["typical", "dense"]. Resolves to the figures.
 */
export async function memoryPhase(env, { sizes, shapes, maxBytes, lineBytes }) {
  const { log } = env;
  const points = [];
  for (const shape of shapes) {
    for (const records of sizes(shape)) {
      const origin = `mem-${shape}-${records}.bench`;
      const text = masterFileOf(shape, origin, records, lineBytes);
      const bytes = Buffer.byteLength(text);
      if (maxBytes && bytes > maxBytes) {
        log(`memory: ${shape} ${records} records is ${(bytes / MB).toFixed(2)} MiB, over the ${maxBytes / MB} MiB limit: skipped`);
        continue;
      }
      const { state, token } = env.freshState(`memory ${shape} ${records}`);
      const auth = { authorization: `Bearer ${token}` };
      const point = { shape, records, bytes };
      for (const op of ["import", "export", "delete"]) {
        const port = await env.freePort();
        const inspectorPort = await env.freePort();
        const server = await env.startService(state, port, `memory-${op}`, ["--inspector-port", String(inspectorPort)]);
        let inspector = null;
        try {
          const base = `http://127.0.0.1:${port}`;
          const pid = workerdOf(server.child.pid);
          if (!pid) throw new Error("no workerd process found in the service's process group");
          await warmUp(base, auth);
          inspector = await inspectorSession(inspectorPort).catch((error) => {
            log(`memory: no inspector (${error.message}); isolate heap figures left out`);
            return null;
          });
          await new Promise((r) => setTimeout(r, 300));
          const heapBefore = inspector ? await inspector.call("Runtime.getHeapUsage") : null;
          const idle = residentSet(pid).rss;
          const reset = resetPeak(pid);
          const cpu0 = cpuMs(pid);
          const t0 = performance.now();
          const { result: response, sampledPeak } = await whileSampling(pid, () => request(op, base, auth, origin, text));
          const wallMs = performance.now() - t0;
          const cpu = cpuMs(pid) - cpu0;
          const { peak } = residentSet(pid);
          const expected = op === "import" ? 201 : op === "export" ? 200 : 204;
          if (response.status !== expected) throw new Error(`${op} of ${origin}: ${response.status} ${response.text.slice(0, 300)}`);
          if (op === "export") {
            const lines = response.text.split("\n").filter((l) => l && !l.startsWith("$")).length;
            if (lines !== records + 1) throw new Error(`export of ${origin} has ${lines} lines, want ${records + 1} (SOA + records)`);
          }
          const top = reset ? peak : sampledPeak;
          const heapAfter = inspector ? await inspector.call("Runtime.getHeapUsage") : null;
          point[op] = {
            peak_mb: round((top - idle) / MB, 1),
            idle_mb: round(idle / MB, 1),
            isolate_heap_mb: heapAfter ? round((heapAfter.totalSize - heapBefore.totalSize) / MB, 1) : null,
            cpu_ms: round(cpu, 0),
            wall_ms: round(wallMs, 0),
            peak_from: reset ? "VmHWM" : "sampled",
          };
          if (op === "import") {
            // Issue 15: the request after a big import must be answered at once.
            const t1 = performance.now();
            const next = await fetch(`${base}/v1/zones?limit=1`, { headers: auth, signal: AbortSignal.timeout(60_000) });
            await next.text();
            point.import.next_request_ms = round(performance.now() - t1, 0);
          }
          log(
            `memory: ${shape} ${records} records (${(bytes / MB).toFixed(2)} MiB) ${op}: +${point[op].peak_mb} MB over ${point[op].idle_mb} MB idle ` +
              `(isolate heap +${point[op].isolate_heap_mb} MB), ` +
              `${point[op].cpu_ms} ms CPU, ${point[op].wall_ms} ms${op === "import" ? `, next request ${point.import.next_request_ms} ms` : ""}`,
          );
        } finally {
          inspector?.close();
          await env.stopServer(server);
        }
      }
      points.push(point);
    }
  }
  return summarize(points);
}

async function warmUp(base, auth) {
  // Every code path of the measured requests once, on a small zone: JIT, catalog, token cache.
  const origin = `warm-${Date.now().toString(36)}.bench`;
  const text = masterFileOf("typical", origin, 50);
  for (const op of ["import", "export", "delete"]) {
    const response = await request(op, base, auth, origin, text);
    if (response.status >= 300) throw new Error(`warm-up ${op}: ${response.status} ${response.text.slice(0, 300)}`);
  }
}

async function request(op, base, auth, origin, text) {
  const init =
    op === "import"
      ? { method: "POST", headers: { ...auth, "content-type": "text/dns" }, body: text }
      : op === "export"
        ? { method: "GET", headers: { ...auth, accept: "text/dns" } }
        : { method: "DELETE", headers: auth };
  const response = await fetch(`${base}${op === "import" ? "/v1/zones" : `/v1/zones/${origin}`}`, { ...init, signal: AbortSignal.timeout(300_000) });
  return { status: response.status, text: await response.text() };
}

const round = (value, digits) => Number(value.toFixed(digits));

/** Per shape and operation: the line through (records, peak) and (records, CPU). */
function summarize(points) {
  const perRecord = {};
  for (const shape of new Set(points.map((p) => p.shape))) {
    perRecord[shape] = {};
    const own = points.filter((p) => p.shape === shape);
    for (const op of ["import", "export", "delete"]) {
      const memory = fitLine(own.map((p) => ({ x: p.records, y: p[op].peak_mb * MB })));
      const cpu = fitLine(own.map((p) => ({ x: p.records, y: p[op].cpu_ms })));
      const withHeap = own.filter((p) => p[op].isolate_heap_mb !== null);
      const heap = fitLine(withHeap.map((p) => ({ x: p.records, y: p[op].isolate_heap_mb * MB })));
      const largest = own.at(-1);
      perRecord[shape][op] = {
        // With one size only, the whole increment is charged to the records.
        bytes_per_record: Math.round(memory ? memory.slope : (largest[op].peak_mb * MB) / largest.records),
        fixed_mb: memory ? round(memory.intercept / MB, 1) : 0,
        isolate_heap_bytes_per_record: withHeap.length === 0 ? null : Math.round(heap ? heap.slope : (largest[op].isolate_heap_mb * MB) / largest.records),
        cpu_us_per_record: round(cpu ? cpu.slope * 1000 : (largest[op].cpu_ms * 1000) / largest.records, 1),
      };
    }
  }
  return { date: new Date().toISOString(), points, per_record: perRecord };
}

/** The table run.mjs prints. */
export function printMemory(figures) {
  const rows = [["shape", "records", "MiB", "op", "peak MB", "bytes/record", "isolate heap MB", "CPU ms", "µs/record", "wall ms", "next req ms"]];
  for (const p of figures.points) {
    for (const op of ["import", "export", "delete"]) {
      const f = p[op];
      rows.push([
        p.shape,
        String(p.records),
        (p.bytes / MB).toFixed(2),
        op,
        String(f.peak_mb),
        String(Math.round((f.peak_mb * MB) / p.records)),
        String(f.isolate_heap_mb ?? "-"),
        String(f.cpu_ms),
        ((f.cpu_ms * 1000) / p.records).toFixed(1),
        String(f.wall_ms),
        op === "import" ? String(f.next_request_ms) : "",
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log("\nmemory and CPU of the workerd process per request (peak over idle, local D1 included; isolate heap: the Worker's V8 heap growth):\n");
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, j) => (j < 1 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  }
  console.log("\nper record (slope of the line through the sizes):");
  for (const [shape, ops] of Object.entries(figures.per_record)) {
    for (const [op, f] of Object.entries(ops))
      console.log(
        `- ${shape} ${op}: ${f.bytes_per_record} bytes + ${f.fixed_mb} MB fixed (isolate heap ${f.isolate_heap_bytes_per_record ?? "-"} bytes), ${f.cpu_us_per_record} µs CPU`,
      );
  }
  console.log("");
}
