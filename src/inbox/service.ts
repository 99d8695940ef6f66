// The persistent questions of one server: its store, options and people auth, and what one call may do with them.
import type { ElicitParams, PersistentAsker, QuestionOrigin, RawAnswer, TaskLink } from '../elicitation';
import { ElicitationNotSupportedError, INBOX_BASE, InvalidInputError, type Router } from '../protocol';
import { escapeLogText } from '../runtime';
import type { AuthInfo, ElicitOptions, RequestScope } from '../model';
import { askAndWait } from './delivery';
import type { PersistentOptions } from './options';
import type { LoopbackTokenAuth } from './people';
import type { InboxBindings, PersonSignIn } from '../auth';
import { claimQuestion, fileQuestion } from './filing';
import type { AnswerOutcome, QuestionStore, QuestionView, StoredAnswer, StoredQuestion } from './question-store';
import type { Answered, AnswerVia, Inbox, InboxView } from './inbox';
import { inboxApp } from './routes';
import type { ActionLinks } from './action-links';
import { questionSubjectOf } from '../model';
import type { DueNudges } from './due-nudges';
import { type DecisionChannel, DecisionLog, type Witness, whoOf } from './decision-log';
import type { ToolTrace } from '../runtime';
import { type GrantCall, Grants, matchOf } from './grants';
import { type Addressing, addresseesAt, type InboxPerson, isAddressee, listsFor, listsOf, readAddressing, whomOf } from './addressees';
import type { Escalations } from './escalation';

type KeepAlive = RequestScope['keepAlive'];

/** What a call tells its questions besides its caller: where to say it waits, its span, its client's address. */
interface CallFacts {
  onWaiting?: (message: string) => void;
  trace?: ToolTrace;
  client?: string;
  /** The tool's standing-approval rule and the call's arguments, when it offers one. */
  grant?: GrantCall;
  /** The platform's waitUntil (a Worker's ctx): the nudges a call sends go on after its response. */
  keepAlive?: KeepAlive;
}

/** The decision log's defaults: kept 30 days, no client address (see docs/approvals.md). */
const DEFAULT_LOG = { retentionMs: 30 * 86_400_000, clientAddress: false };

/** Where a waiting call waits when the tool named no ttl (the docs' default for elicit()). */
const DEFAULT_WAIT_MS = 300_000;
const KEY = /^[\x21-\x7e]{1,200}$/;

/** Writes the inbox link: the server's stderr, unless a test or an app passes its own. */
interface LinkPrinter {
  isTerminal(): boolean;
  write(line: string): void;
}

const stderrPrinter: LinkPrinter = {
  isTerminal: () => (globalThis as { process?: { stderr?: { isTTY?: boolean } } }).process?.stderr?.isTTY === true,
  write: (line) => console.error(escapeLogText(line)), // the subject is the caller's: escaped as every log line is
};

/**
 * Where an inbox answer to a task's question goes (the server's task runtime, when a tool may run as a task): the
 * task's open token for the key decides, against `tasks/update` and the client's answer on any instance.
 */
interface TaskAnswering {
  /** `keepAlive`: the platform's waitUntil, for the task's work that the answer continues. */
  answerFromInbox(task: TaskLink, answer: RawAnswer, keepAlive: KeepAlive | undefined): Promise<'answered' | 'answered-before' | 'gone'>;
}

/** A subject as a person may read it: a principal's name; a session's id is a credential, so only that it is one. */
const shownSubject = (subject: string) => (subject.startsWith('principal:') ? subject.slice('principal:'.length) : 'this session');

