// The question store: persistent questions of one server on a StoreBackend, per subject, with a small index to list them.
// Each question is a one-question thread of the question store (stores/questions/thread.ts), its owner the subject.
import {
  isThread,
  newThread,
  type QuestionRecords,
  type QuestionThread,
  QuestionThreads,
  type StoreBackend,
  type ThreadLayout,
} from '../stores';
import type { QuestionCodec } from './codec';
import type { QuestionOrigin, TaskLink } from '../elicitation';
import type { Addressee, Decision } from '../model';
import { type Addressing, everyAddressee, listsOf } from './addressees';
import { Decisions } from './decisions';

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
  /** Whom it is for instead of its subject (`to`), and how many decide it: absent, its subject's own question. */
  addressed?: Addressing;
}

export interface StoredAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  answeredAt: number;
  /** An addressed question's: every decision that counted. */
  decisions?: Decision[];
  /** Why it ended undecided (its `expire` deadline): goes to the tool with the `cancel`. */
  reason?: string;
}

/** What an inbox question's thread holds of its one question, under its key. */
type InboxAsk = Pick<StoredQuestion, 'message' | 'requestedSchema' | 'from' | 'task' | 'addressed'>;

/** An inbox question as the store keeps it: a one-question thread, its owner the subject, with the question's id. */
type InboxThread = QuestionThread<InboxAsk, StoredAnswer> & { id: string };

/**
 * A question's thread: its record `q`, its open token `o` and its answer `a`, each by the question's id alone (its one
 * question needs no key of its own: callers that do not know it pass '').
 */
const INBOX_THREAD: ThreadLayout = {
  record: (id) => ['q', id],
  open: (id) => ['o', id],
  answer: (id) => ['a', id],
};

/** What the thread of `question` holds of it. */
const askOf = ({ message, requestedSchema, from, task, addressed }: StoredQuestion): InboxAsk => ({
  message,
  requestedSchema,
  ...(from ? { from } : {}),
  ...(task ? { task } : {}),
  ...(addressed ? { addressed } : {}),
});

/** A question's thread with nothing asked yet. */
const threadFor = (subject: string, { id, createdAt, expiresAt }: StoredQuestion): InboxThread => ({
  id,
  ...newThread<InboxAsk, StoredAnswer>({ owner: subject, createdAt, expiresAt }),
});

/** The question a thread holds, or a question as releases before threads kept it (until 2026-12-06), as it is. */
function questionOf(stored: unknown): StoredQuestion | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  // A release before threads kept the question itself: read until it expires (elicitation.persistent's ttl); this
  // branch can go once every deployment has run this release for longer.
  if (!isThread(stored)) return stored as StoredQuestion;
  const { id, questions, createdAt, expiresAt } = stored as InboxThread;
  const [asked] = questions;
  if (!asked) return undefined;
  const [key, { message, requestedSchema, from, task, addressed }] = asked;
  return {
    id,
    key,
    message,
    requestedSchema,
    createdAt,
    expiresAt,
    ...(from ? { from } : {}),
    ...(task ? { task } : {}),
    ...(addressed ? { addressed } : {}),
  };
}

/** A question as the inbox shows it: answered or not, and whether a call is waiting for it right now. */
export interface QuestionView extends Omit<StoredQuestion, 'task'> {
  state: 'open' | 'answered';
  waiting: boolean;
  /** An addressed question's decisions so far (who, when, what; never their content), and whether the viewer decided. */
  decisions?: Decision[];
  decided?: boolean;
  /** An addressed question's asker, as the log names them (`<issuer>#<sub>`). */
  askedBy?: string;
  /** An addressed question's latest escalation in force: since when (ms), and whom it added. */
  escalated?: { at: number; to: Addressee[] };
}

/** `task`: the answer went to a task, which goes on with it. */
export type AnswerOutcome = { ok: true; waiting: boolean; task?: true } | { ok: false; reason: 'not-found' | 'already-answered' };

