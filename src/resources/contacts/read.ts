// GET /v1/contacts, /v1/repositories/{repository}/contacts and /v1/contacts/{contact} (JSON or RDAP).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { requireRepository } from "../../http/lookup";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import { sendResource } from "../../http/respond";
import { rdapEntityResponse } from "../../rdap/views";
import { contactCollection } from "./collection";
import { presentContact } from "./present";
import { listContacts as contactsPage } from "./queries";
import type * as routes from "./routes";

export const listContacts: RouteHandler<typeof routes.listContacts, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const rows = await contactsPage(c.get("db"), query, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentContact), 200);
};

export const listRepositoryContacts: RouteHandler<typeof routes.listRepositoryContacts, AppEnv> = async (c) => {
  const { repository } = c.req.valid("param");
  const query = c.req.valid("query");
  const db = c.get("db");
  await requireRepository(db, repository);
  const page = await pageRequest(c, query);
  const rows = await contactsPage(db, { ...query, repository }, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentContact), 200);
};

export const getContact: RouteHandler<typeof routes.getContact, AppEnv> = async (c) => {
  const row = await findResource(c, contactCollection, c.req.valid("param").contact);
  if (wantsRdap(c.req.header("accept"))) return sendRdap(c, rdapEntityResponse(presentContact(row), rdapContext(c)));
  return sendResource(c, presentContact(row), row.version);
};
