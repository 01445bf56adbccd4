// PATCH /v1/contacts/{contact}: JSON Merge Patch onto the contact. A registrant, admin or
// tech contact keeps the postal address its roles need (registry/contacts.ts), checked on
// what was read and again at commit, when a domain may have started using it. Every
// connected registry that holds the contact from us changes it first (<contact:update>).
import type { RouteHandler } from "@hono/zod-openapi";
import { guard } from "../../db/guards";
import { contactNotInAddressedRole } from "../../db/links";
import { contacts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { mergePatch } from "../../http/patch";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { addressRequiredErrors, missingAddressFields } from "../../registry/contacts";
import { type ContactFields, contactCollection, contactFields, writableContact } from "./collection";
import { domainsUsingContact } from "./queries";
import type * as routes from "./routes";
import { versionStep } from "../../db/write";
import { anyConnected, atEveryRegistry } from "../../connector/holders";
import { contactUpdateCommand } from "../../connector/commands";
import { clientTransactionId } from "../../connector/gateway";
import { registriesHolding, registryTransactionAfter } from "../../db/registry-objects";
import type { EppResponse } from "../../epp/types";

const sameFields = (a: ContactFields, b: ContactFields) =>
  (Object.keys(a) as (keyof ContactFields)[]).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));

export const updateContact: RouteHandler<typeof routes.updateContact, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  const sent = new Map<string, Promise<EppResponse>>();
  return updateResource(c, contactCollection, c.req.valid("param").contact, {
    async update({ db, at }, current) {
      const fields = contactFields(mergePatch(writableContact(current), patch));
      if (sameFields(fields, current)) return null;

      const missing = missingAddressFields(fields);
      if (current.linked && missing.length > 0) {
        const users = await domainsUsingContact(db, current.id, { billing: false });
        if (users.names.length > 0) {
          throw new ApiError(
            "policy_violation",
            `Contact ${current.id} is a registrant, admin or tech contact of ${nameList(users.names, users.more)}, so it needs ${missing.join(" and ")}.`,
            { errors: addressRequiredErrors(missing) },
          );
        }
      }
      const next = { ...current, ...fields, version: current.version + 1, updatedAt: at };
      const svTRIDs = await atEveryRegistry(
        c.env,
        clientTransactionId(c.get("requestId")),
        anyConnected(c.env) ? await registriesHolding(db, current.id) : [],
        (registryId) => contactUpdateCommand(current, next, registryId),
        (repository) => `Updating contact ${current.id} at the ${repository} registry`,
        sent,
      );
      return {
        next,
        write: versionStep(db, contacts, current, next),
        afterFromDatabase: registryTransactionAfter(svTRIDs),
        // A domain may make it a registrant, admin or tech contact before this batch runs.
        guards: missing.length > 0 ? [guard(db, "the contact is in no role that needs an address", contactNotInAddressedRole(current.id))] : [],
      };
    },
  });
};
