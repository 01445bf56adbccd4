// PATCH /v1/tsig-keys/{key}: `allow`, `zones`, `records`, `expires_at` (JSON Merge Patch);
// the name, algorithm and secret never change (a new secret is a new key). In one batch:
// the key and its event.
import type { RouteHandler } from "@hono/zod-openapi";
import { tsigKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { requireAccountZones, requireNotPulledFromSecondaries, tsigKeyCollection } from "./collection";
import type * as routes from "./routes";
import { versionStep } from "../../db/write";

export const updateTsigKey: RouteHandler<typeof routes.updateTsigKey, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  return updateResource(c, tsigKeyCollection, c.req.valid("param").key, {
    async update({ db, allAccounts, at }, current) {
      const fields = {
        allow: patch.allow ?? current.allow,
        zones: patch.zones ?? current.zones,
        records: patch.records === undefined ? current.records : patch.records,
        expiresAt: patch.expires_at === undefined ? current.expiresAt : patch.expires_at,
      };
      if (JSON.stringify(fields) === JSON.stringify({ allow: current.allow, zones: current.zones, records: current.records, expiresAt: current.expiresAt })) {
        return null;
      }
      if (patch.zones) await requireAccountZones(allAccounts, current.accountId, fields.zones);
      await requireNotPulledFromSecondaries(allAccounts, current, fields);
      const next = { ...current, ...fields, version: current.version + 1, updatedAt: at };
      return { next, write: versionStep(db, tsigKeys, current, next) };
    },
  });
};