/**
 * Records, each under a key of the codec: `q` the question's thread by id, `k` the id by persist key, `i` the subject's
 * list of ids, `o` the open token an answer takes (so only one answer is accepted), `a` the answer a call takes (so
 * only one call gets it), `w` the token of the call waiting now. `c` (per question) and `s` (per subject) are channels.
 */
export class QuestionStore {
  private readonly indexLocks = new Map<string, Promise<unknown>>();
  /** The question store's records (stores/questions): names, sealing, the first-answer claim, the kept answer. */
  readonly records: QuestionRecords;
  /** Each question's thread: its record, open token and answer. */
  readonly #threads: QuestionThreads;
  /** The decisions on addressed questions (`to`), each person's once. */
  readonly decisions: Decisions;
  private readonly listLocks = new Map<string, Promise<unknown>>();

  constructor(
    readonly backend: StoreBackend,
    readonly codec: QuestionCodec,
  ) {
    this.records = codec.records(backend);
    this.#threads = new QuestionThreads(this.records, INBOX_THREAD);
    this.decisions = new Decisions(this.records);
  }

  async create(subject: string, question: StoredQuestion): Promise<void> {
    const ttl = question.expiresAt - Date.now();
    const { id, key } = question;
    // Its open token first (ask), then its record: a question is never listed without the token its answer takes.
    await this.#threads.write(subject, id, await this.#threads.ask(subject, id, threadFor(subject, question), [[key, askOf(question)]]));
    await this.records.put('k', subject, question.key, question.id, ttl);
    // An addressed question is listed for its addressees, not its subject (who cannot answer it unless addressed).
    if (question.addressed) {
      await this.decisions.open(subject, id, ttl);
      await this.addressedLists(subject, question, true);
    } else await this.updateIndex(subject, (ids) => (ids.includes(question.id) ? ids : [...ids, question.id]), ttl);
  }

  /**
   * The addressed questions in the lists a person reads (`listsFor`): each its subject (owner) and id. Whether the
   * person may still answer one is the caller's to check, with what their sign-in says now.
   */
  async addressedIn(lists: readonly string[]): Promise<{ owner: string; id: string }[]> {
    const now = Date.now();
    const found = await Promise.all(lists.map((list) => this.readList(list)));
    const seen = new Set<string>();
    return found
      .flat()
      .filter(([owner, id, until]) => until > now && !seen.has(`${owner}\u0000${id}`) && (seen.add(`${owner}\u0000${id}`), true))
      .map(([owner, id]) => ({ owner, id }));
  }

  /** Adds an addressed question to (or removes it from) the list of each of its addressees, and tells their views. */
  private async addressedLists(owner: string, question: StoredQuestion, add: boolean): Promise<void> {
    // Every addressee's list from its filing, escalation steps' included: a reader is checked by the clock (addresseesAt).
    const lists = listsOf(everyAddressee(question.addressed!));
    await Promise.all(
      lists.map((list) =>
        this.updateList(list, (entries) => {
          const others = entries.filter(([o, id]) => !(o === owner && id === question.id));
          return add ? [...others, [owner, question.id, question.expiresAt]] : others;
        }),
      ),
    );
    await this.publishTo(lists, add ? 'filed' : 'delivered');
  }

  /** Tells the views of these lists' readers that something changed. */
  async publishTo(lists: readonly string[], event: string): Promise<void> {
    const channels = await Promise.all(lists.map((list) => this.records.keys.names('s', list)));
    await Promise.all(channels.flat().map((channel) => this.backend.publish(channel, event)));
  }

  private async readList(list: string): Promise<[string, string, number][]> {
    const entries = await this.records.read<unknown>('l', list);
    return Array.isArray(entries)
      ? entries.filter(
          (e): e is [string, string, number] =>
            Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string' && typeof e[2] === 'number',
        )
      : [];
  }

