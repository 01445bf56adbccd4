// The small result types the DNS parsers return: a value or a human reason.
// Parsers never throw; hostile input must come back as a reason, not an exception.

export type RdataResult = { ok: true; content: string } | { ok: false; error: string };
export type Check<T> = { ok: true; value: T } | { ok: false; error: string };

export function ok<T>(value: T): Check<T> {
  return { ok: true, value };
}

export function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

export function content(text: string): RdataResult {
  return { ok: true, content: text };
}

/** A piece of user input quoted for an error message, cut short so a hostile line cannot flood it. */
export function show(text: string): string {
  const limit = 40;
  return JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);
}
