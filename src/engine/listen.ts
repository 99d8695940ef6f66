// subscriptions/listen, independent of transport: acknowledge what is honoured, then forward only those changes, tagged.
import { META, invalidParams, isObject, type JsonRpcId } from '../protocol';
import type { Change } from '../model';
import type { ParleyServer } from './server';

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
 * Opens a subscription: sends the acknowledgement at once, then each matching change, every message tagged with the
 * listen request's id. Returns the function that ends it. Throws -32602 (before sending anything) on bad params.
 */
export function openSubscription(
  server: ParleyServer,
  id: JsonRpcId,
  params: Record<string, unknown>,
  send: (message: Record<string, unknown>) => void,
): () => void {
  const requested = params.notifications;
  if (!isObject(requested)) throw invalidParams('subscriptions/listen needs params.notifications, an object');
  const honoured = honour(server, requested);
  const tag = { [META.subscriptionId]: id };
  send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: honoured, _meta: tag } });
  return server.changes.subscribe((change) => {
    const notification = notificationFor(change, honoured);
    if (notification) send({ jsonrpc: '2.0', method: notification.method, params: { ...notification.params, _meta: tag } });
  });
}
