// A new event stream in an older client's session, within http.sessions.maxStreams: a call's stream, the GET stream,
// or a stream of a call on another instance that a reconnect resumes here from the store.
import { randomBytes, toBase64Url } from '../../crypto';
import { LimitError } from '../../protocol';
import type { LiveSession, ParleyServer, SessionStream } from '../../engine';
import { EventStream } from './event-stream';
import { StoredEvents, streamPlace } from './stored-events';
import { StoredStream } from './stored-stream';

/** A full session's streams free when a call finishes: soon, usually. */
const STREAM_RETRY_AFTER_S = 5;

/**
 * Opens a new stream in the session; the session forgets it once it is over and delivered. Past maxStreams it first
 * forgets the oldest stream that has ended (its replay is lost), and with none ended it throws a LimitError.
 * With a shared store its events are kept there too (stored-events.ts).
 */
export function openStream(server: ParleyServer, session: LiveSession): EventStream {
  const streams = room(server, session);
  const id = toBase64Url(randomBytes(9));
  const place = streamPlace(server, session, id);
  const stream = new EventStream(id, {
    onSettled: () => streams.delete(id),
    onActivity: () => server.legacy.sessions.active(session),
    stored: place && new StoredEvents(place, server.logger),
  });
  streams.set(id, stream);
  return stream;
}

/**
 * The stream `streamId` of this session as the shared store keeps it (its call runs on another instance, or ran here
 * and was forgotten), within maxStreams; undefined when the store holds no such stream of this session.
 */
export async function resumeStored(server: ParleyServer, session: LiveSession, streamId: string): Promise<SessionStream | undefined> {
  const place = await streamPlace(server, session, streamId);
  if (!place || (await place.backend.get(place.head)) === undefined) return undefined;
  const found = session.streams?.get(streamId); // resumed by a request that was waiting on the store with this one
  if (found) return found;
  const streams = room(server, session);
  const stream = new StoredStream(streamId, place, {
    onSettled: () => streams.delete(streamId),
    onActivity: () => server.legacy.sessions.active(session),
  });
  streams.set(streamId, stream);
  return stream;
}

/** The session's streams, with room for one more, or a LimitError. */
function room(server: ParleyServer, session: LiveSession): Map<string, SessionStream> {
  const max = server.config.http.sessions.maxStreams;
  const streams = (session.streams ??= new Map());
  if (streams.size >= max) {
    for (const [id, stream] of streams) {
      if (!stream.isEnded) continue;
      stream.detach();
      streams.delete(id);
      break;
    }
    if (streams.size >= max)
      throw new LimitError(
        `Too many open streams in this session: at most ${max} (http.sessions.maxStreams). Wait for a call to finish, or close a stream, and try again`,
        STREAM_RETRY_AFTER_S,
        'caller',
        { limit: 'http.sessions.maxStreams', max },
      );
  }
  return streams;
}
