// The question store: persistent questions of one server on a StoreBackend, per subject, with a small index to list them.
import type { QuestionRecords, StoreBackend } from '../stores';
import type { QuestionCodec } from './codec';
import type { QuestionOrigin, TaskLink } from '../elicitation';

export interface StoredQuestion {
  id: string;
  key: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
  /** Where it came from and why it is in the inbox (absent on questions filed before this was kept). */
  from?: QuestionOrigin;
  /** The task question this one stands for (reason `task`): its answer goes to the task. Never shown. */
  task?: TaskLink;
}

export interface StoredAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  answeredAt: number;
}

/** A question as the inbox shows it: answered or not, and whether a call is waiting for it right now. */
export interface QuestionView extends Omit<StoredQuestion, 'task'> {
  state: 'open' | 'answered';
  waiting: boolean;
}

/** `task`: the answer went to a task, which goes on with it. */
export type AnswerOutcome = { ok: true; waiting: boolean; task?: true } | { ok: false; reason: 'not-found' | 'already-answered' };

/**
 * Records, each under a key of the codec: `q` the question by id, `k` the id by persist key, `i` the subject's list of
 * ids, `o` the open token an answer takes (so only one answer is accepted), `a` the answer a call takes (so only one
 * call gets it), `w` the token of the call waiting now. `c` (per question) and `s` (per subject) are channels.
 */
export class QuestionStore {
  private readonly indexLocks = new Map<string, Promise<unknown>>();
  /** The question store's records (stores/questions): names, sealing, the first-answer claim, the kept answer. */
  readonly records: QuestionRecords;

  constructor(
    readonly backend: StoreBackend,
    readonly codec: QuestionCodec,
  ) {
    this.records = codec.records(backend);
  }

  async create(subject: string, question: StoredQuestion): Promise<void> {
    const ttl = question.expiresAt - Date.now();
    await this.records.put('q', subject, question.id, question, ttl);
    await this.records.mark('o', subject, question.id, ttl);
    await this.records.put('k', subject, question.key, question.id, ttl);
    await this.updateIndex(subject, (ids) => (ids.includes(question.id) ? ids : [...ids, question.id]), ttl);
  }

  async byId(subject: string, id: string): Promise<StoredQuestion | undefined> {
    const question = await this.records.read<StoredQuestion>('q', subject, id);
    return question && question.expiresAt > Date.now() ? question : undefined;
  }

  async byKey(subject: string, key: string): Promise<StoredQuestion | undefined> {
    const id = await this.records.read<string>('k', subject, key);
    const question = typeof id === 'string' ? await this.byId(subject, id) : undefined;
    return question?.key === key ? question : undefined;
  }

  async list(subject: string): Promise<QuestionView[]> {
    const ids = await this.readIndex(subject);
    const views = await Promise.all(ids.map((id) => this.view(subject, id)));
    const live = views.filter((v): v is QuestionView => v !== undefined);
    if (live.length < ids.length) {
      const keep = new Set(live.map((v) => v.id));
      await this.updateIndex(subject, (current) => current.filter((id) => keep.has(id) || !ids.includes(id)));
    }
    return live.sort((a, b) => a.createdAt - b.createdAt);
  }

  async view(subject: string, id: string): Promise<QuestionView | undefined> {
    const found = await this.byId(subject, id);
    if (!found) return undefined;
    const { task, ...question } = found;
    // A task's question: its task waits for it (the task's own record says when it was answered). Its key is shown as
    // the task asked it, without the task's id, which is an anonymous task's bearer handle.
    if (task) return { ...question, key: question.key.replace(/^task:[^:]*:/, ''), state: 'open', waiting: true };
    const [answered, waiter] = await Promise.all([this.records.has('a', subject, id), this.waiter(subject, id)]);
    return { ...question, state: answered ? 'answered' : 'open', waiting: waiter !== undefined };
  }

  /** Accepts the first answer to a question; a second one finds the open token gone. */
  async answer(subject: string, id: string, answer: StoredAnswer): Promise<AnswerOutcome> {
    const question = await this.byId(subject, id);
    if (!question) return { ok: false, reason: 'not-found' };
    if (!(await this.records.claim('o', subject, id))) return { ok: false, reason: 'already-answered' };
    // Kept before it is published: the waiting call takes it when it hears, when it starts listening, or when its
    // store's connection is back (a publish lost meanwhile), on whichever instance it waits.
    await this.records.put('a', subject, id, answer, question.expiresAt - Date.now());
    const waiting = (await this.waiter(subject, id)) !== undefined;
    await this.publish(subject, id, 'answered');
    return { ok: true, waiting };
  }

