/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (ESCAPE '\'). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
