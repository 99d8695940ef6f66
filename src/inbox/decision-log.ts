// The decision log: who asked, nudged, viewed and answered each question (later: granted, used, revoked), when, through
// which channel and, when configured, from which address. Append-only in the question store (append-log.ts), sealed
// per subject as the rest of its records, kept for a retention period; each entry made during a call is also an
// OpenTelemetry event on the call's span.
import type { ToolTrace } from '../runtime';
import type { QuestionRecords } from '../stores';
import { AppendLog } from './append-log';
import type { StoredQuestion } from './question-store';
import type { Addressee } from '../model';

/**
 * `withdrawn`: the question left the inbox unanswered there, as its task took an answer from its client or ended.
 * `escalated`: an addressed question's deadline passed and it is for more people (`to`); `expired`: it ended undecided.
 */
type DecisionEvent = 'asked' | 'nudged' | 'viewed' | 'answered' | 'withdrawn' | 'granted' | 'used' | 'revoked' | 'escalated' | 'expired';

/**
 * How it reached Parley: `call` the MCP call that asked; `client` the client's own answer to its round; `tasks/update`
 * a task's answer from its client; `page` the inbox page; `json` the inbox's JSON routes; `cli` `parley inbox`;
 * `action-link` a nudge's one-click link; `notify` the nudge itself; `deadline` an addressed question's escalation or expiry.
 */
export type DecisionChannel = 'call' | 'client' | 'tasks/update' | 'page' | 'json' | 'cli' | 'action-link' | 'notify' | 'deadline';

export interface DecisionEntry {
  /** ISO 8601, UTC. */
  at: string;
  event: DecisionEvent;
  question: string;
  /** The question's persist key (a task's, without its task id). */
  key: string;
  tool?: string;
  /** Who: a signed-in principal's name, `session` for a session's caller (its id is a credential), `parley` for a nudge. */
  by: string;
  channel: DecisionChannel;
  /** An answer's action (never its content). */
  action?: 'accept' | 'decline' | 'cancel';
  /** Whom an escalation addressed the question to besides those before (`escalated`). */
  to?: Addressee[];
  /** The client's address, only with `persistent.log.clientAddress` on. */
  address?: string;
  /** A standing approval's id (`granted`, `used`, `revoked`), and until when it stands (`granted`). */
  grant?: string;
  until?: string;
}

interface DecisionLogOptions {
  retentionMs: number;
  clientAddress: boolean;
}

/** Where an entry came from: the call's span (if traced) and the client's address (if known). */
export interface Witness {
  trace?: ToolTrace;
  address?: string;
}

/** What an entry names of its question (a QuestionView has as much). */
type Named = Pick<StoredQuestion, 'id' | 'key' | 'from' | 'task'>;

/** A question's entries at most: an ask, a nudge, views per channel, an answer, a grant's uses fit many times over. */
const QUESTION_CAP = 64;
/** Chains (questions, grants) listed per subject and UTC day for the export. */
const DAY_CAP = 2_048;
/** A grant's entries at most: its grant, its uses, its revocation (a use past it is not logged; it still answers). */
const GRANT_CAP = 256;
const DAY_MS = 86_400_000;
/** Views remembered per process so a page's live refreshes log one view per person, question and channel. */
const KEPT_VIEWS = 4_096;

/** A subject as the log names it: a principal's name; a session's id is a credential, so only that it was one. */
export const whoOf = (subject: string) => (subject.startsWith('principal:') ? subject.slice('principal:'.length) : 'session');
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const shownKey = (question: Pick<StoredQuestion, 'key' | 'task'>) =>
  question.task ? question.key.replace(/^task:[^:]*:/, '') : question.key;

export class DecisionLog {
  readonly #log: AppendLog;
  readonly #viewed = new Set<string>();

  constructor(
    records: QuestionRecords,
    readonly options: DecisionLogOptions,
  ) {
    this.#log = new AppendLog(records, options.retentionMs);
  }

