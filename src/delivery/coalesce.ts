// The webhooks of one delivery pass run side by side (pass.ts), and each asks D1 for the
// same things: the next events, their bodies, a record of its attempts. Asked through
// `coalesced`, the questions that arrive while one round trip is under way wait for it to
// end and then go together in the next one (as a database's group commit does), so ten
// webhooks fed by the same events cost about the round trips of one.

/** A function of one item whose calls are answered `run` a list of them at a time (in order). */
export function coalesced<In, Out>(run: (items: readonly In[]) => Promise<readonly Out[]>): (item: In) => Promise<Out> {
  let waiting: { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    while (waiting.length > 0) {
      const taken = waiting;
      waiting = [];
      try {
        const outs = await run(taken.map((w) => w.item));
        for (const [i, w] of taken.entries()) w.resolve(outs[i]!);
      } catch (error) {
        for (const w of taken) w.reject(error);
      }
    }
    running = false;
  };
  return (item) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running) return;
      running = true;
      // A turn of the event loop first: the calls made at the same moment go together.
      setTimeout(() => void drain(), 0);
    });
}

/** At most `limit` of the calls it wraps run at once; the others wait their turn, in order. */
export function limited(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (task) => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}
