// An older client's stream events kept in the shared store too, so a reconnect with Last-Event-ID resumes on whichever
// instance it reaches. Names are SHA-256 digests of the session and stream ids (reading the store gives out neither),
// events are sealed with the session secret, each stream keeps its last KEPT_EVENTS events within KEPT_BYTES, and every
// part expires with the session (its idle TTL, never past its end).
import { WEB_STORE_CRYPTO } from '../../crypto';
import type { LiveSession, ParleyServer } from '../../engine';
import { readEnv, type Logger } from '../../runtime';
import type { StoreBackend } from '../../stores';
import { MAX_KEPT_EVENTS, type EventKeeper } from './event-stream';

/** Events a stream keeps in the store, as many as in memory: the oldest go first. */
export const KEPT_EVENTS = MAX_KEPT_EVENTS;
/** Bytes of event data a stream keeps in the store: past them the oldest events go, the newest one always stays. */
export const KEPT_BYTES = 1024 * 1024;
/** What the events are sealed for: a stored event opens only as a stream event of its own stream. */
const PURPOSE = 'parley legacy stream event';

/** Where one stream's events sit: `events:<digest>:h` its head (the oldest kept number), `:<n>` event n; the channel `events:<digest>`. */
export interface StreamPlace {
  readonly backend: StoreBackend;
  readonly channel: string;
  readonly head: string;
  event(seq: number): string;
  /** The digest: events are sealed to it, so one stream's event does not open as another's. */
  readonly owner: string;
  readonly secret: string | undefined;
  /** How long a part written now lives: the session's idle TTL, never past its end. */
  ttl(): number;
}

/** What a stored event holds: its number (sealed with it, so events can't be swapped), then its data or the stream's end. */
interface StoredEvent {
  seq: number;
  data?: string;
  end?: true;
}

/** The stream's place when the server's sessions live in a shared store; undefined otherwise (one process holds them). */
export function streamPlace(server: ParleyServer, session: LiveSession, streamId: string): Promise<StreamPlace> | undefined {
  const store = server.elicitationStore;
  if (!store?.sessionsDistributed) return undefined;
  const { sessionId, expiresAt } = session.record;
  const idleTtlMs = server.config.http.sessions.idleTtlMs;
  // As session records: MCP_SESSION_SECRET, else the store's.
  const secret = readEnv('MCP_SESSION_SECRET', server.env) ?? store.secret;
  return Promise.resolve(WEB_STORE_CRYPTO.digest(`events\u0000${sessionId}\u0000${streamId}`)).then((owner) => {
    const base = `${store.keyPrefix}events:${owner}`;
    return {
      backend: store.backend,
      channel: base,
      head: `${base}:h`,
      event: (seq) => `${base}:${seq}`,
      owner,
      secret,
      ttl: () => Math.max(1, Math.min(idleTtlMs, expiresAt - Date.now())),
    };
  });
}

async function sealEvent(place: StreamPlace, event: StoredEvent): Promise<string> {
  if (place.secret === undefined) return JSON.stringify(event);
  return JSON.stringify(await WEB_STORE_CRYPTO.seal(place.secret, place.owner, event, PURPOSE));
}

/** A stored event opened, or undefined when it can't be (another stream's, another secret, changed, not an event). */
export async function openEvent(place: StreamPlace, text: string, seq: number): Promise<StoredEvent | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (place.secret !== undefined) value = await WEB_STORE_CRYPTO.open(place.secret, place.owner, value, PURPOSE);
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Partial<StoredEvent>;
  if (event.seq !== seq) return undefined;
  if (event.end === true) return { seq, end: true };
  return typeof event.data === 'string' ? { seq, data: event.data } : undefined;
}

/**
 * The writing side, on the instance whose call sends the events: each event stored, then announced on the stream's
 * channel, one after another (a reader on another instance meets them in order), the oldest dropped past the caps.
 * A store that fails costs the resumption elsewhere, never the call: it is logged once.
 */
export class StoredEvents implements EventKeeper {
  #chain: Promise<unknown>;
  /** Sizes of the kept events, oldest (number #first) first. */
  readonly #sizes: number[] = [];
  #first = 1;
  #bytes = 0;
  #headAt = 0;
  #warned = false;

  constructor(
    private readonly place: Promise<StreamPlace>,
    private readonly logger: Logger,
  ) {
    // Caught like every later step: a store that refuses the head (full, down) must not reject where nobody listens.
    this.#chain = place.then((p) => this.#writeHead(p)).catch((error: unknown) => this.#warn(error));
  }

  /** Keeps event `seq`. */
  put(seq: number, data: string): void {
    this.#then(async (p) => {
      await p.backend.set(p.event(seq), await sealEvent(p, { seq, data }), p.ttl());
      await p.backend.publish(p.channel, String(seq));
      this.#sizes.push(data.length);
      this.#bytes += data.length;
      let trimmed = false;
      while (this.#sizes.length > 1 && (this.#sizes.length > KEPT_EVENTS || this.#bytes > KEPT_BYTES)) {
        this.#bytes -= this.#sizes.shift()!;
        await p.backend.delete(p.event(this.#first++));
        trimmed = true;
      }
      // The head says where the kept events start, and lives as long as they do: renewed when it moved or aged a tenth.
      if (trimmed || Date.now() - this.#headAt > p.ttl() / 10) await this.#writeHead(p);
    });
  }

  /** The stream has no more events after `last`: a reader closes its connection once it has them all. */
  end(last: number): void {
    this.#then(async (p) => {
      await p.backend.set(p.event(last + 1), await sealEvent(p, { seq: last + 1, end: true }), p.ttl());
      await p.backend.publish(p.channel, String(last + 1));
    });
  }

  async kept(): Promise<void> {
    await this.#chain;
  }

  async #writeHead(p: StreamPlace): Promise<void> {
    this.#headAt = Date.now();
    await p.backend.set(p.head, String(this.#first), p.ttl());
  }

  #then(step: (p: StreamPlace) => Promise<void>): void {
    this.#chain = this.#chain
      .then(() => this.place)
      .then(step)
      .catch((error: unknown) => this.#warn(error));
  }

  #warn(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.logger.warn('Could not keep a stream event in the store: a client that resumes on another instance misses it', error);
  }
}
