// A 2026-07-28 request that may need input: read the answers (requestState + inputResponses), run, and seal a new state.
import { invalidParams, isObject } from '../protocol';
import type { ParleyServer } from './server';
import type { AuthInfo } from '../model';
import {
  digestArguments,
  openState,
  sealState,
  type StateBinding,
  type StateCheck,
  RoundAsker,
  SERVER_KEY,
  type RawAnswer,
} from '../elicitation';

const ANSWER_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_ANSWERS = 64;
const NONE: ReadonlySet<string> = new Set();

interface RoundRequest {
  method: string;
  name: string;
  args: unknown;
  params: Record<string, unknown>;
  auth: AuthInfo;
  capabilities: Record<string, unknown>;
}

/** How a run ended: with a result, or suspended on questions the client must answer first. */
export type RoundOutcome = { kind: 'result'; result: Record<string, unknown> } | { kind: 'suspended' };

export const callerKey = (auth: AuthInfo): string => (auth.anonymous ? 'anonymous' : `${auth.user.iss ?? ''}#${auth.user.sub}`);

/** True when the request is a retry (it carries answers or state): its result must not be cached. */
export const isRetry = (params: Record<string, unknown>): boolean =>
  params.inputResponses !== undefined || params.requestState !== undefined;

/** What a state is bound to: the caller, the method, the tool, prompt or URI, and a digest of its arguments. */
function bindingOf(auth: AuthInfo, target: { method: string; name: string; args: unknown }): StateBinding | Promise<StateBinding> {
  const caller = callerKey(auth);
  const digest = digestArguments(target.args);
  const binding = (d: string): StateBinding => ({ caller, method: target.method, name: target.name, digest: d });
  return typeof digest === 'string' ? binding(digest) : digest.then(binding);
}

/** `value`, or what a promise of it resolves to, through `next`: no promise and no tick where parley-mcp/node's crypto is synchronous. */
const then = <T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> =>
  value instanceof Promise ? value.then(next) : next(value);

/**
 * A retry (it carries answers or state, see isRetry): opens the state against this request's binding, runs with the
 * answers, and seals a new state if the run asks again. Not async: the binding, the opening and the sealing take no
 * tick where the runtime's crypto is synchronous.
 */