export class QuestionService implements Inbox {
  /** The origin this server was last reached at over HTTP; inbox links point there. */
  origin?: string;
  printer: LinkPrinter = stderrPrinter;
  /** OpenID Connect sign-in for the inbox (`http.auth.oidc`), set when the server is built. */
  signIn?: PersonSignIn;
  /** The tasks whose questions this inbox answers too, set when the server is built with both. */
  tasks?: TaskAnswering;
  /** The nudge's action links (`persistent.notify.actionLinks`), set when the server is built. */
  actionLinks?: ActionLinks;
  /**
   * Nudges that wait kept in the store instead of a timer, set on an edge runtime (whose timers end with the request):
   * sent by the next call that files or asks a question, an inbox read, or the cron route (docs/unanswered.md).
   */
  dueNudges?: DueNudges;
  /** The decision log (`persistent.log`), undefined when it is off. */
  readonly log: DecisionLog | undefined;
  /** Standing approvals (a tool's `grant` rule). */
  readonly grants: Grants;
  /**
   * The deadlines of addressed questions, escalation and expiry: loaded with the OpenID Connect sign-in their people
   * need (set when the server is built: `new Escalations(service)`), undefined without it.
   */
  deadlines?: Escalations;

  constructor(
    readonly store: QuestionStore,
    readonly options: PersistentOptions,
    readonly people: LoopbackTokenAuth | undefined,
    /** Used when no request has named an origin yet, e.g. `http://127.0.0.1:3000`. */
    readonly fallbackOrigin?: string,
  ) {
    this.log = options.log === false ? undefined : new DecisionLog(store.records, { ...DEFAULT_LOG, ...options.log });
    this.grants = new Grants(store.records, this.log);
  }

  /** The inbox's routes under /_frontmcp, 404 elsewhere (here, so a bundle without persistent questions leaves them out). */
  routes(): Router<InboxBindings> {
    return inboxApp(this);
  }

  /** What one tool call may do: ask persistent questions as its caller, and print its caller's inbox link. */
  forCall(auth: AuthInfo, signal?: AbortSignal, call: CallFacts = {}): PersistentAsker {
    const subject = questionSubjectOf(auth);
    const mine = () => this.subjectOf(auth);
    const witness: Witness = { ...(call.trace ? { trace: call.trace } : {}), ...(call.client ? { address: call.client } : {}) };
    const { keepAlive } = call;
    return {
      subject,
      ask: (params, options, from) =>
        this.ask(auth, params, options, {
          signal,
          from,
          onWaiting: call.onWaiting,
          witness,
          keepAlive,
          ...(call.grant ? { grant: call.grant } : {}),
        }),
      printLink: () => this.printLink(auth),
      file: (key, params, from, task, addressing) => {
        const addressed = addressing && this.addressingOf(addressing);
        this.sweepBeside(keepAlive);
        return fileQuestion(this.store, mine(), key, params, {
          ttlMs: this.options.ttlMs,
          from,
          ...(task ? { task } : {}),
          ...(addressed ? { addressed } : {}),
          onCreated: this.created(mine(), witness, keepAlive),
        });
      },
      find: async (key) => (await this.store.byKey(mine(), key))?.id,
      // The client's answer took the question from the inbox: its round's (`client`), or a task's answer or end.
      claim: (id) =>
        claimQuestion(this.store, mine(), id, (question) =>
          this.note(
            question.task
              ? this.log?.record(mine(), question, { event: 'withdrawn', by: 'parley', channel: 'tasks/update' }, witness)
              : this.log?.record(mine(), question, { event: 'answered', by: whoOf(mine()), channel: 'client' }, witness),
          ),
        ),
    };
  }

  /** A question just filed: its first log entry, then its nudge. */
  private created(subject: string, witness: Witness, keepAlive: KeepAlive | undefined): (question: StoredQuestion) => Promise<void> {
    const nudge = this.nudge(subject, keepAlive);
    return async (question) => {
      await this.note(this.log?.asked(subject, question, witness));
      await this.deadlines?.schedule(subject, question);
      await nudge?.(question);
    };
  }

  /**
   * Waits for a log write; a store that fails it is logged, and what it recorded goes on (the answer counts, the
   * question stays): the log never stops a decision.
   */
  async note(write: Promise<void> | undefined): Promise<void> {
    try {
      await write;
    } catch (error) {
      console.error(escapeLogText(`[parley] WARN A decision log entry was not kept: ${(error as Error)?.message ?? error}`));
    }
  }

