// What a session before 2026-07-28 hears unasked: list changes, and updates of the resources it subscribed to.
import { invalidParams, methodNotFound } from '../../protocol';
import type { ParleyServer } from '../server';
import { notificationFor } from '../listen';
import { capabilitiesOf } from '../methods';

/** What changes need of a session: the resource URIs it watches (a LiveSession has them). */
interface Watcher {
  subscriptions?: Set<string>;
}

const MAX_SUBSCRIPTIONS = 100;
const MAX_URI_LENGTH = 2048;

/** resources/subscribe and resources/unsubscribe: they add a URI to the session's watched set, or take it out. */
export function changeSubscription(
  server: ParleyServer,
  session: Watcher,
  method: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  if (!Object.hasOwn(capabilitiesOf(server), 'resources')) throw methodNotFound(method);
  const { uri } = params;
  if (typeof uri !== 'string' || uri === '' || uri.length > MAX_URI_LENGTH)
    throw invalidParams(`${method} needs params.uri, a URI of at most ${MAX_URI_LENGTH} characters`);
  const watched = (session.subscriptions ??= new Set());
  if (method === 'resources/unsubscribe') watched.delete(uri);
  else if (!watched.has(uri)) {
    if (watched.size >= MAX_SUBSCRIPTIONS)
      throw invalidParams(`A session can watch at most ${MAX_SUBSCRIPTIONS} resources: unsubscribe from one first`);
    watched.add(uri);
  }
  return {};
}

/**
 * Sends the session each change this process announces that it may hear, until the returned function is called:
 * every list change the server declares, and notifications/resources/updated for the URIs it subscribed to.
 */
export function watchChanges(server: ParleyServer, session: Watcher, send: (message: Record<string, unknown>) => void): () => void {
  return server.changes.subscribe((change) => {
    const declared = capabilitiesOf(server);
    const honoured = {
      toolsListChanged: true as const,
      ...(Object.hasOwn(declared, 'prompts') ? { promptsListChanged: true as const } : {}),
      ...(Object.hasOwn(declared, 'resources') ? { resourcesListChanged: true as const } : {}),
      ...(change.kind === 'resource' && session.subscriptions ? { resourceSubscriptions: [...session.subscriptions] } : {}),
    };
    const notification = notificationFor(change, honoured);
    if (notification) send({ jsonrpc: '2.0', ...notification });
  });
}
