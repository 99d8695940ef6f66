// The shapes users write in @Tool, and what elicit() takes and returns.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Addressee } from './addressee';
import type { UnansweredOption } from './unanswered-options';

export type { Addressee, AddressingOptions } from './addressee';
import type * as z from 'zod';

type ZodShape = Record<string, z.ZodType>;
/**
 * A schema of any Standard Schema library (Zod, Zod Mini, Valibot, ArkType…), an object of Zod types, or plain JSON
 * Schema with type 'object'.
 */
export type SchemaInput = StandardSchemaV1 | ZodShape | JsonObjectSchema;
export interface JsonObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: readonly string[];
  [key: string]: unknown;
}

/** An icon a client may show for a tool, prompt or resource: an https (or http) URL or a data: URI. */
export interface Icon {
  src: string;
  mimeType?: string;
  /** Sizes as in HTML's `sizes`, e.g. `['48x48']` or `['any']`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Whether a tool may, must or never runs as a task. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export interface ToolOptions {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: SchemaInput;
  outputSchema?: SchemaInput;
  annotations?: ToolAnnotations;
  /** The OAuth scopes a caller needs (403 insufficient_scope without them); never shown in tools/list. */
  scopes?: ScopeRequirement;
  icons?: Icon[];
  /** Listed as written, e.g. an MCP App's `{ ui: { resourceUri: 'ui://…' } }`. */
  _meta?: Record<string, unknown>;
  /**
   * Whether the tool may run as a task (2026-07-28, io.modelcontextprotocol/tasks): `forbidden` (the default) never,
   * `optional` when the client declared tasks on the request, `required` only so (a client that did not is refused
   * with -32021). The call becomes a task where execute() calls `await this.startTask()` (docs/tasks.md).
   */
  execution?: { taskSupport?: TaskSupport };
  /**
   * A standing approval the tool offers (docs/approvals.md): whoever accepts one of its persistent questions may accept
   * the same for `forMs`, for later calls by the same caller whose arguments named in `match` are equal. Checked at
   * startup: a rule that would match every call is refused.
   */
  grant?: GrantRule;
  /**
   * Whom the tool's persistent questions are for (docs/approvals.md): elicit()'s `to`, declared once for every question
   * with `persist` that names no `to` of its own. Needs `http.auth.oidc`; checked at startup.
   */
  to?: Addressee[];
  /** With `to`: how many distinct addressees must accept (default 1); a question's own `quorum` counts over it. */
  quorum?: number;
  /** With `to`: how many distinct declines end a question declined (default 1); a question's own counts over it. */
  declines?: number;
}

/** Which later calls a standing approval answers: the same tool and caller, these arguments equal, for `forMs`. */
export interface GrantRule {
  match: string[];
  forMs: number;
}

/**
 * What a schema gives execute() or `answer.content`: the library's output type; plain JSON Schema gives an object.
 * @example class Close extends ToolContext<Infer<typeof Input>> { execute({ id }: Infer<typeof Input>) { … } }
 */
export type Infer<S> = S extends z.ZodType
  ? z.output<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : S extends ZodShape
      ? z.output<z.ZodObject<S>>
      : Record<string, unknown>;

export interface ElicitOptions {
  mode?: 'form' | 'url';
  /** How long to wait, in ms, on protocol revisions before 2026-07-28. Default 300000. */
  ttl?: number;
  url?: string;
  elicitationId?: string;
  /** The inputRequests key on 2026-07-28; default `elicitation-1`, `elicitation-2`, … in the order asked. */
  key?: string;
  /** Keep the question past this call, answered in the inbox (needs `elicitation.persistent`). */
  persist?: { key: string; ttlMs?: number };
  /** When the client does not answer: over `elicitation.unanswered`, or `false` to leave it to the client (docs/unanswered.md). */
  unanswered?: UnansweredOption;
  /**
   * Whom a persistent question is for instead of its caller (docs/approvals.md): people and groups as the identity
   * provider names them. Only they answer it, in the inbox, signed in through `http.auth.oidc`. Needs `persist`.
   */
  to?: Addressee[];
  /** With `to`: how many distinct addressees must accept (default 1); each person decides once. */
  quorum?: number;
  /** With `to`: how many distinct declines end the question declined (default 1: any decline ends it). */
  declines?: number;
  /**
   * With `to`: deadlines after which the question is also addressed to more people (docs/approvals.md), each
   * `afterMs` from when it was filed, in order: `[{ afterMs: 3_600_000, to: [{ subject: 'dave' }] }]`.
   */
  escalate?: Escalation[];
  /** With `to`: when still undecided `afterMs` after it was filed, the question ends and the tool gets `cancel` and `reason`. */
  expire?: { afterMs: number; reason?: string };
}

/** One escalation step: `afterMs` after the question was filed, these addressees may decide it too, and are nudged. */
export interface Escalation {
  afterMs: number;
  to: Addressee[];
}

/** One addressee's decision on a question addressed with `to`: who (`<issuer>#<sub>`), when (ISO 8601), what. */
export interface Decision {
  by: string;
  at: string;
  action: ElicitStatus;
  content?: Record<string, unknown>;
}

export type ElicitStatus = 'accept' | 'decline' | 'cancel';
export interface ElicitResult<T = Record<string, unknown>> {
  status: ElicitStatus;
  content?: T;
  /** A question addressed with `to`: every addressee's decision that counted, in the order made. */
  decisions?: Decision[];
  /** Why it ended without a decision (`cancel` at its `expire` deadline): a sentence for the tool, never an answer. */
  reason?: string;
}

/**
 * The scopes an operation needs: a list, or a function of the arguments as sent (and the caller) for scopes that depend
 * on them; undefined or [] needs none beyond `auth.requiredScopes`.
 */
export type ScopeRequirement = readonly string[] | ((args: Record<string, unknown>, auth: AuthInfo) => readonly string[] | undefined);

/** The verified caller. `user.sub` is 'anonymous' when nobody signed in. */
export interface AuthInfo {
  user: { sub: string; iss?: string; [claim: string]: unknown };
  clientId?: string;
  token?: string;
  anonymous?: boolean;
  /** The scopes the token grants (`scope` or `scp`); empty when it names none. */
  scopes?: string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  expiresAt?: number;
  /** The resource (this server's URL) the token was checked for. */
  resource?: string;
  [key: string]: unknown;
}

/** The caller of a request that carried no credentials (and a server with no `auth`). */
export const ANONYMOUS: AuthInfo = Object.freeze({ user: Object.freeze({ sub: 'anonymous' }), anonymous: true }) as AuthInfo;
