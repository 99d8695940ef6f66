// The fallback for callers that can't show forms: elicit() ends the run with a pending result, and sendElicitationResult
// runs the tool again, as the caller who was asked, with every answer so far.
import { callerKey } from './round-call';
import { elicitationModes, ttlOf, sealRecord, openRecord, type Asker, type ElicitParams, type RawAnswer } from '../elicitation';
import { DECRYPT_FAILED, STATELESS_EDGE_REFUSAL } from './pending';
import { FALLBACK_TOOL, pendingResult } from './fallback-tool';
import { ErrorCode, McpWireError, isObject, ElicitationNotSupportedError, InvalidInputError } from '../protocol';
import { sha256, toBase64Url } from '../crypto';
import { findTool, runTool } from './call-tool';
import type { ParleyServer } from './server';
import {
  createNotifier,
  type Notifier,
  type ToolEntry,
  toToolError,
  type CallToolResult,
  type AuthInfo,
  type ElicitOptions,
} from '../server';

/** Who calls: their verified auth, and their session when they have one (the question then belongs to the session). */
export interface FallbackCaller {
  auth: AuthInfo;
  sessionId?: string;
  signal?: AbortSignal;
  /**
   * Where the call's progress and log notifications go (its SSE stream, stdio's lines), and what else the client
   * declared: only a question takes the fallback; the rest of the call streams as any other does.
   */
  through?: { notifier: Notifier; capabilities: Record<string, unknown>; request?: Asker['request'] };
}

interface FallbackRecord {
  tool: string;
  args: Record<string, unknown>;
  /** The answers so far, by question key, and the key of the question now open. */
  answers: Record<string, RawAnswer>;
  key: string;
  owner: { session?: string; caller: string };
}

/**
 * Calls a tool for a caller that can't show forms; `sendElicitationResult` answers a question one of them asked.
 * A question comes back as the pending result (text and `_meta.elicitationPending`); the final result comes back as usual.
 * Throws McpWireError -32003 (ELICITATION_NOT_OWNED) when someone else answers, and -32602 for an unknown tool.
 * @example const asked = await callToolWithFallback(server, 'close_ticket', { id: 'T-1' }, { auth });
 */
export async function callToolWithFallback(
  server: ParleyServer,
  name: string,
  args: Record<string, unknown>,
  caller: FallbackCaller,
): Promise<CallToolResult> {
  if (name === FALLBACK_TOOL && !server.tools.has(name)) return sendElicitationResult(server, args, caller);
  const { entry } = findTool(server, { name, arguments: args });
  return runAsking(server, entry, args, {}, caller);
}

class FallbackAsker implements Asker {
  readonly route = 'fallback';
  question?: { key: string; params: ElicitParams; ttl: number };
  readonly suspended: Promise<void>;
  private wake!: () => void;

  constructor(
    private readonly answers: Record<string, RawAnswer>,
    private readonly caller: FallbackCaller,
  ) {
    this.suspended = new Promise((resolve) => (this.wake = resolve));
    // Sampling and roots go to the client as requests on the call's stream, when it has one and declared them.
    const request = caller.through?.request;
    if (request) this.request = request;
  }

  request?: Asker['request'];

  ask(key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    // Only the record's own answers: a key `constructor` is not answered by Object.prototype.
    const answer = Object.hasOwn(this.answers, key) ? this.answers[key] : undefined;
    if (answer) return Promise.resolve(answer);
    if (params.mode === 'url') throw new ElicitationNotSupportedError('This client cannot open a page for a URL-mode elicitation');
    // Nobody could later prove the answer is theirs, so such a caller is not asked at all.
    if (this.caller.auth.anonymous && !this.caller.sessionId)
      throw new ElicitationNotSupportedError(
        'An anonymous caller without a session cannot answer a question: sign in, or use a client that supports elicitation.',
      );
    this.question = { key, params, ttl: ttlOf(options) };
    this.wake();
    // Never settles: the run ends here, and sendElicitationResult runs execute() again from the top.
    return new Promise<RawAnswer>(() => {});
  }
}

async function runAsking(
  server: ParleyServer,
  entry: ToolEntry,
  args: Record<string, unknown>,
  answers: Record<string, RawAnswer>,
  caller: FallbackCaller,
): Promise<CallToolResult> {
  const asker = new FallbackAsker(answers, caller);
  const notifier = caller.through?.notifier ?? createNotifier(undefined, undefined, server.logger);
  const capabilities = caller.through?.capabilities ?? {};
  // An anonymous caller is known by its session, as on the stream: that is the subject of its persistent questions.
  const auth = caller.auth.anonymous && caller.sessionId ? { ...caller.auth, sessionId: caller.sessionId } : caller.auth;
  const scope = { auth, signal: caller.signal ?? new AbortController().signal, capabilities, notifier, changes: server.changes };
  const outcome = await runTool(server, entry, args, { ...scope, asker, suspended: asker.suspended });
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
    owner: { session: caller.sessionId, caller: callerKey(caller.auth) },
  };
  const owner = await ownerIdOf(caller);
  await store.backend.set(
    `${store.keyPrefix}fallback:${elicitId}`,
    await sealRecord({ sessionId: owner, elicitId, createdAt: now, expiresAt: now + ttl, ...record }, store.secret),
    ttl,
  );
  return pendingResult(entry, elicitId, params);
}

/** sendElicitationResult: only the caller who was asked may answer; the tool then runs again with the answer. */
export async function sendElicitationResult(
  server: ParleyServer,
  args: Record<string, unknown>,
  caller: FallbackCaller,
): Promise<CallToolResult> {
  const { elicitId, action, content } = args;
  const fail = (message: string) => toToolError(new InvalidInputError(message), server.logger, FALLBACK_TOOL);
  if (typeof elicitId !== 'string' || elicitId === '') return fail('elicitId must be the id from elicitationPending');
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return fail('action must be "accept", "decline" or "cancel"');
  if (content !== undefined && !isObject(content)) return fail('content must be an object');
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
    owner.session !== undefined ? caller.sessionId === owner.session : !caller.auth.anonymous && callerKey(caller.auth) === owner.caller;
  // The question stays open for its owner: nothing is taken before this check.
  if (!mine)
    throw new McpWireError(
      ErrorCode.NotOwned,
      `Elicitation "${elicitId}" was not requested by this caller: answer it in the session that was asked (a new session, such as each run of a CLI client, is another caller), or use a client that shows the form`,
      { code: 'ELICITATION_NOT_OWNED' },
    );
  // Of two answers racing, one takes the question; the other finds nothing.
  if (!(await store.backend.take(key))) return notFound();
  const entry = server.tools.get(opened.record.tool);
  if (!entry) return notFound();
  const answers = { ...opened.record.answers, [opened.record.key]: { action, content } };
  return runAsking(server, entry, opened.record.args, answers, caller);
}

const storeOf = (server: ParleyServer) => server.elicitationStore;

/** The id a record's key is derived from: the session's, or for a caller without one, a digest of who they are. */
async function ownerIdOf(caller: FallbackCaller): Promise<string> {
  return caller.sessionId ?? `caller-${toBase64Url(await sha256(callerKey(caller.auth)))}`;
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
