/** A human list of names: `a, b` or, when there are more than those listed, `a, b and more`. */
export function nameList(names: string[], more: boolean): string {
  return more ? `${names.join(", ")} and more` : names.join(", ");
}
