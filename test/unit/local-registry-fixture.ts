// A local registry in the test's own process (scripts/local-registry/): its EPP server on a
// free loopback port with a certificate of its own, the service's catalog, and the
// registrars a test names. The tests of the registry, the gateway and the connector share it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certificate, readCatalog } from "../../scripts/local-registry/main";
import { type Registrar, Registry } from "../../scripts/local-registry/registry";
import { EppServer } from "../../scripts/local-registry/server";

export const SCHEMA = join(import.meta.dirname, "..", "..", "schemas", "epp", "all.xsd");
export const US: Registrar = { clientId: "domain-api", password: "local-pw-1" };
export const OTHER: Registrar = { clientId: "other-registrar", password: "local-pw-2" };

export interface LocalRegistry {
  registry: Registry;
  server: EppServer;
  port: number;
  /** The PEM a client trusts. */
  ca: string;
}

/** Starts one; `checkResponses` has it check its own answers against the schemas too. */
export async function startLocalRegistry({ registrars = [US, OTHER], checkResponses = false } = {}): Promise<LocalRegistry> {
  const tls = certificate(mkdtempSync(join(tmpdir(), "local-registry-test-")));
  const registry = new Registry(
    readCatalog(),
    registrars.map((r) => ({ ...r })),
  );
  const server = new EppServer(registry, { host: "127.0.0.1", port: 0, cert: tls.cert, key: tls.key, schema: SCHEMA, idleSeconds: 60, checkResponses });
  return { registry, server, port: await server.listen(), ca: tls.cert };
}
