// The 2026-07-28 methods, independent of transport: each takes params and the request's scope and returns a result.
import { isRetry } from './round-call';
import { META, SUPPORTED_VERSIONS, isObject, methodNotFound, serverInfoMeta } from '../protocol';
import { callTool, findCall } from './call-tool';
import { complete } from './complete';
import { FALLBACK_TOOL_WIRE } from './fallback-tool';
import { findPrompt, runPrompt } from './get-prompt';
import type { ParleyServer } from './server';
import type { RequestScope } from '../model';
import { locateResource, runResource } from './read-resource';
import { routed, type Route } from './route';
import { TASK_METHODS } from './tasks/task-methods';
import { TASKS_EXTENSION } from './tasks/task-wire';

/** 'unversioned': the request named no protocol version, so nobody can be asked. */
type Era = 'modern' | 'unversioned';

type Method = (
  server: ParleyServer,
  params: Record<string, unknown>,
  scope: RequestScope,
  route: Route,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

const hasPrompts = (server: ParleyServer) => server.prompts.size > 0;
const hasResources = (server: ParleyServer) => server.resources.fixed.size > 0 || server.resources.templates.length > 0;

/** What server/discover declares: exactly what the methods below serve. */
export function capabilitiesOf(server: ParleyServer): Record<string, unknown> {
  return {
    tools: { listChanged: true },
    ...(hasPrompts(server) ? { prompts: { listChanged: true } } : {}),
    ...(hasResources(server) ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(hasPrompts(server) || server.resources.templates.length > 0 ? { completions: {} } : {}),
    logging: {},
    ...(server.config.extensions ? { extensions: server.config.extensions } : {}),
  };
}

/** A capability the server does not have answers like a method it does not know. */
const gated =
  (has: (server: ParleyServer) => boolean, method: string, handler: Method): Method =>
  (server, params, scope, route) => {
    if (!has(server)) throw methodNotFound(method);
    return handler(server, params, scope, route);
  };

/**
 * server/discover's capabilities: the tasks extension besides those of the config when a tool may run as a task
 * (2026-07-28 only: never `capabilities.tasks`, and not in an older client's initialize).
 */
function discoverCapabilities(server: ParleyServer): Record<string, unknown> {
  const capabilities = capabilitiesOf(server);
  if (!server.tasks) return capabilities;
  return { ...capabilities, extensions: { ...server.config.extensions, [TASKS_EXTENSION]: {} } };
}

const cacheHints = (server: ParleyServer) => ({ ttlMs: server.cache.ttlMs, cacheScope: server.cache.scope });

/** The Skills extension's methods (engine/skills): unknown where the config has no skills. */
const skillMethod =
  (method: string): Method =>
  (server, params) => {
    if (!server.resources.skills) throw methodNotFound(method);
    return server.resources.skills.answer(method, params, server.cache);
  };

// A Map, so a method named `constructor` or `__proto__` is one it does not know, not Object.prototype's.
const METHODS = new Map<string, Method>(
  Object.entries({
    'server/discover': (server) => ({
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: discoverCapabilities(server),
      ...(server.config.instructions ? { instructions: server.config.instructions } : {}),
      ...cacheHints(server),
    }),
    // sendElicitationResult is listed only to clients that declared no elicitation: they need the fallback.
    'tools/list': (server, _params, scope) => ({
      tools:
        server.config.elicitation.enabled && !isObject(scope.capabilities.elicitation)
          ? [...server.toolList, FALLBACK_TOOL_WIRE]
          : server.toolList,
      ...cacheHints(server),
    }),
    'tools/call': (server, params, scope, route) => callTool(server, findCall(server, params), scope, route),
    'prompts/list': gated(hasPrompts, 'prompts/list', (server) => ({ prompts: server.promptList, ...cacheHints(server) })),
    'prompts/get': gated(hasPrompts, 'prompts/get', (server, params, scope, route) => {
      const { entry, args } = findPrompt(server, params);
      return routed(server, scope, route, { method: 'prompts/get', name: entry.name, args }, (asker) =>
        runPrompt(server, entry, args, scope, asker),
      );
    }),
    'resources/list': gated(hasResources, 'resources/list', (server) => ({ resources: server.resourceList, ...cacheHints(server) })),
    'resources/templates/list': gated(hasResources, 'resources/templates/list', (server) => ({
      resourceTemplates: server.templateList,
      ...cacheHints(server),
    })),
    'resources/read': gated(hasResources, 'resources/read', async (server, params, scope, route) => {
      const found = locateResource(server, params);
      const result = await routed(server, scope, route, { method: 'resources/read', name: found.uri, args: {} }, (asker) =>
        runResource(server, found, scope, asker),
      );
      // A retry's result answers one person's questions: nobody may cache it.
      return isRetry(params) && Object.hasOwn(result, 'ttlMs') ? { ...result, ttlMs: 0, cacheScope: 'private' } : result;
    }),
    'completion/complete': gated(
      (s) => hasPrompts(s) || s.resources.templates.length > 0,
      'completion/complete',
      (server, params) => complete(server, params),
    ),
    'skills/list': skillMethod('skills/list'),
    'skills/get': skillMethod('skills/get'),
    'resources/directory/read': skillMethod('resources/directory/read'),
    ...TASK_METHODS,
  } satisfies Record<string, Method>),
);

export const isKnownMethod = (method: string): boolean => METHODS.has(method);

/**
 * Runs a method and wraps its result in the envelope every result carries. A 2026-07-28 request asks its questions as
 * input_required rounds; one that named no version (and an older client's prompts and resources) has nobody to ask.
 */
export async function handleRequest(
  server: ParleyServer,
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
  era: Era = 'modern',
): Promise<Record<string, unknown>> {
  const handler = METHODS.get(method);
  if (!handler) throw methodNotFound(method);
  const route: Route = era === 'modern' ? { via: 'rounds', params } : { via: 'nobody' };
  const result = await handler(server, params, scope, route);
  const meta = result._meta as Record<string, unknown> | undefined;
  return {
    resultType: 'complete',
    ...result,
    _meta: meta === undefined ? serverInfoMeta(server.info) : { ...meta, [META.serverInfo]: server.info },
  };
}
