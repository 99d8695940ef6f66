// The question store: persistent questions of one server on a StoreBackend, per subject, with a small index to list them.
import type { StoreBackend } from '../stores';
import type { QuestionCodec } from './codec';

export interface StoredQuestion {
  id: string;
  key: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
}

export interface StoredAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  answeredAt: number;
}

/** A question as the inbox shows it: answered or not, and whether a call is waiting for it right now. */
export interface QuestionView extends StoredQuestion {
  state: 'open' | 'answered';
  waiting: boolean;
}

export type AnswerOutcome = { ok: true; waiting: boolean } | { ok: false; reason: 'not-found' | 'already-answered' };

/**
 * Records, each under a key of the codec: `q` the question by id, `k` the id by persist key, `i` the subject's list of
 * ids, `o` the open token an answer takes (so only one answer is accepted), `a` the answer a call takes (so only one
 * call gets it), `w` the token of the call waiting now. `c` (per question) and `s` (per subject) are channels.
 */
export class QuestionStore {
  private readonly indexLocks = new Map<string, Promise<unknown>>();

  constructor(
    readonly backend: StoreBackend,
    readonly codec: QuestionCodec,
  ) {}

  async create(subject: string, question: StoredQuestion): Promise<void> {
    const ttl = question.expiresAt - Date.now();
    const [q, k, o] = await Promise.all([this.k('q', subject, question.id), this.k('k', subject, question.key), this.k('o', subject, question.id)]);
    await this.backend.set(q, await this.codec.seal(question, subject, q), ttl);
    await this.backend.set(o, '1', ttl);
    await this.backend.set(k, await this.codec.seal(question.id, subject, k), ttl);
    await this.updateIndex(subject, (ids) => (ids.includes(question.id) ? ids : [...ids, question.id]), ttl);
  }

  async byId(subject: string, id: string): Promise<StoredQuestion | undefined> {
    const q = await this.k('q', subject, id);
    const question = await this.codec.open<StoredQuestion>(await this.backend.get(q), subject, q);
    return question && question.expiresAt > Date.now() ? question : undefined;
  }

  async byKey(subject: string, key: string): Promise<StoredQuestion | undefined> {
    const k = await this.k('k', subject, key);
    const id = await this.codec.open<string>(await this.backend.get(k), subject, k);
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
    const question = await this.byId(subject, id);
    if (!question) return undefined;
    const [answer, waiter] = await Promise.all([this.k('a', subject, id).then((a) => this.backend.get(a)), this.waiter(subject, id)]);
    return { ...question, state: answer === undefined ? 'open' : 'answered', waiting: waiter !== undefined };
  }

  /** Accepts the first answer to a question; a second one finds the open token gone. */
  async answer(subject: string, id: string, answer: StoredAnswer): Promise<AnswerOutcome> {
    const question = await this.byId(subject, id);
    if (!question) return { ok: false, reason: 'not-found' };
    if ((await this.backend.take(await this.k('o', subject, id))) === undefined) return { ok: false, reason: 'already-answered' };
    const a = await this.k('a', subject, id);
    await this.backend.set(a, await this.codec.seal(answer, subject, a), Math.max(1, question.expiresAt - Date.now()));
    const waiting = (await this.waiter(subject, id)) !== undefined;
    await this.publish(subject, id, 'answered');
    return { ok: true, waiting };
  }

  /** Hands the answer to one caller only. */
  async takeAnswer(subject: string, id: string): Promise<StoredAnswer | undefined> {
    const a = await this.k('a', subject, id);
    return this.codec.open<StoredAnswer>(await this.backend.take(a), subject, a);
  }

  /** Drops a delivered question and everything kept for it. */
  async finish(subject: string, question: StoredQuestion): Promise<void> {
    const keys = await Promise.all([this.k('q', subject, question.id), this.k('o', subject, question.id), this.k('w', subject, question.id)]);
    await Promise.all(keys.map((key) => this.backend.delete(key)));
    const k = await this.k('k', subject, question.key);
    if ((await this.codec.open<string>(await this.backend.get(k), subject, k)) === question.id) await this.backend.delete(k);
    await this.updateIndex(subject, (ids) => ids.filter((i) => i !== question.id));
    await this.publish(subject, question.id, 'delivered');
  }

  /** Puts a question back in its subject's list if a concurrent update lost it. */
  async ensureListed(subject: string, question: StoredQuestion): Promise<void> {
    if (!(await this.readIndex(subject)).includes(question.id))
      await this.updateIndex(subject, (ids) => (ids.includes(question.id) ? ids : [...ids, question.id]), question.expiresAt - Date.now());
  }

  async setWaiter(subject: string, id: string, token: string, ttlMs: number): Promise<void> {
    await this.backend.set(await this.k('w', subject, id), token, Math.max(1, ttlMs));
  }

  async waiter(subject: string, id: string): Promise<string | undefined> {
    return this.backend.get(await this.k('w', subject, id));
  }

  /** Stops waiting, unless a newer call already took over. */
  async clearWaiter(subject: string, id: string, token: string): Promise<void> {
    const w = await this.k('w', subject, id);
    if ((await this.backend.get(w)) === token) await this.backend.delete(w);
  }

  questionChannel = (subject: string, id: string) => this.k('c', subject, id);
  subjectChannel = (subject: string) => this.k('s', subject);

  /** Tells the question's waiting call and the subject's inbox views that something changed. */
  async publish(subject: string, id: string, event: string): Promise<void> {
    const [c, s] = await Promise.all([this.questionChannel(subject, id), this.subjectChannel(subject)]);
    await Promise.all([this.backend.publish(c, event), this.backend.publish(s, event)]);
  }

  private k(kind: string, subject: string, part?: string): Promise<string> {
    return this.codec.key(kind, subject, part);
  }

  private async readIndex(subject: string): Promise<string[]> {
    const i = await this.k('i', subject);
    const ids = await this.codec.open<unknown>(await this.backend.get(i), subject, i);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  /**
   * Read-modify-write of the subject's index, one at a time per index in this process. Two processes that add a
   * question for the same subject in the same instant may lose one index entry (the contract has no atomic list);
   * the question itself is not lost: it is still delivered, and the next call that asks its key lists it again.
   */
  private updateIndex(subject: string, change: (ids: string[]) => string[], ttlMs?: number): Promise<void> {
    const run = async () => {
      const i = await this.k('i', subject);
      const ids = change(await this.readIndex(subject));
      if (ids.length === 0) return this.backend.delete(i);
      await this.backend.set(i, await this.codec.seal(ids, subject, i), Math.max(ttlMs ?? 0, await this.indexTtl(subject, ids)));
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
