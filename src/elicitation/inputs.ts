// Sampling and roots questions: their params, and checks that an answer has the shape its method promises.
import { isObject, InvalidInputError } from '../protocol';
import type { Root, SampleOptions, SampleParams, SampleResult } from '../model';
import type { RawAnswer } from './types';

export function sampleParams(input: string | SampleParams, options: SampleOptions): Record<string, unknown> {
  if (typeof input === 'string') {
    if (input === '') throw new InvalidInputError('sample() needs a prompt');
    return { messages: [{ role: 'user', content: { type: 'text', text: input } }], maxTokens: options.maxTokens ?? 1000 };
  }
  if (!isObject(input) || !Array.isArray(input.messages) || typeof input.maxTokens !== 'number')
    throw new InvalidInputError('sample() needs a prompt, or params with messages and maxTokens');
  return { ...input };
}

const isContent = (c: unknown) => isObject(c) && typeof c.type === 'string';

export function checkSample(raw: RawAnswer): SampleResult {
  const { role, content } = raw;
  const contentOk = Array.isArray(content) ? content.length > 0 && content.every(isContent) : isContent(content);
  if ((role !== 'user' && role !== 'assistant') || !contentOk)
    throw new InvalidInputError('The sampling response is not a CreateMessageResult: it needs a role and content');
  return { ...raw, model: typeof raw.model === 'string' ? raw.model : 'unknown' } as SampleResult;
}

export function checkRoots(raw: RawAnswer): Root[] {
  const roots = raw.roots;
  if (!Array.isArray(roots) || !roots.every((r) => isObject(r) && typeof r.uri === 'string'))
    throw new InvalidInputError('The roots response is not a ListRootsResult: it needs roots, each with a uri');
  return roots as Root[];
}
