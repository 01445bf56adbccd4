// A webhook receiver for the unit tests that run in Node (test/unit/webhook-send.test.ts):
// a real HTTP server on a loopback port that keeps every request it gets and answers each
// as the test says. Plain JavaScript beside its types (receiver.d.mts), as node:http has
// no types in this project (tsconfig's types are the Workers runtime's).
import { createServer } from "node:http";

/** Starts a receiver on 127.0.0.1 at a free port; `answer` says how to answer the n-th request (0-based). */
export async function startReceiver(answer = () => ({ status: 204 })) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method, path: req.url, headers: { ...req.headers }, body: Buffer.concat(chunks).toString("utf8") };
      const reply = answer(request, requests.length);
      requests.push(request);
      const send = () => res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? "");
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
