// GET /v1/domains, /v1/repositories/{repository}/domains and /v1/domains/{domain} (JSON or RDAP).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { requireRepository } from "../../http/lookup";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import type { FieldError } from "../../http/problem";
import { queryError } from "../../http/query";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import { sendResource } from "../../http/respond";
import { normalizeHostName } from "../../registry/hosts";
import { domainCollection } from "./collection";
import { presentDomain, presentDomainListItem } from "./present";
import { domainRdapView } from "./rdap";
import { type DomainFilters, domainPosition, listDomains as domainsPage } from "./queries";
import type * as routes from "./routes";
import type { DomainListQueryInput } from "./schemas";

/** Filters as given in the query, normalised like names in bodies. */
function domainFilters(query: DomainListQueryInput): DomainFilters {
  const errors: FieldError[] = [];
  const name = (field: "name" | "nameserver" | "extension", value: string | undefined) => {
    if (value === undefined) return undefined;
    const normalized = normalizeHostName(field === "extension" ? `x.${value.replace(/^\./, "")}` : value);
    if (!normalized.ok) {
      errors.push({ field, message: `"${value}" ${normalized.error}` });
      return undefined;
    }
    return field === "extension" ? normalized.name.slice(2) : normalized.name;
  };
  const filters: DomainFilters = {
    account: query.account,
    name: name("name", query.name),
    nameserver: name("nameserver", query.nameserver),
    extension: name("extension", query.extension),
    q: query.q?.toLowerCase(),
    repository: query.repository,
    status: query.status,
    registrant: query.registrant,
    contact: query.contact,
    expiresBefore: query.expires_before,
    expiresAfter: query.expires_after,
  };
  if (errors.length > 0) throw queryError(errors);
  return filters;
}

export const listDomains: RouteHandler<typeof routes.listDomains, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const filters = domainFilters(query);
  const page = await pageRequest(c, query);
  const rows = await domainsPage(c.get("db"), filters, query.sort, page);
  return c.json(await pageResponse(c, page, rows, (r) => domainPosition(r, query.sort), presentDomainListItem), 200);
};

export const listRepositoryDomains: RouteHandler<typeof routes.listRepositoryDomains, AppEnv> = async (c) => {
  const { repository } = c.req.valid("param");
  const query = c.req.valid("query");
  const db = c.get("db");
  await requireRepository(db, repository);
  const filters = { ...domainFilters(query), heldBy: repository };
  const page = await pageRequest(c, query);
  const rows = await domainsPage(db, filters, query.sort, page);
  return c.json(await pageResponse(c, page, rows, (r) => domainPosition(r, query.sort), presentDomainListItem), 200);
};

export const getDomain: RouteHandler<typeof routes.getDomain, AppEnv> = async (c) => {
  const row = await findResource(c, domainCollection, c.req.valid("param").domain);
  if (wantsRdap(c.req.header("accept"))) return sendRdap(c, await domainRdapView(c.get("db"), presentDomain(row), rdapContext(c), row.lastTransferAt));
  return sendResource(c, presentDomain(row), row.version);
};
