// The DNS serving backend (docs/serving.md): PowerDNS Authoritative Server's remote backend,
// HTTP connector, answered from the zones and records tables. PowerDNS speaks DNS (UDP,
// TCP, EDNS, AXFR) and calls this on every cache miss, so every call is read-only and one
// D1 round trip. Authentication (a `dns` token in the path) is src/http/auth.ts's. The
// methods, grouped by what they read, are wired to their routes here.
import { createRouter } from "../../http/router";
import { getApexNeighbours, getBeforeAndAfterNamesAbsolute, getDomainKeys } from "./dnssec";
import { getAllDomains, getDomainInfo, getUpdatedMasters, setNotified } from "./domains";
import { getAllDomainMetadata, getDomainMetadata } from "./metadata";
import { list, lookup } from "./records";
import { notApplicable } from "./remote-backend";
import * as routes from "./routes";
import * as updateHandlers from "./update-handlers";
import * as updateRoutes from "./update-routes";

export const pdnsRouter = createRouter()
  .openapi(routes.lookup, lookup)
  .openapi(routes.list, list)
  .openapi(routes.getDomainInfo, getDomainInfo)
  .openapi(routes.getAllDomains, getAllDomains)
  .openapi(routes.getUpdatedMasters, getUpdatedMasters)
  .openapi(routes.setNotified, setNotified)
  .openapi(routes.getAllDomainMetadata, getAllDomainMetadata)
  .openapi(routes.getDomainMetadata, getDomainMetadata)
  .openapi(routes.getBeforeAndAfterNamesAbsolute, getBeforeAndAfterNamesAbsolute)
  .openapi(routes.getDomainKeys, getDomainKeys)
  .openapi(updateRoutes.getTSIGKey, updateHandlers.getTSIGKey)
  .openapi(updateRoutes.dnsUpdate, updateHandlers.dnsUpdate);

// The apex's NSEC neighbours, `…/{id}/` and `…/{id}` as URL parsing leaves them (dnssec.ts).
pdnsRouter.get("/pdns/:token/getBeforeAndAfterNamesAbsolute/:id/", getApexNeighbours);
pdnsRouter.get("/pdns/:token/getBeforeAndAfterNamesAbsolute/:id", getApexNeighbours);

// Every other method, verb or argument count PowerDNS may send (writes, DNSSEC and TSIG
// keys, secondaries' and primaries' bookkeeping, the root name `%2e` that URL parsing
// folds away): this backend is read-only and holds none of it.
pdnsRouter.all("/pdns/:token/*", notApplicable);
