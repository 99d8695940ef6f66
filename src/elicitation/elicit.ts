// The questions one run of a handler asks: it keys them, builds their params, runs the hooks, asks, and checks the answers.
import { ElicitationDisabledError, InvalidInputError, PublicMcpError } from '../protocol';
import {
  toFormSchema,
  type AddressingOptions,
  type AuthInfo,
  type ElicitOptions,
  type ElicitResult,
  type SchemaInput,
  type ElicitationHooks,
  type ElicitationQuestion,
  type Root,
  type SampleOptions,
  type SampleParams,
  type SampleResult,
  type UnansweredPolicy,
} from '../model';
import { checkAnswer } from './answer';
import { runRequestHooks, runResultHooks } from './hooks';
import { checkRoots, checkSample, sampleParams } from './inputs';
import type { Asker, ElicitParams, OtherInputMethod, PersistentAsker, RawAnswer } from './types';
import type { ToolTrace } from '../runtime';

/** A server's elicitation settings, built once with the server (app/build-server.ts): the same for every run. */
export interface ElicitSettings {
  enabled: boolean;
  production: boolean;
  hooks?: ElicitationHooks;
  /** `elicitation.unanswered`: what becomes of a question the client does not answer. */
  unanswered?: UnansweredPolicy;
  /** Loads the policy's code (Node only: app/ passes it in, an edge build refuses the policy). */
  loadUnanswered: () => Promise<UnansweredModule>;
  /** The server's tools, whose `to` their persistent questions follow (docs/approvals.md; checked at startup). */
  tools?: ReadonlyMap<string, { options: AddressingOptions }>;
}

/** The unanswered-question policy's code, loaded on first use. */
export type UnansweredModule = typeof import('./unanswered');

/** Who asks: the tool and its caller, as the hooks see them. */
interface ElicitCall {
  tool: string;
  auth: AuthInfo;
  /** The tool call's span, when tracing is on: each question is an event on it. */
  trace?: ToolTrace;
  /** The caller's persistent questions, for this call's signal: present when `elicitation.persistent` is on. */
  questions?: PersistentAsker;
}

type Kind = 'elicitation' | 'sampling' | 'roots';

const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** The question state of one run: each kind numbers its own keys (`elicitation-1`, `sampling-1`, `roots-1`). */
export class ElicitRun {
  // Made on the first question: most runs ask none.
  private counts: Record<Kind, number> | undefined;
  private keys: Set<string> | undefined;
  private persisted = 0;
  // Made on the first step: most runs take none.
  private steps: Set<string> | undefined;
  constructor(
    readonly settings: ElicitSettings,
    readonly asker: Asker,
    readonly call: ElicitCall,
  ) {}

  private keyFor(kind: Kind, chosen: string | undefined): string {
    if (chosen !== undefined && !KEY.test(chosen))
      throw new InvalidInputError(`Question key "${chosen}" must be 1-64 characters of A-Z, a-z, 0-9, _, . and -`);
    // Parley drops `__proto__` keys from every JSON body, so an answer under that key could never arrive.
    if (chosen === '__proto__') throw new InvalidInputError('Question key "__proto__" cannot be answered: choose another key');
    const counts = (this.counts ??= { elicitation: 0, sampling: 0, roots: 0 });
    const keys = (this.keys ??= new Set());
    const key = chosen ?? `${kind}-${++counts[kind]}`;
    if (keys.has(key)) throw new InvalidInputError(`Question key "${key}" is used twice in one run`);
    keys.add(key);
    return key;
  }

  async elicit(message: string, schema: SchemaInput, options: ElicitOptions = {}): Promise<ElicitResult<unknown>> {
    if (!this.settings.enabled)
      throw new ElicitationDisabledError(
        this.settings.production
          ? 'Elicitation is disabled on this server.'
          : 'Elicitation is disabled in server configuration. Set `elicitation: { enabled: true }` in @FrontMcp to use this.elicit().',
      );
    const mode = options.mode ?? 'form';
    if (typeof message !== 'string' || message === '') throw new InvalidInputError('elicit() needs a message');
    let params: ElicitParams;
    if (mode === 'url') {
      if (!options.url) throw new InvalidInputError('url is required when mode is "url"');
      params = { mode: 'url', message, url: options.url, elicitationId: options.elicitationId ?? `elicit-${crypto.randomUUID()}` };
    } else {
      params = { message, requestedSchema: toFormSchema(schema) };
    }
    if (options.persist) return this.askPersistent(params, schema, options);
    if (options.to || options.quorum || options.declines || options.escalate || options.expire)
      throw new InvalidInputError('`to` needs persist: { key }');
    const key = this.keyFor('elicitation', options.key);
    const hooks = this.settings.hooks;
    // What the hooks see; without hooks nothing is built for them.
    const question = (): ElicitationQuestion => ({
      tool: this.call.tool,
      key,
      mode,
      message,
      auth: this.call.auth,
      ...(mode === 'url' ? { url: options.url } : { requestedSchema: params.requestedSchema }),
    });
    // Fast path: with no policy, server-wide or for this call, nothing is loaded.
    const route =
      mode === 'form' && (this.settings.unanswered || options.unanswered !== undefined)
        ? (await this.settings.loadUnanswered()).unansweredRoute(
            { ...this.settings, questions: this.call.questions },
            this.asker,
            options,
            question,
          )
        : undefined;
    const known = this.asker.known?.(key) ?? route?.known(key);
    // A question goes out only when the request carries no answer to it; only then do the request hooks run.
    if (!known && hooks?.request?.length) params = { ...params, message: await runRequestHooks(hooks, question()) };
    const trace = this.call.trace;
    if (!known) trace?.question('asked', key, mode);
    const asking = route ? route.ask(key, params, options) : this.asker.ask(key, params, options);
    const raw = await (trace ? trace.awaitAnswer(key, mode, asking) : asking);
    // Not awaited when the check is synchronous (Zod, JSON Schema): a tick fewer on every answered question.
    const checking = checkAnswer(raw ?? {}, schema, mode);
    const checked = checking instanceof Promise ? await checking : checking;
    // Moved to people the policy names (`to`): their decisions, as the inbox kept them (never a client's).
    const result = route?.answeredIn === 'inbox' ? withDecisions(checked, raw) : checked;
    if (!known?.replayed) trace?.answered(key, mode, result.status);
    if (!known?.replayed && hooks?.result?.length)
      await runResultHooks(hooks, { ...question(), result, ...(route && { answeredIn: route.answeredIn }) });
    return result;
  }

