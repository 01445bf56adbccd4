import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "./validation";

/** A router whose request validation answers with the contract's problems. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
