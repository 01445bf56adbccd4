// Which events a webhook receives (docs/webhooks.md): `<type>.<operation>` patterns over
// the events of /v1/events, `*` standing for any type or any operation; null = every event.
import { EVENT_OPERATIONS as OPERATIONS, EVENT_RESOURCE_TYPES as RESOURCE_TYPES } from "../db/schema";

export const MAX_EVENT_TYPES = 50;

// Names are lowercase words, `_` and, in the DNSSEC types (`dnssec.key`), a dot: anything else is dropped, dots escaped.
const alternatives = (names: readonly string[]) => names.map((name) => name.replace(/[^a-z_.]/g, "").replaceAll(".", "\\.")).join("|");

/**
 * `<type>.<operation>`, each a name /v1/events uses or `*`. A type may hold a dot itself
 * (`dnssec.key.published`: type `dnssec.key`, operation `published`); the operation is what
 * follows the last dot.
 */
export const EVENT_TYPE_PATTERN = new RegExp(`^(\\*|${alternatives(RESOURCE_TYPES)})\\.(\\*|${alternatives(OPERATIONS)})$`);

export const EVENT_TYPE_PATTERN_HELP = `must be <type>.<operation>, each a name of /v1/events or * (types: ${RESOURCE_TYPES.join(", ")}; operations: ${OPERATIONS.join(", ")})`;

/** Whether an event of this type and operation is one the patterns select (null: every event). */
export function selects(patterns: readonly string[] | null, type: string, operation: string): boolean {
  if (patterns === null) return true;
  return patterns.some((pattern) => {
    const dot = pattern.lastIndexOf(".");
    const [t, o] = [pattern.slice(0, dot), pattern.slice(dot + 1)];
    return (t === "*" || t === type) && (o === "*" || o === operation);
  });
}

/** The patterns without repeats, in the order given. */
export function distinctPatterns(patterns: readonly string[] | null | undefined): string[] | null {
  return patterns === null || patterns === undefined ? null : [...new Set(patterns)];
}
