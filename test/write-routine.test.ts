// The write routine (src/db/write.ts, CONTRIBUTING.md "The write routine"): one batch per
// write, all of it or none of it; a version step derived from the change; a row that must
// change; guards as CHECK-backed assertions; lost races read again, and contention that
// outlasts the attempts is WriteContention. Straight against the test's D1, without HTTP.
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { writeFailure } from "../src/db/errors";
import { guard } from "../src/db/guards";
import { contacts, events, writeAssertions } from "../src/db/schema";
import { commitWrite, LostRace, retryLostRaces, versionStep, WriteContention, writeContextAt } from "../src/db/write";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { createContact } from "./helpers";

const db = database(env.DB);
const ctx = () => writeContextAt(db, new Date(), "test", BUILT_IN_LIMITS);

async function contactRow(id: string) {
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
  return row!;
}

async function eventCount(id: string) {
  const rows = await db.select({ id: events.id }).from(events).where(eq(events.resourceId, id));
  return rows.length;
}

describe("a version step sets what the change moves and the version one on, only where the row is at the version read", () => {
  it("the columns that differ are set, the others left as they are; the row and its event commit together", async () => {
    const { id } = await createContact({ name: "Step One" });
    const current = await contactRow(id);
    const next = { ...current, name: "Step Two", version: current.version + 1 };
    await commitWrite(ctx(), {
      rows: [
        {
          statement: versionStep(db, contacts, current, next),
          event: { account: current.accountId, type: "contact", id, operation: "update", before: null, after: { name: next.name } },
        },
      ],
    });
    const written = await contactRow(id);
    expect(written).toEqual({ ...current, name: "Step Two", version: current.version + 1 });
    expect(await eventCount(id)).toBe(2);
  });

  it("a row another write moved on fails the whole batch: a lost race, nothing written, no event", async () => {
    const { id } = await createContact({ name: "Raced" });
    const current = await contactRow(id);
    await db
      .update(contacts)
      .set({ city: "Elsewhere", version: current.version + 1 })
      .where(eq(contacts.id, id));
    const next = { ...current, name: "Too Late", version: current.version + 1 };
    const write = commitWrite(ctx(), {
      rows: [
        {
          statement: versionStep(db, contacts, current, next),
          event: { account: current.accountId, type: "contact", id, operation: "update", before: null, after: {} },
        },
      ],
      // Written before the check in the batch, yet rolled back with it.
      alongside: [db.update(contacts).set({ fax: "+1.5555550000" }).where(eq(contacts.id, id))],
    });
    await expect(write).rejects.toBeInstanceOf(LostRace);
    const after = await contactRow(id);
    expect(after.name).toBe("Raced");
    expect(after.fax).toBe(current.fax);
    expect(after.version).toBe(current.version + 1);
    expect(await eventCount(id)).toBe(1);
  });

  it("a step that is not exactly one version on is refused before anything is sent", async () => {
    const { id } = await createContact({ name: "Two Steps" });
    const current = await contactRow(id);
    expect(() => versionStep(db, contacts, current, { ...current, version: current.version + 2 })).toThrow(/version step/);
  });
});

describe("a guard is an assertion: when it does not hold the batch rolls back as a lost race, and write_assertions stays empty", () => {
  it("a guard that holds lets the batch commit", async () => {
    const { id } = await createContact({ name: "Guarded Yes" });
    await commitWrite(ctx(), {
      alongside: [db.update(contacts).set({ name: "Guarded Done" }).where(eq(contacts.id, id))],
      guards: [guard(db, "true", sql`1 = 1`)],
    });
    expect((await contactRow(id)).name).toBe("Guarded Done");
  });

  it("a guard that fails undoes what the batch wrote before it, and names itself a failed assertion", async () => {
    const { id } = await createContact({ name: "Guarded No" });
    const batch = db.batch([db.update(contacts).set({ name: "Never" }).where(eq(contacts.id, id)), guard(db, "never", sql`1 = 0`)]);
    const error = await batch.then(
      () => null,
      (e: unknown) => e,
    );
    expect(writeFailure(error)).toBe("assertion_failed");
    await expect(
      commitWrite(ctx(), { alongside: [db.update(contacts).set({ name: "Never" }).where(eq(contacts.id, id))], guards: [guard(db, "never", sql`1 = 0`)] }),
    ).rejects.toBeInstanceOf(LostRace);
    expect((await contactRow(id)).name).toBe("Guarded No");
    expect(await db.select().from(writeAssertions)).toEqual([]);
  });

  it("a NULL condition counts as not holding", async () => {
    await expect(commitWrite(ctx(), { guards: [guard(db, "unknown", sql`null`)] })).rejects.toBeInstanceOf(LostRace);
  });
});

describe("a writer that keeps losing races reads again, and gives up with WriteContention after its attempts", () => {
  it("each attempt runs again; the last lost race becomes WriteContention", async () => {
    let attempts = 0;
    const run = retryLostRaces(async () => {
      attempts++;
      await commitWrite(ctx(), { guards: [guard(db, "never", sql`0`)] });
    }, 3);
    await expect(run).rejects.toBeInstanceOf(WriteContention);
    expect(attempts).toBe(3);
  });

  it("an attempt that wins after a lost race returns its result", async () => {
    let attempts = 0;
    const result = await retryLostRaces(async () => {
      attempts++;
      if (attempts === 1) throw new LostRace();
      return "won";
    });
    expect({ result, attempts }).toEqual({ result: "won", attempts: 2 });
  });
});

describe("the results of a write's last statements come back to the writer", () => {
  it("a read at the end sees what the batch wrote", async () => {
    const { id } = await createContact({ name: "Read Back" });
    const [rows] = await commitWrite(ctx(), {
      alongside: [db.update(contacts).set({ name: "Read Back Two" }).where(eq(contacts.id, id))],
      last: [db.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, id))],
    });
    expect(rows).toEqual([{ name: "Read Back Two" }]);
  });
});
