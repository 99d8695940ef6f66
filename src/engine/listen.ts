// subscriptions/listen, independent of transport: acknowledge what is honoured, then forward only those changes, tagged.
import { META, invalidParams, isObject, type JsonRpcId } from '../protocol';
import type { Change } from '../model';
import type { Listening, ParleyServer } from './server';

interface Honoured {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

const MAX_SUBSCRIPTIONS = 100;

/** The subset of the requested notifications this server can deliver. */
function honour(server: ParleyServer, requested: Record<string, unknown>): Honoured {
  const resources = server.resources.fixed.size > 0 || server.resources.templates.length > 0;
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined && (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string') || uris.length > MAX_SUBSCRIPTIONS))
    throw invalidParams(`params.notifications.resourceSubscriptions must be an array of at most ${MAX_SUBSCRIPTIONS} URIs`);
  return {
    ...(requested.toolsListChanged === true ? { toolsListChanged: true } : {}),
    ...(requested.promptsListChanged === true && server.prompts.size > 0 ? { promptsListChanged: true } : {}),
    ...(requested.resourcesListChanged === true && resources ? { resourcesListChanged: true } : {}),
    ...(uris && resources ? { resourceSubscriptions: [...new Set(uris as string[])] } : {}),
  };
}

export function notificationFor(change: Change, honoured: Honoured): { method: string; params: Record<string, unknown> } | undefined {
  if (change.kind === 'tools' && honoured.toolsListChanged) return { method: 'notifications/tools/list_changed', params: {} };
  if (change.kind === 'prompts' && honoured.promptsListChanged) return { method: 'notifications/prompts/list_changed', params: {} };
  if (change.kind === 'resources' && honoured.resourcesListChanged) return { method: 'notifications/resources/list_changed', params: {} };
  if (change.kind === 'resource' && honoured.resourceSubscriptions?.includes(change.uri))
    return { method: 'notifications/resources/updated', params: { uri: change.uri } };
  return undefined;
}

/**
 * Opens a subscription: sends the acknowledgement, then each matching change, every message tagged with the listen
 * request's id. Resolves with the function that ends it. Throws -32602 (or -32021 for taskIds without the tasks
 * extension) before sending anything.
 */
export async function openSubscription(
  server: ParleyServer,
  id: JsonRpcId,
  params: Record<string, unknown>,
  who: Listening,
  send: (message: Record<string, unknown>) => void,
): Promise<() => void> {
  const requested = params.notifications;
  if (!isObject(requested)) throw invalidParams('subscriptions/listen needs params.notifications, an object');
  const honoured = honour(server, requested);
  const tag = { [META.subscriptionId]: id };
  // taskIds (io.modelcontextprotocol/tasks): ignored where no tool runs as a task, as any filter it does not know.
  const tasks =
    requested.taskIds === undefined || !server.tasks
      ? undefined
      : await server.tasks.follow(requested.taskIds, who, (task) =>
          send({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: tag } }),
        );
  const notifications = tasks ? { ...honoured, taskIds: tasks.taskIds } : honoured;
  send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications, _meta: tag } });
  tasks?.begin();
  const unsubscribe = server.changes.subscribe((change) => {
    const notification = notificationFor(change, honoured);
    if (notification) send({ jsonrpc: '2.0', method: notification.method, params: { ...notification.params, _meta: tag } });
  });
  return () => {
    unsubscribe();
    tasks?.stop();
  };
}
