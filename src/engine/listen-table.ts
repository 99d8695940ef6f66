// The subscriptions/listen streams a server holds: capped per caller and in total (http.listen), and each ended once it
// has sent no notification for idleTtlMs, as older clients' sessions are.
import { LimitError } from '../protocol';
import type { Logger } from '../runtime';

interface ListenLimits {
  maxTotal: number;
  maxPerCaller: number;
  idleTtlMs: number;
}

/** One open listen stream, as the table counts it. */
interface Listener {
  readonly caller: string;
  /** When it opened or last sent a notification; keep-alives do not count. */
  lastSentAt: number;
  /** Ends the stream gracefully, with its closing result (set by the transport that opened it). */
  end?: () => void;
}

/** Both sets are kept in order of activity (a notification moves a stream to the end): the first idles out first. */
export class ListenTable {
  private readonly open = new Set<Listener>();
  private readonly byCaller = new Map<string, Set<Listener>>();
  private warnedAt = -Infinity;

  constructor(
    private readonly limits: ListenLimits,
    private readonly logger: Logger,
  ) {}

  /** Counts a stream in for the caller, or throws a LimitError: 429 past the caller's cap, 503 past the process's. */
  admit(caller: string, now = Date.now()): Listener {
    const { maxPerCaller, maxTotal } = this.limits;
    const mine = this.byCaller.get(caller);
    if (mine && mine.size >= maxPerCaller) {
      const who = caller === 'anonymous' ? 'anonymous callers (without a token they count as one caller)' : 'this caller';
      const wait = this.retryAfter(mine, now);
      throw new LimitError(
        `Too many listen streams for ${who}: at most ${maxPerCaller} (http.listen.maxPerCaller). Close one you no longer read, or retry after ${wait} s`,
        wait,
        'caller',
        { limit: 'http.listen.maxPerCaller', max: maxPerCaller },
      );
    }
    if (this.open.size >= maxTotal) {
      // Once a minute at most: a flood of refusals must not become a flood of log lines.
      if (now - this.warnedAt >= 60_000) {
        this.warnedAt = now;
        this.logger.warn(`Refusing listen streams: the process holds ${maxTotal} (http.listen.maxTotal)`);
      }
      const wait = this.retryAfter(this.open, now);
      throw new LimitError(
        `The server holds as many listen streams as it allows (${maxTotal}, http.listen.maxTotal): retry after ${wait} s`,
        wait,
        'server',
        { limit: 'http.listen.maxTotal', max: maxTotal },
      );
    }
    const listener: Listener = { caller, lastSentAt: now };
    this.open.add(listener);
    if (mine) mine.add(listener);
    else this.byCaller.set(caller, new Set([listener]));
    return listener;
  }

  /** A notification went out on the stream: it is active now. */
  sent(listener: Listener, now = Date.now()): void {
    if (!this.open.delete(listener)) return;
    listener.lastSentAt = now;
    this.open.add(listener);
    const mine = this.byCaller.get(listener.caller);
    mine?.delete(listener);
    mine?.add(listener);
  }

  /** True once the stream has sent no notification for idleTtlMs: its keep-alive tick ends it. */
  isIdle(listener: Listener, now = Date.now()): boolean {
    return now - listener.lastSentAt >= this.limits.idleTtlMs;
  }

  /** Counts the stream out; a second call does nothing. */
  close(listener: Listener): void {
    if (!this.open.delete(listener)) return;
    const mine = this.byCaller.get(listener.caller);
    mine?.delete(listener);
    if (mine?.size === 0) this.byCaller.delete(listener.caller);
  }

  /** Ends every open stream gracefully (the server is shutting down): each client is told to listen again. */
  endAll(): void {
    for (const listener of [...this.open]) listener.end?.();
  }

  /** Seconds until the least recently active of these streams idles out: when a slot frees by itself, at the soonest. */
  private retryAfter(listeners: Set<Listener>, now: number): number {
    const first = listeners.values().next().value;
    const at = first ? first.lastSentAt + this.limits.idleTtlMs : now;
    return Math.max(1, Math.ceil((at - now) / 1000));
  }
}
