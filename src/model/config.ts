// The server's configuration: what @FrontMcp takes, checked with zod so a typo is a clear startup error.
import * as z from 'zod';
import type { ElicitationMovedHook, ElicitationRequestHook, ElicitationResultHook } from './asking';
import type { Logger, OtelApi } from '../runtime';
import { redisOptionsSchema, sqliteOptionsSchema } from '../stores';
import { unansweredSchema } from './unanswered-options';
import { authSchema, type AuthOptions } from './auth-options';
import { configIssues } from './config-issues';
import type { SkillsSource } from './resource-types';

/** A whole number above zero, with its default: every count, size and duration of the config. */
const positiveInt = (fallback: number) => z.number().int().positive().default(fallback);

const fn = z.custom<Function>((v) => typeof v === 'function', 'expected a class');

const elicitationSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** How long a requestState stays valid, in ms. */
  stateTtlMs: positiveInt(15 * 60_000),
  /** 'sealed' (default): requestState is AES-256-GCM encrypted, opaque to the client. 'signed': readable JSON with an HMAC. */
  requestState: z.enum(['sealed', 'signed']).default('sealed'),
  /** Where pending elicitations of clients before 2026-07-28 wait; defaults to the server's redis, else its sqlite. */
  redis: redisOptionsSchema.optional(),
  /**
   * How long one operation on the store (Redis, Redis over HTTP, SQLite) may take, in ms; past it the request gets 503
   * (docs/stores-and-scaling.md: "When the store is down").
   */
  storeTimeoutMs: z.number().int().positive().max(2_147_483_647, "at most 2147483647 (a timer's limit)").default(5_000),
  /** On an edge isolate with no store that serves there: 'stateless' starts anyway, asking through requestState only. */
  edge: z.literal('stateless').optional(),
  /** Plain functions run on every transport: `request` before a question is asked, `result` when its answer arrives. */
  hooks: z
    .strictObject({
      request: z.array(z.custom<ElicitationRequestHook>((v) => typeof v === 'function', 'expected a function')).optional(),
      result: z.array(z.custom<ElicitationResultHook>((v) => typeof v === 'function', 'expected a function')).optional(),
      moved: z.array(z.custom<ElicitationMovedHook>((v) => typeof v === 'function', 'expected a function')).optional(),
    })
    .optional(),
  /** Questions that outlive the call: `true` or `{ ttlMs, storage, inboxLinks }`, checked by src/inbox. */
  persistent: z.unknown().optional(),
  /** A question the client does not answer: `{ afterMs, then: 'inbox' | 'fail' }` (docs/unanswered.md). */
  unanswered: unansweredSchema.optional(),
  /** How many questions of clients before 2026-07-28 (and sampling, roots requests) may wait at once, in this process. */
  pending: z
    .strictObject({
      maxPerSession: positiveInt(16),
      maxPerCaller: positiveInt(100),
    })
    .prefault({}),
});

/** Tasks (2026-07-28, io.modelcontextprotocol/tasks): kept in the elicitation store, for tools that may run as one. */
const tasksSchema = z.strictObject({
  /** How long a task lives, counted from its creation, in ms: its result stays readable until then. Default a day. */
  ttlMs: positiveInt(86_400_000),
  /** How often clients are asked to poll a task (pollIntervalMs), in ms; a faster poller is still served. */
  pollIntervalMs: positiveInt(1_000),
  /** Live tasks one caller holds at once (anonymous callers: per client address); past it, 429. */
  maxPerCaller: positiveInt(100),
  /** Live tasks this process runs at once, every caller's; past it, 503. */
  maxTotal: positiveInt(1_000),
  /**
   * How long the work of a task holds its lease without renewing it (renewed a third of it apart), in ms: a stretch of
   * work whose lease lapsed (its instance died) is resumed by replay on the next read of the task. Default 30 s.
   */
  leaseMs: z
    .number()
    .int()
    .min(300, 'tasks.leaseMs must be at least 300 (ms): the work renews its lease a third of it apart')
    .default(30_000),
  /**
   * How many times one stretch of a task's work (from its start, a step or an answer to the next) is started, its first
   * run included, when it is cut (its instance stopped, a Worker's limit); past it the task ends failed. Default 3.
   */
  attempts: z
    .number({ error: 'tasks.attempts must be a whole number of times, at least 1 (1: a cut stretch is never resumed)' })
    .int('tasks.attempts must be a whole number of times, at least 1 (1: a cut stretch is never resumed)')
    .min(1, 'tasks.attempts must be at least 1: how many times a stretch of work is started, its first run included')
    .default(3),
  /** Ended tasks kept (their result readable until ttlMs): past a bound, the oldest are forgotten (docs/tasks.md). */
  ended: z
    .strictObject({
      /** Ended tasks kept per caller; default tasks.maxPerCaller, so a caller's live tasks may all end and be read. */
      maxPerCaller: z.number().int().positive().optional(),
      /** Bytes of ended tasks kept per caller; a task whose result alone is larger ends `failed`, saying so. */
      maxBytesPerCaller: positiveInt(10_000_000),
      /** Ended tasks kept in total, of the ends this process wrote. */
      maxTotal: positiveInt(10_000),
      /** Bytes of ended tasks kept in total, of the ends this process wrote. */
      maxBytesTotal: positiveInt(100_000_000),
    })
    .prefault({}),
});

