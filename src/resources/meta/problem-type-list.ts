// GET /v1/problems: every problem code an error response can carry (src/http/problem.ts).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import type * as routes from "./routes";
import { PROBLEM_TYPES } from "./service";

export const listProblemTypes: RouteHandler<typeof routes.listProblemTypes, AppEnv> = (c) => c.json(PROBLEM_TYPES, 200);
