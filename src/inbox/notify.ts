// The nudge: when a question lands in an inbox, `persistent.notify` is called, or its webhook gets a signed POST
// (Parley's HMAC-SHA256 of `<timestamp>.<body>` and Standard Webhooks' headers beside it, retried with backoff: on
// Node by a timer, on an edge runtime by keeping the next attempt in the store, due-nudges.ts). The body holds no
// sign-in code unless `includeLink`; its action links answer only as `actionLinks` allows.
import { hmac, importHmacKey, toHex } from '../crypto';
import { INBOX_BASE } from '../protocol';
import type { Logger } from '../runtime';
import type { InboxNotice, NotifyOption, WebhookOptions } from './notify-options';
import type { LoopbackTokenAuth } from './people';
import type { StoredQuestion } from './question-store';
import type { ActionLinks } from './action-links';
import { standardWebhookHeaders, standardWebhookKey } from './standard-webhooks';
import type { DueNudges } from './due-nudges';
import { escalationOf } from './addressees';

const NOTIFY_HEADERS = { timestamp: 'parley-timestamp', signature: 'parley-signature', delivery: 'parley-delivery' } as const;

interface NotifyContext {
  server: string;
  logger: Logger;
  people?: LoopbackTokenAuth;
  /** Where inbox links point (the server's HTTP origin), when known. */
  origin: () => string | undefined;
  /** Makes the webhook's action links, when they are on. */
  actionLinks?: ActionLinks;
  /** Where a webhook's next attempt waits on an edge runtime, whose timers end with the request. */
  retries?: Pick<DueNudges, 'retryOf' | 'add'>;
}

/** `v1=` and the hex HMAC-SHA256, under the secret, of `<timestamp>.<body>`: what a receiver recomputes to verify. */
async function signNotice(secret: string, timestamp: string, body: string): Promise<string> {
  return `v1=${toHex(await hmac(await importHmacKey(secret), `${timestamp}.${body}`))}`;
}

/** What to call when a question lands in a subject's inbox: never throws, never holds up the call that asked. */
export function createNotify(option: NotifyOption, context: NotifyContext): (subject: string, question: StoredQuestion) => Promise<void> {
  const createLink =
    context.people &&
    (async (subject: string) => {
      const origin = context.origin();
      if (!origin) throw new Error('the server has no HTTP address yet to link the inbox to');
      const { code } = await context.people!.createCode({ subject });
      return `${origin}${INBOX_BASE}/inbox#code=${code}`;
    });
  // The webhook's action links; none while the server has no HTTP address (a stdio server's).
  const createActions =
    context.actionLinks &&
    (async (subject: string, question: StoredQuestion) => {
      const origin = context.origin();
      return origin ? context.actionLinks!.create(subject, question, origin) : undefined;
    });
  return (subject, question) => {
    // By the clock, so a retried nudge says it too.
    const escalated = question.addressed && escalationOf(question.addressed, question.createdAt);
    const notice: InboxNotice = {
      type: escalated ? 'question.escalated' : 'question.filed',
      server: context.server,
      questionId: question.id,
      ...(subject.startsWith('principal:') ? { principal: subject } : {}),
      message: question.message,
      ...(question.from ? { from: question.from } : {}),
      ...(question.addressed ? { addressed: question.addressed } : {}),
      ...(escalated ? { escalated } : {}),
      createdAt: question.createdAt,
      expiresAt: question.expiresAt,
    };
    // An addressed question is answered by its addressees signed in at the provider: no link of its caller's answers it.
    const link = question.addressed ? undefined : createLink;
    const sent =
      typeof option === 'function'
        ? Promise.resolve().then(() => option(notice, link ? { createLink: () => link(subject) } : {}))
        : withLinks(notice, {
            link: option.includeLink && link ? () => link(subject) : undefined,
            actions: createActions && !question.addressed ? () => createActions(subject, question) : undefined,
          }).then((body) => deliver(option, body, { subject, question }, context));
    // Resolves once delivered or given up: a request that sends due nudges waits for them; a call does not.
    return sent.catch((error: unknown) =>
      context.logger.warn(`Question notify failed for question ${question.id}: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
}

/** A retry's wait, which does not keep a stopping process alive (Node's unref; elsewhere a plain timer). */
const sleep = (ms: number) => new Promise((resolve) => (setTimeout(resolve, ms) as { unref?: () => void }).unref?.());

/** The webhook's body: the notice, the one-time inbox link with `includeLink`, and the action links when they are on. */
async function withLinks(
  notice: InboxNotice,
  make: { link?: () => Promise<string>; actions?: () => Promise<InboxNotice['actions']> },
): Promise<string> {
  const link = await make.link?.();
  const actions = await make.actions?.();
  return JSON.stringify({ ...notice, ...(link ? { link } : {}), ...(actions ? { actions } : {}) });
}

/** One attempt's outcome: taken, or why not and whether another attempt may take it. */
type Attempt = { ok: true } | { ok: false; last: string; again: boolean };

/** POSTs the notice once, signed afresh (a receiver may refuse old timestamps); the delivery id is every attempt's. */
async function attemptOnce(options: WebhookOptions, body: string, delivery: string): Promise<Attempt> {
  const key = standardWebhookKey(options.secret)!; // checked when the options were read
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'parley-mcp',
    [NOTIFY_HEADERS.timestamp]: timestamp,
    [NOTIFY_HEADERS.delivery]: delivery,
    [NOTIFY_HEADERS.signature]: await signNotice(options.secret, timestamp, body),
    ...(await standardWebhookHeaders(key, delivery, timestamp, body)),
  };
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body,
      // Never followed: a 3xx is a refusal like any other 4xx ('manual', as workerd has no 'error').
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body?.cancel();
    if (response.ok) return { ok: true };
    return {
      ok: false,
      last: `HTTP ${response.status}`,
      again: response.status >= 500 || response.status === 408 || response.status === 429,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return { ok: false, last: typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.name : 'failed', again: true };
  }
}

/**
 * POSTs the notice, retrying a refused connection, a timeout, 408, 429 and 5xx; a 2xx ends it, any other status too.
 * On an edge runtime (`retries`) each attempt is its own: after a failure that may pass, the next is kept in the store
 * `backoffMs` (doubling) later, with the same delivery id, for whichever request finds it due.
 */
async function deliver(
  options: WebhookOptions,
  body: string,
  { subject, question }: { subject: string; question: StoredQuestion },
  context: NotifyContext,
): Promise<void> {
  const { retries } = context;
  const kept = await retries?.retryOf(subject, question.id);
  // One id for every attempt: `parley-delivery` and Standard Webhooks' `webhook-id`, a receiver's idempotency key.
  const delivery = kept?.delivery ?? crypto.randomUUID();
  for (let attempt = kept?.attempt ?? 1; ; attempt++) {
    const outcome = await attemptOnce(options, body, delivery);
    if (outcome.ok) return;
    if (!outcome.again || attempt >= options.attempts)
      // Only the receiver's origin is ever logged: its path or query may carry a token of its own.
      return context.logger.warn(
        `Question notify webhook ${new URL(options.url).origin} did not take question ${question.id} (${outcome.last}); the question waits in the inbox all the same`,
      );
    const waitMs = options.backoffMs * 2 ** (attempt - 1);
    if (retries) return retries.add(subject, question, Date.now() + waitMs, { attempt: attempt + 1, delivery });
    await sleep(waitMs);
  }
}