  /** Read-modify-write of an addressee's list, one at a time per list in this process (the index's race, see below). */
  private updateList(list: string, change: (entries: [string, string, number][]) => [string, string, number][]): Promise<void> {
    const run = async () => {
      const now = Date.now();
      const entries = change((await this.readList(list)).filter(([, , until]) => until > now));
      if (entries.length === 0) return this.records.drop('l', list);
      await this.records.put('l', list, '', entries, Math.max(...entries.map(([, , until]) => until - now)));
    };
    const previous = this.listLocks.get(list) ?? Promise.resolve();
    const next = previous.then(run, run);
    this.listLocks.set(list, next);
    void next.finally(() => this.listLocks.get(list) === next && this.listLocks.delete(list)).catch(() => {});
    return next;
  }

  async byId(subject: string, id: string): Promise<StoredQuestion | undefined> {
    const question = questionOf(await this.#threads.read<unknown>(subject, id));
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
    const [open, waiter, decisions] = await Promise.all([
      this.isOpen(subject, id),
      this.waiter(subject, id),
      question.addressed ? this.decisions.read(subject, id) : undefined,
    ]);
    const shown = decisions?.map(({ by, at, action }) => ({ by, at, action }));
    return { ...question, state: open ? 'open' : 'answered', waiting: waiter !== undefined, ...(shown ? { decisions: shown } : {}) };
  }

  /** Accepts the first answer to a question; a second one finds the open token gone. */
  async answer(subject: string, id: string, answer: StoredAnswer): Promise<AnswerOutcome> {
    const question = await this.byId(subject, id);
    if (!question) return { ok: false, reason: 'not-found' };
    // The thread's one answer: its open token taken, then the answer kept before it is published: the waiting call
    // takes it when it hears, when it starts listening, or when its store's connection is back (a publish lost
    // meanwhile), on whichever instance it waits.
    if (!(await this.#threads.answer(subject, id, question.key, answer, question.expiresAt - Date.now())))
      return { ok: false, reason: 'already-answered' };
    const waiting = (await this.waiter(subject, id)) !== undefined;
    await this.publish(subject, id, 'answered');
    return { ok: true, waiting };
  }

  /** Takes the open token for an answer from elsewhere (a client's, on 2026-07-28): true for the one taker, atomic in every backend. */
  async takeOpen(subject: string, id: string): Promise<boolean> {
    return this.#threads.claim(subject, id, '');
  }

  /** Whether the question still waits for its first answer: nobody (client or inbox) took its open token. */
  async isOpen(subject: string, id: string): Promise<boolean> {
    return this.#threads.isOpen(subject, id, '');
  }

  /** Hands the answer to one caller only. */
  async takeAnswer(subject: string, id: string): Promise<StoredAnswer | undefined> {
    return this.#threads.take<StoredAnswer>(subject, id, '');
  }

  /**
   * Drops a delivered question and everything kept for it. `keepRecord` leaves the question's thread, ended, until it
   * expires, unlisted and under no key, so a late answer to its id is told it was answered (409), not that it never was.
   */
  async finish(subject: string, question: StoredQuestion, keepRecord = false): Promise<void> {
    const { id, key } = question;
    const thread = this.#threads.asked(threadFor(subject, question), [[key, askOf(question)]]);
    const end = async () => void (await this.#threads.write(subject, id, await this.#threads.close(subject, id, thread)));
    await Promise.all([this.records.drop('w', subject, id), keepRecord ? end() : this.#threads.drop(subject, id, thread)]);
    const k = await this.records.find('k', subject, question.key);
    if (k && (await this.records.open<string>(k, subject)) === question.id) await this.backend.delete(k.key);
    await this.updateIndex(subject, (ids) => ids.filter((i) => i !== question.id));
    if (question.addressed) await this.addressedLists(subject, question, false);
    await this.publish(subject, question.id, 'delivered');
  }

  /** Puts a question back in its subject's list if a concurrent update lost it. */
  async ensureListed(subject: string, question: StoredQuestion): Promise<void> {
    if (question.addressed) return this.addressedLists(subject, question, true);
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
