import { applyD1Migrations, env } from "cloudflare:test";

// Runs before every test file: each file gets a fresh D1 with the schema and catalog.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
