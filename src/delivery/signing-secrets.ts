// The secrets and URL rules a delivery to a stored webhook uses (deliveries and pings).
import type { Env } from "../env";
import type { WebhookRow } from "./rows";
import { openSecret } from "./secrets";
import type { TargetPolicy } from "./target";

/** The URL rules as they apply to a stored webhook (target.ts). */
export function storedPolicy(row: WebhookRow): TargetPolicy {
  return { loopbackDeployment: row.loopback, apiHost: row.apiHost };
}

/** The secrets a delivery at `now` is signed with: the current one, and the previous one during its overlap. */
export async function signingSecrets(env: Env, row: WebhookRow, now: Date): Promise<string[] | null> {
  const current = await openSecret(env, row.loopback, row.id, row.secretSealed);
  if (current === null) return null;
  const previous =
    row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now.toISOString()
      ? await openSecret(env, row.loopback, row.id, row.previousSecretSealed)
      : null;
  return previous ? [current, previous] : [current];
}
