// GET and DELETE with Mcp-Session-Id: the session's own event stream (or a resumed one), and ending the session.
import { LimitError, wireError } from '../../protocol';
import type { ParleyServer } from '../../engine';
import { parseEventId } from './event-stream';
import { openStream, resumeStored } from './open-stream';
import type { AuthInfo } from '../../model';
import { answering, openSession } from './post';

/** GET: with Last-Event-ID, the rest of that stream; without, the session's stream for messages of no call. */
export async function handleLegacyGet(server: ParleyServer, request: Request, given?: AuthInfo): Promise<Response> {
  if (!(request.headers.get('accept') ?? '').includes('text/event-stream'))
    return server.respond.error(null, wireError('NOT_ACCEPTABLE', 'Not Acceptable: the client must accept text/event-stream'));
  const opened = await openSession(server, request, given);
  if (opened instanceof Response) return opened;
  const { session, auth } = opened;
  const lastEventId = request.headers.get('last-event-id');
  if (lastEventId !== null) {
    const at = parseEventId(lastEventId);
    // Held here, or (with a shared store) kept in the store by the instance its call runs on. The store's names are
    // digests of this session's id with the stream's: another session's stream id finds nothing.
    const stream =
      at && (session.streams?.get(at.streamId) ?? (await answering(server, null, () => resumeStored(server, session, at.streamId))));
    if (stream instanceof Response) return stream;
    if (!at || !stream)
      return server.respond.error(null, wireError('INVALID_REQUEST', 'Bad Request: Last-Event-ID names no stream this server can resume'));
    return stream.connect(server.respond, at.seq);
  }
  // One GET stream per session: a new one replaces the old connection.
  try {
    session.standalone ??= openStream(server, session);
  } catch (error) {
    if (error instanceof LimitError) return server.respond.error(null, error);
    throw error;
  }
  // The session's tasks go out on this stream as their status changes, wherever their work runs.
  await server.tasks?.legacy.watchStatus(session, auth, server.logger, (message) => session.standalone?.send(message));
  return session.standalone.connect(server.respond);
}

/** DELETE: ends the session; its calls stop, and later requests get 404. */
export async function handleLegacyDelete(server: ParleyServer, request: Request, given?: AuthInfo): Promise<Response> {
  const opened = await openSession(server, request, given);
  if (opened instanceof Response) return opened;
  const ended = await answering(server, null, () => server.legacy.sessions.end(opened.session));
  return ended instanceof Response ? ended : new Response(null, { status: 204 });
}
