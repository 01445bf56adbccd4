// DELETE /v1/tokens/{token}: revoke it, and every token minted from it, transitively, in
// one batch. Revoked tokens stop working within TOKEN_CACHE_MS on every isolate (an
// isolate trusts a token it checked for that long, src/http/token-cache.ts). A revoked token
// stays readable (`revoked_at` set); its event is a `delete`, as is each descendant's.
//
// Besides itself, a token revokes only tokens whose rights lie within its own (the
// attenuation rule, read the other way): a restricted token may not switch off a wider one.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { eventInsert, previousStatementChanged } from "../../db/events";
import { apiTokens } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { widening } from "../../access/token-rights";
import { callerRights, rightsOf, tokenCollection } from "./collection";
import { presentToken } from "./present";
import { activeDescendants, revokeDescendants, type TokenRow } from "./queries";
import type * as routes from "./routes";

/** The token was revoked already: nothing to write, and the answer is the same 204. */
class AlreadyRevoked extends Error {}

export const deleteToken: RouteHandler<typeof routes.deleteToken, AppEnv> = async (c) => {
  const segment = c.req.valid("param").token;
  const caller = callerRights(c);
  const self = c.get("principal").tokenId;
  try {
    return await deleteResource(c, tokenCollection, segment, {
      reads: (db) => [activeDescendants(db, segment)],
      async remove({ db, at, actor }, current, [descendants]) {
        if (current.revokedAt !== null) throw new AlreadyRevoked();
        const refusal = current.id === self ? null : widening(caller, rightsOf(current));
        if (refusal)
          throw new ApiError(
            "forbidden",
            `This token cannot revoke ${current.id}: ${refusal}. Besides itself, a token revokes only tokens within its own rights.`,
          );
        const revokeEach = (descendants as TokenRow[]).flatMap((token) => [
          db
            .update(apiTokens)
            .set({ revokedAt: at })
            .where(and(eq(apiTokens.id, token.id), isNull(apiTokens.revokedAt))),
          eventInsert(
            db,
            { at, actor, account: token.accountId, type: "token", id: token.id, operation: "delete", before: presentToken(token), after: null },
            { onlyIf: previousStatementChanged },
          ),
        ]);
        return {
          write: db
            .update(apiTokens)
            .set({ revokedAt: at })
            .where(and(eq(apiTokens.id, current.id), isNull(apiTokens.revokedAt))),
          // Then each descendant read with the token, with its event; then any minted since
          // that read (a parent's cached rights still mint for a few seconds): revocation
          // must be complete even where the trail is one event short.
          alongside: [...revokeEach, revokeDescendants(db, current.id, at)],
        };
      },
    });
  } catch (error) {
    if (error instanceof AlreadyRevoked) return c.body(null, 204);
    throw error;
  }
};
