// DELETE /v1/tsig-keys/{key}: the key, read with the zones whose declared secondaries
// transfer with it (queries.ts), then the key and its event in one batch. The DNS backend reads
// keys from D1 for every signed message (no cache), so a deleted key signs nothing the
// service accepts from the next message on (docs/dns-update.md). A key a declared
// secondary transfers with is 409 object_linked until the zone stops naming it.
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { tsigKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { requireNotPulledFromSecondaries, tsigKeyCollection } from "./collection";
import { zonesUsingKey } from "./queries";
import type * as routes from "./routes";

export const deleteTsigKey: RouteHandler<typeof routes.deleteTsigKey, AppEnv> = (c) => {
  const keyId = c.req.valid("param").key;
  return deleteResource(c, tsigKeyCollection, keyId, {
    reads: (db) => [zonesUsingKey(db, keyId)] as const,
    async remove({ db }, current, [using]) {
      requireNotPulledFromSecondaries(using, current, null);
      return { write: db.delete(tsigKeys).where(eq(tsigKeys.id, current.id)) };
    },
  });
};
