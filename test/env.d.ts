import type { D1Migration } from "@cloudflare/vitest-pool-workers";

// The tests' own binding (vitest.config.ts), beside those of wrangler.toml
// (worker-configuration.d.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      // The secrets vitest.config.ts binds, typed as src/env.ts types them.
      CURSOR_SECRET?: string;
      DNSSEC_KEY_SECRET?: string;
      WEBHOOK_SECRET_KEY?: string;
      PRINT_COST_TABLE: string;
    }
  }
}
