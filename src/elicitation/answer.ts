// Checking an answer: an unknown action counts as cancel, and accepted form content must fit the schema.
import type * as z from 'zod';
import { InvalidInputError } from '../protocol';
import { describeIssues, toZod, type ElicitResult, type ElicitStatus, type SchemaInput } from '../server';
import { checkFlatForm } from './form-check';
import type { RawAnswer } from './types';

const STATUSES: readonly ElicitStatus[] = ['accept', 'decline', 'cancel'];

export function checkAnswer(raw: RawAnswer, schema: SchemaInput, mode: 'form' | 'url'): ElicitResult<unknown> {
  const status = STATUSES.includes(raw.action as ElicitStatus) ? (raw.action as ElicitStatus) : 'cancel';
  if (status !== 'accept') return { status };
  // A URL-mode answer carries no content, so there is nothing to check.
  if (mode === 'url') return { status };
  const zod = toZod(schema);
  if (zod) {
    const parsed = zod.safeParse(raw.content ?? {});
    if (!parsed.success) throw mismatch(describeIssues(parsed.error as z.ZodError));
    return { status, content: parsed.data };
  }
  const problem = checkFlatForm(raw.content ?? {}, schema as Record<string, unknown>);
  if (problem) throw mismatch(problem);
  return { status, content: raw.content };
}

const mismatch = (detail: string) => new InvalidInputError(`Elicitation response content does not match the requested schema: ${detail}`);
