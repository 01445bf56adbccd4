// Types for steps.mjs, which runs in Node without a build step (scripts/test.mjs).
export interface Step {
  name: string;
  /** The program and its arguments, run in the repository's root. */
  command: string[];
}
export interface StepResult {
  name: string;
  ok: boolean;
  ms: number;
}
export interface StepOptions {
  /** Where the step's lines go (default console.log). */
  log?: (line: string) => void;
}
export function seconds(ms: number): string;
export function runStep(step: Step, options?: StepOptions): Promise<StepResult>;
export function runInLanes(steps: Step[], lanes: number, options?: StepOptions): Promise<StepResult[]>;
