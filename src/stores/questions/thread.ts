// A thread: the one record shape of the question store's three users. A task's record is a thread of many questions;
// an older client's pending question and an inbox question are one-question threads. Each user says where a thread's
// parts sit (its layout: the record, each question's open token, each answer) and keeps beside it what is its own (a
// task's lease and end, the inbox's index, a session's newest question); how a question is asked, answered once,
// taken in and closed is here, once.
import type { QuestionRecords } from './records';

/**
 * `waiting`: a question of the thread waits for its first answer (its open token is in the store); `answered`: none
 * does (each asked had its first answer, or none was asked yet); `ended`: the thread is over, nothing more is taken.
 */
type ThreadStatus = 'waiting' | 'answered' | 'ended';

/** The record every user of the question store keeps, `Q` its questions and `A` its answers. */
export interface QuestionThread<Q = unknown, A = unknown> {
  /** Whom it belongs to, who alone may answer it: a session id, a subject; absent for an anonymous task. */
  owner?: string;
  /** The questions asked and not yet taken in, in the order asked (entries: a key may be any string). */
  questions: [string, Q][];
  /** Every key ever asked, in order: keys never repeat in a thread's life. */
  asked: string[];
  /**
   * Answers the thread's writer took in (or had before it asked), by key; an answer from outside is kept first under
   * its own part (`answer`). Absent: none.
   */
  answers?: [string, A][];
  /** What its steps recorded, in the order taken; `[name]` for undefined. Absent: none. */
  steps?: [string, unknown?][];
  /**
   * As the writer last wrote it (asking makes it `waiting`, taking the last answer in `answered`, closing `ended`). An
   * answer takes a token and does not rewrite the record: `QuestionThreads.waiting` tells which questions wait now.
   */
  status: ThreadStatus;
  createdAt: number;
  expiresAt: number;
}

/** A part of a thread in the question store: its kind and part (QuestionRecords' names), under the user's scope. */
type Place = readonly [kind: string, part: string];

/** Where a user's thread `id` keeps its parts; the scope (the names' and the sealing's owner) is given with each call. */
export interface ThreadLayout {
  record(id: string): Place;
  /** A question's open token: its first answer takes it. */
  open(id: string, key: string): Place;
  /** A question's answer, kept under its own name until it is taken in. */
  answer(id: string, key: string): Place;
}

/** A new thread with nothing asked yet (steps and answers it had before, if any). */
export function newThread<Q, A = unknown>(
  from: Pick<QuestionThread, 'owner' | 'createdAt' | 'expiresAt'> & { answers?: [string, A][]; steps?: [string, unknown?][] },
): QuestionThread<Q, A> {
  const { owner, answers, steps, createdAt, expiresAt } = from;
  return {
    ...(owner === undefined ? {} : { owner }),
    questions: [],
    asked: (answers ?? []).map(([key]) => key),
    ...(answers?.length ? { answers } : {}),
    ...(steps?.length ? { steps } : {}),
    status: 'answered',
    createdAt,
    expiresAt,
  };
}

/** Whether a stored value is a thread (one a release before threads wrote is not: its user upgrades it). */
export const isThread = (value: unknown): value is QuestionThread =>
  Array.isArray((value as QuestionThread | undefined)?.questions) && typeof (value as QuestionThread).status === 'string';

/** The ms a thread (a task's record too) has left (at least 1: a store's TTL must be positive). */
export const leftOf = (thread: Pick<QuestionThread, 'expiresAt'>): number => Math.max(1, thread.expiresAt - Date.now());

/** A user's threads in the question store. */
export class QuestionThreads {
  constructor(
    readonly records: QuestionRecords,
    private readonly layout: ThreadLayout,
  ) {}

  /** Writes the record (sealed, until the thread expires); resolves with its storage name. */
  write(scope: string, id: string, thread: QuestionThread): Promise<string> {
    // Fast path (this and read): a task's record is read on every poll; its place is looked up without a spread.
    const [kind, part] = this.layout.record(id);
    return this.records.put(kind, scope, part, thread, leftOf(thread));
  }

  /** The record as stored (a user upgrades one of a release before threads), or undefined. */
  read<T>(scope: string, id: string): Promise<T | undefined> {
    const [kind, part] = this.layout.record(id);
    return this.records.read<T>(kind, scope, part);
  }

  /**
   * New questions open: each one's token goes in, then the returned thread lists them (`waiting`), for the user to
   * write. A key already asked in the thread's life is a programming error.
   */
  async ask<T extends QuestionThread>(scope: string, id: string, thread: T, questions: [string, T['questions'][number][1]][]): Promise<T> {
    const next = this.asked(thread, questions);
    await this.opens(scope, id, next, questions);
    return next;
  }

  /** The thread with new questions asked (`waiting`), their tokens not yet open: `ask` is this, then `opens`. */
  asked<T extends QuestionThread>(thread: T, questions: [string, T['questions'][number][1]][]): T {
    const asked = [...thread.asked, ...questions.map(([key]) => key)];
    const twice = asked.find((key, i) => asked.indexOf(key) !== i);
    if (twice !== undefined) throw new Error(`Question key ${JSON.stringify(twice)} was already asked in this thread`);
    return { ...thread, questions: [...thread.questions, ...questions], asked, status: questions.length > 0 ? 'waiting' : thread.status };
  }

