// The server's configuration: what @FrontMcp takes, checked with zod so a typo is a clear startup error.
import * as z from 'zod';
import type { AuthInfo } from './tool-types';
import type { ElicitationMovedHook, ElicitationRequestHook, ElicitationResultHook } from './asking';
import type { Logger, LogLevel, OtelApi } from '../runtime';
import { redisOptionsSchema, sqliteOptionsSchema } from '../stores';
import { unansweredSchema } from './unanswered-options';

const fn = z.custom<Function>((v) => typeof v === 'function', 'expected a class');

const elicitationSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** How long a requestState stays valid, in ms. */
  stateTtlMs: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** 'sealed' (default): requestState is AES-256-GCM encrypted, opaque to the client. 'signed': readable JSON with an HMAC. */
  requestState: z.enum(['sealed', 'signed']).default('sealed'),
  /** Where pending elicitations of clients before 2026-07-28 wait; defaults to the server's redis, else its sqlite. */
  redis: redisOptionsSchema.optional(),
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
  /** Questions that outlive the call: `true` or `{ ttlMs, storage, inboxLinks }`, checked by src/questions. */
  persistent: z.unknown().optional(),
  /** A question the client does not answer: `{ afterMs, then: 'inbox' | 'fail' }` (docs/unanswered.md). */
  unanswered: unansweredSchema.optional(),
  /** How many questions of clients before 2026-07-28 (and sampling, roots requests) may wait at once, in this process. */
  pending: z
    .strictObject({
      maxPerSession: z.number().int().positive().default(16),
      maxPerCaller: z.number().int().positive().default(100),
    })
    .prefault({}),
});

const authSchema = z.union([
  z.strictObject({ secret: z.string().min(1), issuer: z.string().optional(), audience: z.string().optional() }),
  z.strictObject({ jwksUrl: z.url(), issuer: z.string().optional(), audience: z.string().optional() }),
]);

const httpSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().optional(),
  path: z.string().startsWith('/').default('/mcp'),
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Origins allowed besides loopback and the request's own origin. */
  allowedOrigins: z.array(z.string()).default([]),
  /** When set, the Host header must be loopback or one of these (the Node adapter sets loopback by default). */
  allowedHosts: z.array(z.string()).optional(),
  /** How people (not MCP clients) sign in to the server's pages, such as the inbox. */
  auth: z.strictObject({ people: z.enum(['loopback-token']).optional() }).optional(),
  /** Bounds on sessions of clients before 2026-07-28, per process (docs/stores-and-scaling.md: "Limits on older clients' sessions"). */
  sessions: z
    .strictObject({
      /** Sessions this process holds at once; past it, initialize gets 503. */
      maxTotal: z.number().int().positive().default(1000),
      /** Sessions one caller holds at once (all anonymous callers are one caller); past it, 429. */
      maxPerCaller: z.number().int().positive().default(100),
      /** A session with no request, no open stream and no running call for this long ends. */
      idleTtlMs: z
        .number()
        .int()
        .positive()
        .default(30 * 60_000),
      /** A session ends this long after initialize, however active. */
      ttlMs: z
        .number()
        .int()
        .positive()
        .default(24 * 60 * 60_000),
      /** Open event streams in one session (its GET stream and the calls' streams); past it, 429. */
      maxStreams: z.number().int().positive().default(16),
    })
    .prefault({}),
});

export const configSchema = z.strictObject({
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
  elicitation: elicitationSchema.prefault({}),
  http: httpSchema.prefault({}),
  auth: authSchema.optional(),
  redis: redisOptionsSchema.optional(),
  sqlite: sqliteOptionsSchema.optional(),
  logging: z.strictObject({ level: z.enum(['debug', 'info', 'warn', 'error']).optional() }).optional(),
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

export type FrontMcpConfigInput = z.input<typeof configSchema>;
export type FrontMcpConfig = z.output<typeof configSchema>;

/** What the engine and the transports read of the config; only app/ sees the whole of it. */
export interface ServerSettings {
  info: { name: string; version: string; title?: string };
  instructions?: string;
  extensions?: Record<string, Record<string, unknown>>;
  elicitation: z.output<typeof elicitationSchema>;
  http: z.output<typeof httpSchema>;
}
export type { AuthInfo, LogLevel };

export function parseConfig(input: unknown): FrontMcpConfig {
  const parsed = configSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
  throw new Error(`Invalid server configuration:\n${lines.join('\n')}`);
}
