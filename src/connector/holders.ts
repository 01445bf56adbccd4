// A contact's or a host's change at every connected registry that holds it from us
// (docs/registries.md, "What goes to the registry"): the registries come from the rows a
// create there left (src/db/registry-objects.ts), read by the caller. One command to each,
// one after another, before D1 is written; a refusal stops the change with its problem.
// A registry that answered before a later one refused keeps the change: reconciliation
// brings the two back together (docs/registries.md, "When D1 and the registry differ").
import type { EppCommand, EppResponse } from "../epp/types";
import { accepted } from "./answers";
import { connectedRepositories, type ConnectorSettings } from "./config";
import { registryCommand } from "./gateway";

/** A registry that holds the object: the repository, and the id it holds the object by. */
export interface Holder {
  repositoryId: string;
  registryId: string;
}

/**
 * Sends `build(registryId)` to each connected registry in `holders` (a null command sends
 * nothing there), each once per `sent` (a request's operation may run again after a lost
 * race: the answers are reused). Answers the registries' transaction ids.
 */
export async function atEveryRegistry(
  settings: ConnectorSettings,
  clTRID: string,
  holders: readonly Holder[],
  build: (registryId: string) => EppCommand | null,
  what: (repository: string) => string,
  sent: Map<string, Promise<EppResponse>> = new Map(),
): Promise<string[]> {
  const connected = connectedRepositories(settings);
  const svTRIDs: string[] = [];
  for (const holder of holders) {
    if (!connected.has(holder.repositoryId)) continue;
    const command = build(holder.registryId);
    if (!command) continue;
    const key = `${holder.repositoryId}:${command.kind}:${holder.registryId}`;
    let answer = sent.get(key);
    if (!answer) {
      answer = registryCommand(settings, holder.repositoryId, command, clTRID).then((reply) => reply.response);
      answer.catch(() => sent.delete(key));
      sent.set(key, answer);
    }
    svTRIDs.push(accepted(await answer, what(holder.repositoryId)).svTRID);
  }
  return svTRIDs;
}

/** Whether any repository has a connector: without one, no registry holds anything of ours and nothing is read. */
export function anyConnected(settings: ConnectorSettings): boolean {
  return connectedRepositories(settings).size > 0;
}
