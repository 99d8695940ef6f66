// The fallback for callers that can't show forms: elicit() ends the run with a pending result, and sendElicitationResult
// runs the tool again, as the caller who was asked, with every answer so far. Before 2026-07-28 the question waits in
// the elicitation store under its session; on 2026-07-28 it travels in the elicitId itself, sealed as a requestState is.
import { callerKey } from './round-call';
import {
  elicitationModes,
  ttlOf,
  sealRecord,
  openRecord,
  sealState,
  openState,
  type Asker,
  type ElicitParams,
  type RawAnswer,
  type RecordedStep,
  type StateBinding,
  StepLog,
} from '../elicitation';
import { DECRYPT_FAILED, STATELESS_EDGE_REFUSAL } from './legacy/pending';
import { FALLBACK_TOOL, pendingResult } from './fallback-tool';
import { wireError, isObject, ElicitationNotSupportedError, InvalidInputError } from '../protocol';
import { routed, type Route } from './route';
import { sha256, toBase64Url } from '../crypto';
import { type CalledTool, runTool } from './run-tool';
import type { ParleyServer } from './server';
import { toToolError, type CallToolResult, type ElicitOptions, type RequestScope } from '../model';

/** The older client's session the call came in (a question then belongs to it), and its way to ask for samples and roots. */
export interface FallbackSession {
  sessionId?: string;
  /** Sampling and roots go to the client as requests on the call's stream, when it has one and declared them. */
  request?: Asker['request'];
}

interface FallbackRecord {
  tool: string;
  args: Record<string, unknown>;
  /** The answers so far, by question key, and the key of the question now open. */
  answers: Record<string, RawAnswer>;
  key: string;
  owner: { session?: string; caller: string };
  /** The steps' recorded results, when the tool took any (`[name]` for undefined). */
  steps?: [string, unknown?][];
}

/** What a fallback run starts from: the answers so far and the steps recorded, both from the sealed record. */
interface FallbackKept {
  answers: Record<string, RawAnswer>;
  steps?: [string, unknown?][];
}

class FallbackAsker implements Asker {
  readonly route = 'fallback';
  question?: { key: string; params: ElicitParams; ttl: number };
  /** Every step recorded, the record's and this run's: they travel on in the next record. */
  readonly steps: StepLog;
  private wake?: () => void;

  constructor(
    private readonly answers: Record<string, RawAnswer>,
    private readonly anonymous: boolean,
    session: FallbackSession,
    steps?: [string, unknown?][],
    /** 2026-07-28: samples and roots still go out as input_required rounds, through the request's round asker. */
    private readonly round?: Asker,
  ) {
    if (session.request) this.request = session.request;
    else if (round?.request) this.request = round.request.bind(round);
    this.steps = new StepLog(steps);
  }

  stepResult(name: string): RecordedStep | undefined {
    return this.steps.get(name);
  }

  recordStep(name: string, value: unknown): void {
    this.steps.add(name, value);
  }

  request?: Asker['request'];

  onSuspend(wake: () => void): void {
    this.wake = wake;
    this.round?.onSuspend?.(wake);
  }

  ask(key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    // Only the record's own answers: a key `constructor` is not answered by Object.prototype.
    const answer = Object.hasOwn(this.answers, key) ? this.answers[key] : undefined;
    if (answer) return Promise.resolve(answer);
    // On 2026-07-28 the round asker refuses it with -32021, naming elicitation.url; before, it is a tool error.
    if (params.mode === 'url') {
      if (this.round) return this.round.ask(key, params, options);
      throw new ElicitationNotSupportedError('This client cannot open a page for a URL-mode elicitation');
    }
    // An anonymous caller without a session: nobody could later prove the answer is theirs, so they are not asked.
    if (this.anonymous)
      throw new ElicitationNotSupportedError(
        'An anonymous caller without a session cannot answer a question: sign in, or use a client that supports elicitation.',
      );
    this.question = { key, params, ttl: ttlOf(options) };
    this.wake?.();
    // Never settles: the run ends here, and sendElicitationResult runs execute() again from the top.
    return new Promise<RawAnswer>(() => {});
  }
}

