// The inbox's HTTP routes under /_frontmcp: the page, sign-in (a one-time code or OpenID Connect) and sign-out, the JSON
// view, its SSE, answers, and the nudge's action links.
import {
  fetchResponder,
  INBOX_BASE,
  INTERNAL_ERROR,
  McpWireError,
  parseJson,
  readBody,
  type RouteContext,
  Router,
  STORE_RETRY_AFTER_S,
  StoreUnavailableError,
} from '../protocol';
import { checkFlatForm } from '../elicitation';
import { INBOX_CSS, INBOX_HTML, INBOX_SCRIPT } from './page.generated';
import type { Inbox } from './inbox';
import { cookie, type InboxBindings, SESSION_COOKIE, sessionCookie } from '../auth';
import { questionEvents } from './events';
import { addActionRoutes } from './action-routes';
import type { DecisionChannel } from './decision-log';
import { type InboxPerson, whomOf } from './addressees';

const MAX_ANSWER_BYTES = 64 * 1024;
/** What a client says it is, for the decision log (`parley-channel`: the page's script and `parley inbox` send it). */
const CHANNELS: ReadonlyMap<string, DecisionChannel> = new Map([
  ['page', 'page'],
  ['cli', 'cli'],
]);
const ACTIONS = ['accept', 'decline', 'cancel'] as const;

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const problem = (status: number, error: string, message: string, headers?: Record<string, string>) =>
  fetchResponder.problem(status, error, message, { 'cache-control': 'no-store', ...headers });

type InboxContext = RouteContext<InboxBindings>;

/** Why an answer was not taken, as the person reads it. */
const REFUSED = new Map<string, () => Response>([
  ['not-found', () => problem(404, 'not_found', 'No such question')],
  ['already-answered', () => problem(409, 'already_answered', 'This question already has an answer')],
  ['already-decided', () => problem(409, 'already_decided', 'You decided on this question already: each person decides once')],
  ['not-addressed', () => problem(403, 'not_addressed', 'This question is for other people: only they answer it')],
]);

/** The channel and address of a request, for the decision log: `json` unless the client named one it is. */
const seenThrough = (c: InboxContext): { channel: DecisionChannel; address?: string } => {
  const channel = CHANNELS.get(c.req.header('parley-channel') ?? '') ?? 'json';
  const address = c.env?.client;
  return address ? { channel, address } : { channel };
};

/** The origin people reach the server at: the handler's, else (the inbox app on its own) the request's. */
const originOf = (c: InboxContext) => c.env?.origin ?? new URL(c.req.url).origin;

/**
 * Refuses a request another site made: its Origin must be this server's own (as people reach it: behind a TLS proxy,
 * not the request's http:// URL), and the browser must not call it cross-site.
 */
function crossSite(c: InboxContext): Response | undefined {
  const origin = c.req.header('origin') ?? null;
  const site = c.req.header('sec-fetch-site') ?? null;
  if ((origin !== null && origin !== originOf(c)) || (site !== null && site !== 'same-origin' && site !== 'none'))
    return problem(403, 'forbidden', 'Answers are taken from this server’s own pages only');
  return undefined;
}

async function readJson(request: Request): Promise<Record<string, unknown> | Response> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
    return problem(415, 'unsupported_media_type', 'Send JSON (content-type: application/json)');
  const body = await readBody(request, MAX_ANSWER_BYTES);
  if (body instanceof McpWireError)
    return body.status === 413 ? problem(413, 'too_large', body.message) : problem(400, 'invalid_json', body.message);
  try {
    const value: unknown = parseJson(body);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return problem(400, 'invalid_json', 'The body must be a JSON object');
}

