// A managed parent under a connected repository (docs/registries.md): the DS set a roll
// wants goes to the registry as secDNS `<domain:update>` (RFC 5910 §5.2.5: every DS removed,
// the wanted ones added, so the registry ends with exactly this set), before the step's
// batch writes the stored DS. The registry's 1000 is the confirmation: the parent shows the
// set now. A 1001 leaves it pending there: the stored DS stays as it was, and the roll waits
// until the stored DS, which the registry's messages and the hourly reconciliation keep in
// step with the registry, shows it (steps.ts: the run reads the stored DS as the parent's).
import { accepted } from "../../connector/answers";
import { dsData } from "../../connector/commands";
import type { EppCommand } from "../../epp/types";
import { type ConnectorSettings, isConnected } from "../../connector/config";
import { registryCommand } from "../../connector/gateway";
import type { DsFields } from "../../dns/dnssec/parent-ds";

/** What a DS step needs to reach a connected registry: its settings and the clTRID of the request (or run) that sends. */
export interface RegistryLink {
  settings: ConnectorSettings;
  clTRID: string;
}

/** Whether the domain's repository has a connector: its DS is the registry's to take. */
export function atConnectedRegistry(link: RegistryLink | null, repository: string): boolean {
  return link !== null && isConnected(link.settings, repository);
}

/**
 * Sends the DS set to the registry; `done` on 1000, `pending` on 1001, or the registry's
 * refusal (or its absence: 503 registry_unavailable) thrown, with nothing written here.
 */
export async function sendDsSet(link: RegistryLink, domain: { name: string; repositoryId: string }, ds: readonly DsFields[]): Promise<"done" | "pending"> {
  const command: EppCommand = { kind: "domain:update", name: domain.name, ds: { rem: "all", ...(ds.length > 0 ? { add: dsData(ds) } : {}) } };
  const { response } = await registryCommand(link.settings, domain.repositoryId, command, link.clTRID);
  return accepted(response, `Publishing ${domain.name}'s DS set at the ${domain.repositoryId} registry`).outcome;
}
