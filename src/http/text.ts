/** A human list of names: `a, b and 3 more`. */
export function nameList(names: string[], more: boolean): string {
  return more ? `${names.join(", ")} and more` : names.join(", ");
}
