// A new event stream in an older client's session, within http.sessions.maxStreams: a call's stream, or the GET stream.
import { randomBytes, toBase64Url } from '../../crypto';
import { LimitError } from '../../protocol';
import type { LiveSession, ParleyServer } from '../../engine';
import { EventStream } from './event-stream';

/** A full session's streams free when a call finishes: soon, usually. */
const STREAM_RETRY_AFTER_S = 5;

/**
 * Opens a new stream in the session; the session forgets it once it is over and delivered. Past maxStreams it first
 * forgets the oldest stream that has ended (its replay is lost), and with none ended it throws a LimitError.
 */
export function openStream(server: ParleyServer, session: LiveSession): EventStream {
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
  const id = toBase64Url(randomBytes(9));
  const stream = new EventStream(
    id,
    () => streams.delete(id),
    () => server.legacy.sessions.active(session),
  );
  streams.set(id, stream);
  return stream;
}
