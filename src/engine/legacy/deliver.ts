// An older client's answer to a question this server sent, handed to the call that waits for it, on any transport.
import type { JsonRpcResponse } from '../../protocol';
import type { Delivery } from './pending';
import type { ParleyServer } from '../server';
import type { LiveSession } from './sessions';

/** The client's answer to a request this server sent (elicitation/create, sampling/createMessage, roots/list). */
export async function deliverAnswer(server: ParleyServer, session: LiveSession, message: JsonRpcResponse): Promise<Delivery> {
  // Every question Parley sends has a string id: any other id answers nothing.
  if (typeof message.id !== 'string') return 'no-question';
  // An error answers sample() and listRoots() with a failure; elicit() counts it as cancel.
  if (message.error)
    server.logger.warn(
      `The client answered request ${message.id} with an error (${message.error.code}: ${message.error.message}); an elicitation treats it as cancel`,
    );
  const answer = message.error
    ? { action: 'cancel', error: { code: message.error.code, message: message.error.message } }
    : { ...message.result };
  return server.legacy.pending.deliver(session.record.sessionId, message.id, answer);
}
