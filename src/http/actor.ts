// Who made a write, as the audit trail names it: the bearer token's id (`tok_…`), never
// its name, which its owner chose; "local" when authentication is off (npm start).
import type { Context } from "hono";
import type { AppEnv } from "../env";

export function actorOf(c: Context<AppEnv>): string {
  const principal = c.get("principal") as AppEnv["Variables"]["principal"] | undefined;
  return principal?.tokenId ?? "local";
}
