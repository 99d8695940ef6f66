// What travels between the asking calls (elicit, sample, listRoots) and the era-specific ways of asking.
import type { ElicitOptions, InboxReason } from '../model';

/** Where a persistent question came from and why it is in the inbox (shown there, and sent by notify). */
export interface QuestionOrigin {
  tool: string;
  reason: InboxReason;
  /** How long the client had (`client-never-answered`), or has before the person is nudged (`filed-with-round`, `task`). */
  afterMs?: number;
  /** The standing approval an accept may give (the tool's rule): for how long, and the call's arguments it is for. */
  grant?: { forMs: number; match: Record<string, unknown> };
}

/** The task question an inbox question stands for: answering it answers the task's (the task's open token decides). */
export interface TaskLink {
  taskId: string;
  /** The question's key in the task (`elicitation-1`). */
  key: string;
  /** The task's owner as the task store knows it; absent for an anonymous task. */
  owner?: string;
}

export interface ElicitParams {
  mode?: 'url';
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
}

/** An answer as the client sent it, not yet checked. */
export interface RawAnswer {
  action?: unknown;
  content?: unknown;
  [key: string]: unknown;
}

/** The input requests besides elicitation: a sample from the client's model, or the client's roots. */
export type OtherInputMethod = 'sampling/createMessage' | 'roots/list';

/** One way a question travels: an input_required round, a server→client request, or the fallback. */
export interface Asker {
  /** Which way, for the unanswered-question policy (an asker without it is left alone). */
  readonly route?: 'rounds' | 'stream' | 'fallback';
  /**
   * For an asker whose questions can end the run (an input_required round, the fallback's pending result): `wake` is
   * called when one does, once or more.
   */
  onSuspend?(wake: () => void): void;
  /** Whether the client declared it can show this mode of question. */
  canShow?(mode: 'form' | 'url'): boolean;
  /** Resolves with the client's raw answer; a round that ends the run never resolves. */
  ask(key: string, params: ElicitParams, options: ElicitOptions, stop?: AbortSignal): Promise<RawAnswer>;
  /**
   * An answer this request already carries for the key, so nothing is asked: `replayed` when an earlier round
   * brought it (the hooks saw it then), else it arrived with this request.
   */
  known?(key: string): { replayed: boolean } | undefined;
  /** Asks for a sample or the roots; an asker without it cannot (the run fails with a clear error). */
  request?(key: string, method: OtherInputMethod, params: Record<string, unknown>): Promise<RawAnswer>;
  /** A persistent question's answer this request already received (a 2026-07-28 retry carries it in its state). */
  recall?(key: string): RawAnswer | undefined;
  /** Keeps a persistent question's answer for the rest of the request. */
  remember?(key: string, answer: RawAnswer): void;
  /**
   * Makes the call a task (ToolContext.startTask): later questions wait in the task. Only a 2026-07-28 call of a tool
   * that may run as a task, from a request that declared tasks, has it; true once the call is a task.
   */
  startTask?(): Promise<boolean>;
  /** A step's result this call recorded before (ToolContext.step); an asker without it records nothing: steps run each time. */
  stepResult?(name: string): RecordedStep | undefined;
  /** Records a step's result for the replays of this call (in the round's requestState, the task's record, …). */
  recordStep?(name: string, value: unknown): void | Promise<unknown>;
  /** What this call read so far (a round's answers and steps), for the task it becomes to replay with. */
  carried?(): { answers: [string, RawAnswer][]; steps?: [string, unknown?][] };
}

/** A step's recorded result: `value` is its JSON, parsed (absent when the step returned undefined). */
export interface RecordedStep {
  value?: unknown;
}

/** Persistent questions for one call: asked and answered in the inbox, never by the client. */
export interface PersistentAsker {
  ask(params: ElicitParams, options: ElicitOptions, from?: QuestionOrigin): Promise<RawAnswer>;
  /** The caller's subject, undefined for an anonymous caller (who can keep no questions). */
  readonly subject: string | undefined;
  /**
   * 2026-07-28 rounds: files the question under its key without waiting; gives its id, and its answer if one waited.
   * `addressing`: whom it is for instead of the caller (the unanswered policy's `to`), checked as `ask()`'s.
   */
  file(
    key: string,
    params: ElicitParams,
    from: QuestionOrigin,
    task?: TaskLink,
    addressing?: Pick<ElicitOptions, 'to' | 'quorum' | 'declines'>,
  ): Promise<{ id: string; created: boolean; answer?: RawAnswer }>;
  /** The id of the open question under a key, if any. */
  find(key: string): Promise<string | undefined>;
  /**
   * A client's answer claims the question, atomically against the inbox: `claimed` (the client's answer counts),
   * else the inbox's answer (taken, once), else `gone` (answered and delivered already, or expired).
   */
  claim(id: string): Promise<'claimed' | 'gone' | RawAnswer>;
  printLink(): Promise<{ expiresAt: number }>;
}

export const ELICIT_METHOD = 'elicitation/create';
