import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { kCurrentWorker } from "miniflare";
import { defineConfig } from "vitest/config";

// workerd reports the test runner's WebSocket closing, at the end of every test file's
// runtime, as an "exception" line on stderr: it is the normal end of a file, not a failure
// (@cloudflare/vitest-pool-workers hides the other lines of that shutdown, not this one).
const RUNTIME_SHUTDOWN = /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected\n?$/;
function hideRuntimeShutdownLines(stream: NodeJS.WriteStream) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => (RUNTIME_SHUTDOWN.test(String(chunk)) ? true : write(chunk, ...rest))) as typeof stream.write;
}
hideRuntimeShutdownLines(process.stdout);
hideRuntimeShutdownLines(process.stderr);

/**
 * The npm packages (and their subpaths: `hono/cors`) that the Worker's code and its tests
 * import, as written in src/ and test/. Vite bundles these into a few files once a run
 * (its dependency optimizer), instead of every runtime fetching and evaluating each of
 * their modules (hundreds of hono's, zod's and drizzle's) one by one: about 0.6 s of CPU
 * less for each test file. Read from the sources so that no import is left out: a subpath
 * left out would load its own copy of the package's modules beside the bundle's (two
 * HTTPException classes, say).
 */
function importedPackages(): string[] {
  const root = import.meta.dirname;
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const installed = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }));
  const found = new Set<string>();
  for (const dir of ["src", "test"]) {
    for (const file of readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts")) continue;
      for (const [, specifier] of readFileSync(path.join(root, dir, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^".][^"?]*)"/g)) {
        const name = specifier!.startsWith("@") ? specifier!.split("/").slice(0, 2).join("/") : specifier!.split("/")[0]!;
        if (installed.has(name) && !NOT_BUNDLED.has(name)) found.add(specifier!);
      }
    }
  }
  return [...found].sort();
}

/** Packages the optimizer leaves alone: vitest and the pool (the runner itself), and assets imported `?raw`. */
const NOT_BUNDLED = new Set(["vitest", "@cloudflare/vitest-pool-workers", "swagger-ui-dist"]);

/** Test files that need the rate limiters at their wrangler.toml figures. */
const OWN_LIMITS = ["test/account-rate-limit.test.ts"];

/** A project whose files run in the Workers runtime against a D1 of their own. */
function workersProject(
  name: string,
  migrations: Awaited<ReturnType<typeof readD1Migrations>>,
  limits: { testTimeout: number; hookTimeout: number },
  options: { include?: string[]; exclude?: string[]; realAccountLimits?: boolean },
  packages: string[],
) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        main: "./test/worker.ts",
        miniflare: {
          // The webhook sender (wrangler.toml's WEBHOOK_SENDER names its own Worker): its
          // entrypoint in this Worker, test/worker.ts.
          serviceBindings: { WEBHOOK_SENDER: { name: kCurrentWorker, entrypoint: "WebhookSender" } },
          // The tests' requests go to http://api.test, not a loopback host, so they need the
          // secret a deployed Worker needs (wrangler.toml: CURSOR_SECRET).
          bindings: {
            TEST_MIGRATIONS: migrations,
            CURSOR_SECRET: "test-cursor-secret-0123456789abcdef",
            DNSSEC_KEY_SECRET: "test-dnssec-key-secret-0123456789abcdef",
            WEBHOOK_SECRET_KEY: "test-webhook-secret-key-0123456789abcdef",
            // Customers' zones under `test` (RFC 6761 §6.2), which the suite's names use:
            // allowed only in a runtime no network reaches (src/http/test-zones.ts).
            TEST_ZONES_ALLOWED: "true",
            // test/cost.test.ts logs its table when npm run bench -- --cost asks for it.
            PRINT_COST_TABLE: process.env.PRINT_COST_TABLE ?? "",
          },
          // Tests reach no network: an outbound request (a webhook delivery, a name lookup)
          // fails at once instead of waiting for a timeout — the runtime answers it 500 with
          // this error's text, so a delivery records "HTTP 500: Error: no network in the
          // tests …". Deliveries to a live receiver are end to end (scripts/webhooks-e2e.mjs)
          // and in test/unit/webhook-send.test.ts (a receiver on loopback).
          outboundService: () => {
            throw new Error("no network in the tests");
          },
          // The suite sends thousands of requests with one token in a minute; the real
          // limit (wrangler.toml) is exercised end to end by scripts/e2e.mjs.
          ratelimits: {
            RATE_LIMITER: { simple: { limit: 1_000_000, period: 60 } },
            // Per account (wrangler.toml: shares of 10 a minute): unlimited for the suite, real
            // for test/account-rate-limit.test.ts, which runs in a project of its own.
            ...(options.realAccountLimits ? {} : { ACCOUNT_RATE_LIMITER: { simple: { limit: 1_000_000, period: 60 } } }),
            // Unverified token lookups per client address (wrangler.toml: 60 a minute):
            // test/request-bounds.test.ts reaches it from an address of its own; the other
            // tests send no CF-Connecting-IP, and a 429 among hostile input is fine.
            AUTH_RATE_LIMITER: { simple: { limit: 100, period: 60 } },
          },
        },
      }),
    ],
    test: {
      ...limits,
      // The app through the real Worker and a real D1: every file a runtime of its own.
      name,
      include: options.include ?? ["test/**/*.test.ts"],
      exclude: options.exclude ?? [],
      setupFiles: ["./test/apply-migrations.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: packages } } },
      // Vitest empties imported CSS unless told otherwise; /v1/docs serves Swagger UI's
      // stylesheet, imported with `?raw` (src/resources/meta/docs.ts), as it is.
      css: { include: [/swagger-ui\.css/] },
    },
  };
}

export default defineConfig(async () => {
  // Every test file gets its own D1, migrated with exactly the files `wrangler` applies.
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  const packages = importedPackages();
  // A test's time limit is a hang detector, not a speed check (speed is measured by
  // npm run bench): a loaded 2-core machine runs the suite's larger tests past 5 s, and
  // with the end-to-end suites beside vitest (npm test) and another run beside that, one
  // took 30 s.
  const limits = { testTimeout: 120_000, hookTimeout: 240_000 };
  return {
    test: {
      // Vitest's default is one worker fewer than the cores, one on a 2-core machine. A
      // workers-project file spends most of its time waiting (its workerd starting, its D1
      // migrating), so four at once take the suite from 216 s to 84 s on 2 cores; more
      // measured no faster.
      maxWorkers: 4,
      projects: [
        {
          // The pure knowledge (src/dns, src/registry, the token rules) imports nothing of
          // the app, the runtime or D1, so its tests run in Node: no runtime to start for
          // each of these files.
          // One module graph for the files of a worker thread (isolate: false): these files
          // keep no state in modules, and importing the modules afresh for every file took
          // 10 s of the project's 25 s of CPU.
          test: { ...limits, name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", isolate: false },
        },
        workersProject("workers", migrations, limits, { exclude: ["test/unit/**", ...OWN_LIMITS] }, packages),
        // The per-account limit at its real figures (wrangler.toml), in a runtime of its own.
        workersProject("workers-rate-limits", migrations, limits, { include: OWN_LIMITS, realAccountLimits: true }, packages),
      ],
    },
  };
});
