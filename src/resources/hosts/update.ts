// PATCH /v1/hosts/{host}: rename or re-address. A rename is a new placement (RFC 5732
// §3.2.5): subordinate or external is decided again, and the glue rule with it. Every
// connected registry that holds the host from us changes it first (<host:update>).
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { hostAddresses, hosts } from "../../db/schema";
import { reversedName } from "../../dns/name";
import type { AppEnv } from "../../env";
import { newFindings, throwFindings, validName } from "../../http/findings";
import { updateResource } from "../../http/mutate";
import { LostRace } from "../../db/write";
import { registrableDomainOf } from "../../registry/extensions";
import { glueAddresses, glueErrors, normalizeHostName, superordinateSponsorErrors } from "../../registry/hosts";
import { hostCollection, hostExists } from "./collection";
import { domainsUsingNameserver } from "../domains/queries";
import { delegationWrites, usedByOtherAccounts } from "./delegation";
import { addressWrites, placeHost, superordinateOfHost } from "./queries";
import { hostLockProblem } from "../../registry/host-lock";
import { ApiError } from "../../http/problem";
import { resourceRef } from "../../http/lookup";
import { guard } from "../../db/guards";
import { noneLockedAgainstUpdate } from "../../db/domain-rules";
import type * as routes from "./routes";
import { versionStep } from "../../db/write";
import { anyConnected, atEveryRegistry } from "../../connector/holders";
import { hostUpdateCommand } from "../../connector/commands";
import { clientTransactionId } from "../../connector/gateway";
import { registriesHolding, registryObjectInsert, registryObjectsDelete, registryTransactionAfter } from "../../db/registry-objects";
import type { EppResponse } from "../../epp/types";

export const updateHost: RouteHandler<typeof routes.updateHost, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  const segment = c.req.valid("param").host;
  const sent = new Map<string, Promise<EppResponse>>();
  return updateResource(c, hostCollection, segment, {
    // The domain the host is under, whoever sponsors it: its registry lock holds the host.
    reads: (db) => [superordinateOfHost(c.get("dbAllAccounts") ?? db, resourceRef(segment, "host"))] as const,
    async update(ctx, current, [superordinateRows]) {
      const { db, allAccounts, at } = ctx;
      const findings = newFindings();
      const name = patch.name === undefined ? current.name : (validName(normalizeHostName(patch.name), patch.name, "name", findings) ?? current.name);
      let addresses = current.addresses;
      if (patch.addresses !== undefined) {
        const glue = glueAddresses(patch.addresses ?? []);
        findings.invalid.push(...glue.errors);
        addresses = glue.addresses;
      }
      throwFindings(findings);

      const superordinate = superordinateRows.find((domain) => domain.id === current.domainId) ?? null;
      let nextSuperordinate = superordinate;
      let domainId = current.domainId;
      let superordinateName: string | null = null;
      if (name !== current.name) {
        const placement = await placeHost(allAccounts, name);
        findings.policy.push(...superordinateSponsorErrors(name, placement.superordinate, current.accountId));
        if (placement.taken) throw hostExists(name, placement.taken.accountId === current.accountId ? placement.taken.id : undefined);
        nextSuperordinate = placement.superordinate;
        domainId = placement.superordinate?.id ?? null;
        superordinateName = placement.superordinate?.name ?? null;
      } else if (domainId) {
        superordinateName = registrableDomainOf(name, (await catalog(db)).extensions);
      }
      findings.policy.push(...glueErrors(domainId !== null, addresses.length, superordinateName));
      throwFindings(findings);

      const addressesChanged = JSON.stringify(addresses) !== JSON.stringify(current.addresses);
      if (name === current.name && !addressesChanged) return null;
      // The domains that name the host: their delegation changes with it (./delegation.ts).
      const users = current.linked ? await domainsUsingNameserver(allAccounts, current.id) : [];
      if (users.some((domain) => domain.accountId !== current.accountId)) throw usedByOtherAccounts(current.name);
      // The registry lock of the domains around the host: the one it is under, the one it
      // moves under, those that name it (src/registry/host-lock.ts); after the refusal
      // above, so that it never names another account's domain.
      const locked = hostLockProblem({ operation: "update", name: current.name, nextName: name, addressesChanged, superordinate, nextSuperordinate, users });
      if (locked) throw new ApiError("status_prohibits", locked);
      const delegation = delegationWrites(ctx, current, name, users);
      const bound = [...new Set([current.domainId, domainId, ...users.map((domain) => domain.id)].filter((id): id is string => id !== null))];
      const next = { ...current, name, reversedName: reversedName(name), domainId, addresses, version: current.version + 1, updatedAt: at };
      // The registries that hold the host from us change it first; a rename moves their rows to the new name.
      const holders = anyConnected(c.env) ? await registriesHolding(db, current.name) : [];
      const svTRIDs = await atEveryRegistry(
        c.env,
        clientTransactionId(c.get("requestId")),
        holders,
        () => hostUpdateCommand(current.name, current.addresses, addresses, name),
        (repository) => `Updating host ${current.name} at the ${repository} registry`,
        sent,
      );
      const renamedRows =
        name !== current.name && holders.length > 0
          ? [registryObjectsDelete(db, current.name), ...holders.map((h) => registryObjectInsert(db, { ...h, objectId: name, registryId: name }))]
          : [];
      return {
        next,
        afterFromDatabase: registryTransactionAfter(svTRIDs),
        beforeWrite: [
          ...delegation.beforeWrite,
          // A lock set on one of them after the read refuses the change at commit too.
          ...(bound.length > 0 ? [guard(db, "no domain the host's change binds is locked against update", noneLockedAgainstUpdate(bound))] : []),
        ],
        write: versionStep(db, hosts, current, next),
        alongside: [
          ...(addressesChanged ? [db.delete(hostAddresses).where(eq(hostAddresses.hostId, current.id)), ...addressWrites(db, current.id, addresses)] : []),
          ...delegation.alongside,
          ...renamedRows,
        ],
      };
    },
    // Another request took the name first: whose it is, the next attempt reads.
    failure: (kind) => {
      if (kind === "unique") throw new LostRace();
      return undefined;
    },
  });
};
