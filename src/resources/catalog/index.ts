// Extensions and repositories: the read-only catalog, served from the per-isolate copy
// (src/db/catalog.ts), so these reads cost no D1 round trip once an isolate is warm. Each
// operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { getExtension } from "./extension-read";
import { listExtensions } from "./extension-list";
import { getRepository } from "./repository-read";
import { listRepositories } from "./repository-list";
import * as routes from "./routes";

export const catalogRouter = createRouter()
  .openapi(routes.listExtensions, listExtensions)
  .openapi(routes.getExtension, getExtension)
  .openapi(routes.listRepositories, listRepositories)
  .openapi(routes.getRepository, getRepository);
