// Types for migrations-retry.mjs, which runs in Node without a build step (scripts/lib/wrangler.mjs).
export interface MigrationRun {
  ok: boolean;
  code: number;
  signalled?: boolean;
  output: string;
  applied: string[];
  /** The first run's output, when a second run succeeded. */
  retried?: string;
}
export function onceMoreIfInternal(attempt: () => Promise<MigrationRun>, stopping?: () => boolean): Promise<MigrationRun>;