  /** Tells the person, through notify, and logs the nudge once it went. */
  notifyLogged(notify: NonNullable<QuestionService['notify']>): NonNullable<QuestionService['notify']> {
    return async (subject, question) => {
      await notify(subject, question);
      await this.note(this.log?.record(subject, question, { event: 'nudged', by: 'parley', channel: 'notify' }));
    };
  }

  /** What tells the person a question landed in their inbox (`persistent.notify`); nothing when unset. */
  notify?: (subject: string, question: StoredQuestion) => Promise<void>;

  /**
   * Sends the nudges kept in the store that are due now, and fires the deadlines due (none unless `dueNudges` is set);
   * resolves with how many nudges. `keepAlive`: the platform's waitUntil, for a task an expiry answers.
   */
  async sendDueNudges(keepAlive?: KeepAlive): Promise<number> {
    const notify = this.notify;
    return this.dueNudges ? this.dueNudges.sweep(notify ? this.notifyLogged(notify) : () => {}, Date.now(), this.fireDue(keepAlive)) : 0;
  }

  /** What fires a deadline the due set found due (none without the deadlines' code). */
  private fireDue = (keepAlive: KeepAlive | undefined) => (owner: string, id: string, step: number) =>
    this.deadlines?.fireOrWarn(owner, id, step, keepAlive) ?? Promise.resolve();

  /**
   * The caller's next request sends what is due, never holding it up: the nudges go out beside its call, under the
   * platform's waitUntil where it has one (a Worker cancels what runs after its response otherwise).
   */
  private sweepBeside(keepAlive: KeepAlive | undefined): void {
    const notify = this.notify;
    if (this.dueNudges) {
      const logged = notify && this.notifyLogged(notify);
      const send = (subject: string, question: StoredQuestion) => logged?.(subject, question).catch(() => {});
      keepAlive?.waitUntil(this.dueNudges.sweep(send, Date.now(), this.fireDue(keepAlive)).catch(() => 0));
    }
  }

  /**
   * The nudge for a question just filed. One filed beside a 2026-07-28 round is open in the client too, which mostly
   * answers in moments: the person is nudged only if it is still unanswered `afterMs` later (the instance that filed
   * it waits; a stop within that time sends none, and the question waits in the inbox all the same).
   */
  private nudge(subject: string, keepAlive: KeepAlive | undefined): ((question: StoredQuestion) => Promise<void> | void) | undefined {
    const notify = this.notify && this.notifyLogged(this.notify);
    if (!notify) return undefined;
    return (question) => {
      const reason = question.from?.reason;
      const graceMs = reason === 'filed-with-round' || reason === 'task' ? question.from?.afterMs : undefined;
      if (graceMs === undefined) {
        // Not awaited (the call goes on), but kept alive past the response on a Worker.
        const sent = notify(subject, question);
        return void keepAlive?.waitUntil(sent);
      }
      // An edge runtime keeps it in the store: a timer there ends with the request.
      if (this.dueNudges) return this.dueNudges.add(subject, question, question.createdAt + graceMs);
      const later = () =>
        void this.store.isOpen(subject, question.id).then(
          (open) => void (open && notify(subject, question)),
          () => notify(subject, question), // the store could not say: better one nudge too many than none
        );
      (setTimeout(later, graceMs) as { unref?: () => void }).unref?.();
    };
  }

  /** Whom a question is for (`to`, `quorum`, `declines`, checked), or undefined for its caller; `to` needs the sign-in. */
  private addressingOf(options: ElicitOptions, deadlines?: Parameters<typeof readAddressing>[1]) {
    const addressed = readAddressing(options, deadlines);
    if (addressed && !this.signIn)
      throw new ElicitationNotSupportedError(
        'A question addressed with `to` is answered by people signed in through the identity provider: set http: { auth: { oidc: { clientId } } } (docs/approvals.md)',
      );
    return addressed;
  }

