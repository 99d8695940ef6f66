// The action link's route, `/_frontmcp/act`: a GET shows what the link would do and never answers (mail scanners
// prefetch links); the confirm page's same-origin POST answers, once, through the same service method as the inbox.
import { checkFlatForm } from '../elicitation';
import type { InboxBindings } from '../auth';
import { yesNoContent, type LinkRecord, type VerifiedLink } from './action-links';
import { confirmPage, outcomePage } from './action-page';
import type { Inbox } from './inbox';
import type { StoredQuestion } from './question-store';
import { INBOX_BASE, type RouteContext, type Router } from '../protocol';

type InboxContext = RouteContext<InboxBindings>;

interface RouteHelpers {
  /** A refusal when another site made the request (the inbox's own check). */
  crossSite(c: InboxContext): Response | undefined;
  /** The signed-in person's subject, undefined when nobody (or the startup token) is signed in. */
  signedIn(c: InboxContext): Promise<string | undefined>;
}

interface UsableLink {
  link: VerifiedLink;
  record: LinkRecord;
  /** Undefined on a GET that brought no session: the link is fine, but nobody may be shown the question yet. */
  question?: StoredQuestion;
}

const refusals = {
  off: () => outcomePage(404, 'Not found', 'This server sends no action links.'),
  invalid: () => outcomePage(400, 'This link is not valid', 'Use the link exactly as it came in the message, or answer in the inbox.'),
  expired: () => outcomePage(410, 'This link has expired', 'Answer the question in the inbox instead.'),
  used: () => outcomePage(410, 'This link was already used', 'Each link answers once; the first use counted.'),
  signIn: () =>
    outcomePage(
      401,
      'Sign in first',
      'This link answers only for the person the question is for: sign in to the inbox, then use the link again.',
    ),
  someoneElse: () => outcomePage(403, 'This link is for someone else', 'You are signed in as someone this question is not for.'),
  answered: () => outcomePage(409, 'Already answered', 'This question already has an answer (or is no longer waiting).'),
  addressed: () =>
    outcomePage(403, 'Answer in the inbox', 'This question is addressed to people who decide on it in the inbox, signed in.'),
};

/** Adds the action link's route to the inbox's routes. */
export function addActionRoutes(app: Router<InboxBindings>, service: Inbox, helpers: RouteHelpers): void {
  /**
   * The link, its record and its question when they may be used now by this request's person; else the page that
   * says why. `confirming`: a GET without a session may still show the confirm page (a click from another site does
   * not send the inbox's SameSite=Strict cookie; the page's POST does), without the question.
   */
  const usable = async (c: InboxContext, confirming: boolean): Promise<UsableLink | Response> => {
    const links = service.actionLinks;
    if (!links) return refusals.off();
    const link = await links.verify(new URL(c.req.url).searchParams);
    if (link === 'invalid' || link === 'expired') return refusals[link]();
    if (link.action === 'form')
      return new Response(null, { status: 303, headers: { location: `${INBOX_BASE}/inbox`, 'cache-control': 'no-store' } });
    const record = await links.record(link);
    if (!record) return refusals.used();
    const subject = await helpers.signedIn(c);
    if (!links.mayUse(record, subject)) {
      if (subject !== undefined) return refusals.someoneElse();
      return confirming ? { link, record } : refusals.signIn();
    }
    const question = await service.store.byId(record.subject, record.questionId);
    if (!question || !(await service.store.isOpen(record.subject, question.id))) return refusals.answered();
    if (question.addressed) return refusals.addressed();
    return { link, record, question };
  };

  app.get('/act', async (c) => {
    const found = await usable(c, true);
    if (found instanceof Response) return found;
    const action = found.link.action === 'accept' ? 'accept' : 'decline';
    return confirmPage(action, found.question?.message, `${INBOX_BASE}/act${new URL(c.req.url).search}`);
  });

  app.post('/act', async (c) => {
    const refused = helpers.crossSite(c);
    if (refused) return refused;
    const found = await usable(c, false);
    if (found instanceof Response) return found;
    const { link, record, question } = found;
    if (!question) return refusals.signIn(); // usable() already refuses a POST without a session; this narrows the type
    const content = link.action === 'accept' ? yesNoContent(question.requestedSchema) : undefined;
    if (link.action === 'accept' && (content === undefined || checkFlatForm(content, question.requestedSchema) !== undefined))
      return refusals.invalid();
    // Used once: of two clicks (or instances), the store's atomic take lets one through.
    if (!(await service.actionLinks!.take(link))) return refusals.used();
    const answer =
      link.action === 'accept'
        ? { action: 'accept' as const, content: content!, answeredAt: Date.now() }
        : { action: 'decline' as const, answeredAt: Date.now() };
    const via = { keepAlive: c.env?.keepAlive, channel: 'action-link' as const, address: c.env?.client };
    const outcome = await service.answer({ subject: record.subject }, question.id, answer, via);
    if (!outcome.ok) return refusals.answered();
    return outcomePage(200, link.action === 'accept' ? 'Accepted' : 'Declined', `Your answer to “${question.message}” was sent.`);
  });
}
