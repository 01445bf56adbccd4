// npm run registry: the local registry (docs/registries.md#the-local-registry), an EPP
// server on loopback TLS with the catalog's extensions, prices, premium and reserved names,
// two registrar logins, and a control interface for the tests.
//
//   npm run registry -- [--port 7700] [--control-port N] [--registrar ID:PASSWORD]…
//                       [--dir DIR] [--idle-seconds 600] [--check-responses] [--keep-frames]
//                       [--write-catalog]
//
// --keep-frames keeps every frame received and sent, for the control interface's
// POST /xmllint (the real xmllint's verdict on each, against the registry's).
//
// Prints one line when it listens: `local registry ready: epp 127.0.0.1:PORT control
// http://127.0.0.1:CPORT ca DIR/ca.pem`. Stops on SIGTERM or SIGINT.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CATALOG_QUERIES, catalogFromRows, type RegistryCatalog } from "./catalog";
import { startControl } from "./control";
import { Registry, type Registrar } from "./registry";
import { EppServer } from "./server";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCHEMA = join(ROOT, "schemas", "epp", "all.xsd");
export const CATALOG_FILE = join(ROOT, "scripts", "local-registry", "catalog.json");

export function readCatalog(file = CATALOG_FILE): RegistryCatalog {
  return JSON.parse(readFileSync(file, "utf8")) as RegistryCatalog;
}
/** The two registrars a fresh local registry admits: the service, and another registrar for transfers. */
export const DEFAULT_REGISTRARS: Registrar[] = [
  { clientId: "domain-api", password: "local-pw-1" },
  { clientId: "other-registrar", password: "local-pw-2" },
];

const USAGE =
  "usage: npm run registry -- [--port N] [--control-port N] [--registrar ID:PASSWORD]... [--dir DIR] [--idle-seconds N] [--check-responses] [--keep-frames] [--write-catalog]";

/** A self-signed certificate for 127.0.0.1 (a registry's own CA, as far as its clients know), made once in `dir`. */
export function certificate(dir: string): { cert: string; key: string; ca: string } {
  const ca = join(dir, "ca.pem");
  const key = join(dir, "key.pem");
  if (!existsSync(ca) || !existsSync(key)) {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        "30",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        ca,
      ],
      { stdio: "ignore" },
    );
  }
  return { cert: readFileSync(ca, "utf8"), key: readFileSync(key, "utf8"), ca };
}

/** catalog.json made afresh from the migrations (Miniflare's D1), as the tests compare it. */
async function writeCatalog(): Promise<void> {
  const { readD1Migrations } = await import("@cloudflare/vitest-pool-workers");
  const { Miniflare } = await import("miniflare");
  const migrations = await readD1Migrations(join(ROOT, "drizzle"));
  const mf = new Miniflare({ modules: true, script: "export default {}", d1Databases: { DB: "catalog" } });
  try {
    const db = await mf.getD1Database("DB");
    for (const migration of migrations) await db.batch(migration.queries.map((query: string) => db.prepare(query)));
    const rows = async (sql: string) => (await db.prepare(sql).all()).results as Record<string, unknown>[];
    const catalog = catalogFromRows({
      repositories: await rows(CATALOG_QUERIES.repositories),
      extensions: await rows(CATALOG_QUERIES.extensions),
      names: await rows(CATALOG_QUERIES.names),
    });
    writeFileSync(CATALOG_FILE, `${JSON.stringify(catalog, null, 2)}\n`);
    console.log(`wrote ${CATALOG_FILE}: ${catalog.extensions.length} extensions, ${catalog.names.length} names`);
  } finally {
    await mf.dispose();
  }
}

export async function main(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string", default: "7700" },
        "control-port": { type: "string" },
        registrar: { type: "string", multiple: true },
        dir: { type: "string" },
        "idle-seconds": { type: "string", default: "600" },
        "check-responses": { type: "boolean", default: false },
        "keep-frames": { type: "boolean", default: false },
        "write-catalog": { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values["write-catalog"]) return writeCatalog();
  const port = Number(values.port);
  const controlPort = values["control-port"] === undefined ? (port === 0 ? 0 : port + 1) : Number(values["control-port"]);
  const idleSeconds = Number(values["idle-seconds"]);
  if (![port, controlPort, idleSeconds].every((n) => Number.isInteger(n) && n >= 0 && n <= 65535)) {
    console.error(`--port, --control-port and --idle-seconds are whole numbers\n${USAGE}`);
    process.exit(2);
  }
  const registrars = ((values.registrar as string[] | undefined) ?? []).map((text) => {
    const [clientId, password] = text.split(/:(.*)/s) as [string, string | undefined];
    // RFC 5730's clIDType (3–16 characters) and pwType (6–16).
    if (!password || clientId.length < 3 || clientId.length > 16 || password.length < 6 || password.length > 16) {
      console.error(`--registrar takes ID:PASSWORD, an id of 3–16 characters and a password of 6–16, not ${JSON.stringify(text)}`);
      process.exit(2);
    }
    return { clientId, password };
  });
  const dir = values.dir ? resolve(String(values.dir)) : mkdtempSync(join(tmpdir(), "domain-api-registry-"));
  mkdirSync(dir, { recursive: true });
  const tls = certificate(dir);
  const registry = new Registry(readCatalog(), registrars.length > 0 ? registrars : DEFAULT_REGISTRARS.map((r) => ({ ...r })));
  const server = new EppServer(registry, {
    host: "127.0.0.1",
    port,
    cert: tls.cert,
    key: tls.key,
    schema: SCHEMA,
    idleSeconds,
    checkResponses: Boolean(values["check-responses"]),
    keepFrames: Boolean(values["keep-frames"]),
    log: (line) => console.error(`[registry] ${line}`),
  });
  const eppPort = await server.listen();
  const control = await startControl(server, "127.0.0.1", controlPort);
  console.log(`local registry ready: epp 127.0.0.1:${eppPort} control http://127.0.0.1:${control} ca ${tls.ca}`);
  const stop = async () => {
    server.control?.close();
    await server.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
