// The decisions on a question addressed with `to`: each addressee decides once; `quorum` distinct accepts decide it
// accepted, `declines` distinct declines (a cancel counts as one) decide it declined. They are kept append-only in a
// chain of the question's owner (append-log.ts), so two people deciding on two instances in the same instant both
// count, in one order every instance reads alike; a person's second decision is refused, and never counts. Each
// entry is written before the next slot opens, so the decider whose entry is last reads every one before it: the
// decision that reaches the quorum is always seen by the one who made it.
import type { Decision } from '../model';
import type { QuestionRecords } from '../stores';
import { AppendLog } from './append-log';
import type { Addressing } from './addressees';
import { randomBytes, toBase64Url } from '../crypto';

/** Decisions a question keeps at most: a quorum's accepts, the declines, and late ones refused. */
const CAP = 64;
const chainOf = (id: string) => `v:${id}`;

/** A decision as the chain keeps it: `n` tells this writer's entry from another of the same person's. */
type Kept = Decision & { n: string };

/** Where the decisions stand: still open (the counts so far), or decided, with every decision that counted. */
type Outcome =
  | { done: false; accepts: number; declines: number; decisions: Decision[] }
  | { done: true; action: Decision['action']; content?: Record<string, unknown>; decisions: Decision[] };

/** What a decision came to: refused (the person decided before, or the question was decided), else where it stands. */
type Decided = { refused: 'already-decided' | 'already-answered' } | { refused?: undefined; outcome: Outcome };

const shown = ({ by, at, action, content }: Decision): Decision => ({ by, at, action, ...(content ? { content } : {}) });

/** Where decisions in chain order stand: each person's first decision counts, later ones of theirs never do. */
export function outcomeOf(entries: readonly Decision[], rule: Pick<Addressing, 'quorum' | 'declines'>): Outcome {
  const counted: Decision[] = [];
  const seen = new Set<string>();
  let accepts = 0;
  let declines = 0;
  for (const entry of entries) {
    if (seen.has(entry.by)) continue;
    seen.add(entry.by);
    counted.push(shown(entry));
    if (entry.action === 'accept') accepts++;
    else declines++;
    if (accepts >= rule.quorum)
      return { done: true, action: 'accept', ...(entry.content ? { content: entry.content } : {}), decisions: counted };
    if (declines >= rule.declines) return { done: true, action: entry.action, decisions: counted };
  }
  return { done: false, accepts, declines, decisions: counted };
}

export class Decisions {
  constructor(private readonly records: QuestionRecords) {}

  /** A new question's chain opens with it (its filer, who made its id, alone calls this). */
  open(owner: string, id: string, ttlMs: number): Promise<void> {
    return new AppendLog(this.records, ttlMs).open(owner, chainOf(id));
  }

  /** The decisions made so far, in chain order (a person's later ones included: outcomeOf leaves them out). */
  read(owner: string, id: string): Promise<Decision[]> {
    return new AppendLog(this.records, 1).read<Kept>(owner, chainOf(id), CAP);
  }

  /**
   * Adds a person's decision. Refused when they decided before (read before and after the append: of two of theirs
   * made at once, the one first in the chain counts) or when the question was decided before it.
   */
  async decide(owner: string, id: string, rule: Addressing, decision: Decision, ttlMs: number): Promise<Decided> {
    const before = await this.read(owner, id);
    if (before.some((d) => d.by === decision.by)) return { refused: 'already-decided' };
    if (outcomeOf(before, rule).done) return { refused: 'already-answered' };
    const mine: Kept = { ...decision, n: toBase64Url(randomBytes(12)) };
    const log = new AppendLog(this.records, ttlMs);
    if ((await log.append(owner, chainOf(id), mine, CAP, true)) === undefined) return { refused: 'already-answered' };
    const after = await log.read<Kept>(owner, chainOf(id), CAP);
    const first = after.find((d) => d.by === decision.by);
    if (first && first.n !== mine.n) return { refused: 'already-decided' };
    const outcome = outcomeOf(after, rule);
    // Decided by others first: this decision came after it and does not count.
    if (outcome.done && !outcome.decisions.some((d) => d.by === decision.by)) return { refused: 'already-answered' };
    return { outcome };
  }
}
