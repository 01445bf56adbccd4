// GET /v1/domains/check?name=…&name=… (docs/lifecycle.md#availability-and-prices; EPP <domain:check>, RFC 5731 §3.1.1,
// with the fee extension's prices, RFC 8748): for 1 to 50 names, whether each can be
// registered, why not, and what it costs. The catalog (extensions, premium and reserved
// names) is the isolate's copy, so the answer costs one D1 round trip whatever the number
// of names: the one statement that finds which of them any account holds. A registered
// name says only that: not who holds it, since when, or in what state.
import type { RouteHandler } from "@hono/zod-openapi";
import { inArray } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { domains } from "../../db/schema";
import { toUnicodeName } from "../../dns/name";
import type { AppEnv } from "../../env";
import { queryError } from "../../http/query";
import { matchRegistrableName, unavailability } from "../../registry/extensions";
import { normalizeHostName } from "../../registry/hosts";
import { namePricing, priceTable } from "../../registry/prices";
import type * as routes from "./routes";
import { MAX_CHECKED_NAMES } from "./schemas";

export const checkDomains: RouteHandler<typeof routes.checkDomains, AppEnv> = async (c) => {
  const given = c.req.valid("query").name;
  if (given.length > MAX_CHECKED_NAMES) {
    throw queryError([{ field: "name", message: `is given ${given.length} times; one check takes 1 to ${MAX_CHECKED_NAMES} names` }]);
  }
  const cat = await catalog(c.get("db"));
  const checked = given.map((input) => {
    const normalized = normalizeHostName(input);
    const name = normalized.ok ? normalized.name : null;
    return { input, name, match: name === null ? null : matchRegistrableName(name, cat.extensions) };
  });

  // Names are one namespace across accounts: read in every account, nothing but the name.
  const registrable = [...new Set(checked.flatMap((n) => (n.match?.ok ? [n.name!] : [])))];
  const allAccounts = c.get("dbAllAccounts") ?? c.get("db");
  const held = registrable.length === 0 ? [] : await allAccounts.select({ name: domains.name }).from(domains).where(inArray(domains.name, registrable));
  const registered = new Set(held.map((row) => row.name));

  const data = checked.map(({ input, name, match }) => {
    if (name === null || match === null || !match.ok) {
      const reason = unavailability(match, name ?? input, { registered: false, reserved: false })!;
      return { name: name ?? input, unicode_name: name === null ? input : toUnicodeName(name), available: false, reason, premium: false, prices: null };
    }
    const extension = match.match.extension;
    const pricing = namePricing(name, extension, cat.names);
    const reason = unavailability(match, name, { registered: registered.has(name), reserved: pricing.reserved });
    return {
      name,
      unicode_name: toUnicodeName(name),
      available: reason === null,
      reason,
      premium: pricing.premium,
      prices: reason === null ? priceTable(pricing.yearly, { min: extension.periodMin, max: extension.periodMax }) : null,
    };
  });
  return c.json({ data }, 200);
};