  async sample(input: string | SampleParams, options: SampleOptions = {}): Promise<SampleResult> {
    const params = sampleParams(input, options);
    return checkSample(await this.other('sampling', 'sampling/createMessage', params, options.key));
  }

  async listRoots(options: { key?: string } = {}): Promise<Root[]> {
    return checkRoots(await this.other('roots', 'roots/list', {}, options.key));
  }

  /** The asker's way to make the call a task; an asker without one (every other route) goes on as an ordinary call. */
  startTask(): Promise<boolean> {
    return this.asker.startTask?.() ?? Promise.resolve(false);
  }

  /**
   * ToolContext.step: runs `fn` unless the call recorded this step before (then its recorded result is returned and
   * `fn` never runs), and records what it returns, as JSON, where the asker keeps the call's replays' state. A step
   * that throws is not recorded; one name twice in one run is an error naming it.
   */
  async step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    if (!KEY.test(name)) throw new InvalidInputError(`Step name "${name}" must be 1-64 characters of A-Z, a-z, 0-9, _, . and -`);
    const steps = (this.steps ??= new Set());
    if (steps.has(name)) throw new InvalidInputError(`Step "${name}" is used twice in one run`);
    steps.add(name);
    const recorded = this.asker.stepResult?.(name);
    if (recorded) return recorded.value as T;
    // The run goes on with what a replay reads (JSON), so the first run and every replay see the same value.
    const json = JSON.stringify(await fn());
    const value: unknown = json === undefined ? undefined : JSON.parse(json);
    await this.asker.recordStep?.(name, value);
    return value as T;
  }

  private other(kind: Kind, method: OtherInputMethod, params: Record<string, unknown>, key: string | undefined): Promise<RawAnswer> {
    if (!this.asker.request) throw new PublicMcpError(`This client cannot be asked for ${method}.`, 'INPUT_NOT_SUPPORTED');
    return this.asker.request(this.keyFor(kind, key), method, params);
  }

  /**
   * A persistent question waits server-side, up to `ttl`, for its answer from the inbox, on every protocol revision:
   * the inbox answers it, never the client. On a 2026-07-28 retry the answer it got travels in the signed state
   * under `persisted-N` (a client's inputResponses under that key are ignored), so the retry does not ask it again.
   */
  private async askPersistent(params: ElicitParams, schema: SchemaInput, options: ElicitOptions): Promise<ElicitResult<unknown>> {
    const key = `persisted-${++this.persisted}`;
    const mode = options.mode ?? 'form';
    // A retry that carries the answer asks nothing, and the hooks saw this question when it was asked.
    const kept = this.asker.recall?.(key);
    if (kept) return withDecisions(await checkAnswer(kept, schema, mode), kept);
    if (mode === 'url')
      throw new InvalidInputError('URL mode cannot be persisted: a persistent question is answered in the inbox, with a form');
    if (!this.call.questions)
      throw new InvalidInputError(
        'persist needs persistent questions: set `elicitation: { enabled: true, persistent: true }` in @FrontMcp',
      );
    const question: ElicitationQuestion = {
      tool: this.call.tool,
      key,
      mode,
      message: params.message,
      auth: this.call.auth,
      requestedSchema: params.requestedSchema,
    };
    // The tool's `to` when the question names none; the question's own quorum and declines count over the tool's.
    const tool = this.settings.tools?.get(this.call.tool)?.options;
    const asked = tool?.to && !options.to ? { quorum: tool.quorum, declines: tool.declines, ...options, to: tool.to } : options;
    const raw = await this.call.questions.ask({ ...params, message: await runRequestHooks(this.settings.hooks, question) }, asked, {
      tool: this.call.tool,
      reason: 'persist',
    });
    this.asker.remember?.(key, raw);
    const result = withDecisions(await checkAnswer(raw, schema, mode), raw);
    await runResultHooks(this.settings.hooks, { ...question, result });
    return result;
  }
}

/**
 * An addressed question's result carries every decision that counted (`to`, docs/approvals.md), as the inbox kept them,
 * and the reason it ended undecided (its `expire` deadline).
 */
function withDecisions(result: ElicitResult<unknown>, raw: RawAnswer): ElicitResult<unknown> {
  const decided = Array.isArray(raw.decisions) ? { ...result, decisions: raw.decisions as NonNullable<ElicitResult['decisions']> } : result;
  return typeof raw.reason === 'string' ? { ...decided, reason: raw.reason } : decided;
}
