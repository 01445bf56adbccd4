// GET /v1/hosts, /v1/repositories/{repository}/hosts and /v1/hosts/{host} (JSON or RDAP).
import type { RouteHandler } from "@hono/zod-openapi";
import { parseIp } from "../../dns/ip";
import type { AppEnv } from "../../env";
import { refParam, requireRepository } from "../../http/lookup";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import type { FieldError } from "../../http/problem";
import { queryError } from "../../http/query";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import { sendResource } from "../../http/respond";
import { rdapNameserverResponse } from "../../rdap/views";
import { normalizeHostName } from "../../registry/hosts";
import { hostCollection } from "./collection";
import { presentHost } from "../../db/hosts";
import { type HostFilters, listHosts as hostsPage } from "./queries";
import type * as routes from "./routes";

function hostFilters(query: {
  account?: string | undefined;
  name?: string | undefined;
  q?: string | undefined;
  domain?: string | undefined;
  address?: string | undefined;
}): HostFilters {
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
  return { account: query.account, name, q: query.q, domain, address };
}

export const listHosts: RouteHandler<typeof routes.listHosts, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const filters = hostFilters(query);
  const page = await pageRequest(c, query);
  const rows = await hostsPage(c.get("db"), filters, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentHost), 200);
};

export const listRepositoryHosts: RouteHandler<typeof routes.listRepositoryHosts, AppEnv> = async (c) => {
  const { repository } = c.req.valid("param");
  const query = c.req.valid("query");
  const db = c.get("db");
  await requireRepository(db, repository);
  const filters = { ...hostFilters(query), heldBy: repository };
  const page = await pageRequest(c, query);
  const rows = await hostsPage(db, filters, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentHost), 200);
};

export const getHost: RouteHandler<typeof routes.getHost, AppEnv> = async (c) => {
  const row = await findResource(c, hostCollection, c.req.valid("param").host);
  if (wantsRdap(c.req.header("accept"))) return sendRdap(c, rdapNameserverResponse(presentHost(row), rdapContext(c)));
  return sendResource(c, presentHost(row), row.version);
};
