// Who made a write, as the audit trail names it: the bearer token's name, set by the
// authentication middleware; "local" when no principal is set (authentication off).
import type { Context } from "hono";
import type { AppEnv } from "../env";

export function actorOf(c: Context<AppEnv>): string {
  return (c.get("principal") as AppEnv["Variables"]["principal"] | undefined)?.name ?? "local";
}
