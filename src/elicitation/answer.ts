// Checking an answer: an unknown action counts as cancel, and accepted form content must fit the schema.
import { InvalidInputError } from '../protocol';
import { isJsonSchema, toValidator, type ElicitResult, type ElicitStatus, type SchemaInput } from '../model';
import { checkFlatForm } from './form-check';
import type { RawAnswer } from './types';

const STATUSES: readonly ElicitStatus[] = ['accept', 'decline', 'cancel'];

export async function checkAnswer(raw: RawAnswer, schema: SchemaInput, mode: 'form' | 'url'): Promise<ElicitResult<unknown>> {
  const status = STATUSES.includes(raw.action as ElicitStatus) ? (raw.action as ElicitStatus) : 'cancel';
  if (status !== 'accept') return { status };
  // A URL-mode answer carries no content, so there is nothing to check.
  if (mode === 'url') return { status };
  if (isJsonSchema(schema)) {
    const problem = checkFlatForm(raw.content ?? {}, schema);
    if (problem) throw mismatch(problem);
    return { status, content: raw.content };
  }
  const checked = await toValidator(schema)(raw.content ?? {});
  if (!checked.ok) throw mismatch(checked.error);
  return { status, content: checked.value };
}

const mismatch = (detail: string) => new InvalidInputError(`Elicitation response content does not match the requested schema: ${detail}`);