export function withRounds(
  server: ParleyServer,
  request: RoundRequest,
  run: (asker: RoundAsker) => Promise<RoundOutcome>,
): Promise<Record<string, unknown>> {
  const { inputResponses, requestState } = request.params;
  if (inputResponses !== undefined && !isObject(inputResponses))
    return Promise.reject(invalidParams('params.inputResponses must be an object'));
  if (requestState !== undefined && typeof requestState !== 'string')
    return Promise.reject(invalidParams('params.requestState must be a string'));
  // The binding (a digest of the arguments) is made when there is a state to check or a new one to seal.
  let binding: StateBinding | Promise<StateBinding> | undefined;
  const bind = () => (binding ??= bindingOf(request.auth, request));
  try {
    const opened = requestState === undefined ? undefined : then(bind(), (b) => openState(server.stateKeys, requestState, b));
    return Promise.resolve(then(opened, (check) => startRetry(server, request, check, run))).then((ran) =>
      ran.outcome.kind === 'result' ? ran.outcome.result : then(bind(), (b) => sealRound(server, b, ran.asker, ran.answers)),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The error for a state that does not open. Never a new call in its place: the client sent it to go on with a call,
 * and running the tool from the start would run again what its steps recorded (a charge, a ticket). Malformed (no
 * Parley server wrote it) or well-formed but unverifiable (altered, expired, another caller's or request's, a key not
 * listed here, another version's): the client learns only that it does not hold; the log says why.
 */
function refused(server: ParleyServer, request: RoundRequest, check: Exclude<StateCheck, { ok: true }>) {
  if (check.malformed) return invalidParams('params.requestState is malformed');
  const hint = server.ephemeralStateKey
    ? ' This instance seals with a per-process key: set the same VAULT_SECRET on every instance.'
    : check.unknownKey
      ? " A key retired from VAULT_SECRET, or another deployment's: keep the old secret listed after the new one (comma-separated) until its states expire."
      : '';
  server.logger.warn(`Refusing requestState for ${request.method} "${request.name}": ${check.reason}.${hint}`);
  return invalidParams(
    'params.requestState does not hold for this request (altered, expired, issued for another caller or request, or under a key this server does not list): call again without it to start over',
  );
}

/** What a retry's run starts from: the answers its state brought (if it opens), then this request's own. */
function startRetry(
  server: ParleyServer,
  request: RoundRequest,
  check: StateCheck | undefined,
  run: (asker: RoundAsker) => Promise<RoundOutcome>,
): Promise<Ran> {
  // A Map: the keys are the client's, and `__proto__` or `constructor` must be keys like any other.
  const answers = new Map<string, RawAnswer>();
  let steps: [string, unknown?][] | undefined;
  if (check?.ok) {
    for (const key in check.answers)
      if (Object.hasOwn(check.answers, key) && isObject(check.answers[key])) answers.set(key, check.answers[key]);
    steps = check.steps;
  } else if (check) throw refused(server, request, check);
  // The answers the state brought back, before this request's own are added.
  const replayed = check === undefined ? undefined : new Set(answers.keys());
  const inputResponses = request.params.inputResponses as Record<string, unknown> | undefined;
  if (inputResponses) {
    // What the server sealed under its own keys (persisted-N, inbox-<key>) is not the client's to replace.
    for (const key in inputResponses) {
      if (!Object.hasOwn(inputResponses, key)) continue;
      const value = inputResponses[key];
      if (ANSWER_KEY.test(key) && isObject(value) && !(SERVER_KEY.test(key) && replayed?.has(key))) {
        answers.set(key, value as RawAnswer);
        replayed?.delete(key);
      }
    }
  }
  if (answers.size > MAX_ANSWERS) throw invalidParams(`Too many input responses (at most ${MAX_ANSWERS})`);
  const asker = new RoundAsker(answers, request.capabilities, replayed ?? NONE, steps);
  return run(asker).then((outcome) => ({ outcome, asker, answers }));
}

interface Ran {
  outcome: RoundOutcome;
  asker: RoundAsker;
  answers: Map<string, RawAnswer>;
}

/**
 * A first call (no inputResponses, no requestState, see isRetry): nothing to open or check, so none of withRounds'
 * work; the binding (a digest of the arguments) is made only when the run asks.
 */
export function firstRound(
  server: ParleyServer,
  scope: { auth: AuthInfo; capabilities: Record<string, unknown> },
  target: { method: string; name: string; args: unknown },
  run: (asker: RoundAsker) => Promise<RoundOutcome>,
): Promise<Record<string, unknown>> {
  const answers = new Map<string, RawAnswer>();
  const asker = new RoundAsker(answers, scope.capabilities, NONE);
  return run(asker).then((outcome) =>
    outcome.kind === 'result'
      ? outcome.result
      : then(bindingOf(scope.auth, target), (binding) => sealRound(server, binding, asker, answers)),
  );
}

/** A run that suspended: its questions go out as input_required, with the answers it read sealed in the new state. */
function sealRound(
  server: ParleyServer,
  binding: StateBinding,
  asker: RoundAsker,
  answers: Map<string, RawAnswer>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (asker.failure) throw asker.failure;
  // Only the answers this run read travel on; unknown keys the client sent are dropped here.
  const kept: Record<string, RawAnswer> = Object.create(null);
  for (const key of asker.used) {
    const answer = answers.get(key);
    if (answer) kept[key] = answer;
  }
  const { requestState: form, stateTtlMs } = server.config.elicitation;
  const steps = asker.steps?.entries;
  const state = sealState(server.stateKeys, form, binding, steps ? { answers: kept, steps } : { answers: kept }, stateTtlMs);
  return then(state, (requestState) => ({ resultType: 'input_required', inputRequests: asker.questions(), requestState }));
}
