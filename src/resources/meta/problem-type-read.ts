// GET /v1/problems/{code}: the document behind a problem's `type` URI.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ApiError, PROBLEMS, type ProblemCode } from "../../http/problem";
import type * as routes from "./routes";
import { describeProblem } from "./service";

export const getProblemType: RouteHandler<typeof routes.getProblemType, AppEnv> = (c) => {
  const { code } = c.req.valid("param");
  if (!Object.hasOwn(PROBLEMS, code)) throw new ApiError("not_found", `No problem type has the code "${code}".`);
  return c.json(describeProblem(code as ProblemCode), 200);
};
