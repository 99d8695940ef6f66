// The methods of protocol revisions before 2026-07-28 that differ from the modern table; the rest are served by it.
import { FALLBACK_TOOL_WIRE } from '../fallback-tool';
import { elicitationModes } from '../../elicitation';
import { LEGACY_VERSIONS, invalidParams, isLegacyVersion, isObject, methodNotFound } from '../../protocol';
import { capabilitiesOf, handleRequest, isKnownMethod } from '../methods';
import { callerKey } from '../round-call';
import type { ParleyServer } from '../server';
import { createNotifier, LOG_LEVELS, type AuthInfo, type McpLogLevel } from '../../model';
import { changeSubscription } from './changes';
import type { LiveSession } from './sessions';

/** What 2025-11-25's initialize says of tasks where a tool may run as one: tools/call as a task, listed and cancelled. */
const LEGACY_TASKS = Object.freeze({ list: {}, cancel: {}, requests: { tools: { call: {} } } });

/** The revision the session speaks: the client's when Parley serves it, else the newest legacy one. */
export const negotiate = (requested: unknown): string =>
  typeof requested === 'string' && isLegacyVersion(requested) ? requested : LEGACY_VERSIONS[0];

export function initializeResult(server: ParleyServer, version: string): Record<string, unknown> {
  return {
    protocolVersion: version,
    capabilities: { ...capabilitiesOf(server), logging: {}, ...(server.tasks ? { tasks: LEGACY_TASKS } : {}) },
    serverInfo: server.info,
    ...(server.config.instructions ? { instructions: server.config.instructions } : {}),
  };
}

interface LegacyScope {
  session: LiveSession;
  auth: AuthInfo;
  signal: AbortSignal;
}

export async function legacyMethod(
  server: ParleyServer,
  method: string,
  params: Record<string, unknown>,
  scope: LegacyScope,
): Promise<Record<string, unknown>> {
  switch (method) {
    case 'ping':
      return {};
    case 'tools/list': {
      // sendElicitationResult is listed only to clients that declared no elicitation: they need the fallback.
      const modes = elicitationModes(scope.session.record.capabilities);
      const fallback = server.config.elicitation.enabled && !modes.form && !modes.url;
      return { tools: fallback ? [...server.toolList, FALLBACK_TOOL_WIRE] : server.toolList };
    }
    case 'logging/setLevel':
      if (!LOG_LEVELS.includes(params.level as McpLogLevel)) throw invalidParams(`level must be one of ${LOG_LEVELS.join(', ')}`);
      scope.session.logLevel = params.level as string;
      return {};
    case 'tasks/get':
    case 'tasks/list':
    case 'tasks/cancel':
      return legacyTaskMethod(server, method, params, scope);
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return changeSubscription(server, scope.session, method, params);
  }
  if (!isKnownMethod(method) || method === 'server/discover') throw methodNotFound(method);
  // The modern handler, without the fields only 2026-07-28 results carry.
  const {
    resultType: _r,
    ttlMs: _t,
    cacheScope: _c,
    ...result
  } = await handleRequest(
    server,
    method,
    params,
    {
      auth: scope.auth,
      capabilities: isObject(scope.session.record.capabilities) ? scope.session.record.capabilities : {},
      signal: scope.signal,
      notifier: createNotifier(undefined, undefined, server.logger),
      changes: server.changes,
    },
    'unversioned',
  );
  return result;
}

/** The task's owner on this era: the verified caller, or the session for an anonymous one (its tasks are its own). */
export const legacyTaskOwner = (auth: AuthInfo, session: LiveSession): string =>
  auth.anonymous ? `session:${session.record.sessionId}` : callerKey(auth);

/** tasks/get, tasks/list and tasks/cancel: -32601 where no tool may run as a task. */
function legacyTaskMethod(
  server: ParleyServer,
  method: 'tasks/get' | 'tasks/list' | 'tasks/cancel',
  params: Record<string, unknown>,
  scope: LegacyScope,
): Promise<Record<string, unknown>> {
  if (!server.tasks) throw methodNotFound(method);
  const tasks = server.tasks.legacy;
  const owner = legacyTaskOwner(scope.auth, scope.session);
  if (method === 'tasks/list') {
    // One page holds every listed task (the store keeps a caller's index short): a cursor names no later page.
    if (params.cursor !== undefined) throw invalidParams('tasks/list: unknown cursor');
    return tasks.list(owner);
  }
  if (typeof params.taskId !== 'string') throw invalidParams(`${method} needs params.taskId, a string`);
  return method === 'tasks/get' ? tasks.get(params.taskId, owner) : tasks.cancel(server, params.taskId, owner);
}