const corsSchema = z.union([
  z.boolean(),
  z.strictObject({
    /** Access-Control-Allow-Credentials (cookies, client certificates); never with '*' in allowedOrigins. */
    credentials: z.boolean().default(false),
    /** How long (seconds) a browser may keep a preflight's answer. */
    maxAge: z.number().int().min(0).default(600),
    origin: z.never({ error: 'list the origins in http.allowedOrigins: one list serves the Origin check and CORS' }).optional(),
  }),
]);

const httpSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().optional(),
  path: z.string().startsWith('/').default('/mcp'),
  maxBodyBytes: positiveInt(1024 * 1024),
  /** The origin clients reach this server at (https://mcp.example.com), when a proxy in front changes it. */
  publicUrl: z
    .url()
    .refine((url) => /^https?:$/.test(new URL(url).protocol) && new URL(url).pathname === '/' && !new URL(url).search, {
      message: "an http(s) origin with no path, like 'https://mcp.example.com' (the path is http.path)",
    })
    .optional(),
  /** Take the public origin from Forwarded / X-Forwarded-Proto / X-Forwarded-Host: only behind a proxy that sets them. */
  trustProxy: z.boolean().default(false),
  /** The header a trusted proxy puts the caller's address in (CF-Connecting-IP on Workers): the span's client.address. */
  clientAddressHeader: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { message: "a header name, like 'cf-connecting-ip' or 'x-real-ip'" })
    .optional(),
  /** Origins allowed besides loopback and the request's own origin ('*': any); with cors on, they get CORS headers. */
  allowedOrigins: z.array(z.string()).default([]),
  /** CORS for browser clients on http.allowedOrigins: off by default; `true`, or `{ credentials, maxAge }`. */
  cors: corsSchema.default(false),
  /** When set, the Host header must be loopback or one of these (the Node adapter sets loopback by default). */
  allowedHosts: z.array(z.string()).optional(),
  /** How people (not MCP clients) sign in to the server's pages, such as the inbox. */
  auth: z
    .strictObject({
      people: z.enum(['loopback-token']).optional(),
      /** People sign in to the inbox with OpenID Connect, at the provider the server's tokens come from (docs/auth.md). */
      oidc: z
        .strictObject({
          /** The inbox's client at the provider; its redirect URI is `<public origin>/_frontmcp/sign-in/callback`. */
          clientId: z.string().min(1),
          /** The client's secret, for a confidential client (sent as HTTP Basic); left out, a public client with PKCE. */
          clientSecret: z.string().min(1).exactOptional(),
          /** The provider; by default auth.issuer (one of them, when it lists several). */
          issuer: z.url().optional(),
          /** The scopes the sign-in asks for (`openid` always among them), e.g. 'openid email groups' for addressed questions. */
          scope: z.string().min(1).max(1000).optional(),
          /**
           * The ID token claim that lists a person's groups or roles, for questions addressed to a group (docs/approvals.md):
           * `groups` by default; `roles`, a namespaced URL key, or a dotted path such as `realm_access.roles`.
           */
          groupsClaim: z.string().min(1).max(200).optional(),
        })
        .optional(),
    })
    .optional(),
  /** Bounds on sessions of clients before 2026-07-28, per process (docs/stores-and-scaling.md: "Limits on older clients' sessions"). */
  sessions: z
    .strictObject({
      /** Sessions this process holds at once; past it, initialize gets 503. */
      maxTotal: positiveInt(1000),
      /** Sessions one caller holds at once (all anonymous callers are one caller); past it, 429. */
      maxPerCaller: positiveInt(100),
      /** A session with no request, no open stream and no running call for this long ends. */
      idleTtlMs: positiveInt(30 * 60_000),
      /** A session ends this long after initialize, however active. */
      ttlMs: positiveInt(24 * 60 * 60_000),
      /** Open event streams in one session (its GET stream and the calls' streams); past it, 429. */
      maxStreams: positiveInt(16),
    })
    .prefault({}),
  /** Bounds on 2026-07-28 subscriptions/listen streams, per process (docs/configuration.md: "http.listen"). */
  listen: z
    .strictObject({
      /** Listen streams this process holds open at once; past it, 503. */
      maxTotal: positiveInt(1000),
      /** Listen streams one caller holds open at once (all anonymous callers are one caller); past it, 429. */
      maxPerCaller: positiveInt(100),
      /** A listen stream that has sent no notification for this long ends, with its closing result. */
      idleTtlMs: positiveInt(30 * 60_000),
    })
    .prefault({}),
});

