// What a task's channel carries, and reading it back: a message from the store's pub/sub is outside input.
import { isObject } from '../../protocol';
import type { EndStatus } from './task-record';

/**
 * What a task's channel carries: that keys were answered (never with what: the store holds it, sealed), that the work
 * changed its record (asked, took answers in, or reported progress: listen streams read the task again), or the end.
 */
export type TaskEvent = { kind: 'answer'; keys: string[] } | { kind: 'changed' } | { kind: 'end'; status: EndStatus };

/** The event a channel message holds, or undefined for anything else (not JSON, another shape, an unknown status). */
export function parseEvent(message: string): TaskEvent | undefined {
  let event: unknown;
  try {
    event = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(event)) return undefined;
  if (event.kind === 'end' && (event.status === 'completed' || event.status === 'failed' || event.status === 'cancelled'))
    return { kind: 'end', status: event.status };
  if (event.kind === 'changed') return { kind: 'changed' };
  if (event.kind === 'answer' && Array.isArray(event.keys) && event.keys.every((k) => typeof k === 'string'))
    return { kind: 'answer', keys: event.keys as string[] };
  return undefined;
}
