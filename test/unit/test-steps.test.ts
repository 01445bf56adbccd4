import { describe, expect, it } from "vitest";
import { runInLanes, type Step } from "../../scripts/lib/steps.mjs";

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
  it("steps running at once print their output as one block each, never interleaved, in the order written", async () => {
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
      expect(blocks[start + 1]).toBe([0, 1, 2, 3, 4, 5].map((i) => `${name} line ${i}`).join("\n"));
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
