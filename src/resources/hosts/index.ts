import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import { writeFailure } from "../../db/errors";
import { eventInsert, previousStatementChanged } from "../../db/events";
import { newId } from "../../db/ids";
import { domainsNamed, hostsNamed } from "../../db/registry";
import { hostAddresses, hosts } from "../../db/schema";
import { parseIp } from "../../dns/ip";
import { reversedName } from "../../dns/name";
import { actorOf } from "../../http/actor";
import { checkIfMatch } from "../../http/etag";
import { notFound, refParam, resourceRef } from "../../http/lookup";
import { queryError } from "../../http/query";
import { pageRequest, pageResponse } from "../../http/pagination";
import { ApiError, type FieldError } from "../../http/problem";
import { sendResource, sendWritten } from "../../http/respond";
import { createRouter } from "../../http/router";
import { nameList } from "../../http/text";
import { VersionConflict, withVersionRetry } from "../../http/writes";
import { registrableDomainOf } from "../../registry/extensions";
import { canonicalAddresses, glueProblem, normalizeHostName } from "../../registry/hosts";
import { newFindings, throwFindings, type Findings } from "../../http/findings";
import { domainsUsingHost, findHost, listHosts, type HostFilters, type HostWithLinks } from "./queries";
import * as routes from "./routes";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import { rdapNameserverResponse } from "../../rdap/views";
import { presentHost } from "./present";

export { presentHost };

function hostFilters(query: { name?: string | undefined; q?: string | undefined; domain?: string | undefined; address?: string | undefined }): HostFilters {
  const errors: FieldError[] = [];
  let name: string | undefined;
  if (query.name !== undefined) {
    const normalized = normalizeHostName(query.name);
    if (normalized.ok) name = normalized.name;
    else errors.push({ field: "name", message: `"${query.name}" ${normalized.error}` });
  }
  let address: string | undefined;
  if (query.address !== undefined) {
    address = parseIp(query.address)?.text;
    if (!address) errors.push({ field: "address", message: `"${query.address}" is not an IPv4 or IPv6 address` });
  }
  const domain = refParam(query.domain, "domain", "domain", errors);
  if (errors.length > 0) throw queryError(errors);
  return { name, q: query.q, domain, address };
}

function checkAddresses(inputs: readonly string[], findings: Findings): string[] {
  const { addresses, problems } = canonicalAddresses(inputs);
  for (const problem of problems) findings.invalid.push({ field: `addresses[${problem.index}]`, message: problem.message });
  return addresses;
}

function addressWrites(db: Database, hostId: string, addresses: readonly string[]): BatchItem<"sqlite">[] {
  if (addresses.length === 0) return [];
  return [db.insert(hostAddresses).values(addresses.map((address) => ({ hostId, address })))];
}

/** The host's superordinate domain here, if any (RFC 5732 §1.1), and whether the name is taken. */
async function placeHost(db: Database, name: string) {
  const cat = await catalog(db);
  const candidate = registrableDomainOf(name, cat.extensions);
  const [taken, superordinate] = await db.batch([hostsNamed(db, [name]), domainsNamed(db, candidate ? [candidate] : [])]);
  return { taken: taken[0] ?? null, superordinate: superordinate[0] ?? null };
}

