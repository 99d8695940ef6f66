// In-process servers: connect() sends questions to a handler and checks the answers; createDirect()'s take the fallback.
import { callTool, FALLBACK_TOOL_WIRE, findCall, type ParleyServer, type Questions } from '../engine';
import { checkFlatForm, DEFAULT_TTL_MS, type Asker, type ElicitParams, type RawAnswer } from '../elicitation';
import { ANONYMOUS, createNotifier, type CallToolResult, type AuthInfo, type ElicitOptions, type RequestScope } from '../model';
import { withoutProtoKeys, ElicitationTimeoutError, InvalidInputError } from '../protocol';
import { buildServer, type ServerInput } from './build-server';

export interface DirectCallOptions {
  /** Who calls: `{ user: { sub } }`. Default anonymous. */
  authContext?: AuthInfo;
  signal?: AbortSignal;
}

/** An elicitation answer, as a handler of connect() returns it. */
export interface DirectAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}
export type DirectElicitationHandler = (params: ElicitParams, context: { signal: AbortSignal }) => DirectAnswer | Promise<DirectAnswer>;

export interface DirectServer {
  listTools(): Promise<{ tools: Record<string, unknown>[] }>;
  /** Runs a tool in this process. Errors the wire would carry as JSON-RPC errors are thrown (McpWireError). */
  callTool(name: string, args?: Record<string, unknown>, options?: DirectCallOptions): Promise<CallToolResult>;
  dispose(): Promise<void>;
}

export interface ConnectedClient extends DirectServer {
  /** Answers every question; without a handler the answer is decline. */
  onElicitation(handler: DirectElicitationHandler | undefined): void;
}

/** Asks the handler in this process and waits up to ttl; an accepted form answer must fit the schema it was asked with. */
class HandlerAsker implements Asker {
  constructor(
    private readonly handler: () => DirectElicitationHandler | undefined,
    private readonly signal: AbortSignal,
  ) {}

  async ask(_key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer> {
    const handler = this.handler();
    if (!handler) return { action: 'decline' };
    const ttl = options.ttl ?? DEFAULT_TTL_MS;
    const waiting = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        waiting.abort();
        reject(new ElicitationTimeoutError('Elicitation request timed out'));
      }, ttl);
    });
    try {
      const answer = await Promise.race([
        Promise.resolve(handler(params, { signal: AbortSignal.any([waiting.signal, this.signal]) })),
        timeout,
      ]);
      if (answer?.action === 'accept' && params.mode !== 'url' && params.requestedSchema) {
        const problem = checkFlatForm(answer.content ?? {}, params.requestedSchema);
        if (problem) throw new InvalidInputError(`Invalid elicitation result content: ${problem}`);
      }
      return answer ? withoutProtoKeys({ ...answer }) : { action: 'cancel' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** How an in-process client is asked, the same for each of its calls: its questions' way, and the capabilities it declares. */
interface DirectClient {
  questions: (signal: AbortSignal) => Questions;
  capabilities: Record<string, unknown>;
}

/** An in-process call: the caller and signal the options give, no stream for notifications. */
async function callDirect(
  server: ParleyServer,
  { questions, capabilities }: DirectClient,
  name: string,
  args: Record<string, unknown>,
  options: DirectCallOptions,
): Promise<CallToolResult> {
  // Arguments handed over in-process carry no `__proto__` key, as arguments parsed from the wire do not.
  const call = findCall(server, { name, arguments: withoutProtoKeys(args) });
  const signal = options.signal ?? new AbortController().signal;
  const scope: RequestScope = {
    auth: options.authContext ?? ANONYMOUS,
    signal,
    capabilities,
    notifier: createNotifier(undefined, undefined, server.logger),
    changes: server.changes,
  };
  return (await callTool(server, call, scope, questions(signal))) as CallToolResult;
}

/**
 * An in-process client (docs/testing.md): tools run in this process, questions go to `onElicitation`, and an accepted answer
 * that doesn't fit its schema fails the call with INVALID_INPUT ("Invalid elicitation result content").
 * @example const client = await connect(config); client.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
 */
export async function connect(input: ServerInput): Promise<ConnectedClient> {
  let handler: DirectElicitationHandler | undefined;
  const server = await buildServer(input);
  const client: DirectClient = {
    questions: (signal) => ({ via: 'asker', asker: new HandlerAsker(() => handler, signal) }),
    capabilities: { elicitation: { form: {} } },
  };
  return {
    async listTools() {
      return { tools: server.toolList };
    },
    callTool: (name, args = {}, options = {}) => callDirect(server, client, name, args, options),
    dispose: () => closeStore(server),
    onElicitation: (h) => void (handler = h),
  };
}

/**
 * The server in this process, called directly with a caller of your choosing: `callTool(name, args, { authContext })`.
 * Its caller can show no form, so a question takes the sendElicitationResult fallback (listed in its tools).
 * @example const server = await createDirect(config); await server.callTool('list_tickets', {}, { authContext: { user: { sub: 'nour' } } });
 */
export async function createDirect(input: ServerInput): Promise<DirectServer> {
  const server = await buildServer(input);
  const client: DirectClient = { questions: () => ({ via: 'fallback' }), capabilities: {} };
  return {
    async listTools() {
      return { tools: server.config.elicitation.enabled ? [...server.toolList, FALLBACK_TOOL_WIRE] : server.toolList };
    },
    callTool: (name, args = {}, options = {}) => callDirect(server, client, name, args, options),
    dispose: () => closeStore(server),
  };
}

const closeStore = async (server: ParleyServer): Promise<void> => {
  await server.elicitationStore?.backend.close();
};
