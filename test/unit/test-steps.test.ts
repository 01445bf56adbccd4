import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInLanes, type Step, startQueue } from "../../scripts/lib/steps.mjs";

// npm test runs its steps side by side (scripts/test.mjs); these are the runner's rules.

/** A step that writes `lines` lines, 50 ms apart, on stdout and stderr by turns, then exits with `code`. */
function writer(name: string, lines: number, code = 0): Step {
  const script = `let i = 0; const t = setInterval(() => { (i % 2 ? process.stderr : process.stdout).write("${name} line " + i + "\\n"); if (++i === ${lines}) { clearInterval(t); process.exitCode = ${code}; } }, 50);`;
  return { name, command: ["node", "-e", script] };
}

async function run(steps: Step[], lanes: number) {
  const logged: string[] = [];
  const results = await runInLanes(steps, lanes, { log: (line) => logged.push(line) });
  return { results, logged };
}

describe("npm test's steps side by side (scripts/lib/steps.mjs)", () => {
  it("steps running at once print their output as one block each, never interleaved, each stream's lines in order", async () => {
    const { results, logged } = await run([writer("a", 6), writer("b", 6)], 2);
    // Results come in the order the steps ended.
    expect(results.map((r) => [r.name, r.ok]).sort()).toEqual([
      ["a", true],
      ["b", true],
    ]);
    // Both started before either ended: they ran at once.
    expect(logged.slice(0, 2)).toEqual(["▶ a started", "▶ b started"]);
    const blocks = logged.slice(2);
    for (const name of ["a", "b"]) {
      const start = blocks.indexOf(`\n━━━ ${name} ━━━`);
      expect(start).toBeGreaterThanOrEqual(0);
      // stdout (even lines) and stderr (odd) are two pipes: on a loaded machine one may be
      // read before the other, so each is in order, not the two together.
      const block = blocks[start + 1]?.split("\n") ?? [];
      const lines = (numbers: number[]) => numbers.map((i) => `${name} line ${i}`);
      expect(block.filter((line) => Number(line.at(-1)) % 2 === 0)).toEqual(lines([0, 2, 4]));
      expect(block.filter((line) => Number(line.at(-1)) % 2 === 1)).toEqual(lines([1, 3, 5]));
      expect(block).toHaveLength(6);
      expect(blocks[start + 2]).toMatch(new RegExp(`^━━━ ${name}: passed in \\d+ s ━━━\\n$`));
    }
  });

  it("with one lane the next step starts only when the one before it has ended", async () => {
    const { logged } = await run([writer("first", 2), writer("second", 2)], 1);
    expect(logged.indexOf("▶ second started")).toBeGreaterThan(logged.findIndex((line) => line.startsWith("━━━ first: passed")));
  });

  it("a step that fails is reported FAILED with its exit code, and the other steps still run", async () => {
    const { results, logged } = await run([writer("broken", 2, 3), writer("fine", 2)], 1);
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["broken", false],
      ["fine", true],
    ]);
    expect(logged).toContainEqual(expect.stringMatching(/^━━━ broken: FAILED \(exit 3\) in \d+ s ━━━\n$/));
  });

  it("a program that cannot start is one FAILED step, reported once", async () => {
    const { results, logged } = await run([{ name: "missing", command: ["./no-such-program-here"] }], 1);
    expect(results).toEqual([{ name: "missing", ok: false, ms: expect.any(Number) }]);
    expect(logged.filter((line) => line.startsWith("━━━ missing: FAILED"))).toEqual([expect.stringContaining("ENOENT")]);
  });
});

describe("npm test's queue of end-to-end suites (startQueue)", () => {
  /** A step that runs until it is stopped (SIGTERM), says so on its way out, and leaves `dir/name` once it listens for the signal. */
  const sleeper = (name: string, dir: string): Step => ({
    name,
    command: [
      "node",
      "-e",
      `process.on("SIGTERM", () => { console.log("${name} cleaned up"); process.exit(143); }); setInterval(() => {}, 1000); console.log("${name} running"); require("node:fs").writeFileSync(${JSON.stringify(join(dir, name))}, "");`,
    ],
  });

  it("with 0 lanes no step starts until setLanes raises the number", async () => {
    const logged: string[] = [];
    const queue = startQueue([writer("held", 1)], 0, { log: (line) => logged.push(line) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(logged).toEqual([]);
    queue.setLanes(1);
    const { results, notRun } = await queue.done;
    expect(results.map((r) => [r.name, r.ok])).toEqual([["held", true]]);
    expect(notRun).toEqual([]);
  });

  it("stop() ends the running steps by SIGTERM (their cleanup runs), reports them stopped, and starts none of the rest", async () => {
    const logged: string[] = [];
    const results: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), "test-steps-"));
    const queue = startQueue([sleeper("one", dir), sleeper("two", dir), writer("three", 1)], 2, {
      log: (line) => logged.push(line),
      onResult: (result) => results.push(result.name),
    });
    // Stopped once both are running: each has left its file (a hang detector's bound, not a speed check).
    for (let waited = 0; !(existsSync(join(dir, "one")) && existsSync(join(dir, "two"))); waited += 50) {
      if (waited > 60_000) throw new Error("the two steps did not start within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    queue.stop();
    const done = await queue.done;
    expect(done.results.map((r) => [r.name, r.ok, r.stopped]).sort()).toEqual([
      ["one", false, true],
      ["two", false, true],
    ]);
    expect(done.notRun).toEqual(["three"]);
    expect(results.sort()).toEqual(["one", "two"]);
    expect(logged).toContainEqual("one running\none cleaned up");
    expect(logged).toContainEqual(expect.stringMatching(/^━━━ two: stopped \(exit 143\) in \d+ s ━━━\n$/));
    expect(logged).not.toContain("▶ three started");
    rmSync(dir, { recursive: true, force: true });
  });

  it("a step run in this process prints its output as its block, and a thrown error fails it", async () => {
    const logged: string[] = [];
    const { results } = await startQueue(
      [
        { name: "inside", run: async () => ({ ok: true, output: "did it" }) },
        {
          name: "throws",
          run: async () => {
            throw new Error("no luck");
          },
        },
      ],
      1,
      { log: (line) => logged.push(line) },
    ).done;
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["inside", true],
      ["throws", false],
    ]);
    expect(logged).toContain("did it");
    expect(logged).toContainEqual(expect.stringMatching(/^━━━ throws: FAILED \(no luck\) in \d+ s ━━━\n$/));
  });
});