  /** Takes the open token for an answer from elsewhere (a client's, on 2026-07-28): true for the one taker, atomic in every backend. */
  async takeOpen(subject: string, id: string): Promise<boolean> {
    return this.records.claim('o', subject, id);
  }

  /** Whether the question still waits for its first answer: nobody (client or inbox) took its open token. */
  async isOpen(subject: string, id: string): Promise<boolean> {
    return this.records.has('o', subject, id);
  }

  /** Hands the answer to one caller only. */
  async takeAnswer(subject: string, id: string): Promise<StoredAnswer | undefined> {
    return this.records.take<StoredAnswer>('a', subject, id);
  }

  /**
   * Drops a delivered question and everything kept for it. `keepRecord` leaves the question itself until it expires,
   * unlisted and under no key, so a late answer to its id is told it was answered (409), not that it never was.
   */
  async finish(subject: string, question: StoredQuestion, keepRecord = false): Promise<void> {
    await Promise.all((keepRecord ? ['o', 'w'] : ['q', 'o', 'w']).map((kind) => this.records.drop(kind, subject, question.id)));
    const k = await this.records.find('k', subject, question.key);
    if (k && (await this.records.open<string>(k, subject)) === question.id) await this.backend.delete(k.key);
    await this.updateIndex(subject, (ids) => ids.filter((i) => i !== question.id));
    await this.publish(subject, question.id, 'delivered');
  }

  /** Puts a question back in its subject's list if a concurrent update lost it. */
  async ensureListed(subject: string, question: StoredQuestion): Promise<void> {
    if (!(await this.readIndex(subject)).includes(question.id))
      await this.updateIndex(subject, (ids) => (ids.includes(question.id) ? ids : [...ids, question.id]), question.expiresAt - Date.now());
  }

  async setWaiter(subject: string, id: string, token: string, ttlMs: number): Promise<void> {
    await this.records.mark('w', subject, id, ttlMs, token);
  }

  async waiter(subject: string, id: string): Promise<string | undefined> {
    return (await this.records.find('w', subject, id))?.raw;
  }

  /** Stops waiting, unless a newer call already took over. */
  async clearWaiter(subject: string, id: string, token: string): Promise<void> {
    const w = await this.records.find('w', subject, id);
    if (w?.raw === token) await this.backend.delete(w.key);
  }

  questionChannel = (subject: string, id: string) => this.records.name('c', subject, id);
  subjectChannel = (subject: string) => this.records.name('s', subject);

  /** Tells the question's waiting call and the subject's inbox views that something changed. */
  async publish(subject: string, id: string, event: string): Promise<void> {
    // On every listed secret's channel names, so a process that still names channels under an older secret hears it too.
    const { keys } = this.records;
    const channels = await Promise.all([keys.names('c', subject, id), keys.names('s', subject)]);
    await Promise.all(channels.flat().map((channel) => this.backend.publish(channel, event)));
  }

  private async readIndex(subject: string): Promise<string[]> {
    const ids = await this.records.read<unknown>('i', subject);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  /**
   * Read-modify-write of the subject's index, one at a time per index in this process. Two processes that add a
   * question for the same subject in the same instant may lose one index entry (the contract has no atomic list);
   * the question itself is not lost: it is still delivered, and the next call that asks its key lists it again.
   */
  private updateIndex(subject: string, change: (ids: string[]) => string[], ttlMs?: number): Promise<void> {
    const run = async () => {
      const [i, ...older] = await this.codec.keys('i', subject);
      const ids = change(await this.readIndex(subject));
      // The index moves to the first secret's name; what an older secret named goes, so it cannot come back.
      await Promise.all(older.map((key) => this.backend.delete(key)));
      if (ids.length === 0) return this.backend.delete(i!);
      await this.backend.set(i!, await this.codec.seal(ids, subject, i!), Math.max(ttlMs ?? 0, await this.indexTtl(subject, ids)));
    };
    const previous = this.indexLocks.get(subject) ?? Promise.resolve();
    const next = previous.then(run, run);
    this.indexLocks.set(subject, next);
    void next.finally(() => this.indexLocks.get(subject) === next && this.indexLocks.delete(subject)).catch(() => {});
    return next;
  }

  /** The index lives as long as its longest-lived question. */
  private async indexTtl(subject: string, ids: string[]): Promise<number> {
    const questions = await Promise.all(ids.map((id) => this.byId(subject, id)));
    return Math.max(1, ...questions.map((q) => (q ? q.expiresAt - Date.now() : 0)));
  }
}
