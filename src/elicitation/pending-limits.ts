// elicitation.pending: how many questions may wait at once in this process, counted per session and per caller.
import { PublicMcpError } from '../protocol';

/** Who asks: the session, and the caller (callerKey) who owns it. */
export interface Asking {
  sessionId: string;
  caller: string;
}

/** elicitation.pending: how many questions may wait at once in this process, per session and per caller. */
export interface PendingLimits {
  maxPerSession: number;
  maxPerCaller: number;
}

export const NO_LIMITS: PendingLimits = { maxPerSession: Infinity, maxPerCaller: Infinity };

export class PendingCounts {
  // How many questions wait now, by session and by caller; an entry goes when its count is back to 0.
  private readonly bySession = new Map<string, number>();
  private readonly byCaller = new Map<string, number>();
  constructor(private readonly limits: PendingLimits) {}

  /** How many questions wait now in this process for the session. */
  waiting(sessionId: string): number {
    return this.bySession.get(sessionId) ?? 0;
  }

  /** Counts a question in, or throws a tool error (LIMIT_REACHED) when its session or caller already has its fill. */
  reserve({ sessionId, caller }: Asking): () => void {
    const { maxPerSession, maxPerCaller } = this.limits;
    const inSession = this.bySession.get(sessionId) ?? 0;
    const ofCaller = this.byCaller.get(caller) ?? 0;
    if (inSession >= maxPerSession)
      throw new PublicMcpError(
        `Too many questions waiting in this session: at most ${maxPerSession} (elicitation.pending.maxPerSession). Answer or cancel one, then call again`,
        'LIMIT_REACHED',
      );
    if (ofCaller >= maxPerCaller)
      throw new PublicMcpError(
        `Too many questions waiting for this caller: at most ${maxPerCaller} (elicitation.pending.maxPerCaller). Answer or cancel one, then call again`,
        'LIMIT_REACHED',
      );
    this.bySession.set(sessionId, inSession + 1);
    this.byCaller.set(caller, ofCaller + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.bySession, sessionId);
      decrement(this.byCaller, caller);
    };
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
