// DELETE /v1/tsig-keys/{key}: the key, its update zones and its event in one batch. The
// connector answers getTSIGKey from D1 on every call (no cache), so a deleted key signs
// nothing the primary accepts from the next message on (docs/dns-update.md). A key a
// declared secondary transfers with is 409 object_linked until the zone stops naming it.
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { tsigKeys, tsigUpdateZones } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { requireNotPulledFromSecondaries, tsigKeyCollection } from "./collection";
import type * as routes from "./routes";

export const deleteTsigKey: RouteHandler<typeof routes.deleteTsigKey, AppEnv> = (c) =>
  deleteResource(c, tsigKeyCollection, c.req.valid("param").key, {
    async remove({ db, allAccounts }, current) {
      await requireNotPulledFromSecondaries(allAccounts, current, null);
      return {
        beforeWrite: [db.delete(tsigUpdateZones).where(eq(tsigUpdateZones.keyId, current.id))],
        write: db.delete(tsigKeys).where(eq(tsigKeys.id, current.id)),
      };
    },
  });
