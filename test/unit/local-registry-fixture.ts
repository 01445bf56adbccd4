// A local registry in the test's own process (scripts/local-registry/): its EPP server on a
// free loopback port with a certificate of its own, the service's catalog, and the
// registrars a test names. The tests of the registry, the gateway and the connector share it.
// The registry checks every frame with libxml2 in its process; it also keeps every frame it
// received and sent, and each file ends with xmllintAgrees: the real xmllint, one run for
// the file's frames, gives each the verdict the registry gave (every frame sent in the
// tests is checked by xmllint).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { certificate, readCatalog } from "../../scripts/local-registry/main";
import { type Registrar, Registry } from "../../scripts/local-registry/registry";
import { EppServer, type XmllintReport } from "../../scripts/local-registry/server";

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
  const server = new EppServer(registry, {
    host: "127.0.0.1",
    port: 0,
    cert: tls.cert,
    key: tls.key,
    schema: SCHEMA,
    idleSeconds: 60,
    checkResponses,
    keepFrames: true,
  });
  return { registry, server, port: await server.listen(), ca: tls.cert };
}

/**
 * xmllint's verdict on every frame the registry kept (one `xmllint --schema` run): how many
 * frames, how many it received, and each frame whose verdict differs from the registry's
 * (none, for a file's last test to require).
 */
export function xmllintAgrees(server: EppServer): XmllintReport & { received: number } {
  const report = server.xmllintCheck();
  return { ...report, received: server.frames.filter((f) => f.direction === "received").length };
}