  /** Stores the open tokens of the questions asked, each for as long as the thread lives. */
  async opens(scope: string, id: string, thread: QuestionThread, questions: readonly [string, unknown][]): Promise<void> {
    await Promise.all(questions.map(([key]) => this.reopen(scope, id, key, leftOf(thread))));
  }

  /** The first-answer-wins claim of one question: takes its open token. Of every caller, on every instance, one gets true. */
  claim(scope: string, id: string, key: string): Promise<boolean> {
    return this.records.claim(...this.#at('open', scope, id, key));
  }

  /** Puts a question's open token (back): it takes an answer (again), e.g. when an answer it took was heard by nobody. */
  reopen(scope: string, id: string, key: string, ttlMs: number): Promise<void> {
    return this.records.mark(...this.#at('open', scope, id, key), ttlMs);
  }

  /** Keeps an answer under its question's part, until the thread's writer takes it in. */
  async keep(scope: string, id: string, key: string, answer: unknown, ttlMs: number): Promise<void> {
    await this.records.put(...this.#at('answer', scope, id, key), answer, ttlMs);
  }

  /** An answer from outside: claims its question, and when this call won, keeps the answer. True for the winner only. */
  async answer(scope: string, id: string, key: string, answer: unknown, ttlMs: number): Promise<boolean> {
    const won = await this.claim(scope, id, key);
    if (won) await this.keep(scope, id, key, answer, ttlMs);
    return won;
  }

  /** The answers to `keys`: those the record holds, then those kept under their parts. */
  async answers(scope: string, id: string, thread: QuestionThread | undefined, keys: readonly string[]): Promise<Map<string, unknown>> {
    const held = new Map(thread?.answers);
    const found = await Promise.all(
      keys.map(async (key) => [key, held.has(key) ? held.get(key) : await this.kept(scope, id, key)] as const),
    );
    return new Map(found.filter(([, value]) => value !== undefined));
  }

  /** Takes a kept answer for one caller only (of several takers, one gets it). */
  take<A>(scope: string, id: string, key: string): Promise<A | undefined> {
    return this.records.take<A>(...this.#at('answer', scope, id, key));
  }

  /** The answer kept under the question's part (not yet taken in or taken), or undefined. */
  kept<A>(scope: string, id: string, key: string): Promise<A | undefined> {
    return this.records.read<A>(...this.#at('answer', scope, id, key));
  }

  /** Whether the question still waits for its first answer: nobody took its open token. */
  isOpen(scope: string, id: string, key: string): Promise<boolean> {
    return this.records.has(...this.#at('open', scope, id, key));
  }

  /**
   * The questions still waiting for their first answer (their open token is in the store): the thread's status now is
   * `waiting` while there is one, `answered` once there is none (`ended` once it ended).
   */
  async waiting<Q>(scope: string, id: string, thread: QuestionThread<Q>): Promise<[string, Q][]> {
    // Fast path: an ended thread, or one with no question asked and not taken in, has nothing to look up.
    if (thread.status === 'ended' || thread.questions.length === 0) return [];
    const open = await Promise.all(thread.questions.map(([key]) => this.isOpen(scope, id, key)));
    return thread.questions.filter((_, i) => open[i]);
  }

  /** The thread's writer took these answers in: their questions leave the record, and `answers` holds them when given. */
  settle<T extends QuestionThread>(thread: T, keys: readonly string[], answers?: ReadonlyMap<string, unknown>): T {
    const questions = thread.questions.filter(([key]) => !keys.includes(key));
    const taken = keys.flatMap((key): [string, unknown][] => (answers?.has(key) ? [[key, answers.get(key)]] : []));
    const status = thread.status === 'ended' || questions.length > 0 ? thread.status : 'answered';
    return { ...thread, questions, ...(taken.length ? { answers: [...(thread.answers ?? []), ...taken] } : {}), status };
  }

  /** A step's result joins the thread (`[name]` for undefined). */
  step<T extends QuestionThread>(thread: T, name: string, value: unknown): T {
    return { ...thread, steps: [...(thread.steps ?? []), value === undefined ? [name] : [name, value]] };
  }

  /** The thread ends: its open questions close (a late answer finds no token), and the returned thread says `ended`. */
  async close<T extends QuestionThread>(scope: string, id: string, thread: T): Promise<T> {
    await Promise.all(thread.questions.map(([key]) => this.records.drop(...this.#at('open', scope, id, key))));
    return { ...thread, status: 'ended' };
  }

  /** Every part of the thread leaves the store: its record, and each asked question's token and answer. */
  async drop(scope: string, id: string, thread: Pick<QuestionThread, 'asked'> | undefined): Promise<void> {
    const keys = thread?.asked ?? [];
    const places = [
      this.#at('record', scope, id),
      ...keys.map((key) => this.#at('open', scope, id, key)),
      ...keys.map((key) => this.#at('answer', scope, id, key)),
    ];
    await Promise.all(places.map((place) => this.records.drop(...place)));
  }

  /** Where a part of the thread is, as QuestionRecords names it: kind, owner (the scope), part. */
  #at(role: keyof ThreadLayout, scope: string, id: string, key = ''): [string, string, string] {
    const [kind, part] = this.layout[role](id, key);
    return [kind, scope, part];
  }
}
