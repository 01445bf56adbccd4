// POST /v1/contacts (RFC 5733 §3.2.1). Any contact may be created without an address; the
// address a registrant, admin or tech contact needs is checked when a domain uses it.
import type { RouteHandler } from "@hono/zod-openapi";
import { newId } from "../../db/ids";
import { contacts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import { sponsorFor } from "../../http/caller";
import { contactCollection, contactFields } from "./collection";
import type * as routes from "./routes";

export const createContact: RouteHandler<typeof routes.createContact, AppEnv> = (c) => {
  const { account, ...input } = c.req.valid("json");
  const fields = contactFields(input);
  return createResource(c, contactCollection, {
    async create({ db, now, at }) {
      const row = { id: newId("contact", now), accountId: await sponsorFor(c, account), ...fields, version: 1, createdAt: at, updatedAt: at };
      return { next: { ...row, linked: false }, write: db.insert(contacts).values(row) };
    },
  });
};
