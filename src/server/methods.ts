// The 2026-07-28 methods, independent of transport: each takes params and a request scope and returns a result.
import { unversionedAsker } from '../elicitation/rounds';
import { withRounds } from '../elicitation/round-call';
import { META, SUPPORTED_VERSIONS, methodNotFound } from '../protocol';
import { findTool, runTool } from './call-tool';
import type { ParleyServer } from './instance';
import type { AuthInfo } from './tool-types';

export interface RequestScope {
  /** 'unversioned': the request named no protocol version, so nobody can be asked. */
  era: 'modern' | 'unversioned';
  auth: AuthInfo;
  capabilities: Record<string, unknown>;
  signal: AbortSignal;
}

type Method = (server: ParleyServer, params: Record<string, unknown>, scope: RequestScope) => Promise<Record<string, unknown>> | Record<string, unknown>;

export function capabilitiesOf(server: ParleyServer): Record<string, unknown> {
  return { tools: { listChanged: false } };
}

const METHODS: Record<string, Method> = {
  'server/discover': (server) => ({
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities: capabilitiesOf(server),
    ...(server.config.instructions ? { instructions: server.config.instructions } : {}),
    ttlMs: server.cache.ttlMs,
    cacheScope: server.cache.scope,
  }),
  'tools/list': (server) => ({ tools: server.toolList, ttlMs: server.cache.ttlMs, cacheScope: server.cache.scope }),
  'tools/call': async (server, params, scope) => {
    const { entry, args } = findTool(server, params);
    const base = { auth: scope.auth, signal: scope.signal };
    if (scope.era === 'unversioned') {
      const outcome = await runTool(server, entry, args, { ...base, asker: unversionedAsker });
      return outcome.kind === 'result' ? outcome.result : {};
    }
    return withRounds(server, { method: 'tools/call', name: entry.name, args, params, auth: scope.auth, capabilities: scope.capabilities }, (asker) =>
      runTool(server, entry, args, { ...base, asker, suspended: asker.suspended }),
    );
  },
};

export const isKnownMethod = (method: string): boolean => method in METHODS;

/** Runs a method and wraps its result in the envelope every result carries. */
export async function handleRequest(server: ParleyServer, method: string, params: Record<string, unknown>, scope: RequestScope): Promise<Record<string, unknown>> {
  const handler = METHODS[method];
  if (!handler) throw methodNotFound(method);
  const result = await handler(server, params, scope);
  const meta = result._meta as Record<string, unknown> | undefined;
  return { resultType: 'complete', ...result, _meta: { ...meta, [META.serverInfo]: server.info } };
}
