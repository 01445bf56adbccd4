// D1's documented limits (https://developers.cloudflare.com/d1/platform/limits/), as the
// writes of this service respect them. "Limits for individual queries apply to each
// individual statement contained within a batch", and the query duration limit applies
// to the whole batch call. D1 documents no number of statements per batch; it bounds the
// queries of one Worker invocation (50 on Workers Free, 1 000 on Workers Paid), and a
// batch whose size followed its input (a statement per record, say) would meet that bound,
// the duration limit or both. So every batch here has a number of statements fixed by
// its operation, never by the size of what it writes (sets are written by set-based SQL
// or JSON chunks), and stays under the strictest count, Workers Free's 50.
export const D1_LIMITS = {
  /** "Maximum bound parameters per query". */
  boundParametersPerStatement: 100,
  /** "Maximum SQL statement length": 100 KB. */
  statementBytes: 100_000,
  /** "Maximum string, BLOB or table row size": 2 MB today, 1 MB in an earlier edition; the stricter is kept. */
  stringBytes: 1_000_000,
  /** "Maximum SQL query duration", which bounds a whole batch. */
  queryDurationSeconds: 30,
  /** "Queries per Worker invocation" on Workers Free (1 000 on Workers Paid). */
  queriesPerInvocation: 50,
} as const;

/** The most statements any batch of this service holds (see above). */
export const MAX_STATEMENTS_PER_BATCH = D1_LIMITS.queriesPerInvocation;
