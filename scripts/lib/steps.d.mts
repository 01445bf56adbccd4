// Types for steps.mjs, which runs in Node without a build step (scripts/test.mjs).
export type Step =
  | {
      name: string;
      /** The program and its arguments, run in the repository's root. */
      command: string[];
      run?: undefined;
    }
  | {
      name: string;
      command?: undefined;
      /** Work done in this process: its output is printed as the step's block. */
      run: () => Promise<{ ok: boolean; output?: string }>;
    };
export interface StepResult {
  name: string;
  ok: boolean;
  ms: number;
  /** Ended by stop(), not by itself. */
  stopped?: true;
}
export interface StepOptions {
  /** Where the step's lines go (default console.log). */
  log?: (line: string) => void;
}
export interface QueueOptions extends StepOptions {
  /** Called as each step ends, before the next one starts. */
  onResult?: (result: StepResult) => void;
}
export interface Started {
  done: Promise<StepResult>;
  stop(): void;
}
export interface Queue {
  done: Promise<{ results: StepResult[]; notRun: string[] }>;
  setLanes(lanes: number): void;
  stop(): void;
}
export function seconds(ms: number): string;
export function startStep(step: Step, options?: StepOptions): Started;
export function runStep(step: Step, options?: StepOptions): Promise<StepResult>;
export function startQueue(steps: Step[], lanes: number, options?: QueueOptions): Queue;
export function runInLanes(steps: Step[], lanes: number, options?: StepOptions): Promise<StepResult[]>;
