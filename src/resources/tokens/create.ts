// POST /v1/tokens: mint a token for the caller's account (an operator's token may name
// another), with at most the caller's rights (attenuation, docs/accounts.md). The answer
// carries the bearer secret once; the database keeps only its SHA-256.
//
// With an Idempotency-Key, a retry gets the first answer again without `secret`: the
// write routine records the answer in the write's own batch as the collection presents
// the token (src/http/mutate.ts), so the secret is never stored, not even for a replay —
// shown once (docs/accounts.md). A client that lost the first answer revokes that
// token and mints another. (Keys are per calling token besides: another token's same key
// is a request of its own.)
import type { RouteHandler } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { sponsorChoiceRefusal } from "../../access/ownership";
import { dnsTokenMisfit } from "../../access/route-access";
import { newId } from "../../db/ids";
import { apiTokens } from "../../db/schema";
import type { AppEnv } from "../../env";
import { sha256Hex } from "../../crypto/sha256";
import { createResource } from "../../http/mutate";
import { ApiError, validationError } from "../../http/problem";
import { type TokenRights, widening } from "../../access/token-rights";
import { callerRights, tokenCollection, tokenNameTaken } from "./collection";
import { presentToken } from "./present";
import { accountRole, type TokenRow } from "./queries";
import type * as routes from "./routes";

/** 256 random bits, base64url: the secret part of `tok_<id>.<secret>`, as scripts/token.mjs makes it. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

const COLUMNS = getTableColumns(apiTokens);

/** The row's values as the database stores them, in the table's column order (what INSERT … SELECT takes). */
function storedValues({ version: _computed, ...row }: TokenRow): SQL {
  const values = row satisfies Record<keyof typeof COLUMNS, unknown>;
  return sql.join(
    (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).map((key) => sql`${values[key] === null ? null : COLUMNS[key].mapToDriverValue(values[key] as never)}`),
    sql`, `,
  );
}

export const createToken: RouteHandler<typeof routes.createToken, AppEnv> = async (c) => {
  const input = c.req.valid("json");
  const caller = callerRights(c);
  const parentId = c.get("principal").tokenId;

  if (sponsorChoiceRefusal(caller, input.account) !== null) {
    throw new ApiError("read_only_field", "Read-only fields cannot be written: account (a customer's token mints tokens for its own account only).", {
      errors: [{ field: "account", message: "is read-only: only an operator's token names the account of a new token" }],
    });
  }
  // Normalised by the body's schema (src/access/restrictions.ts).
  const restrictions = {
    zones: input.zones ?? null,
    domains: input.domains ?? null,
    records: input.records ?? null,
    allowedIps: input.allowed_ips ?? null,
    expiresAt: input.expires_at ?? null,
  };
  const accountId = input.account ?? caller.accountId;

  const minted: { row?: TokenRow; secret?: string } = {};
  await createResource(c, tokenCollection, {
    async create({ db, now, at }) {
      const [account] = await accountRole(db, accountId);
      if (!account) throw validationError([{ field: "account", message: `no account has the id "${accountId}"` }]);
      const child: TokenRights = { scope: input.scope, accountId, role: account.role, ...restrictions };
      const refusal = widening(caller, child);
      if (refusal) throw new ApiError("forbidden", `This token cannot mint that token: ${refusal}. A token mints only tokens with at most its own rights.`);
      const misfit = child.scope === "dns" ? dnsTokenMisfit(child) : null;
      if (misfit) throw validationError([{ field: "scope", message: `dns is the DNS backend's scope: ${misfit}` }]);

      const secret = newSecret();
      const row: TokenRow = {
        id: newId("token", now),
        accountId,
        parentId,
        name: input.name,
        scope: input.scope,
        secretHash: await sha256Hex(secret),
        ...restrictions,
        lastUsedAt: null,
        createdAt: at,
        revokedAt: null,
        version: 1,
      };
      minted.row = row;
      minted.secret = secret;
      return {
        next: row,
        // Written only while the account exists: if it was deleted since it was read, the
        // insert adds no row and the routine reads again (then 422 above).
        write: db.insert(apiTokens).select(sql`select ${storedValues(row)} where exists (select 1 from accounts where id = ${accountId})`),
      };
    },
    failure: (kind) => (kind === "unique" ? tokenNameTaken(input.name, accountId) : undefined),
  });
  // The routine answered with the token and set its ETag and Location; the same answer
  // again, with the secret, which no later read shows (and no event records).
  return c.json({ ...presentToken(minted.row!), secret: `${minted.row!.id}.${minted.secret!}` }, 201);
};
