// DELETE /v1/contacts/{contact}: a contact any domain uses, in any role, is linked and
// stays (RFC 5733 §3.2.2, EPP 2305); the foreign keys hold that at commit time too. Every
// connected registry that holds the contact from us deletes it first (<contact:delete>).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { contacts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { contactCollection } from "./collection";
import { domainsUsingContact } from "./queries";
import { anyConnected, atEveryRegistry } from "../../connector/holders";
import { clientTransactionId } from "../../connector/gateway";
import { registriesHolding, registryObjectsDelete } from "../../db/registry-objects";
import type { EppResponse } from "../../epp/types";
import type * as routes from "./routes";

async function contactLinked(db: Database, id: string): Promise<ApiError> {
  const users = await domainsUsingContact(db, id, { billing: true });
  return new ApiError("object_linked", `Contact ${id} is used by ${nameList(users.names, users.more)}; change those domains' contacts first.`);
}

export const deleteContact: RouteHandler<typeof routes.deleteContact, AppEnv> = (c) => {
  const sent = new Map<string, Promise<EppResponse>>();
  return deleteResource(c, contactCollection, c.req.valid("param").contact, {
    async remove({ db }, current) {
      if (current.linked) throw await contactLinked(db, current.id);
      const holders = anyConnected(c.env) ? await registriesHolding(db, current.id) : [];
      await atEveryRegistry(
        c.env,
        clientTransactionId(c.get("requestId")),
        holders,
        (id) => ({ kind: "contact:delete", id }),
        (repository) => `Deleting contact ${current.id} at the ${repository} registry`,
        sent,
      );
      return {
        write: db.delete(contacts).where(and(eq(contacts.id, current.id), eq(contacts.version, current.version))),
        ...(holders.length > 0 ? { alongside: [registryObjectsDelete(db, current.id)] } : {}),
      };
    },
    failure: async (kind, current) => (kind === "foreign_key" ? contactLinked(c.get("db"), current.id) : undefined),
  });
};
