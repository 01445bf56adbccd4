// The webhook phase's receiver (bench/webhooks.mjs), in a worker thread of its own: 204
// for everything, noting when each delivery arrived and which resource it concerns. Not
// in the bench's main thread, where autocannon drives the writes: ten webhooks make ten
// deliveries a write, and the receiver parsing them on the load generator's event loop
// slowed the writes it measured (a receiver is another machine in production).
// Arrivals go to the main thread in batches, every 50 ms. Its thread runs at the idle CPU
// priority (Linux SCHED_IDLE), as the webhook sender does in this phase: on the two cores
// the API's processes share with it, the receiver stands for the customer's machine, and
// at the normal priority its thousand POSTs a second took CPU from the writes measured.
import { execFileSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";

try {
  // /proc/thread-self names this thread: <pid>/task/<tid>.
  const thread = readlinkSync("/proc/thread-self").split("/").pop();
  execFileSync("chrt", ["--idle", "--pid", "0", thread], { stdio: "ignore" });
} catch {
  // not Linux, or no chrt: the normal priority
}

let batch = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const at = Date.now();
    let resource = null;
    try {
      resource = JSON.parse(Buffer.concat(chunks).toString("utf8")).resource ?? null;
    } catch {
      // not an event
    }
    batch.push({ hook: req.url, resource, at });
    res.writeHead(204).end();
  });
});
const flush = setInterval(() => {
  if (batch.length === 0) return;
  parentPort.postMessage({ arrivals: batch });
  batch = [];
}, 50);
parentPort.on("message", (message) => {
  if (message === "close") {
    clearInterval(flush);
    server.close(() => process.exit(0));
  }
});
server.listen(workerData.port, "127.0.0.1", () => parentPort.postMessage({ listening: true }));
