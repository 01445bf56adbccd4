// What a 5xx leaves in the logs: the request id (in the caller) and a summary of the
// error that names its kind and where it happened, never the SQL text or the values bound
// to it — drizzle's "Failed query: <sql> params: <values>" carries request data (names,
// addresses, auth_info) that has no place in a log.

const MAX_FRAMES = 8;
// Anywhere in the text: a trigger's RAISE message comes before the code ("words: SQLITE_CONSTRAINT").
const SQL_ERROR = /\b(D1_|SQLITE_)[A-Z_]*/;

/** The innermost cause of an error (drizzle wraps D1's error, which wraps SQLite's). */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  return current;
}

/** Stack frames as `function (file:line:column)`, without the message line above them. */
function frames(error: unknown): string[] {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== "string") return [];
  return stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => line.trim());
}

/**
 * `{kind, message, at}`: `kind` is the error class (or the SQLite/D1 error code), `message`
 * is kept only when it cannot hold request data (a database error's code and constraint,
 * or an error that is not about a query).
 */
export function safeErrorSummary(error: unknown): { kind: string; message: string; at: string[] } {
  const cause = innermost(error);
  const name = cause instanceof Error ? cause.name : typeof cause;
  const text = cause instanceof Error ? cause.message : String(cause);
  const code = SQL_ERROR.exec(text)?.[0];
  let message: string;
  if (code) {
    // "D1_ERROR: UNIQUE constraint failed: zones.name: SQLITE_CONSTRAINT" names a column, not a value.
    const constraint = /(UNIQUE|FOREIGN KEY|NOT NULL|CHECK|PRIMARY KEY) constraint failed(: [\w.]+(, [\w.]+)*)?/.exec(text)?.[0];
    message = constraint ? `${code}: ${constraint}` : code;
  } else if (/failed query|params:|select |insert |update |delete /i.test(text)) {
    message = "(query text withheld)";
  } else {
    message = text.slice(0, 200);
  }
  return { kind: code ?? name, message, at: frames(cause) };
}
