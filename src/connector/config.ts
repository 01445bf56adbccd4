// Which repositories have a connector (docs/registries.md, "Configuration"). The Worker
// reads REGISTRY_CONNECTORS (the gateway's own JSON, a secret) for its keys and each
// connector's `client_id` (the registrar's login there, which the registry names as the
// sponsor, clID, of our objects: no secret): the credentials in it are the gateway's, never
// used, logged or shown here. A repository without a key stays `builtin`: the service is
// its registry, as before.
import { ApiError } from "../http/problem";

/** The settings the connector reads: the secret with the connectors, the gateway's address and its bearer secret. */
export interface ConnectorSettings {
  REGISTRY_CONNECTORS?: string;
  REGISTRY_GATEWAY_URL?: string;
  REGISTRY_GATEWAY_SECRET?: string;
}

const REPOSITORY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

// The secret's text changes only on deploy; parsed once per isolate (per text, for the tests).
let cached: { text: string; ids: ReadonlySet<string> | Error; clientIds: ReadonlyMap<string, string> } | null = null;

/**
 * The repository ids REGISTRY_CONNECTORS names. Malformed JSON is an error (never "no
 * connectors": a connected registry silently served as builtin would register names
 * that exist only here), naming what is wrong but nothing of the value.
 */
export function connectorIds(text: string | undefined): ReadonlySet<string> | Error {
  if (text === undefined || text.trim() === "") return new Set();
  return parsed(text).ids;
}

function parsed(text: string): NonNullable<typeof cached> {
  if (cached?.text === text) return cached;
  let ids: ReadonlySet<string> | Error;
  const clientIds = new Map<string, string>();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) ids = new Error("REGISTRY_CONNECTORS is not a JSON object keyed by repository id");
    else {
      const keys = Object.keys(value);
      const bad = keys.filter((key) => !REPOSITORY_ID.test(key));
      ids = bad.length > 0 ? new Error(`REGISTRY_CONNECTORS has ${bad.length} key(s) that are not repository ids`) : new Set(keys);
      for (const [key, connector] of Object.entries(value as Record<string, unknown>)) {
        const clientId = (connector as { client_id?: unknown } | null)?.client_id;
        if (typeof clientId === "string" && clientId.length >= 3 && clientId.length <= 16) clientIds.set(key, clientId);
      }
    }
  } catch {
    ids = new Error("REGISTRY_CONNECTORS is not JSON");
  }
  cached = { text, ids, clientIds };
  return cached;
}

/**
 * The registrar's client id at a connected repository's registry (its `client_id`): what the
 * registry's `clID` is for the objects we sponsor. Null when the configuration names none.
 */
export function connectorClientId(settings: ConnectorSettings, repository: string): string | null {
  const text = settings.REGISTRY_CONNECTORS;
  if (text === undefined || text.trim() === "") return null;
  return parsed(text).clientIds.get(repository) ?? null;
}

/** The connected repositories; 503 not_configured when the secret cannot be read. */
export function connectedRepositories(settings: ConnectorSettings): ReadonlySet<string> {
  const ids = connectorIds(settings.REGISTRY_CONNECTORS);
  if (ids instanceof Error) throw new ApiError("not_configured", `${ids.message}; fix the secret: npx wrangler secret put REGISTRY_CONNECTORS`);
  return ids;
}

/** Whether the repository's registry is reached over EPP (else the service is its registry). */
export function isConnected(settings: ConnectorSettings, repository: string): boolean {
  return connectedRepositories(settings).has(repository);
}
