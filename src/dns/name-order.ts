// Canonical DNS name order (RFC 4034 §6.1): names compare label by label from the
// right; labels compare as lower-case octet strings, a shorter label first when one is a
// prefix of the other; a name sorts before the names below it. Stored names are already
// lower-case ASCII, so code-unit order is octet order.

/** The labels of a name, rightmost first; "" and "@" (a zone's apex) have none. */
export function reversedLabels(name: string): string[] {
  const bare = name.endsWith(".") ? name.slice(0, -1) : name;
  return bare === "" || bare === "@" ? [] : bare.split(".").reverse();
}

/**
 * A stored owner name (relative to its zone, `@` for the apex) as a key whose text order
 * is canonical order within the zone: its labels rightmost first, joined by a space
 * (`leaf.ent` → `ent leaf`, the apex → ""). A space sorts before every octet a stored
 * label holds (LDH, `_`, `*`), so a name sorts just before the names below it, and the
 * names below `ent` are exactly the keys in the range (`ent `, `ent!`): one index seek.
 */
export function ownerOrder(owner: string): string {
  return reversedLabels(owner).join(" ");
}

export function compareReversedLabels(a: readonly string[], b: readonly string[]): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Orders two names (absolute, or relative to one zone) canonically. */
export function compareNamesCanonically(a: string, b: string): number {
  return compareReversedLabels(reversedLabels(a.toLowerCase()), reversedLabels(b.toLowerCase()));
}
