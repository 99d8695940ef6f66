// Keeps stdout for MCP alone: while serving, anything else written to process.stdout (a tool's console.log) goes to stderr.
import type { Writable } from 'node:stream';

interface MessageSink {
  /** Writes one line of JSON-RPC; resolves once it was handed to the stream. */
  write(line: string): Promise<void>;
  /** Gives process.stdout its own write back. */
  restore(): void;
}

/** A sink on `output`; when that is process.stdout, other writers to it are sent to stderr until restore(). */
export function guardOutput(output: Writable): MessageSink {
  const ownWrite = output.write.bind(output) as (chunk: string, callback: (error?: Error | null) => void) => boolean;
  const write = (line: string) => new Promise<void>((resolve) => ownWrite(`${line}\n`, () => resolve()));
  if (output !== process.stdout) return { write, restore() {} };
  const original = process.stdout.write;
  // console.log, console.info, console.table … all end in process.stdout.write.
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  return {
    write,
    restore() {
      process.stdout.write = original;
    },
  };
}
