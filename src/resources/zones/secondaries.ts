// A zone's declared secondaries (docs/serving.md): servers of the customer's own that the
// primary NOTIFYs and lets transfer the zone, by address, or with a TSIG key of the zone's
// account that allows `transfer` of the zone. Addresses are global unicast; a loopback
// deployment (local development, src/http/local-development.ts) also takes loopback ones, so that the
// tests can run a secondary on this machine.
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { tsigKeys, type ZoneSecondary } from "../../db/schema";
import { isLoopback, parseIp } from "../../dns/ip";
import { nonGlobalReason } from "../../dns/special-addresses";
import type { AppEnv } from "../../env";
import { isLocalDevelopment } from "../../http/local-development";
import { type FieldError, validationError } from "../../http/problem";

export const MAX_SECONDARIES = 10;

export const SecondarySchema = z
  .object({
    address: z.string().openapi({ example: "198.51.100.53", description: "The secondary's address (IPv4 or IPv6, canonical)." }),
    port: z.number().int().openapi({ example: 53, description: "Where it listens for NOTIFY." }),
    tsig_key: z.string().nullable().openapi({
      example: "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
      description: "The TSIG key it transfers with (a key of the zone's account allowing `transfer` of the zone); null: by address.",
    }),
  })
  .openapi("ZoneSecondary");

export const SecondariesInputSchema = z
  .array(
    z.strictObject({
      address: z.string().max(64),
      port: z.number().int().min(1, { error: "must be 1-65535" }).max(65535, { error: "must be 1-65535" }).optional(),
      tsig_key: z.string().max(64).nullable().optional(),
    }),
  )
  .max(MAX_SECONDARIES, { error: `has at most ${MAX_SECONDARIES} entries` })
  .openapi({
    description: `Up to ${MAX_SECONDARIES} servers of your own that the primary NOTIFYs and lets transfer the zone (AXFR/IXFR): \`address\` global unicast, \`port\` (default 53) where it takes NOTIFY, \`tsig_key\` the key it transfers with (else it transfers by address). The list is replaced whole.`,
    example: [{ address: "198.51.100.53", port: 53, tsig_key: null }],
  });

type SecondaryInput = z.output<typeof SecondariesInputSchema>[number];

/** The secondaries as stored, checked: addresses, duplicates, and keys of the zone's account that transfer the zone. */
export async function checkedSecondaries(
  c: Context<AppEnv>,
  db: Database,
  zone: { name: string; accountId: string },
  input: readonly SecondaryInput[],
): Promise<ZoneSecondary[]> {
  const loopbackAllowed = isLocalDevelopment(c.req.raw);
  const errors: FieldError[] = [];
  const result: ZoneSecondary[] = [];
  const seen = new Map<string, number>();
  input.forEach((entry, i) => {
    const ip = parseIp(entry.address);
    if (!ip) {
      errors.push({ field: `secondaries[${i}].address`, message: `"${entry.address}" is not an IPv4 or IPv6 address` });
      return;
    }
    const reason = loopbackAllowed && isLoopback(ip) ? null : nonGlobalReason(ip);
    if (reason) {
      errors.push({ field: `secondaries[${i}].address`, message: `${ip.text} ${reason}: a secondary must be reachable on the Internet (global unicast)` });
      return;
    }
    const port = entry.port ?? 53;
    const identity = `${ip.text} ${port}`;
    if (seen.has(identity)) {
      errors.push({ field: `secondaries[${i}]`, message: `repeats secondaries[${seen.get(identity)}] (${ip.text} port ${port})` });
      return;
    }
    seen.set(identity, i);
    result.push({ address: ip.text, port, tsig_key: entry.tsig_key ?? null });
  });
  const keyIds = [...new Set(result.flatMap((s) => (s.tsig_key === null ? [] : [s.tsig_key])))];
  if (keyIds.length > 0) {
    // Only the zone's account's keys: another account's key reads as unknown (422, never a hint that it exists).
    const keys = await db
      .select({ id: tsigKeys.id, allow: tsigKeys.allow, zones: tsigKeys.zones })
      .from(tsigKeys)
      .where(and(eq(tsigKeys.accountId, zone.accountId), inArray(tsigKeys.id, keyIds)));
    input.forEach((entry, i) => {
      const id = entry.tsig_key;
      if (id === null || id === undefined) return;
      const key = keys.find((k) => k.id === id);
      if (!key) errors.push({ field: `secondaries[${i}].tsig_key`, message: `no TSIG key ${id} exists in the zone's account` });
      else if (!key.allow.includes("transfer") || !key.zones.includes(zone.name)) {
        errors.push({
          field: `secondaries[${i}].tsig_key`,
          message: `${id} does not allow \`transfer\` of ${zone.name} (its allow and zones say what it signs)`,
        });
      }
    });
  }
  if (errors.length > 0) throw validationError(errors);
  return result;
}
