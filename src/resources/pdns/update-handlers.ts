// The handlers of update-routes.ts: PowerDNS reads `{"result": false}` as "no" (a refused
// commit becomes SERVFAIL for the client), so a refusal is an answer, never an HTTP error.
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { zoneTooLarge } from "../../db/errors";
import type { AppEnv } from "../../env";
import { readBoundedBytes } from "../../http/body";
import { ApiError } from "../../http/problem";
import { parseQueryName } from "./names";
import { commitTransaction as commit, UpdateRefused } from "./update-commit";
import type * as routes from "./update-routes";
import { dropTransaction, formRecords, stage, startTransaction as start } from "./update-staging";
import { tsigKeyByName } from "./zone-access";
import { commitWrite, writeContextAt } from "../../db/write";
import { zoneTooLargeMessage } from "../zones/master-file";

/** The most a form body of replaceRRSet or feedRecord may hold (an RRset of a few hundred records). */
const MAX_FORM_BYTES = 256 * 1024;

function transactionId(value: string | undefined): number {
  if (value === undefined || !/^-?[0-9]{1,12}$/.test(value)) {
    throw new ApiError("validation_failed", "trxid is not a transaction id.", {
      errors: [{ field: "trxid", message: `"${String(value).slice(0, 20)}" is not a whole number` }],
    });
  }
  return Number(value);
}

async function form(c: Context<AppEnv>): Promise<string> {
  return new TextDecoder().decode(await readBoundedBytes(c.req.raw, MAX_FORM_BYTES));
}

export const getTSIGKey: RouteHandler<typeof routes.getTSIGKey, AppEnv> = async (c) => {
  const name = parseQueryName(c.req.valid("param").name);
  const key = name && name.labels.length > 0 ? await tsigKeyByName(c, name.key) : null;
  return c.json({ result: key ?? (false as const) }, 200);
};

export const startTransaction: RouteHandler<typeof routes.startTransaction, AppEnv> = async (c) => {
  const { domain, trxid } = c.req.valid("param");
  return c.json({ result: await start(c.get("db"), domain, transactionId(trxid)) }, 200);
};

export const replaceRRSet: RouteHandler<typeof routes.replaceRRSet, AppEnv> = async (c) => {
  const { qname, qtype } = c.req.valid("param");
  const trxid = transactionId(c.req.header("x-remotebackend-trxid"));
  const staged = formRecords(await form(c), "rrset").map((r) => ({ content: r.content, ttl: r.ttl }));
  return c.json({ result: await stage(c.get("db"), trxid, "replace", qname, qtype.toUpperCase(), staged) }, 200);
};

export const feedRecord: RouteHandler<typeof routes.feedRecord, AppEnv> = async (c) => {
  const trxid = transactionId(c.req.valid("param").trxid);
  const [record] = formRecords(await form(c), "rr");
  if (!record) return c.json({ result: false, log: ["feedRecord without a record"] }, 200);
  return c.json({ result: await stage(c.get("db"), trxid, "feed", record.qname, record.qtype, [{ content: record.content, ttl: record.ttl }]) }, 200);
};

export const commitTransaction: RouteHandler<typeof routes.commitTransaction, AppEnv> = async (c) => {
  const trxid = transactionId(c.req.valid("param").trxid);
  try {
    await commit(c.get("db"), trxid);
    return c.json({ result: true }, 200);
  } catch (error) {
    if (error instanceof UpdateRefused) return c.json({ result: false, log: [`DNS UPDATE refused: ${error.message}`] }, 200);
    // The zone size limit (drizzle/0028) refused the batch: a refusal like the others.
    if (zoneTooLarge(error)) {
      const db = c.get("db");
      await commitWrite(writeContextAt(db, new Date(), "pdns"), { alongside: dropTransaction(db, trxid) });
      return c.json({ result: false, log: [`DNS UPDATE refused: ${zoneTooLargeMessage()}`] }, 200);
    }
    throw error;
  }
};

export const abortTransaction: RouteHandler<typeof routes.abortTransaction, AppEnv> = async (c) => {
  const trxid = transactionId(c.req.valid("param").trxid);
  const db = c.get("db");
  await commitWrite(writeContextAt(db, new Date(), "pdns"), { alongside: dropTransaction(db, trxid) });
  return c.json({ result: true }, 200);
};
