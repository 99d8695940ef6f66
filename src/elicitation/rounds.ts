// 2026-07-28: questions as input_required rounds. A question without its answer ends the run; the retry runs it again.
import { type McpWireError, wireError, isObject, ElicitationNotSupportedError, InvalidInputError, PublicMcpError } from '../protocol';
import { StepLog } from './step';
import { type Asker, type ElicitParams, type OtherInputMethod, type RawAnswer, type RecordedStep, ELICIT_METHOD } from './types';

interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** Which elicitation modes a request's clientCapabilities declare (`elicitation: {}` means form). */
export function elicitationModes(capabilities: Record<string, unknown> | undefined): { form: boolean; url: boolean } {
  const e = capabilities?.elicitation;
  if (typeof e !== 'object' || e === null) return { form: false, url: false };
  const declared = e as Record<string, unknown>;
  const url = Object.hasOwn(declared, 'url');
  return { form: Object.hasOwn(declared, 'form') || !url, url };
}

const missing = (name: string, required: Record<string, unknown>) =>
  wireError('MISSING_CAPABILITY', `This request requires the \`${name}\` client capability`, {
    requiredCapabilities: required,
  });

/** The capability a sampling or roots request needs that the client did not declare, if any. */
export function missingFor(
  method: OtherInputMethod,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): McpWireError | undefined {
  if (method === 'roots/list') return isObject(capabilities.roots) ? undefined : missing('roots', { roots: {} });
  const sampling = capabilities.sampling;
  if (!isObject(sampling)) return missing('sampling', { sampling: {} });
  if (params.tools !== undefined && !isObject(sampling.tools)) return missing('sampling.tools', { sampling: { tools: {} } });
  const context = params.includeContext;
  if (context !== undefined && context !== 'none' && !isObject(sampling.context))
    return missing('sampling.context', { sampling: { context: {} } });
  return undefined;
}

/** Keys the server fills in the state itself: persistent answers (`persisted-N`), inbox records of the policy (`inbox-<key>`). */
export const SERVER_KEY = /^(persisted|inbox)-/;

/** The JSON of a round's steps, all together, fits a requestState (sealing adds a third, and the answers need room). */
const MAX_STEPS_JSON = 40_000;

/** Asks by collecting input requests; the run is suspended until the client retries with answers. */
export class RoundAsker implements Asker {
  readonly route = 'rounds';
  /** The questions this run asked, by key (a handler's own choice, so a Map: any key is a key like any other). */
  private readonly asked = new Map<string, InputRequest>();
  /** The keys whose answers this run read: only these travel on in the next requestState. */
  readonly used = new Set<string>();
  /** A capability the client lacks, found while other questions were being collected: it wins over the round. */
  failure?: McpWireError;
  private wake?: () => void;
  /** The steps' results: those the state brought and those this run recorded; all travel on. Made for the first. */
  steps: StepLog | undefined;

  /** `answers` holds every answer so far; `replayed` names those an earlier round brought (from requestState). */
  constructor(
    private readonly answers: Map<string, RawAnswer>,
    private readonly capabilities: Record<string, unknown>,
    private readonly replayed: ReadonlySet<string> = new Set(),
    steps?: [string, unknown?][],
  ) {
    if (steps) this.steps = new StepLog(steps);
  }

  stepResult(name: string): RecordedStep | undefined {
    return this.steps?.get(name);
  }

  recordStep(name: string, value: unknown): void {
    (this.steps ??= new StepLog()).add(name, value);
    if (JSON.stringify(this.steps.entries).length > MAX_STEPS_JSON)
      throw new InvalidInputError(`Step "${name}": the steps' results are too large for requestState (record an id)`);
  }

  /**
   * The inputRequests of the input_required result: an object with the keys as own properties (defined, never
   * assigned, so no key reaches a prototype), in the order asked, which JSON writes without V8's dictionary-mode path.
   */
  questions(): Record<string, InputRequest> {
    return Object.fromEntries(this.asked);
  }

  carried(): { answers: [string, RawAnswer][]; steps?: [string, unknown?][] } {
    const answers = [...this.used].flatMap((key): [string, RawAnswer][] => {
      const answer = this.answers.get(key);
      return answer ? [[key, answer]] : [];
    });
    return { answers, steps: this.steps?.entries };
  }

  onSuspend(wake: () => void): void {
    this.wake = wake;
  }

  canShow(mode: 'form' | 'url'): boolean {
    return elicitationModes(this.capabilities)[mode];
  }

  known(key: string): { replayed: boolean } | undefined {
    return this.answers.get(key) ? { replayed: this.replayed.has(key) } : undefined;
  }

  recall(key: string): RawAnswer | undefined {
    // Only from the signed state this server sealed: a client's inputResponses never answer a persistent question.
    const answer = SERVER_KEY.test(key) && this.replayed.has(key) ? this.answers.get(key) : undefined;
    if (answer) this.used.add(key);
    return answer;
  }

  remember(key: string, answer: RawAnswer): void {
    if (!SERVER_KEY.test(key)) return;
    this.answers.set(key, answer);
    this.used.add(key);
  }

  ask(key: string, params: ElicitParams): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!elicitationModes(this.capabilities)[mode])
      this.fail(missing(`elicitation${mode === 'url' ? '.url' : ''}`, { elicitation: { [mode]: {} } }));
    return this.pending(key, ELICIT_METHOD, params as unknown as Record<string, unknown>);
  }

  request(key: string, method: OtherInputMethod, params: Record<string, unknown>): Promise<RawAnswer> {
    const lacking = missingFor(method, params, this.capabilities);
    if (lacking) this.fail(lacking);
    return this.pending(key, method, params);
  }

  private fail(error: McpWireError): never {
    this.failure ??= error;
    throw error;
  }

  private pending(key: string, method: string, params: Record<string, unknown>): Promise<RawAnswer> {
    const answer = this.answers.get(key);
    if (answer) {
      this.used.add(key);
      return Promise.resolve(answer);
    }
    this.asked.set(key, { method, params });
    this.wake?.();
    // Never settles: the run ends here, and the client's retry runs the handler again from the top.
    return new Promise<RawAnswer>(() => {});
  }
}

/** For a request that named no protocol version: nobody can be asked. */
export const unversionedAsker: Asker = {
  ask() {
    throw new ElicitationNotSupportedError(
      'This client named no protocol version, so it cannot be asked for input. Use a client that speaks 2026-07-28 and declares the elicitation capability.',
    );
  },
  request(_key, method) {
    throw new PublicMcpError(`This client named no protocol version, so it cannot answer ${method}.`, 'INPUT_NOT_SUPPORTED');
  },
};