export const hostsRouter = createRouter()
  .openapi(routes.listHosts, async (c) => {
    const query = c.req.valid("query");
    const filters = hostFilters(query);
    const page = await pageRequest(c, query);
    const rows = await listHosts(c.get("db"), filters, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentHost), 200);
  })
  .openapi(routes.listRepositoryHosts, async (c) => {
    const { repository } = c.req.valid("param");
    const query = c.req.valid("query");
    const db = c.get("db");
    if (!(await catalog(db)).repositories.has(repository)) throw notFound("repository", repository);
    const filters = { ...hostFilters(query), heldBy: repository };
    const page = await pageRequest(c, query);
    const rows = await listHosts(db, filters, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentHost), 200);
  })
  .openapi(routes.getHost, async (c) => {
    const segment = c.req.valid("param").host;
    const row = await findHost(c.get("db"), resourceRef(segment, "host")).get();
    if (!row) throw notFound("host", segment);
    if (wantsRdap(c.req.header("accept"))) return sendRdap(c, rdapNameserverResponse(presentHost(row), rdapContext(c)));
    return sendResource(c, presentHost(row), row.version);
  })
  .openapi(routes.createHost, async (c) => {
    const input = c.req.valid("json");
    const db = c.get("db");
    const findings = newFindings();
    const normalized = normalizeHostName(input.name);
    if (!normalized.ok) findings.invalid.push({ field: "name", message: `"${input.name}" ${normalized.error}` });
    const addresses = checkAddresses(input.addresses ?? [], findings);
    throwFindings(findings);
    const name = normalized.ok ? normalized.name : "";

    const { taken, superordinate } = await placeHost(db, name);
    const glue = glueProblem(superordinate !== null, addresses.length, superordinate?.name ?? null);
    if (glue) findings.policy.push({ field: "addresses", message: glue });
    throwFindings(findings);
    if (taken) throw new ApiError("already_exists", `The host ${name} already exists (${taken.id}).`);

    const now = new Date();
    const at = now.toISOString();
    const row: HostWithLinks = {
      id: newId("host", now),
      name,
      reversedName: reversedName(name),
      domainId: superordinate?.id ?? null,
      addresses,
      version: 1,
      createdAt: at,
      updatedAt: at,
      linked: false,
    };
    const { linked: _linked, ...hostRow } = row;
    try {
      await db.batch([
        db.insert(hosts).values(hostRow),
        ...addressWrites(db, row.id, addresses),
        eventInsert(db, { at, actor: actorOf(c), type: "host", id: row.id, operation: "create", before: null, after: presentHost(row) }),
      ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (error) {
      if (writeFailure(error) === "unique") throw new ApiError("already_exists", `The host ${name} already exists.`);
      throw error;
    }
    return sendWritten(c, presentHost(row), row.version, 201, `/v1/hosts/${row.id}`);
  })
  .openapi(routes.updateHost, async (c) => {
    const segment = c.req.valid("param").host;
    const patch = c.req.valid("json");
    const db = c.get("db");
    const ref = resourceRef(segment, "host");
    const updated = await withVersionRetry(c, async () => {
      const current = await findHost(db, ref).get();
      if (!current) throw notFound("host", segment);
      checkIfMatch(c, current.version, presentHost(current));

      const findings = newFindings();
      let name = current.name;
      if (patch.name !== undefined) {
        const normalized = normalizeHostName(patch.name);
        if (normalized.ok) name = normalized.name;
        else findings.invalid.push({ field: "name", message: `"${patch.name}" ${normalized.error}` });
      }
      const addresses = patch.addresses === undefined ? current.addresses : checkAddresses(patch.addresses ?? [], findings);
      throwFindings(findings);

      // A rename is a new placement: subordinate or external is decided again (RFC 5732 §3.2.5).
      let domainId = current.domainId;
      let superordinateName: string | null = null;
      if (name !== current.name) {
        const placement = await placeHost(db, name);
        if (placement.taken) throw new ApiError("already_exists", `The host ${name} already exists (${placement.taken.id}).`);
        domainId = placement.superordinate?.id ?? null;
        superordinateName = placement.superordinate?.name ?? null;
      } else if (domainId) {
        superordinateName = registrableDomainOf(name, (await catalog(db)).extensions);
      }
      const glue = glueProblem(domainId !== null, addresses.length, superordinateName);
      if (glue) findings.policy.push({ field: "addresses", message: glue });
      throwFindings(findings);

      const addressesChanged = JSON.stringify(addresses) !== JSON.stringify(current.addresses);
      if (name === current.name && !addressesChanged) return current;
      const at = new Date().toISOString();
      const next = { ...current, name, domainId, addresses, version: current.version + 1, updatedAt: at };
      try {
        await db.batch([
          db
            .update(hosts)
            .set({ name, reversedName: reversedName(name), domainId, addresses, version: current.version + 1, updatedAt: at })
            .where(eq(hosts.id, current.id)),
          eventInsert(
            db,
            { at, actor: actorOf(c), type: "host", id: current.id, operation: "update", before: presentHost(current), after: presentHost(next) },
            { onlyIf: previousStatementChanged },
          ),
          ...(addressesChanged ? [db.delete(hostAddresses).where(eq(hostAddresses.hostId, current.id)), ...addressWrites(db, current.id, addresses)] : []),
        ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      } catch (error) {
        if (writeFailure(error) === "unique") throw new ApiError("already_exists", `The host ${name} already exists.`);
        throw error;
      }
      return next;
    });
    return sendWritten(c, presentHost(updated), updated.version, 200);
  })
  .openapi(routes.deleteHost, async (c) => {
    const segment = c.req.valid("param").host;
    const db = c.get("db");
    const ref = resourceRef(segment, "host");
    await withVersionRetry(c, async () => {
      const current = await findHost(db, ref).get();
      if (!current) throw notFound("host", segment);
      checkIfMatch(c, current.version, presentHost(current));
      const linkedProblem = async () => {
        const users = await domainsUsingHost(db, current.id);
        return new ApiError(
          "object_linked",
          `The host ${current.name} is a name server of ${nameList(users.names, users.more)}; change those domains' name servers first.`,
        );
      };
      if (current.linked) throw await linkedProblem();
      try {
        const [result] = await db.batch([
          db.delete(hosts).where(and(eq(hosts.id, current.id), eq(hosts.version, current.version))),
          eventInsert(
            db,
            { at: new Date().toISOString(), actor: actorOf(c), type: "host", id: current.id, operation: "delete", before: presentHost(current), after: null },
            { onlyIf: previousStatementChanged },
          ),
        ]);
        if (result.meta.changes === 0) throw new VersionConflict();
      } catch (error) {
        if (writeFailure(error) === "foreign_key") throw await linkedProblem();
        throw error;
      }
    });
    return c.body(null, 204);
  });