/** The inbox's routes under /_frontmcp, and the same 404 for any other path or method. */
function questionRoutes(service: Inbox): Router<InboxBindings> {
  const app = new Router<InboxBindings>(INBOX_BASE, {
    notFound: () => problem(404, 'not_found', 'Not found'),
    // The store not answering (or failing) is for the page to try again, as on the MCP endpoint: 503 with Retry-After.
    // Anything else is a 500 in the same shape, its details in the log only.
    onError: (error) => {
      if (error instanceof StoreUnavailableError)
        return problem(503, 'store_unavailable', error.message, { 'retry-after': String(STORE_RETRY_AFTER_S) });
      console.error(error);
      return problem(500, 'internal_error', INTERNAL_ERROR);
    },
  });
  const text = (body: string, type: string) => new Response(body, { headers: { ...PAGE_HEADERS, 'content-type': type } });

  /** The signed-in person (their subject, and what a provider's sign-in said of them), or a 401 (no session, an expired one, or the startup token's). */
  const personOf = async (c: InboxContext): Promise<InboxPerson | Response> => {
    const session = await service.people?.session(c.req.header('cookie') ?? null);
    if (!session) return problem(401, 'unauthorized', 'Sign in with the one-time link printed for you');
    if (!session.subject)
      return problem(401, 'unauthorized', 'This sign-in is not for anyone’s questions: open the inbox link printed for a call');
    return session as InboxPerson;
  };
  const subjectOf = async (c: InboxContext): Promise<string | Response> => {
    const person = await personOf(c);
    return person instanceof Response ? person : person.subject;
  };

  // The page, with the account control the server can tell: sign out when signed in, else the provider's sign-in.
  app.get('/inbox', async (c) => {
    const signedIn = (await service.people?.session(c.req.header('cookie') ?? null))?.subject !== undefined;
    const account = signedIn
      ? `<p class="account"><a href="${INBOX_BASE}/sign-out">Sign out</a></p>\n`
      : service.signIn
        ? `<p class="account"><a href="${INBOX_BASE}/sign-in/oidc">Sign in</a></p>\n`
        : '';
    return text(INBOX_HTML.replace('</header>', `${account}</header>`), 'text/html; charset=utf-8');
  });
  app.get('/inbox/app.js', () => text(INBOX_SCRIPT, 'text/javascript; charset=utf-8'));
  app.get('/inbox/app.css', () => text(INBOX_CSS, 'text/css; charset=utf-8'));

  app.post('/sign-in', async (c) => {
    const refused = crossSite(c);
    if (refused) return refused;
    if (!service.people) return problem(404, 'not_found', "People auth is off: set http: { auth: { people: 'loopback-token' } }");
    const body = await readJson(c.req.raw);
    if (body instanceof Response) return body;
    const session = await service.people.signIn(body);
    if (!session) return problem(401, 'unauthorized', 'This link was already used or has expired: ask for a new one');
    return new Response(null, { status: 204, headers: { 'set-cookie': sessionCookie(session, originOf(c)), 'cache-control': 'no-store' } });
  });

  // Signing out: the page's link (a form would post Origin: null under its no-referrer policy), refused cross-site like
  // every change; the session ends in the store, not only in the browser.
  app.get('/sign-out', async (c) => {
    const refused = crossSite(c);
    if (refused) return refused;
    await service.people?.endSession(c.req.header('cookie') ?? null);
    const cleared = cookie(SESSION_COOKIE, '', { path: INBOX_BASE, sameSite: 'Strict', maxAgeS: 0, origin: originOf(c) });
    return new Response(null, {
      status: 303,
      headers: { location: `${INBOX_BASE}/inbox`, 'set-cookie': cleared, 'cache-control': 'no-store' },
    });
  });
  if (service.people && service.signIn) service.signIn.addRoutes(app, service.people, originOf);

  // The cron route of runtimes without a timer (docs/unanswered.md): sends the nudges that are due, and says how many.
  // Open to anyone: it sends only what is due anyway, once.
  app.get('/deadlines', async (c) =>
    fetchResponder.json({ sent: await service.sendDueNudges(c.env?.keepAlive) }, 200, { 'cache-control': 'no-store' }),
  );

  app.get('/questions', async (c) => {
    const person = await personOf(c);
    if (person instanceof Response) return person;
    // Each inbox read sends what is due too, after the response where the platform allows it.
    const due = service.sendDueNudges(c.env?.keepAlive).catch(() => 0);
    c.env?.keepAlive?.waitUntil(due);
    return fetchResponder.json(await service.view(person, seenThrough(c)), 200, { 'cache-control': 'no-store' });
  });

  app.get('/questions/events', async (c) => {
    const person = await personOf(c);
    if (person instanceof Response) return person;
    const address = c.env?.client;
    return questionEvents(service, person, { signal: c.req.raw.signal, ...(address ? { address } : {}) });
  });

  // The decision log: one question's history, and the export of every entry of the person's questions (since `since`,
  // ms since the epoch). Only the person's own, and those addressed to them: a question of someone else's has no
  // history here.
  app.get('/questions/:id/log', async (c) => {
    const person = await personOf(c);
    if (person instanceof Response) return person;
    if (!service.log) return problem(404, 'not_found', 'The decision log is off (persistent.log: false)');
    const found = await service.locate(person, c.req.param('id'));
    const owner = found?.answers ? found.owner : person.subject;
    return fetchResponder.json({ entries: await service.log.history(owner, c.req.param('id')) }, 200, { 'cache-control': 'no-store' });
  });

  app.get('/log', async (c) => {
    const subject = await subjectOf(c);
    if (subject instanceof Response) return subject;
    if (!service.log) return problem(404, 'not_found', 'The decision log is off (persistent.log: false)');
    const since = c.req.query('since') ?? '0';
    if (!/^[0-9]{1,15}$/.test(since)) return problem(400, 'invalid_since', 'since must be milliseconds since the epoch');
    return fetchResponder.json({ entries: await service.log.export(subject, Number(since)) }, 200, { 'cache-control': 'no-store' });
  });

  app.post('/questions/:id/answer', async (c) => {
    const refused = crossSite(c);
    if (refused) return refused;
    const person = await personOf(c);
    if (person instanceof Response) return person;
    const body = await readJson(c.req.raw);
    if (body instanceof Response) return body;
    const action = body.action;
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
      return problem(400, 'invalid_action', 'action must be "accept", "decline" or "cancel"');
    const content = body.content;
    if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content)))
      return problem(400, 'invalid_content', 'content must be an object');
    if (body.grant !== undefined && typeof body.grant !== 'boolean') return problem(400, 'invalid_grant', 'grant must be true or false');
    const id = c.req.param('id');
    const found = await service.locate(person, id);
    if (!found) return problem(404, 'not_found', 'No such question');
    const { question } = found;
    if (!found.answers) return problem(403, 'not_addressed', `This question is for ${whomOf(question.addressed!)}: only they answer it`);
    if (body.grant === true && (action !== 'accept' || !question.from?.grant))
      return problem(400, 'invalid_grant', 'Only an accept of a question whose tool offers a standing approval can give one');
    if (action === 'accept') {
      const mismatch = checkFlatForm(content ?? {}, question.requestedSchema);
      if (mismatch) return problem(400, 'invalid_content', `The answer does not fit the question: ${mismatch}`);
    }
    const answer = {
      action: action as (typeof ACTIONS)[number],
      ...(action === 'accept' ? { content: (content ?? {}) as Record<string, unknown> } : {}),
      answeredAt: Date.now(),
    };
    const via = { keepAlive: c.env?.keepAlive, ...seenThrough(c), ...(body.grant === true ? { grant: true } : {}) };
    const outcome = await service.answer(person, id, answer, via);
    if (!outcome.ok) return REFUSED.get(outcome.reason)!();
    // An addressed question's decision that did not decide it yet: how many accepts it has, of how many.
    if ('decided' in outcome)
      return fetchResponder.json({ status: 'decided', action, ...outcome.decided }, 200, { 'cache-control': 'no-store' });
    const delivered = 'task' in outcome && outcome.task ? 'task' : outcome.waiting ? 'waiting-call' : 'next-call';
    const granted = 'grant' in outcome ? { granted: outcome.grant } : {};
    return fetchResponder.json({ status: 'answered', action, delivered, ...granted }, 200, {
      'cache-control': 'no-store',
    });
  });

  // Standing approvals: the person's own, listed and revoked (a later call that matched asks again).
  app.get('/grants', async (c) => {
    const subject = await subjectOf(c);
    if (subject instanceof Response) return subject;
    const grants = (await service.grants?.list(subject)) ?? [];
    const shown = grants.map(({ id, tool, match, key, grantedAt, expiresAt }) => ({ id, tool, match, key, grantedAt, expiresAt }));
    return fetchResponder.json({ grants: shown }, 200, { 'cache-control': 'no-store' });
  });

  app.post('/grants/:id/revoke', async (c) => {
    const refused = crossSite(c);
    if (refused) return refused;
    const subject = await subjectOf(c);
    if (subject instanceof Response) return subject;
    const { channel, address } = seenThrough(c);
    const revoked = await service.grants?.revoke(subject, c.req.param('id'), { channel, ...(address ? { address } : {}) });
    if (!revoked) return problem(404, 'not_found', 'No such standing approval (revoked already, or expired)');
    return fetchResponder.json({ status: 'revoked' }, 200, { 'cache-control': 'no-store' });
  });

  addActionRoutes(app, service, {
    crossSite,
    signedIn: async (c) => (await service.people?.session(c.req.header('cookie') ?? null))?.subject,
  });

  return app;
}

/** The inbox as an app of its own: its routes under /_frontmcp, and the same 404 as theirs off them. */
export function inboxApp(service: Inbox): Router<InboxBindings> {
  return questionRoutes(service);
}
