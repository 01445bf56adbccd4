import { applyD1Migrations, env } from "cloudflare:test";
import { TEST_TOKENS } from "./tokens";

// Runs before every test file: each file gets a fresh D1 with the schema and catalog,
// and the API tokens the tests authenticate with (stored hashed, as in production).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
for (const token of Object.values(TEST_TOKENS)) {
  await env.DB.prepare("INSERT OR IGNORE INTO api_tokens (id, name, scope, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(token.id, token.name, token.scope, token.secretHash, "2026-01-01T00:00:00.000Z", token.revoked ? "2026-01-02T00:00:00.000Z" : null)
    .run();
}
