// POST /v1/hosts (RFC 5732 §3.2.1). A host whose name is under a domain managed here is
// subordinate to it and needs glue addresses; any other host is external and takes none.
import type { RouteHandler } from "@hono/zod-openapi";
import { newId } from "../../db/ids";
import { hosts } from "../../db/schema";
import { reversedName } from "../../dns/name";
import type { AppEnv } from "../../env";
import { newFindings, throwFindings, validName } from "../../http/findings";
import { createResource } from "../../http/mutate";
import { sponsorFor } from "../../http/caller";
import { glueAddresses, glueErrors, normalizeHostName, superordinateSponsorErrors } from "../../registry/hosts";
import { hostLockProblem } from "../../registry/host-lock";
import { ApiError } from "../../http/problem";
import { guard } from "../../db/guards";
import { noneLockedAgainstUpdate } from "../../db/domain-rules";
import { hostCollection, hostExists } from "./collection";
import type { HostWithLinks } from "../../db/hosts";
import { addressWrites, placeHost } from "./queries";
import type * as routes from "./routes";

export const createHost: RouteHandler<typeof routes.createHost, AppEnv> = (c) => {
  const input = c.req.valid("json");
  const findings = newFindings();
  const name = validName(normalizeHostName(input.name), input.name, "name", findings) ?? "";
  const { addresses, errors } = glueAddresses(input.addresses ?? []);
  findings.invalid.push(...errors);
  throwFindings(findings);

  return createResource(c, hostCollection, {
    async create({ db, allAccounts, now, at }) {
      const accountId = await sponsorFor(c, input.account);
      // Host names are one namespace, and a name falls under its domain whoever sponsors it.
      const { taken, superordinate } = await placeHost(allAccounts, name);
      throwFindings({
        invalid: [],
        policy: [
          ...superordinateSponsorErrors(name, superordinate, accountId),
          ...glueErrors(superordinate !== null, addresses.length, superordinate?.name ?? null),
        ],
      });
      // Another account's host of that name is not named by its id (docs/accounts.md).
      if (taken) throw hostExists(name, taken.accountId === accountId ? taken.id : undefined);
      // The registry lock of the domain it would be under (src/registry/host-lock.ts).
      const locked = hostLockProblem({
        operation: "create",
        name,
        nextName: name,
        addressesChanged: true,
        superordinate: null,
        nextSuperordinate: superordinate,
        users: [],
      });
      if (locked) throw new ApiError("status_prohibits", locked);

      const next: HostWithLinks = {
        id: newId("host", now),
        accountId,
        name,
        reversedName: reversedName(name),
        domainId: superordinate?.id ?? null,
        addresses,
        version: 1,
        createdAt: at,
        updatedAt: at,
        linked: false,
      };
      const { linked: _linked, ...row } = next;
      return {
        next,
        // A lock set on the superordinate domain after the read refuses the host at commit too.
        beforeWrite: superordinate ? [guard(db, "the superordinate domain is not locked against update", noneLockedAgainstUpdate([superordinate.id]))] : [],
        write: db.insert(hosts).values(row),
        alongside: addressWrites(db, next.id, addresses),
      };
    },
    failure: (kind) => (kind === "unique" ? hostExists(name) : undefined),
  });
};
