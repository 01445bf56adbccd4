// GET /v1/domains/check?name=…&name=… (docs/lifecycle.md#availability-and-prices; EPP <domain:check>, RFC 5731 §3.1.1,
// with the fee extension's prices, RFC 8748): for 1 to 50 names, whether each can be
// registered, why not, and what it costs. The catalog (extensions, premium and reserved
// names) is the isolate's copy, so the answer costs one D1 round trip whatever the number
// of names: the one statement that finds which of them any account holds. A registered
// name says only that: not who holds it, since when, or in what state.
//
// Names under a connected repository (docs/registries.md) are the registry's to answer:
// one <domain:check> with <fee:check> per repository, `available` and `reason` its own,
// `premium` and `prices` from its fee answer (the catalog's prices where it sends none).
import type { RouteHandler } from "@hono/zod-openapi";
import { inArray } from "drizzle-orm";
import { domainCheckCommand, registryChecks, type RegistryCheck } from "../../connector/commands";
import { connectedRepositories } from "../../connector/config";
import { clientTransactionId, registryCommand, registryUnavailable } from "../../connector/gateway";
import { registryProblem } from "../../connector/answers";
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
  const connected = connectedRepositories(c.env);
  const registrable = [...new Set(checked.flatMap((n) => (n.match?.ok ? [n.name!] : [])))];
  const repositoryOf = new Map(checked.flatMap((n) => (n.match?.ok ? [[n.name!, n.match.match.extension.repositoryId] as const] : [])));
  const builtin = registrable.filter((name) => !connected.has(repositoryOf.get(name)!));
  const atRegistries = new Map<string, string[]>();
  for (const name of registrable) {
    const repository = repositoryOf.get(name)!;
    if (connected.has(repository)) atRegistries.set(repository, [...(atRegistries.get(repository) ?? []), name]);
  }
  const allAccounts = c.get("dbAllAccounts") ?? c.get("db");
  const [held, answers] = await Promise.all([
    builtin.length === 0 ? [] : allAccounts.select({ name: domains.name }).from(domains).where(inArray(domains.name, builtin)),
    registryAnswers(c.env, atRegistries, clientTransactionId(c.get("requestId"))),
  ]);
  const registered = new Set(held.map((row) => row.name));

  const data = checked.map(({ input, name, match }) => {
    if (name === null || match === null || !match.ok) {
      const reason = unavailability(match, name ?? input, { registered: false, reserved: false })!;
      return { name: name ?? input, unicode_name: name === null ? input : toUnicodeName(name), available: false, reason, premium: false, prices: null };
    }
    const extension = match.match.extension;
    const pricing = namePricing(name, extension, cat.names);
    const answer = answers.get(name);
    if (answer) {
      const periods = { min: extension.periodMin, max: extension.periodMax };
      return {
        name,
        unicode_name: toUnicodeName(name),
        available: answer.available,
        reason: answer.reason,
        premium: answer.premium,
        prices: answer.available ? priceTable(answer.yearly ?? pricing.yearly, periods) : null,
      };
    }
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

/** One <domain:check> per connected repository, side by side; each name's answer. */
async function registryAnswers(env: AppEnv["Bindings"], byRepository: ReadonlyMap<string, string[]>, clTRID: string): Promise<Map<string, RegistryCheck>> {
  const out = new Map<string, RegistryCheck>();
  await Promise.all(
    [...byRepository].map(async ([repository, names]) => {
      const { response } = await registryCommand(env, repository, domainCheckCommand(names), clTRID);
      const problem = registryProblem(response, `Checking at the ${repository} registry`);
      if (problem) throw problem;
      const checks = registryChecks(response, names);
      for (const name of names) {
        const check = checks.get(name);
        if (!check) throw registryUnavailable(`the ${repository} registry's answer does not name ${name}`);
        out.set(name, check);
      }
    }),
  );
  return out;
}
