// Sampling and roots questions: their params, and checks that an answer has the shape its method promises.
import { isObject } from '../protocol';
import { InvalidInputError } from '../server/errors';
import type { RawAnswer } from './types';

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
}

/** sampling/createMessage params, as the protocol defines them. */
export interface SampleParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  tools?: Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface SampleOptions {
  /** The inputRequests key; default `sampling-1`, `sampling-2`, … in the order asked. */
  key?: string;
  /** For a prompt given as a string: the token budget. Default 1000. */
  maxTokens?: number;
}

/** What the client's model answered (CreateMessageResult). */
export interface SampleResult {
  role: 'user' | 'assistant';
  content: Record<string, unknown> | Record<string, unknown>[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
  [key: string]: unknown;
}

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
