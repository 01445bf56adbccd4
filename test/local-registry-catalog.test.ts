// The local registry's catalog (scripts/local-registry/catalog.json) is the service's own:
// the rows the migrations leave in D1, read with the same queries. When a migration adds
// an extension, a price or a name, this fails until `npm run registry -- --write-catalog`
// writes the file again, so the local registry never answers with yesterday's prices.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CATALOG_QUERIES, catalogFromRows, type RegistryCatalog } from "../scripts/local-registry/catalog";
import written from "../scripts/local-registry/catalog.json";

describe("the local registry's catalog", () => {
  it("is what the migrations put in D1 (npm run registry -- --write-catalog makes it again)", async () => {
    const rows = async (sql: string) => (await env.DB.prepare(sql).all()).results as Record<string, unknown>[];
    const fromMigrations = catalogFromRows({
      repositories: await rows(CATALOG_QUERIES.repositories),
      extensions: await rows(CATALOG_QUERIES.extensions),
      names: await rows(CATALOG_QUERIES.names),
    });
    expect(written as RegistryCatalog).toEqual(fromMigrations);
  });
});