  async ask(
    auth: AuthInfo,
    params: ElicitParams,
    options: ElicitOptions,
    call: {
      signal?: AbortSignal;
      from?: QuestionOrigin;
      onWaiting?: (message: string) => void;
      witness?: Witness;
      grant?: GrantCall;
      keepAlive?: KeepAlive;
    } = {},
  ): Promise<RawAnswer> {
    const persist = options.persist!;
    if (typeof persist.key !== 'string' || !KEY.test(persist.key))
      throw new InvalidInputError('persist.key must be 1-200 printable ASCII characters');
    const ttl = options.ttl ?? DEFAULT_WAIT_MS;
    const ttlMs = persist.ttlMs ?? this.options.ttlMs;
    if (!(Number.isFinite(ttl) && ttl > 0)) throw new InvalidInputError('ttl must be a positive number of milliseconds');
    if (!(Number.isFinite(ttlMs) && ttlMs > ttl))
      throw new InvalidInputError(`persist.ttlMs (${ttlMs}) must be longer than the call's ttl (${ttl})`);
    const subject = this.subjectOf(auth);
    // Without the sign-in (and the deadlines' code loaded with it) `to` is refused, escalate and expire with it.
    const addressed = this.addressingOf(options, options.to !== undefined ? this.deadlines?.read(options, ttlMs) : undefined);
    // A later call of its key catches up on a deadline the machinery has not fired yet (a restarted Node instance's).
    if (addressed) await this.deadlines?.catchUpKey(subject, persist.key, call.keepAlive);
    const { signal, onWaiting } = call;
    let from = call.from;
    // A tool that offers standing approvals: a grant that stands answers at once; else the question offers one. Not
    // for an addressed question: a caller's grant cannot stand for what others decide.
    const match = !addressed && call.grant && matchOf(call.grant.rule, call.grant.args);
    if (call.grant && match) {
      const granted = await this.grants.use(subject, call.grant, { key: persist.key, ...params }, call.witness ?? {});
      if (granted) return { action: 'accept', content: granted };
      from = { ...(from ?? { tool: call.grant.tool, reason: 'persist' }), grant: { forMs: call.grant.rule.forMs, match } };
    }
    this.sweepBeside(call.keepAlive);
    return askAndWait(this.store, subject, persist.key, params, {
      ttl,
      ttlMs,
      signal,
      from,
      onCreated: this.created(subject, call.witness ?? {}, call.keepAlive),
      // The client hears the call is waiting on the person (or for whom), instead of silence until ttl.
      onWaiting:
        onWaiting &&
        (() =>
          onWaiting(
            addressed
              ? `Waiting for ${whomOf(addressed)} to answer in the inbox: ${params.message}`
              : `Waiting for an answer in the inbox: ${params.message}`,
          )),
      ...(addressed ? { addressed } : {}),
    });
  }

  /**
   * The person's answer to one of their questions: the first answer is accepted, a later one is told it was answered.
   * A task's question is answered in its task, whose open token (taken once, against `tasks/update` too) decides.
   */
  async answer(person: InboxPerson, id: string, answer: StoredAnswer, via: AnswerVia): Promise<Answered> {
    const found = await this.locate(person, id);
    if (found && !found.answers) return { ok: false, reason: 'not-addressed' };
    if (found?.question.addressed) return this.decide(person, found, answer, via);
    const subject = person.subject;
    const question = found?.question;
    const outcome = question ? await this.answerOne(subject, question, answer, via.keepAlive) : undefined;
    if (!outcome) return { ok: false, reason: 'not-found' };
    if (outcome.ok) {
      const witness = via.address ? { address: via.address } : {};
      await this.note(
        this.log?.record(
          subject,
          question!,
          { event: 'answered', by: whoOf(subject), channel: via.channel, action: answer.action },
          witness,
        ),
      );
      // "Accept, and the same for the next period": only with an accept of a question that offers it (the route checks).
      if (via.grant && answer.action === 'accept') {
        const grant = await this.grants.give(subject, question!, answer.content ?? {}, {
          channel: via.channel,
          ...(via.address ? { address: via.address } : {}),
        });
        if (grant) return { ...outcome, grant: { id: grant.id, expiresAt: grant.expiresAt } };
      }
    }
    return outcome;
  }