/** The probes a load balancer or orchestrator polls: unauthenticated, answered before any other check. */
export const healthSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Answers 200 while the process answers. */
  healthzPath: z.string().startsWith('/').default('/healthz'),
  /** Answers 200 once the server is built and its stores answer, 503 (with Retry-After) otherwise and while it shuts down. */
  readyzPath: z.string().startsWith('/').default('/readyz'),
});

const configSchema = z.strictObject({
  info: z.strictObject({ name: z.string().min(1), version: z.string().min(1), title: z.string().optional() }),
  instructions: z.string().optional(),
  /** Extensions the server declares in its capabilities, by id (`io.modelcontextprotocol/ui`: { … }). */
  extensions: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .superRefine((extensions, ctx) => {
      for (const id of Object.keys(extensions))
        if (!/^[^/\s]+\/[^/\s]+$/.test(id))
          ctx.addIssue({ code: 'custom', path: [id], message: 'an extension id is vendor/name, e.g. io.modelcontextprotocol/ui' });
    })
    .optional(),
  apps: z.array(fn).default([]),
  /** Agent Skills (the Skills extension): defineSkills(files) from parley-mcp/skills, or skillsFolder(path) from parley-mcp/node. */
  skills: z.custom<SkillsSource>((v) => typeof v === 'function', 'expected defineSkills()').optional(),
  elicitation: elicitationSchema.prefault({}),
  tasks: tasksSchema.prefault({}),
  http: httpSchema
    // Credentials let a page send cookies: only to origins listed by name.
    .refine((http) => !(typeof http.cors === 'object' && http.cors.credentials && http.allowedOrigins.includes('*')), {
      path: ['cors', 'credentials'],
      message: "credentials cannot go with '*' in http.allowedOrigins: list each origin instead",
    })
    .prefault({}),
  health: healthSchema.prefault({}),
  auth: authSchema.optional(),
  redis: redisOptionsSchema.optional(),
  sqlite: sqliteOptionsSchema.optional(),
  logging: z
    .strictObject({ level: z.enum(['debug', 'info', 'warn', 'error']).optional(), format: z.enum(['text', 'json']).optional() })
    .optional(),
  logger: z.custom<Logger>((v) => typeof v === 'object' && v !== null).optional(),
  cache: z.strictObject({ ttlMs: z.number().int().min(0), scope: z.enum(['public', 'private']) }).optional(),
  /** OpenTelemetry spans (Node): by default @opentelemetry/api when installed; `{ api }` passes in your copy; `false` turns tracing off. */
  telemetry: z
    .union([
      z.literal(false),
      z.strictObject({
        api: z.custom<OtelApi>((v) => typeof v === 'object' && v !== null && 'trace' in v && 'context' in v, 'expected @opentelemetry/api'),
      }),
    ])
    .optional(),
});

export type ParleyConfigInput = z.input<typeof configSchema>;
export type ParleyConfig = z.output<typeof configSchema>;

/** What the engine and the transports read of the config; only app/ sees the whole of it. */
export interface ServerSettings {
  info: { name: string; version: string; title?: string };
  instructions?: string;
  extensions?: Record<string, Record<string, unknown>>;
  elicitation: z.output<typeof elicitationSchema>;
  http: z.output<typeof httpSchema>;
  /** Bearer-token checks; the verifier itself (and any secret) is ParleyServer.verifyBearer's. */
  auth?: AuthOptions;
}

export function parseConfig(input: unknown): ParleyConfig {
  const parsed = configSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = configIssues(parsed.error.issues, [], configSchema).map((line) => `  ${line}`);
  throw new Error(`Invalid server configuration:\n${lines.join('\n')}`);
}
