// The service's own documents: the index, the problem types (the OpenAPI description and
// the reference page are src/app.ts's). Each operation in its own file, wired here.
import { createRouter } from "../../http/router";
import { listProblemTypes } from "./problem-type-list";
import { getProblemType } from "./problem-type-read";
import * as routes from "./routes";
import { getIndex } from "./service-index";

export const metaRouter = createRouter()
  .openapi(routes.getIndex, getIndex)
  .openapi(routes.listProblemTypes, listProblemTypes)
  .openapi(routes.getProblemType, getProblemType);
