// PATCH /v1/zones/{zone}: `default_ttl`, the SOA fields and `secondaries` (JSON Merge Patch); the serial
// rises by itself, computed in SQL in the same batch (db/zones.ts touchZone).
import type { RouteHandler } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { findZone, touchZone } from "../../db/zones";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { mergeSoa, zoneCollection } from "./collection";
import { checkedSecondaries } from "./secondaries";
import type * as routes from "./routes";

export const updateZone: RouteHandler<typeof routes.updateZone, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  return updateResource(c, zoneCollection, c.req.valid("param").zone, {
    async update({ db, now, at }, current) {
      const secondaries = patch.secondaries === undefined ? current.secondaries : await checkedSecondaries(c, db, current, patch.secondaries);
      const soa = mergeSoa(
        {
          mname: current.soaMname,
          rname: current.soaRname,
          refresh: current.soaRefresh,
          retry: current.soaRetry,
          expire: current.soaExpire,
          minimum: current.soaMinimum,
        },
        patch.soa,
      );
      const fields = {
        defaultTtl: patch.default_ttl ?? current.defaultTtl,
        soaMname: soa.mname,
        soaRname: soa.rname,
        soaRefresh: soa.refresh,
        soaRetry: soa.retry,
        soaExpire: soa.expire,
        soaMinimum: soa.minimum,
      };
      const secondariesChanged = JSON.stringify(secondaries) !== JSON.stringify(current.secondaries);
      if (!secondariesChanged && (Object.keys(fields) as (keyof typeof fields)[]).every((k) => fields[k] === current[k])) return null;
      return {
        next: { ...current, ...fields, secondaries, version: current.version + 1, updatedAt: at },
        // The serial moves with the secondaries too: it is what makes the primary NOTIFY the new list.
        write: touchZone(db, current.id, now, { expectedVersion: current.version, fields: { ...fields, secondaries } }),
        afterFromDatabase: { "$.soa.serial": sql`select z.soa_serial from zones z where z.id = ${current.id}` },
        readBack: findZone(db, { kind: "id", id: current.id }),
      };
    },
  });
};
