// GET /v1/: the service's name and version, and links to every collection and to the API
// documentation.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import type * as routes from "./routes";
import { SERVICE_INDEX } from "./service";

export const getIndex: RouteHandler<typeof routes.getIndex, AppEnv> = (c) => c.json(SERVICE_INDEX, 200);