/**
 * Runs a tool for a caller that can't show forms (callTool's fallback route): a question comes back as the pending
 * result (text and `_meta.elicitationPending`), the final result as usual.
 */
export async function runAsking(
  server: ParleyServer,
  { entry, args, scope }: CalledTool,
  { answers, steps }: FallbackKept,
  session: FallbackSession,
): Promise<CallToolResult> {
  const asker = new FallbackAsker(answers, scope.auth.anonymous === true && !session.sessionId, session, steps);
  const outcome = await runTool(server, { entry, args, scope, asker });
  if (outcome.kind === 'result' || !asker.question) return outcome.kind === 'result' ? outcome.result : { content: [] };
  const { key, params, ttl } = asker.question;
  const store = storeOf(server);
  if (!store)
    return toToolError(
      new ElicitationNotSupportedError(
        server.config.elicitation.enabled ? STATELESS_EDGE_REFUSAL : 'Elicitation is not enabled on this server',
      ),
      server.logger,
      entry.name,
    );
  const elicitId = `elicit-${crypto.randomUUID()}`;
  const now = Date.now();
  const record: FallbackRecord = {
    tool: entry.name,
    args,
    answers,
    key,
    owner: { session: session.sessionId, caller: callerKey(scope.auth) },
    ...(asker.steps.entries.length > 0 && { steps: asker.steps.entries }),
  };
  const owner = session.sessionId ?? `caller-${toBase64Url(await sha256(callerKey(scope.auth)))}`;
  await store.backend.set(
    `${store.keyPrefix}fallback:${elicitId}`,
    await sealRecord({ sessionId: owner, elicitId, createdAt: now, expiresAt: now + ttl, ...record }, store.secret),
    ttl,
  );
  return pendingResult(entry, elicitId, params);
}

/**
 * sendElicitationResult: only the caller who was asked may answer; the tool then runs again with the answer.
 * Throws McpWireError -32003 (ELICITATION_NOT_OWNED) when someone else answers.
 */
export async function sendElicitationResult(
  server: ParleyServer,
  args: Record<string, unknown>,
  scope: RequestScope,
  questions: Route | ({ via: 'fallback' } & FallbackSession),
): Promise<Record<string, unknown>> {
  const { elicitId, action, content } = args;
  const fail = (message: string) => toToolError(new InvalidInputError(message), server.logger, FALLBACK_TOOL);
  if (typeof elicitId !== 'string' || elicitId === '') return fail('elicitId must be the id from elicitationPending');
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return fail('action must be "accept", "decline" or "cancel"');
  if (content !== undefined && !isObject(content)) return fail('content must be an object');
  if (questions.via === 'rounds') return continueSealed(server, { elicitId, answer: { action, content }, args, scope }, questions);
  const session: FallbackSession = questions.via === 'fallback' ? questions : {};
  const notFound = () => fail(`No pending elicitation found for ID: ${elicitId}`);
  const store = storeOf(server);
  const key = store && `${store.keyPrefix}fallback:${elicitId}`;
  const stored = store && key ? await store.backend.get(key) : undefined;
  if (!store || !key || !stored) return notFound();
  const opened = await openRecord<FallbackRecord>(stored, store.secret);
  if (!opened.ok) {
    if (opened.reason === 'undecryptable') server.logger.warn(DECRYPT_FAILED);
    return notFound();
  }
  const { owner } = opened.record;
  const mine =
    owner.session !== undefined ? session.sessionId === owner.session : !scope.auth.anonymous && callerKey(scope.auth) === owner.caller;
  // The question stays open for its owner: nothing is taken before this check.
  if (!mine)
    throw wireError(
      'ELICITATION_NOT_OWNED',
      `Elicitation "${elicitId}" was not requested by this caller: answer it in the session that was asked (a new session, such as each run of a CLI client, is another caller), or use a client that shows the form`,
    );
  // Of two answers racing, one takes the question; the other finds nothing.
  if (!(await store.backend.take(key))) return notFound();
  const entry = server.tools.get(opened.record.tool);
  if (!entry) return notFound();
  const answers = { ...opened.record.answers, [opened.record.key]: { action, content } };
  return runAsking(server, { entry, args: opened.record.args, scope }, { answers, steps: opened.record.steps }, session);
}

