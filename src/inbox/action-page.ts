// The pages an action link shows: the confirm page its GET serves (a mail scanner's prefetch answers nothing) with the
// form whose POST answers, and the outcome. Server-rendered, no script; every text escaped.
import { INBOX_BASE } from '../protocol';

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES.get(c)!);

/**
 * The inbox page's headers, but a form may post to this server, and the browser sends its Origin with it (a no-referrer
 * policy makes that Origin `null`, which the answer route refuses as cross-site).
 */
const HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-type': 'text/html; charset=utf-8',
};

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><link rel="stylesheet" href="${INBOX_BASE}/inbox/app.css"></head>
<body><header><h1>${escape(title)}</h1></header><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: HEADERS });
}

const inboxLink = `<p><a href="${INBOX_BASE}/inbox">Open the inbox</a></p>`;

/** The confirm page: the question (when the reader may see it) and one button that POSTs to the same link. */
export function confirmPage(action: 'accept' | 'decline', message: string | undefined, linkPath: string): Response {
  const verb = action === 'accept' ? 'Accept' : 'Decline';
  const question = message === undefined ? '' : `<h2 class="message">${escape(message)}</h2>`;
  return page(
    200,
    `${verb} this question?`,
    `<section class="question">${question}<p>Nothing is answered until you press the button.</p>
<form method="post" action="${escape(linkPath)}"><div class="actions"><button type="submit" class="primary" name="confirm" value="1">${verb}</button></div></form></section>${inboxLink}`,
  );
}

/** An outcome or a refusal: a status, a title and one sentence. */
export function outcomePage(status: number, title: string, detail: string): Response {
  return page(status, title, `<section class="question"><p class="result">${escape(detail)}</p></section>${inboxLink}`);
}