  /**
   * The question `id` as a person finds it: their subject's own, or one addressed to them (in the lists their sign-in
   * reads), with its subject (`owner`). `answers`: whether they may answer it, false for one addressed to others
   * (they asked it, or their sign-in no longer names them).
   */
  async locate(person: InboxPerson, id: string): Promise<{ owner: string; question: StoredQuestion; answers: boolean } | undefined> {
    const own = await this.store.byId(person.subject, id);
    if (own && !own.addressed) return { owner: person.subject, question: own, answers: true };
    const entry = (await this.store.addressedIn(listsFor(person))).find((e) => e.id === id);
    const owner = entry?.owner ?? (own ? person.subject : undefined);
    const question = entry ? await this.store.byId(entry.owner, id) : own;
    if (!question?.addressed || owner === undefined) return undefined;
    return { owner, question, answers: isAddressee(addresseesAt(question.addressed, question.createdAt), person) };
  }

  /**
   * An addressee's decision on a question addressed with `to`: counted once per person; the decision that reaches the
   * quorum (or the declines that end it) answers the question with every decision that counted.
   */
  private async decide(
    person: InboxPerson,
    { owner, question }: { owner: string; question: StoredQuestion },
    answer: StoredAnswer,
    via: AnswerVia,
  ): Promise<Answered> {
    const rule: Addressing = question.addressed!;
    const by = whoOf(person.subject);
    const decision = {
      by,
      at: new Date(answer.answeredAt).toISOString(),
      action: answer.action,
      ...(answer.content ? { content: answer.content } : {}),
    };
    // Past its expiry (fired now if the machinery is late): no decision counts any more.
    await this.deadlines?.expireIfDue(owner, question, via.keepAlive);
    if (!(await this.store.isOpen(owner, question.id))) return { ok: false, reason: 'already-answered' };
    const decided = await this.store.decisions.decide(owner, question.id, rule, decision, question.expiresAt - Date.now());
    if (decided.refused) return { ok: false, reason: decided.refused };
    const witness = via.address ? { address: via.address } : {};
    await this.note(this.log?.record(owner, question, { event: 'answered', by, channel: via.channel, action: answer.action }, witness));
    const { outcome } = decided;
    if (!outcome.done) {
      const lists = listsOf(addresseesAt(rule, question.createdAt));
      await Promise.all([this.store.publish(owner, question.id, 'decided'), this.store.publishTo(lists, 'decided')]);
      const waiting = (await this.store.waiter(owner, question.id)) !== undefined;
      return { ok: true, waiting, decided: { accepts: outcome.accepts, quorum: rule.quorum } };
    }
    const final: StoredAnswer = {
      action: outcome.action,
      ...(outcome.content ? { content: outcome.content } : {}),
      answeredAt: Date.now(),
      decisions: outcome.decisions,
    };
    const result = await this.answerOne(owner, question, final, via.keepAlive);
    // Two deciders who both saw the outcome reached answer it alike: the one second in (the question answered, or
    // delivered and gone already) counted all the same.
    return result.ok ? result : { ok: true, waiting: false };
  }

  /** Answers a question (a task's goes to its task): an addressed question's final answer, or its expiry's. */
  async answerOne(subject: string, question: StoredQuestion, answer: StoredAnswer, keepAlive: KeepAlive): Promise<AnswerOutcome> {
    const id = question.id;
    if (!question.task) return this.store.answer(subject, id, answer);
    if (!(await this.store.isOpen(subject, id))) return { ok: false, reason: 'already-answered' };
    const raw: RawAnswer = {
      action: answer.action,
      ...(answer.content === undefined ? {} : { content: answer.content }),
      ...(answer.decisions ? { decisions: answer.decisions } : {}),
      ...(answer.reason ? { reason: answer.reason } : {}),
    };
    const outcome = this.tasks ? await this.tasks.answerFromInbox(question.task, raw, keepAlive) : 'gone';
    // Answered here or elsewhere, the question leaves the inbox; its record stays, so a late answer hears 409.
    await this.store.finish(subject, question, true);
    if (outcome === 'answered') return { ok: true, waiting: true, task: true };
    // The task took its answer elsewhere (or ended): this late answer is what took its copy out of the inbox.
    await this.note(this.log?.record(subject, question, { event: 'withdrawn', by: 'parley', channel: 'tasks/update' }));
    return { ok: false, reason: outcome === 'gone' ? 'not-found' : 'already-answered' };
  }