const storeOf = (server: ParleyServer) => server.elicitationStore;

/** What a 2026-07-28 fallback's elicitId carries, sealed: the call, the answers so far and the key of the open question. */
interface SealedCall extends FallbackKept {
  tool: string;
  args: Record<string, unknown>;
  key: string;
}

/**
 * The binding of a fallback's elicitId: the caller, as a requestState's, and a method no round uses, so neither token
 * passes for the other. The tool and its arguments travel inside the seal.
 */
const sealedBinding = (scope: RequestScope): StateBinding => ({
  caller: callerKey(scope.auth),
  method: 'parley/fallback',
  name: FALLBACK_TOOL,
  digest: '-',
});

type Rounds = Extract<Route, { via: 'rounds' }>;

/**
 * 2026-07-28, a client that declared no elicitation: the tool runs in the request's rounds (samples and roots go out
 * as input_required), and a question comes back as the pending result, its elicitId a sealed, caller-bound state.
 * `target` is what a sampling round's requestState binds to: the tool's call, or the sendElicitationResult call.
 */
export function runSealed(
  server: ParleyServer,
  called: CalledTool,
  { answers, steps }: FallbackKept,
  route: Rounds,
  target: { name: string; args: unknown },
): Promise<Record<string, unknown>> {
  const { entry, args, scope } = called;
  return routed(server, scope, route, { method: 'tools/call', ...target }, async (round) => {
    const asker = new FallbackAsker(answers, false, {}, steps, round);
    const outcome = await runTool(server, { entry, args, scope, asker });
    if (outcome.kind === 'result' || !asker.question) return outcome;
    const { key, params } = asker.question;
    const call: SealedCall = {
      tool: entry.name,
      args,
      answers,
      key,
      ...(asker.steps.entries.length > 0 && { steps: asker.steps.entries }),
    };
    const { requestState: form, stateTtlMs } = server.config.elicitation;
    const state = await sealState(server.stateKeys, form, sealedBinding(scope), { answers: { call: { content: call } } }, stateTtlMs);
    return { kind: 'result', result: pendingResult(entry, state, params, false) };
  });
}

/** sendElicitationResult on 2026-07-28: opens the elicitId as a round opens its requestState, then runs the tool again. */
async function continueSealed(
  server: ParleyServer,
  answered: { elicitId: string; answer: RawAnswer; args: Record<string, unknown>; scope: RequestScope },
  route: Rounds,
): Promise<Record<string, unknown>> {
  const { elicitId, answer, args, scope } = answered;
  const check = await openState(server.stateKeys, elicitId, sealedBinding(scope));
  const call = check.ok ? (check.answers.call?.content as SealedCall | undefined) : undefined;
  const entry = call && server.tools.get(call.tool);
  if (!call || !entry) {
    // Malformed, altered, expired, another caller's or under a key not listed here: what a round ignores and starts
    // over from. Here the model starts over by calling the tool again; the log says why.
    server.logger.warn(`Ignoring the elicitId of a ${FALLBACK_TOOL} call: ${check.ok ? 'it names no tool of this server' : check.reason}.`);
    return toToolError(new InvalidInputError(`No pending elicitation found for ID: ${elicitId}`), server.logger, FALLBACK_TOOL);
  }
  const answers: Record<string, RawAnswer> = { ...call.answers, [call.key]: answer };
  return runSealed(server, { entry, args: call.args, scope }, { answers, steps: call.steps }, route, { name: FALLBACK_TOOL, args });
}

/**
 * Whether a tools/call before 2026-07-28 asks its questions through the fallback: the client declared no elicitation,
 * or it calls sendElicitationResult itself (and no tool of that name shadows it). HTTP and stdio both ask this; the
 * call streams its notifications all the same, and only a question turns into the pending result.
 */
export function takesFallback(server: ParleyServer, name: unknown, capabilities: Record<string, unknown>): boolean {
  const modes = elicitationModes(capabilities);
  return (name === FALLBACK_TOOL && !server.tools.has(FALLBACK_TOOL)) || (!modes.form && !modes.url);
}
