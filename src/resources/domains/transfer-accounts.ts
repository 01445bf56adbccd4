// A transfer between two of our accounts at a connected repository (docs/registries.md,
// "Transfers between our accounts"): both accounts are this registrar's customers, so the
// registry keeps us as the sponsor (it would refuse a `<domain:transfer>` to its own
// sponsor, 2106) and stays the authority over the domain's auth_info and dates:
//
//   request   the auth_info given is checked against the registry's, with a `<domain:info>`
//             carrying it (RFC 5731 §3.1.2): a registry that checks it answers 2202 for a
//             wrong one; one that shows the sponsor its authInfo is compared with it. A
//             wrong one is counted as between builtin accounts (transfer-failures.ts).
//   approval  a new auth_info is set at the registry first (`<domain:update>` `chg`), so the
//             losing account's password no longer moves the domain; the domain then changes
//             account here with the registry's expiry: no year is added (transfers.ts).
//   price     nothing was transferred or renewed at the registry, so nothing is owed: the
//             transfer costs 0.00, and a premium name's fee is not asked to be confirmed.
import { accepted, resDataOf } from "../../connector/answers";
import { connectorClientId, type ConnectorSettings } from "../../connector/config";
import { clientTransactionId, registryCommand } from "../../connector/gateway";
import { authInfoProblem } from "../../epp/values";
import type { EppCommand } from "../../epp/types";
import { ApiError } from "../../http/problem";
import type { DomainRegistry } from "./registry";
import type { Price, YearlyPrices } from "../../registry/prices";
import type { AtRegistry } from "./transfers";

/** What such a transfer costs: nothing (no registry transfer, no year), in the catalog's currency. */
export function betweenOurAccountsPrice(yearly: YearlyPrices): Price {
  return { currency: yearly.currency, amount: "0.00" };
}

/** Compares the passwords in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Whether `given` is the domain's auth_info at its registry. A value EPP cannot carry is no
 * registry's password (wrong, nothing sent). 2202 is wrong; another refusal is its problem
 * (2303: `registry_mismatch`; out of reach: 503). A domain the registry shows as another
 * registrar's is not ours to move (409 `registry_mismatch`). The registry's answer shows the
 * sponsor its authInfo: that decides; a registry that shows none accepted the one given (or
 * does not check a sponsor's), and our copy decides.
 */
export async function registryAuthInfoMatches(
  registry: DomainRegistry,
  settings: ConnectorSettings,
  name: string,
  given: string,
  stored: string,
): Promise<boolean> {
  if (authInfoProblem(given) !== null) return false;
  const response = await registry.ask("domain:info:auth", { kind: "domain:info", name, hosts: "none", authInfo: given });
  if (response.code === 2202) return false;
  accepted(response, `Checking the auth_info of ${name} at the ${registry.repository} registry`);
  const info = resDataOf(response, "domain:infData");
  const us = connectorClientId(settings, registry.repository);
  if (info && us !== null && info.clID !== us) {
    throw new ApiError(
      "registry_mismatch",
      `The ${registry.repository} registry shows ${info.clID} as the sponsor of ${name}, not this registrar: it cannot move between accounts here.`,
    );
  }
  return sameSecret(given, info?.authInfo ?? stored);
}

/** The `<domain:update>` that gives the domain a new auth_info at its registry. */
export function newAuthInfoCommand(name: string, authInfo: string): EppCommand {
  return { kind: "domain:update", name, chg: { authInfo } };
}

/** The approval's new auth_info set at the registry (the route's registry: sent once per request). */
export async function authInfoAtRegistry(registry: DomainRegistry, name: string, authInfo: string): Promise<AtRegistry> {
  const done = await registry.send(
    "domain:update:transfer",
    newAuthInfoCommand(name, authInfo),
    `Setting the new auth_info of ${name} at the ${registry.repository} registry`,
  );
  if (done.outcome === "pending") {
    throw new ApiError(
      "status_prohibits",
      `The ${registry.repository} registry holds the auth_info change of ${name} for review (pendingUpdate); the transfer stays pending until it settles.`,
    );
  }
  return { authInfo, svTRID: done.svTRID };
}

/**
 * The same for the sweep's automatic approval (no request: the transfer's id as the clTRID);
 * null when the registry did not take it now (out of reach, a refusal, held for review): the
 * transfer stays pending and a later run tries again.
 */
export async function authInfoAtRegistryForSweep(
  settings: ConnectorSettings,
  repository: string,
  name: string,
  authInfo: string,
  transferId: string,
): Promise<AtRegistry | null> {
  try {
    const { response } = await registryCommand(settings, repository, newAuthInfoCommand(name, authInfo), clientTransactionId(transferId));
    const done = accepted(response, `Setting the new auth_info of ${name} at the ${repository} registry`);
    return done.outcome === "done" ? { authInfo, svTRID: done.svTRID } : null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