  /** Prints a one-time inbox link for the caller's subject on stderr, as `inboxLinks` allows; returns only when it expires. */
  async printLink(auth: AuthInfo): Promise<{ expiresAt: number }> {
    if (!this.people)
      throw new ElicitationNotSupportedError(
        "printQuestionInboxLink() needs people auth: set http: { auth: { people: 'loopback-token' } }",
      );
    const subject = this.subjectOf(auth);
    const mode = this.options.inboxLinks;
    if (mode === 'off')
      throw new ElicitationNotSupportedError(
        "Inbox links are off (persistent.inboxLinks: 'off'); this app sends createCode() codes itself",
      );
    if (mode === 'terminal' && !this.printer.isTerminal())
      throw new ElicitationNotSupportedError(
        "The server's stderr is not a terminal, so the inbox link is not printed (anyone reading this output could answer). Run the server in a terminal, or set persistent.inboxLinks: 'stderr' when only the person reads it.",
      );
    const origin = this.origin ?? this.fallbackOrigin;
    if (!origin) throw new ElicitationNotSupportedError('The server has no HTTP address yet to link the inbox to');
    const { code, expiresAt } = await this.people.createCode({ subject });
    this.printer.write(
      `[parley] Inbox for ${shownSubject(subject)} (one use, until ${new Date(expiresAt).toISOString()}): ${origin}${INBOX_BASE}/inbox#code=${code}`,
    );
    return { expiresAt };
  }

  /**
   * What the inbox shows a signed-in person: their questions (a session id is not shown, only that it is one). Each
   * question's first showing through a channel is logged as a view.
   */
  async view(person: InboxPerson, seen?: { channel: DecisionChannel; address?: string }): Promise<InboxView> {
    const subject = person.subject;
    const [own, addressed] = await Promise.all([this.store.list(subject), this.addressedTo(person)]);
    const questions = [...own, ...addressed.map(({ view }) => view)].sort((a, b) => a.createdAt - b.createdAt);
    const log = this.log;
    if (log && seen) {
      const witness = seen.address ? { address: seen.address } : {};
      const views = [
        ...own.map((q) => log.viewed(subject, q, seen.channel, witness)),
        ...addressed.map(({ owner, view }) => log.viewed(owner, view, seen.channel, witness, subject)),
      ];
      await this.note(Promise.all(views).then(() => {}));
    }
    return { signedInAs: shownSubject(subject), questions };
  }

  /** The questions addressed to a person now (by their sign-in's sub, email and groups), with who asked and who decided. */
  private async addressedTo(person: InboxPerson): Promise<{ owner: string; view: QuestionView }[]> {
    const entries = await this.store.addressedIn(listsFor(person));
    const me = whoOf(person.subject);
    const found = await Promise.all(
      entries.map(async ({ owner, id }) => {
        const view = await this.store.view(owner, id);
        if (!view?.addressed || !isAddressee(addresseesAt(view.addressed, view.createdAt), person)) return undefined;
        const decided = view.decisions?.some((d) => d.by === me) ?? false;
        return { owner, view: { ...view, askedBy: whoOf(owner), decided, ...this.deadlines?.shown(view) } };
      }),
    );
    return found.filter((f) => f !== undefined);
  }

  private subjectOf(auth: AuthInfo): string {
    const subject = questionSubjectOf(auth);
    if (!subject)
      throw new ElicitationNotSupportedError(
        'A persistent question belongs to its caller: sign in (a bearer token) or use a session. Anonymous callers cannot keep questions.',
      );
    return subject;
  }
}
