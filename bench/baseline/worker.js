// The benchmark's ceiling: what workerd + D1 cost with no framework and no API work.
//   GET  /json            (a) a constant JSON document
//   GET  /domains/:id     (b) one domains row by primary key, one prepared statement
//   POST /contacts        (c) insert one contacts row
//   POST /records?zone=ZONE_ID&n=N
//                         (d) insert N records rows into a zone in one D1 batch
// No validation beyond what keeps the statements well-formed: it is a yardstick, not an API.
import { ulid } from "../../src/db/ulid.js";

const CONSTANT = JSON.stringify({ service: "baseline", version: "1", ok: true });
const json = (body, status = 200) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path === "/json") return json(CONSTANT);
    if (path.startsWith("/domains/") && request.method === "GET") {
      const row = await env.DB.prepare("SELECT * FROM domains WHERE id = ?").bind(path.slice("/domains/".length)).first();
      return row ? json(row) : json({ error: "not found" }, 404);
    }
    if (path === "/contacts" && request.method === "POST") {
      const now = new Date();
      const at = now.toISOString();
      const id = `con_${ulid(now.getTime())}`;
      const name = `Baseline ${id}`;
      await env.DB.prepare(
        "INSERT INTO contacts (id, name, name_key, email, email_key, street, city, country_code, privacy, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?)",
      )
        .bind(id, name, name.toLowerCase(), "baseline@example.org", "baseline@example.org", '["1 Bench Street"]', "London", "GB", at, at)
        .run();
      return json({ id }, 201);
    }
    if (path === "/records" && request.method === "POST") {
      const zone = url.searchParams.get("zone");
      const n = Math.max(1, Math.min(100_000, Number(url.searchParams.get("n") ?? "100")));
      const now = new Date();
      const at = now.toISOString();
      const statement = env.DB.prepare(
        // One-label names: the owner order (records.owner_order) is the name itself.
        "INSERT INTO records (id, zone_id, name, owner_order, type, content, ttl, version, created_at, updated_at) VALUES (?, ?, ?, ?, 'A', ?, 3600, 1, ?, ?)",
      );
      const prefix = ulid(now.getTime()).slice(10).toLowerCase();
      const batch = [];
      for (let i = 0; i < n; i++) {
        const name = `b${prefix}-${i}`;
        batch.push(statement.bind(`rec_${ulid(now.getTime())}`, zone, name, name, `192.0.2.${(i % 254) + 1}`, at, at));
      }
      await env.DB.batch(batch);
      return json({ inserted: n }, 201);
    }
    return json({ error: "not found" }, 404);
  },
};
