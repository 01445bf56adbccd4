// REGISTRY_CONNECTORS (docs/registries.md, "Configuration"): JSON keyed by repository id.
// Read strictly: a typo in a key is an error at start, never a connector that silently
// lacks its certificate. Nothing of it is ever printed: errors name the repository and the
// field, not the value.

export interface ConnectorConfig {
  host: string;
  port?: number;
  client_id: string;
  password: string;
  /** PEM: the CA to trust for this registry (else the system's). */
  ca?: string;
  /** PEM: our TLS client certificate and its key, when the registry asks for one. */
  certificate?: string;
  key?: string;
  /** Sessions kept open (1–8). */
  sessions?: number;
  /** Seconds between two reads of an empty message queue (1–3600; the gateway's --poll-seconds unless given). */
  poll_seconds?: number;
  /** Failed hand-overs of one poll message before the gateway sets it aside and acks it (1–100; 8 unless given). */
  message_attempts?: number;
  /** The longest wait in seconds between two hand-overs of a poll message the API did not take (1–3600; 300 unless given). */
  message_retry_max_seconds?: number;
}

const FIELDS = new Set([
  "host",
  "port",
  "client_id",
  "password",
  "ca",
  "certificate",
  "key",
  "sessions",
  "poll_seconds",
  "message_attempts",
  "message_retry_max_seconds",
]);
const REPOSITORY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The connectors, or the problems found (each naming a repository and a field). */
export function parseConnectors(text: string): { ok: true; connectors: Map<string, ConnectorConfig> } | { ok: false; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problems: ["REGISTRY_CONNECTORS is not JSON"] };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, problems: ["REGISTRY_CONNECTORS is a JSON object keyed by repository id"] };
  const problems: string[] = [];
  const connectors = new Map<string, ConnectorConfig>();
  for (const [id, raw] of Object.entries(value)) {
    const at = (field: string) => `REGISTRY_CONNECTORS.${id}.${field}`;
    if (!REPOSITORY_ID.test(id)) problems.push(`REGISTRY_CONNECTORS: ${JSON.stringify(id)} is not a repository id`);
    if (typeof raw !== "object" || raw === null) {
      problems.push(`REGISTRY_CONNECTORS.${id} is an object`);
      continue;
    }
    const c = raw as Record<string, unknown>;
    for (const key of Object.keys(c)) if (!FIELDS.has(key)) problems.push(`${at(key)} is not a field (${[...FIELDS].join(", ")})`);
    if (typeof c.host !== "string" || c.host.length === 0) problems.push(`${at("host")} is required`);
    if (c.port !== undefined && !(Number.isInteger(c.port) && (c.port as number) > 0 && (c.port as number) < 65536))
      problems.push(`${at("port")} is a port number`);
    // RFC 5730 clIDType (3–16 characters) and pwType (6–16).
    if (typeof c.client_id !== "string" || c.client_id.length < 3 || c.client_id.length > 16) problems.push(`${at("client_id")} is 3–16 characters`);
    if (typeof c.password !== "string" || c.password.length < 6 || c.password.length > 16) problems.push(`${at("password")} is 6–16 characters`);
    for (const pem of ["ca", "certificate", "key"])
      if (c[pem] !== undefined && (typeof c[pem] !== "string" || !String(c[pem]).includes("-----BEGIN"))) problems.push(`${at(pem)} is PEM text`);
    if ((c.certificate === undefined) !== (c.key === undefined)) problems.push(`${at("certificate")} and ${at("key")} go together`);
    if (c.sessions !== undefined && !(Number.isInteger(c.sessions) && (c.sessions as number) >= 1 && (c.sessions as number) <= 8))
      problems.push(`${at("sessions")} is 1–8`);
    if (c.poll_seconds !== undefined && !(typeof c.poll_seconds === "number" && c.poll_seconds >= 1 && c.poll_seconds <= 3600))
      problems.push(`${at("poll_seconds")} is 1–3600`);
    if (
      c.message_attempts !== undefined &&
      !(Number.isInteger(c.message_attempts) && (c.message_attempts as number) >= 1 && (c.message_attempts as number) <= 100)
    )
      problems.push(`${at("message_attempts")} is 1–100`);
    if (
      c.message_retry_max_seconds !== undefined &&
      !(typeof c.message_retry_max_seconds === "number" && c.message_retry_max_seconds >= 1 && c.message_retry_max_seconds <= 3600)
    )
      problems.push(`${at("message_retry_max_seconds")} is 1–3600`);
    connectors.set(id, c as unknown as ConnectorConfig);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, connectors };
}
