// PATCH /v1/tsig-keys/{key}: `allow`, `zones`, `records`, `expires_at` (JSON Merge Patch);
// the name, algorithm and secret never change (a new secret is a new key). Two round trips:
// the key, with the zones whose declared secondaries transfer with it and those the patch
// names (queries.ts), then one batch: the key and its event.
import type { RouteHandler } from "@hono/zod-openapi";
import { tsigKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { requireNotPulledFromSecondaries, requireZonesFound, tsigKeyCollection } from "./collection";
import { keyAccountZones, zonesUsingKey } from "./queries";
import type * as routes from "./routes";
import { versionStep } from "../../db/write";

export const updateTsigKey: RouteHandler<typeof routes.updateTsigKey, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  const keyId = c.req.valid("param").key;
  return updateResource(c, tsigKeyCollection, keyId, {
    reads: (db) => [zonesUsingKey(db, keyId), keyAccountZones(db, keyId, patch.zones ?? [])] as const,
    async update({ db, at }, current, [using, named]) {
      const fields = {
        allow: patch.allow ?? current.allow,
        zones: patch.zones ?? current.zones,
        records: patch.records === undefined ? current.records : patch.records,
        expiresAt: patch.expires_at === undefined ? current.expiresAt : patch.expires_at,
      };
      if (JSON.stringify(fields) === JSON.stringify({ allow: current.allow, zones: current.zones, records: current.records, expiresAt: current.expiresAt })) {
        return null;
      }
      if (patch.zones) requireZonesFound(named, fields.zones);
      requireNotPulledFromSecondaries(using, current, fields);
      const next = { ...current, ...fields, version: current.version + 1, updatedAt: at };
      return { next, write: versionStep(db, tsigKeys, current, next) };
    },
  });
};