  /** The first entry of a question, by the one call that filed it; lists the question in the subject's day. */
  async asked(subject: string, question: StoredQuestion, witness: Witness = {}): Promise<void> {
    const entry = this.#entry(question, { event: 'asked', by: whoOf(subject), channel: 'call' }, witness);
    await Promise.all([this.#log.start(subject, `q:${question.id}`, entry), this.#listToday(subject, `q:${question.id}`)]);
  }

  /** A standing approval given with an answer: in the question's history, and first in the grant's own. */
  async granted(
    subject: string,
    question: Named,
    grant: { id: string; expiresAt: number },
    via: { by: string; channel: DecisionChannel; address?: string },
  ): Promise<void> {
    const witness = via.address ? { address: via.address } : {};
    const entry = {
      ...this.#entry(question, { event: 'granted', by: via.by, channel: via.channel }, witness),
      grant: grant.id,
      until: new Date(grant.expiresAt).toISOString(),
    };
    await Promise.all([
      this.#log.append(subject, `q:${question.id}`, entry, QUESTION_CAP),
      this.#log.start(subject, `g:${grant.id}`, entry),
      this.#listToday(subject, `g:${grant.id}`),
    ]);
  }

  /** A grant's use (by a call, with the key of the question it answered) or its revocation. */
  async grantEntry(
    subject: string,
    grant: { id: string; question: string; key: string; tool: string },
    what: { event: 'used' | 'revoked'; by: string; channel: DecisionChannel; key?: string },
    witness: Witness = {},
  ): Promise<void> {
    const question = { id: grant.question, key: what.key ?? grant.key, from: { tool: grant.tool, reason: 'persist' as const } };
    const entry = { ...this.#entry(question, what, witness), grant: grant.id };
    await this.#log.append(subject, `g:${grant.id}`, entry, GRANT_CAP);
  }

  /** Lists a chain in the subject's list of the day, for the export. */
  async #listToday(subject: string, chain: string): Promise<void> {
    const day = `d:${dayOf(Date.now())}`;
    await this.#log.openIfNew(subject, day);
    await this.#log.append(subject, day, chain, DAY_CAP);
  }

  /** An entry after the first. */
  async record(
    subject: string,
    question: Named,
    what: Pick<DecisionEntry, 'event' | 'by' | 'channel' | 'action' | 'to'>,
    witness: Witness = {},
  ): Promise<void> {
    await this.#log.append(subject, `q:${question.id}`, this.#entry(question, what, witness), QUESTION_CAP);
  }

  /**
   * A view: once per person, question and channel from this process (a live page refreshes on every change). `viewer`:
   * who saw it, when not the question's subject (an addressee of a question addressed with `to`).
   */
  viewed(subject: string, question: Named, channel: DecisionChannel, witness: Witness = {}, viewer = subject): Promise<void> {
    const seen = `${viewer}\u0000${question.id}\u0000${channel}`;
    if (this.#viewed.has(seen)) return Promise.resolve(); // fast path: this process logged it
    this.#viewed.add(seen);
    if (this.#viewed.size > KEPT_VIEWS) this.#viewed.delete(this.#viewed.values().next().value!);
    return this.record(subject, question, { event: 'viewed', by: whoOf(viewer), channel }, witness);
  }

  /** A question's entries, oldest first. */
  history(subject: string, questionId: string): Promise<DecisionEntry[]> {
    return this.#log.read<DecisionEntry>(subject, `q:${questionId}`, QUESTION_CAP);
  }

  /** Every entry of a subject's questions asked since `sinceMs` (at most the retention period), oldest first. */
  async export(subject: string, sinceMs = 0): Promise<DecisionEntry[]> {
    const now = Date.now();
    const from = Math.max(sinceMs, now - this.options.retentionMs);
    const days: string[] = [];
    for (let t = from; dayOf(t) <= dayOf(now); t += DAY_MS) days.push(dayOf(t));
    const chains = (await Promise.all(days.map((day) => this.#log.read<string>(subject, `d:${day}`, DAY_CAP)))).flat();
    const cap = (chain: string) => (chain.startsWith('g:') ? GRANT_CAP : QUESTION_CAP);
    const read = [...new Set(chains)].filter((c) => /^[qg]:/.test(c)).map((c) => this.#log.read<DecisionEntry>(subject, c, cap(c)));
    // A grant's first entry is in its question's history too: once in the export.
    const seen = new Set<string>();
    const entries = (await Promise.all(read)).flat().filter((e) => {
      const line = JSON.stringify(e);
      return !seen.has(line) && (seen.add(line), true);
    });
    return entries.filter((e) => Date.parse(e.at) >= sinceMs).sort((a, b) => a.at.localeCompare(b.at));
  }

  #entry(question: Named, what: Pick<DecisionEntry, 'event' | 'by' | 'channel' | 'action' | 'to'>, witness: Witness): DecisionEntry {
    const entry: DecisionEntry = {
      at: new Date().toISOString(),
      event: what.event,
      question: question.id,
      key: shownKey(question),
      ...(question.from?.tool ? { tool: question.from.tool } : {}),
      by: what.by,
      channel: what.channel,
      ...(what.action ? { action: what.action } : {}),
      ...(what.to ? { to: what.to } : {}),
      ...(this.options.clientAddress && witness.address ? { address: witness.address } : {}),
    };
    witness.trace?.decision(entry);
    return entry;
  }
}
