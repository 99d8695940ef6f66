// The 2026-07-28 methods, independent of transport: each takes params and a request scope and returns a result.
import { isRetry, withRounds, type RoundOutcome, type RoundRequest } from './round-call';
import { unversionedAsker, type Asker } from '../elicitation';
import { callToolWithFallback } from './fallback';
import { FALLBACK_TOOL } from './fallback-tool';
import { META, SUPPORTED_VERSIONS, isObject, methodNotFound } from '../protocol';
import { findTool, runTool } from './call-tool';
import { complete } from './complete';
import { findPrompt, runPrompt } from './get-prompt';
import type { ParleyServer } from './server';
import { type ListChanges, createNotifier, type Emit, type Notifier, type AuthInfo } from '../server';
import { locateResource, runResource } from './read-resource';
import type { HandlerScope } from './run-handler';
import type { RequestTrace } from '../runtime';

export interface RequestScope {
  /** 'unversioned': the request named no protocol version, so nobody can be asked. */
  era: 'modern' | 'unversioned';
  auth: AuthInfo;
  capabilities: Record<string, unknown>;
  signal: AbortSignal;
  /** The request's _meta: its progressToken and log level. */
  meta?: Record<string, unknown>;
  /** Sends a notification on this request's own stream; absent when the transport has none. */
  emit?: Emit;
  /** The request's span, when tracing is on: tool calls start theirs under it. */
  trace?: RequestTrace;
}

type Method = (
  server: ParleyServer,
  params: Record<string, unknown>,
  scope: RequestScope,
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
  };
}

/** What a handler's run sees of its request: the caller, signal (read on first use) and capabilities are the request's. */
class RunScope implements HandlerScope {
  constructor(
    private readonly request: RequestScope,
    readonly notifier: Notifier,
    readonly changes: ListChanges,
    readonly asker: Asker,
    readonly suspended?: Promise<void>,
  ) {}

  get auth(): AuthInfo {
    return this.request.auth;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get capabilities(): Record<string, unknown> {
    return this.request.capabilities;
  }

  get trace(): RequestTrace | undefined {
    return this.request.trace;
  }
}

/** Runs a handler that may ask questions: as input_required rounds on 2026-07-28, with nobody to ask when unversioned. */
async function withQuestions(
  server: ParleyServer,
  scope: RequestScope,
  request: Omit<RoundRequest, 'auth' | 'capabilities'>,
  run: (handlerScope: HandlerScope) => Promise<RoundOutcome>,
): Promise<Record<string, unknown>> {
  const notifier = createNotifier(scope.meta, scope.emit, server.logger);
  const handlerScope = (asker: Asker, suspended?: Promise<void>): HandlerScope =>
    new RunScope(scope, notifier, server.changes, asker, suspended);
  if (scope.era === 'unversioned') {
    const outcome = await run(handlerScope(unversionedAsker));
    return outcome.kind === 'result' ? outcome.result : {};
  }
  return withRounds(server, { ...request, auth: scope.auth, capabilities: scope.capabilities }, (asker) =>
    run(handlerScope(asker, asker.suspended)),
  );
}

/** A capability the server does not have answers like a method it does not know. */
const gated =
  (has: (server: ParleyServer) => boolean, method: string, handler: Method): Method =>
  (server, params, scope) => {
    if (!has(server)) throw methodNotFound(method);
    return handler(server, params, scope);
  };

const cacheHints = (server: ParleyServer) => ({ ttlMs: server.cache.ttlMs, cacheScope: server.cache.scope });

// A Map, so a method named `constructor` or `__proto__` is one it does not know, not Object.prototype's.
const METHODS = new Map<string, Method>(
  Object.entries({
    'server/discover': (server) => ({
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: capabilitiesOf(server),
      ...(server.config.instructions ? { instructions: server.config.instructions } : {}),
      ...cacheHints(server),
    }),
    'tools/list': (server) => ({ tools: server.toolList, ...cacheHints(server) }),
    'tools/call': async (server, params, scope) => {
      // The fallback's answer tool is listed only to older clients, but it answers whoever calls it.
      if (params.name === FALLBACK_TOOL && !server.tools.has(FALLBACK_TOOL))
        return callToolWithFallback(server, FALLBACK_TOOL, isObject(params.arguments) ? params.arguments : {}, {
          auth: scope.auth,
          signal: scope.signal,
        });
      const { entry, args } = findTool(server, params);
      return withQuestions(server, scope, { method: 'tools/call', name: entry.name, args, params }, (hs) =>
        runTool(server, entry, args, hs),
      );
    },
    'prompts/list': gated(hasPrompts, 'prompts/list', (server) => ({ prompts: server.promptList, ...cacheHints(server) })),
    'prompts/get': gated(hasPrompts, 'prompts/get', async (server, params, scope) => {
      const { entry, args } = findPrompt(server, params);
      return withQuestions(server, scope, { method: 'prompts/get', name: entry.name, args, params }, (hs) =>
        runPrompt(server, entry, args, hs),
      );
    }),
    'resources/list': gated(hasResources, 'resources/list', (server) => ({ resources: server.resourceList, ...cacheHints(server) })),
    'resources/templates/list': gated(hasResources, 'resources/templates/list', (server) => ({
      resourceTemplates: server.templateList,
      ...cacheHints(server),
    })),
    'resources/read': gated(hasResources, 'resources/read', async (server, params, scope) => {
      const found = locateResource(server, params);
      const result = await withQuestions(server, scope, { method: 'resources/read', name: found.uri, args: {}, params }, (hs) =>
        runResource(server, found, hs),
      );
      // A retry's result answers one person's questions: nobody may cache it.
      return isRetry(params) && Object.hasOwn(result, 'ttlMs') ? { ...result, ttlMs: 0, cacheScope: 'private' } : result;
    }),
    'completion/complete': gated(
      (s) => hasPrompts(s) || s.resources.templates.length > 0,
      'completion/complete',
      (server, params) => complete(server, params),
    ),
  } satisfies Record<string, Method>),
);

export const isKnownMethod = (method: string): boolean => METHODS.has(method);

/** Runs a method and wraps its result in the envelope every result carries. */
export async function handleRequest(
  server: ParleyServer,
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
): Promise<Record<string, unknown>> {
  const handler = METHODS.get(method);
  if (!handler) throw methodNotFound(method);
  const result = await handler(server, params, scope);
  const meta = result._meta as Record<string, unknown> | undefined;
  return { resultType: 'complete', ...result, _meta: { ...meta, [META.serverInfo]: server.info } };
}
