// POST /v1/tsig-keys: a key for the caller's account (an operator's token may name
// another), its secret generated here and answered once. In one batch: the key and its
// event (the tsig_keys quota is the write routine's: docs/safety.md, "Quotas"). As a token's secret, the secret is never stored in the idempotency record: a
// replay answers without it.
import type { RouteHandler } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { newId } from "../../db/ids";
import { tsigKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import { sponsorFor } from "../../http/caller";
import { dnssecSecret } from "../../http/sealing-secret";
import { keyNameTaken, requireAccountZones, tsigKeyCollection } from "./collection";
import { presentTsigKey } from "./present";
import type { TsigKeyRow } from "./queries";
import type * as routes from "./routes";
import { newSealedSecret } from "../../crypto/tsig-secret";

const COLUMNS = getTableColumns(tsigKeys);

/** The row's values in the table's column order (what INSERT … SELECT takes). */
function storedValues(row: TsigKeyRow): SQL {
  return sql.join(
    (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).map((key) => sql`${row[key] === null ? null : COLUMNS[key].mapToDriverValue(row[key] as never)}`),
    sql`, `,
  );
}

export const createTsigKey: RouteHandler<typeof routes.createTsigKey, AppEnv> = async (c) => {
  const input = c.req.valid("json");
  const sealing = dnssecSecret(c);
  const accountId = await sponsorFor(c, input.account);
  const algorithm = input.algorithm ?? "hmac-sha256";
  const minted: { row?: TsigKeyRow; secret?: string } = {};
  await createResource(c, tsigKeyCollection, {
    async create({ db, allAccounts, now, at }) {
      await requireAccountZones(allAccounts, accountId, input.zones);
      const id = newId("tsigKey", now);
      const secret = await newSealedSecret(sealing, id, algorithm);
      const row: TsigKeyRow = {
        id,
        accountId,
        name: input.name,
        algorithm,
        secretSealed: secret.sealed,
        allow: input.allow,
        zones: input.zones,
        records: input.records ?? null,
        expiresAt: input.expires_at ?? null,
        version: 1,
        createdAt: at,
        updatedAt: at,
      };
      minted.row = row;
      minted.secret = secret.text;
      return {
        next: row,
        write: db.insert(tsigKeys).select(sql`select ${storedValues(row)}`),
      };
    },
    failure: (kind) => (kind === "unique" ? keyNameTaken(input.name) : undefined),
  });
  // The routine answered with the key and set its ETag and Location; the same again with the secret.
  return c.json({ ...presentTsigKey(minted.row!), secret: minted.secret! }, 201);
};
