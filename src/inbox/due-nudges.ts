// Nudges that wait, kept in the store: where a timer ends with its request (an edge isolate), a question filed beside
// a 2026-07-28 round or for a task is nudged by whichever request finds it due: the next call that files or asks a
// question, an inbox read, or the cron route (GET /_frontmcp/deadlines). One deadline mechanism for Durable Objects
// and Redis over HTTP alike, which has no timer at all.
import type { QuestionStore, StoredQuestion } from './question-store';

/** One waiting nudge: whose question, and from when it is due. */
interface Due {
  subject: string;
  id: string;
  at: number;
  /** When the question expires: the entry goes with it. */
  until: number;
}

/** The server-wide list's record (kind `d`, no owner): sealed, as every record is, so subjects never show in the store. */
const LIST = ['d', '', ''] as const;
/** Past this many waiting nudges the oldest go first (the question still waits in its inbox). */
const MAX_WAITING = 1_000;

export class DueNudges {
  // One read-modify-write of the list at a time in this isolate; two isolates in the same instant may lose an entry
  // (the store contract has no atomic list): that nudge is not sent, and its question waits in the inbox all the same.
  private updating: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: QuestionStore) {}

  /** Keeps `question`'s nudge until `at`: its token (taken by the one request that sends it) and its list entry. */
  async add(subject: string, question: StoredQuestion, at: number): Promise<void> {
    const ttlMs = question.expiresAt - Date.now();
    await this.store.records.mark('n', subject, question.id, ttlMs);
    const entry: Due = { subject, id: question.id, at, until: question.expiresAt };
    await this.update((list) => [...list.filter((d) => d.id !== entry.id || d.subject !== subject), entry].slice(-MAX_WAITING));
  }

  /** Sends each nudge due by `now` whose question is still open, once across every isolate; resolves with how many. */
  async sweep(send: (subject: string, question: StoredQuestion) => Promise<void> | void, now = Date.now()): Promise<number> {
    const due = (await this.read()).filter((d) => d.at <= now);
    if (due.length === 0) return 0; // fast path: one read, as on nearly every request
    await this.update((list) => list.filter((d) => d.at > now && d.until > now));
    let sent = 0;
    for (const { subject, id } of due) {
      // Taken once: another isolate's sweep, or an answer in the meantime (the question is no longer open), sends none.
      if (!(await this.store.records.find('n', subject, id, true))) continue;
      const question = await this.store.byId(subject, id);
      if (!question || !(await this.store.isOpen(subject, id))) continue;
      await send(subject, question);
      sent++;
    }
    return sent;
  }

  private async read(): Promise<Due[]> {
    const list = await this.store.records.read<unknown>(...LIST);
    return Array.isArray(list) ? list.filter(isDue) : [];
  }

  private update(change: (list: Due[]) => Due[]): Promise<void> {
    const run = async () => {
      const list = change(await this.read());
      if (list.length === 0) return this.store.records.backend.delete(await this.store.records.name(...LIST));
      const ttlMs = Math.max(...list.map((d) => d.until)) - Date.now();
      await this.store.records.put(...LIST, list, ttlMs);
    };
    const next = this.updating.then(run, run);
    this.updating = next.catch(() => {});
    return next;
  }
}

const isDue = (value: unknown): value is Due => {
  const d = value as Partial<Due> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.subject === 'string' &&
    typeof d.id === 'string' &&
    typeof d.at === 'number' &&
    typeof d.until === 'number'
  );
};
