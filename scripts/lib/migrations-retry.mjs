// When `npm start` applies the local D1 migrations a second time (scripts/lib/wrangler.mjs,
// applyLocalMigrations): only after a failure of wrangler's or workerd's own. Seen once in
// a CI run under load: `✘ [ERROR] false == true` (an internal assertion) before the first
// migration. Each migration commits with its row in d1_migrations in one batch, so a second
// run applies exactly what the first did not; a fault in a migration's SQL (SQLITE_…) would
// fail again and is not retried, nor is a run stopped by a signal or by the caller.

/**
 * Runs `attempt()` ({ ok, signalled, output, applied }) and, when it failed in wrangler
 * itself and the caller is not stopping, once more: the second result, with the first's
 * output as `retried` when it succeeded, or both outputs when it failed too.
 */
/** @type {typeof import("./migrations-retry.mjs").onceMoreIfInternal} */
export async function onceMoreIfInternal(attempt, stopping = () => false) {
  const first = await attempt();
  if (first.ok || first.signalled || stopping() || /SQLITE_/.test(first.output)) return first;
  const second = await attempt();
  if (second.ok) return { ...second, applied: [...new Set([...first.applied, ...second.applied])], retried: first.output };
  return { ...second, output: `${first.output.trimEnd()}\n[migrations] tried again after that failure:\n${second.output}` };
}
