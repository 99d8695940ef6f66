// The results a call's steps recorded (ToolContext.step, run by ElicitRun.step), as they travel between its runs.
import type { RecordedStep } from './types';

/**
 * A call's recorded steps as they travel (requestState, the fallback's record, a task's record): `[name, value]`, or
 * `[name]` for undefined. Only ever read from what this server sealed, so its shape is its own.
 */
export class StepLog {
  readonly entries: [string, unknown?][];
  constructor(entries?: [string, unknown?][]) {
    this.entries = entries ? [...entries] : [];
  }
  get(name: string): RecordedStep | undefined {
    const entry = this.entries.find((e) => e[0] === name);
    return entry && (1 in entry ? { value: entry[1] } : {});
  }
  add(name: string, value: unknown): void {
    this.entries.push(value === undefined ? [name] : [name, value]);
  }
}
