// What the benchmark's parts share: their log line, the median they report, the load they
// note beside each run, and the two ways a part talks to what it started.
import { loadavg } from "node:os";

/** A log function whose lines say the part and the seconds since it began: `[bench dns  12s] …`. */
export function benchLog(part) {
  const started = Date.now();
  return (/** @type {string} */ message) => console.log(`[bench ${part} ${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s] ${message}`);
}

/** The median (the mean of the two middle values of an even count). */
export function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The machine's load averages (1, 5, 15 minutes), noted beside each run: a ratio means little without them. */
export const loads = () => loadavg().map((l) => Number(l.toFixed(2)));

/** A daemon that did not come up is the run's end. */
export function mustBeReady(daemon) {
  if (daemon.notReady) throw new Error(daemon.notReady);
  return daemon;
}

/** A JSON request to the service at `base` (a loopback deployment: no token); its parsed answer, or an error naming the status. */
export async function serviceApi(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
