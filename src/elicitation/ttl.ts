// How long a question that holds its call open waits for the answer.
import { InvalidInputError } from '../protocol';
import type { ElicitOptions } from '../model';

export const DEFAULT_TTL_MS = 300_000;

/** How long a question waits: the tool's `ttl`, else five minutes. */
export function ttlOf(options: ElicitOptions): number {
  const ttl = options.ttl ?? DEFAULT_TTL_MS;
  if (!(typeof ttl === 'number' && ttl > 0 && Number.isFinite(ttl)))
    throw new InvalidInputError('ttl must be a positive number of milliseconds');
  return ttl;
}
