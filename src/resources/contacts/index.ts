import { and, eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import { writeFailure } from "../../db/errors";
import { eventInsert, previousStatementChanged } from "../../db/events";
import { failUnless } from "../../db/guards";
import { newId } from "../../db/ids";
import { contactNotInAddressedRole } from "../../db/registry";
import { contacts } from "../../db/schema";
import { actorOf } from "../../http/actor";
import { checkIfMatch } from "../../http/etag";
import { notFound } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { ApiError } from "../../http/problem";
import { sendResource, sendWritten } from "../../http/respond";
import { createRouter } from "../../http/router";
import { nameList } from "../../http/text";
import { VersionConflict, withVersionRetry } from "../../http/writes";
import { missingAddressFields } from "../../registry/contacts";
import { domainsUsingContact, findContact, listContacts, type ContactRow, type ContactWithLinks } from "./queries";
import * as routes from "./routes";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import { rdapEntityResponse } from "../../rdap/views";
import { presentContact } from "./present";
import type { ContactPatch } from "./schemas";

export { presentContact };

type ContactFields = Omit<ContactRow, "id" | "version" | "createdAt" | "updatedAt">;

/** RFC 7396 merge of a contact patch onto the stored fields. */
function mergeContact(current: ContactRow, patch: ContactPatch): ContactFields {
  const address = patch.address === null ? { street: null, city: null, state: null, postal_code: null, country_code: null } : (patch.address ?? {});
  const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  const email = patch.email ?? current.email;
  return {
    name: patch.name ?? current.name,
    nameKey: (patch.name ?? current.name).toLowerCase(),
    organization: pick(patch.organization, current.organization),
    email,
    emailKey: email.toLowerCase(),
    phone: pick(patch.phone, current.phone),
    fax: pick(patch.fax, current.fax),
    street: address.street === undefined ? current.street : (address.street ?? []),
    city: pick(address.city, current.city),
    state: pick(address.state, current.state),
    postalCode: pick(address.postal_code, current.postalCode),
    countryCode: pick(address.country_code, current.countryCode),
    privacy: patch.privacy ?? current.privacy,
  };
}

function sameFields(a: ContactFields, b: ContactFields): boolean {
  return (Object.keys(a) as (keyof ContactFields)[]).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

async function requireContact(c: { get(key: "db"): Database }, id: string): Promise<ContactWithLinks> {
  const row = await findContact(c.get("db"), id);
  if (!row) throw notFound("contact", id);
  return row;
}

export const contactsRouter = createRouter()
  .openapi(routes.listContacts, async (c) => {
    const query = c.req.valid("query");
    const page = await pageRequest(c, query);
    const rows = await listContacts(c.get("db"), query, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentContact), 200);
  })
  .openapi(routes.listRepositoryContacts, async (c) => {
    const { repository } = c.req.valid("param");
    const query = c.req.valid("query");
    const db = c.get("db");
    if (!(await catalog(db)).repositories.has(repository)) throw notFound("repository", repository);
    const page = await pageRequest(c, query);
    const rows = await listContacts(db, { ...query, repository }, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentContact), 200);
  })
  .openapi(routes.getContact, async (c) => {
    const row = await requireContact(c, c.req.valid("param").contact);
    if (wantsRdap(c.req.header("accept"))) return sendRdap(c, rdapEntityResponse(presentContact(row), rdapContext(c)));
    return sendResource(c, presentContact(row), row.version);
  })
  .openapi(routes.createContact, async (c) => {
    const input = c.req.valid("json");
    const now = new Date();
    const timestamp = now.toISOString();
    const row: ContactRow = {
      id: newId("contact", now),
      name: input.name,
      nameKey: input.name.toLowerCase(),
      organization: input.organization ?? null,
      email: input.email,
      emailKey: input.email.toLowerCase(),
      phone: input.phone ?? null,
      fax: input.fax ?? null,
      street: input.address?.street ?? [],
      city: input.address?.city ?? null,
      state: input.address?.state ?? null,
      postalCode: input.address?.postal_code ?? null,
      countryCode: input.address?.country_code ?? null,
      privacy: input.privacy ?? false,
      version: 1,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    const created = presentContact({ ...row, linked: false });
    const db = c.get("db");
    await db.batch([
      db.insert(contacts).values(row),
      eventInsert(db, { at: timestamp, actor: actorOf(c), type: "contact", id: row.id, operation: "create", before: null, after: created }),
    ]);
    return sendWritten(c, created, row.version, 201, `/v1/contacts/${row.id}`);
  })
  .openapi(routes.updateContact, async (c) => {
    const { contact: id } = c.req.valid("param");
    const patch = c.req.valid("json");
    const db = c.get("db");
    const updated = await withVersionRetry(c, async () => {
      const current = await requireContact(c, id);
      checkIfMatch(c, current.version, presentContact(current));
      const fields = mergeContact(current, patch);
      if (sameFields(fields, current)) return current;
      const missing = missingAddressFields(fields);
      if (current.linked && missing.length > 0) {
        const users = await domainsUsingContact(db, id, { billing: false });
        if (users.names.length > 0) {
          throw new ApiError(
            "policy_violation",
            `Contact ${id} is a registrant, admin or tech contact of ${nameList(users.names, users.more)}, so it needs ${missing.join(" and ")}.`,
            { errors: missing.map((field) => ({ field, message: "is required while the contact is a registrant, admin or tech contact" })) },
          );
        }
      }
      const next = { ...current, ...fields, version: current.version + 1, updatedAt: new Date().toISOString() };
      await db.batch([
        db
          .update(contacts)
          .set({ ...fields, version: next.version, updatedAt: next.updatedAt })
          .where(eq(contacts.id, id)),
        eventInsert(
          db,
          { at: next.updatedAt, actor: actorOf(c), type: "contact", id, operation: "update", before: presentContact(current), after: presentContact(next) },
          { onlyIf: previousStatementChanged },
        ),
        // A domain may make this contact its registrant, admin or tech contact between the
        // check above and this batch: then the contact must keep its address after all.
        ...(missing.length > 0 ? [failUnless(db, { type: "contact", id }, contactNotInAddressedRole(id))] : []),
      ]);
      return next;
    });
    return sendWritten(c, presentContact(updated), updated.version, 200);
  })
  .openapi(routes.deleteContact, async (c) => {
    const { contact: id } = c.req.valid("param");
    const db = c.get("db");
    const linkedProblem = async () => {
      const users = await domainsUsingContact(db, id, { billing: true });
      return new ApiError("object_linked", `Contact ${id} is used by ${nameList(users.names, users.more)}; change those domains' contacts first.`);
    };
    await withVersionRetry(c, async () => {
      const current = await requireContact(c, id);
      checkIfMatch(c, current.version, presentContact(current));
      if (current.linked) throw await linkedProblem();
      try {
        const [result] = await db.batch([
          db.delete(contacts).where(and(eq(contacts.id, id), eq(contacts.version, current.version))),
          eventInsert(
            db,
            { at: new Date().toISOString(), actor: actorOf(c), type: "contact", id, operation: "delete", before: presentContact(current), after: null },
            { onlyIf: previousStatementChanged },
          ),
        ]);
        if (result.meta.changes === 0) throw new VersionConflict();
      } catch (error) {
        // A domain linked it between the check and the delete: the foreign key refused.
        if (writeFailure(error) === "foreign_key") throw await linkedProblem();
        throw error;
      }
    });
    return c.body(null, 204);
  });
