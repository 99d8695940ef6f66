// The built server as the engine and the transports see it: registries, settings, keys, stores. app/ builds it.
import type { AeadFactory, HmacFactory, StoreCrypto } from '../crypto';
import type { PlainResponseMaker, Responder, StreamResponseMaker } from '../protocol';
import type { EnvSource, Logger, Telemetry, ToolTrace, TurnEnd } from '../runtime';
import type { ElicitationStore, StoreBackend } from '../stores';
import type { ChangeHub, ServerSettings, PromptEntry, ToolEntry, Resources, AuthInfo, RequestScope, GrantRule } from '../model';
import type { ElicitSettings, PersistentAsker, RawAnswer, StateKeys, TaskLink } from '../elicitation';
import type { ListenTable } from './listen-table';
import type { LegacyState } from './legacy/state';
import type { LiveSession } from './legacy/sessions';
import type { RunningCalls } from './running-calls';
import type { TaskFollow } from './tasks/task-follow';

/** What a bearer token comes to: its caller, a refusal (401), or an identity provider that did not answer (503). */
type TokenCheck = { caller: AuthInfo } | { refused: string } | { unavailable: string };

/** Checks a bearer token for the resource (this server's URL as the request reached it); never rejects. */
export type BearerVerifier = (token: string, resource: string, request: Request) => Promise<TokenCheck>;

/** What a runtime adapter passes to the handler it builds; each part left out is the Web APIs' way. */
export interface Platform {
  /** Builds plain (JSON or empty) answers: parley-mcp/node writes them to the socket without a Fetch Response. */
  respond?: PlainResponseMaker;
  /** Builds event-stream answers: parley-mcp/node writes their events to the socket with no web stream between. */
  stream?: StreamResponseMaker;
  /** Where a turn's suspended runs settle: parley-mcp/node's also writes the turn's answers. */
  turnEnd?: TurnEnd;
  /** requestState's HMAC and AES-GCM: parley-mcp/node passes node:crypto's. */
  hmac?: HmacFactory;
  aead?: AeadFactory;
  /** Tasks' sealed values and storage names: parley-mcp/node passes node:crypto's (WebCrypto's records, read both ways). */
  storeCrypto?: StoreCrypto;
}

/**
 * Tasks' code, loaded at startup only where a tool may run as a task (through #node-only; in an edge bundle, once its
 * entry calls enableTasks()).
 * The engine checks each request (the method exists, the extension is declared, the params' shape) before it calls in.
 */
export interface TaskRuntime {
  /** tools/call of a tool that may run as a task, from a 2026-07-28 request that declared tasks (`params`: the call's). */
  call(
    server: ParleyServer,
    call: { entry: ToolEntry; args: Record<string, unknown>; params: Record<string, unknown> },
    scope: RequestScope,
  ): Promise<Record<string, unknown>>;
  /** tasks/get; a look that finds a replay due (one that failed gave its claim back) continues the task. */
  get(server: ParleyServer, taskId: string, scope: RequestScope): Promise<Record<string, unknown>>;
  /** tasks/update: the answers, and the replay of work parked at a question when this instance claims it. */
  update(server: ParleyServer, taskId: string, answers: Record<string, unknown>, scope: RequestScope): Promise<Record<string, unknown>>;
  /** tasks/cancel: the task ends `cancelled`, and its questions' copies leave the owner's inbox. */
  cancel(server: ParleyServer, taskId: string, scope: RequestScope): Promise<Record<string, unknown>>;
  /**
   * The person answered a task's question in the inbox: the first answer to the key wins, as for `tasks/update`, and
   * this instance replays the parked work when it claims it (under `keepAlive`, a Worker's ctx.waitUntil).
   * `answered-before`: another answer (or the task's end) came first; `gone`: no such live task.
   */
  answerFromInbox(
    server: ParleyServer,
    task: TaskLink,
    answer: RawAnswer,
    keepAlive: KeepAlive | undefined,
  ): Promise<'answered' | 'answered-before' | 'gone'>;
  /**
   * A listen stream's taskIds, as the client sent them: follows the caller's live tasks among them, sending each as
   * notifications/tasks params. Throws -32021 when the request did not declare the extension, -32602 for a bad list.
   */
  follow(taskIds: unknown, who: Listening, send: (task: Record<string, unknown>) => void): Promise<TaskFollow>;
  /** 2025-11-25's experimental core tasks (engine/legacy checks the session and the params first). */
  legacy: LegacyTaskRuntime;
  /**
   * Shutdown: waits up to `graceMs` for the stretches of task work running here to reach a question or their end,
   * then hands over those left (their leases go; another instance resumes each by replay). Parked tasks hold nothing.
   */
  close(graceMs: number): Promise<void>;
}

