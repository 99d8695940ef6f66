// resources/read: find the resource (fixed URI or template), run execute(), and shape its contents. Never empty.
import type { RoundOutcome } from './round-call';
import { invalidParams, isObject, toWireError } from '../protocol';
import type { ParleyServer } from './server';
import {
  type ResourceContent,
  type ResourceReturn,
  findResource,
  type ResourceEntry,
  type TemplateEntry,
  type RequestScope,
  type UriTemplateParams,
} from '../model';
import { runHandler } from './run-handler';
import { requireScopes } from './scope-check';
import type { Asker } from '../elicitation';

const resourceNotFound = (uri: string) => invalidParams('Resource not found', { uri });

export function locateResource(server: ParleyServer, params: Record<string, unknown>) {
  const { uri } = params;
  if (typeof uri !== 'string' || uri === '') throw invalidParams('resources/read needs params.uri, a string');
  const found = findResource(server.resources, uri);
  if (!found) throw resourceNotFound(uri);
  return { uri, ...found };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function toContents(value: ResourceReturn, uri: string, mimeType: string | undefined): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
  if (value instanceof Uint8Array) return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: toBase64(value) }];
  const list: ResourceContent[] = Array.isArray(value)
    ? value
    : 'contents' in value && Array.isArray(value.contents)
      ? value.contents
      : [value as ResourceContent];
  return list.map((content: unknown) => {
    if (!isObject(content) || (typeof content.text !== 'string' && typeof content.blob !== 'string'))
      throw new Error(`Resource "${uri}" returned a content with neither text nor blob`);
    return { uri, ...(mimeType ? { mimeType } : {}), ...content };
  });
}

export async function runResource(
  server: ParleyServer,
  found: { uri: string; entry: ResourceEntry | TemplateEntry; params: UriTemplateParams },
  scope: RequestScope,
  asker: Asker,
): Promise<RoundOutcome> {
  const { uri, entry, params } = found;
  requireScopes(server, scope.auth, entry.options.scopes, params, `resource "${uri}"`);
  try {
    const run = await runHandler(server, { name: uri, scope, asker }, new entry.cls(), (ctx) => ctx.execute(uri, params));
    if (run.kind === 'suspended') return run;
    const contents = toContents(run.value, uri, entry.options.mimeType);
    // A handler that finds nothing at this URI returns nothing: that is "not found", never an empty contents.
    if (contents.length === 0) throw resourceNotFound(uri);
    const cache = entry.options.cache ?? server.cache;
    return { kind: 'result', result: { contents, ttlMs: cache.ttlMs, cacheScope: cache.scope } };
  } catch (error) {
    throw toWireError(error, server.logger); // they have no isError result: a PublicMcpError keeps its message
  }
}
