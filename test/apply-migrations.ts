import { applyD1Migrations, env } from "cloudflare:test";
import { insertTestTokens } from "./tokens";

// Runs before every test file: each file gets a fresh D1 with the schema and catalog,
// and the API tokens the tests authenticate with (stored hashed, as in production).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await insertTestTokens(env.DB);
