// docs/conventions.md: a known path answers an unsupported method with 405 and an `Allow`
// header (RFC 9110 §15.5.6); OPTIONS answers 204 with the same `Allow` (RFC 9110 §9.3.7).
import type { Hono } from "hono";
import { ApiError } from "./problem";

export function answerUnsupportedMethods(app: Hono<any, any, any>): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    let methods = methodsByPath.get(route.path);
    if (!methods) methodsByPath.set(route.path, (methods = new Set()));
    methods.add(route.method.toUpperCase());
  }
  for (const [path, methods] of methodsByPath) {
    if (methods.has("GET")) methods.add("HEAD");
    methods.add("OPTIONS");
    const allow = [...methods].sort().join(", ");
    app.all(path, (c) => {
      if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: allow });
      const hint = c.req.method === "PUT" && methods.has("PATCH") ? " Use PATCH (JSON Merge Patch) to update." : "";
      throw new ApiError("method_not_allowed", `${c.req.method} is not supported on this path; allowed: ${allow}.${hint}`, {
        headers: { Allow: allow },
      });
    });
  }
}
