// Checking an answer: an unknown action counts as cancel, and accepted form content must fit the schema.
import { InvalidInputError } from '../protocol';
import { isJsonSchema, toValidator, type ElicitResult, type ElicitStatus, type SchemaInput } from '../model';
import { checkFlatForm } from './form-check';
import type { RawAnswer } from './types';

const STATUSES: readonly ElicitStatus[] = ['accept', 'decline', 'cancel'];

/**
 * The answer as the tool reads it: synchronous when the schema's check is (Zod, JSON Schema), a promise only for a
 * library whose check is asynchronous. Every caller awaits it in an async function, so a throw is its rejection.
 */
export function checkAnswer(
  raw: RawAnswer,
  schema: SchemaInput,
  mode: 'form' | 'url',
): ElicitResult<unknown> | Promise<ElicitResult<unknown>> {
  const status = STATUSES.includes(raw.action as ElicitStatus) ? (raw.action as ElicitStatus) : 'cancel';
  if (status !== 'accept') return { status };
  // A URL-mode answer carries no content, so there is nothing to check.
  if (mode === 'url') return { status };
  if (isJsonSchema(schema)) {
    const problem = checkFlatForm(raw.content ?? {}, schema);
    if (problem) throw mismatch(problem);
    return { status, content: raw.content };
  }
  const checked = toValidator(schema)(raw.content ?? {});
  return checked instanceof Promise ? checked.then((c) => accepted(status, c)) : accepted(status, checked);
}

function accepted(status: ElicitStatus, checked: Awaited<ReturnType<ReturnType<typeof toValidator>>>): ElicitResult<unknown> {
  if (!checked.ok) throw mismatch(checked.error);
  return { status, content: checked.value };
}

const mismatch = (detail: string) => new InvalidInputError(`Elicitation response content does not match the requested schema: ${detail}`);