/** An older client's task: `owner` is the verified caller, or the session for an anonymous one. */
export interface LegacyTaskRuntime {
  /** tools/call with params.task: the task is created at the call (the client opted in), the tool runs in the background. */
  call(
    server: ParleyServer,
    call: { entry: ToolEntry; args: Record<string, unknown> },
    owner: string,
    scope: RequestScope,
  ): Promise<Record<string, unknown>>;
  get(taskId: string, owner: string): Promise<Record<string, unknown>>;
  list(owner: string): Promise<Record<string, unknown>>;
  /** tasks/cancel: the task ends `cancelled`, and its questions' copies leave the owner's inbox. */
  cancel(server: ParleyServer, taskId: string, owner: string): Promise<Record<string, unknown>>;
  /**
   * Waits for the task's end, asking its open questions through `ask` meanwhile; the result, or throws its error. An
   * answer given there continues the work by replay on this instance (under `keepAlive`, a Worker's ctx.waitUntil).
   */
  result(
    server: ParleyServer,
    task: { taskId: string; owner: string; keepAlive: KeepAlive | undefined },
    ask: (key: string, request: { method: string; params: Record<string, unknown> }) => Promise<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Tells whichever instance holds the session's GET stream that it has a new task. */
  announce(sessionId: string, taskId: string): Promise<void>;
  /**
   * Sends the session's tasks' changes through `send` (notifications/tasks/status: on HTTP its GET stream, on stdio
   * stdout), wherever they were created, until the session is dropped here; resolves once announcements are heard.
   */
  watchStatus(session: LiveSession, auth: AuthInfo, logger: Logger, send: (message: unknown) => void): Promise<void>;
}

/** Who listens: the verified caller (a task is followed only for its owner) and the request's own capabilities. */
export interface Listening {
  auth: AuthInfo;
  capabilities: Record<string, unknown>;
}

/** A platform's way to keep work alive after its response (a Worker's ctx.waitUntil). */
export interface KeepAlive {
  waitUntil(promise: Promise<unknown>): void;
  /** How long the platform lets that work run after the response (a Worker's 30 s); unset where nothing cuts it. */
  readonly afterResponseMs?: number;
}

/** Persistent questions as the engine and transports use them: a call's asker, the inbox routes, links. */
interface QuestionDesk {
  /** Where the questions are kept: readiness reads it. */
  readonly store: { readonly backend: StoreBackend; readonly codec: { readonly prefix: string } };
  /**
   * `onWaiting` hears, with a line to show, that a call waits for a person's answer in the inbox; `trace` and `client`
   * (the call's span and its client's address) go in the decision log.
   */
  forCall(
    auth: AuthInfo,
    signal: AbortSignal,
    call?: {
      onWaiting?: (message: string) => void;
      trace?: ToolTrace;
      client?: string;
      grant?: { tool: string; rule: GrantRule; args: Record<string, unknown> };
      keepAlive?: KeepAlive;
    },
  ): PersistentAsker;
  routes(): {
    fetch(request: Request, bindings: { origin: string; keepAlive?: KeepAlive; client?: string }): Response | Promise<Response>;
  };
  origin?: string;
}

export interface ParleyServer {
  /** The options the engine and transports read, from the validated config (app/ keeps the rest). */
  config: ServerSettings;
  info: { name: string; version: string; title?: string };
  tools: Map<string, ToolEntry>;
  /** tools/list's tools, computed once: the list never varies per connection. */
  toolList: Record<string, unknown>[];
  prompts: Map<string, PromptEntry>;
  promptList: Record<string, unknown>[];
  resources: Resources;
  resourceList: Record<string, unknown>[];
  templateList: Record<string, unknown>[];
  /** Announces list changes and resource updates to open listen streams. */
  changes: ChangeHub;
  /** The listen streams open on this server, within http.listen's caps. */
  listens: ListenTable;
  /** The 2026-07-28 calls answering now: shutdown ends those still running when its grace period ends. */
  running: RunningCalls;
  logger: Logger;
  /** Builds this server's HTTP answers, the platform's way. */
  respond: Responder;
  /** Resolves at the end of the turn, the platform's way: where runs that asked questions settle into one round. */
  settle(): Promise<void>;
  /** The keys of requestState: the first seals (or signs) new states, any of them opens one it issued. */
  stateKeys: StateKeys;
  /** True when no VAULT_SECRET or JWT_SECRET was set, so the key is this process's own. */
  ephemeralStateKey: boolean;
  /** True when the build already logged that warning (production, Redis named in the config). */
  ephemeralKeyWarned: boolean;
  production: boolean;
  /** The platform's env bindings (a getter over a #private field: not serialized, not inspected). */
  readonly env: EnvSource;
  /** Checks bearer tokens when `auth` is set; its key lives in the verifier's closure. */
  verifyBearer?: BearerVerifier;
  cache: { ttlMs: number; scope: 'public' | 'private' };
  /** The older era's sessions, waiting questions and shutdown flag, built with the server. */
  legacy: LegacyState;
  /** Where questions of clients before 2026-07-28 wait; present while elicitation is on. */
  elicitationStore?: ElicitationStore;
  /** Tasks (2026-07-28), kept in the elicitation store; present when a tool may run as a task. */
  tasks?: TaskRuntime;
  /** Persistent questions, their inbox and people auth; present while `elicitation.persistent` is on. */
  questions?: QuestionDesk;
  /** What every run's questions follow (all but the caller's persistent questions), built once with the server. */
  elicitSettings: ElicitSettings;
  /** OpenTelemetry spans; absent when @opentelemetry/api is not installed (or not passed in on an edge isolate). */
  telemetry?: Telemetry;
}
