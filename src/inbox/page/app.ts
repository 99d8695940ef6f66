// The inbox page's script: signs in with the link's code, renders each question's form from its schema, follows the
// SSE view live and posts answers. scripts/inbox-page.ts bundles it (the server's types are erased, INBOX_BASE inlined).
import type { InboxView } from '../inbox';
import type { QuestionView, StoredAnswer } from '../question-store';
import type { DecisionEntry } from '../decision-log';
import { byId, h } from './dom';
import { type Field, field, type Property } from './form';

/** protocol's INBOX_BASE, written in by the build (esbuild's define), so the page's bundle reads no server module: a
 * change elsewhere in protocol/ cannot change the minified script. */
declare const __INBOX_BASE__: string;
const INBOX_BASE = __INBOX_BASE__;

type Action = StoredAnswer['action'];
type Origin = NonNullable<QuestionView['from']>;

/** What POST …/questions/:id/answer answers (routes.ts): where the answer went on a 200, else why not. */
interface AnswerReply {
  status?: 'answered' | 'decided';
  delivered?: 'waiting-call' | 'next-call' | 'task';
  granted?: { id: string; expiresAt: number };
  /** An addressed question's decision that did not decide it yet: its accepts so far, of how many it needs. */
  accepts?: number;
  quorum?: number;
  error?: string;
  message?: string;
}

/** A standing approval as GET …/grants lists it (routes.ts). */
interface GrantView {
  id: string;
  tool: string;
  match: Record<string, unknown>;
  key: string;
  expiresAt: number;
}

interface Card {
  q: QuestionView;
  node: HTMLElement;
  meta: HTMLElement;
  /** An addressed question's decisions so far. */
  decisions: HTMLElement;
  /** Takes no more answers from this person (theirs is in). */
  done(): void;
}

/** An answer this page sent (or saw given elsewhere), until the question leaves the view and it goes in the log. */
interface Answered {
  message: string;
  action: string;
  where?: string;
  delivered?: boolean;
}

const cards = new Map<string, Card>();
const answered = new Map<string, Answered>();
let source: EventSource | null = null;
let linkFailed = false;

/** Sent with each of the page's requests: the decision log records the page as the channel (routes.ts). */
const CHANNEL = { 'parley-channel': 'page' };

const setStatus = (text: string) => {
  byId('status').textContent = text;
};
const when = (ms: number) => new Date(ms).toLocaleString();

// Where a question came from and why it is here (the unanswered-question policy, or a tool's persist).
const REASONS = new Map(
  Object.entries({
    persist: 'the tool keeps it until you answer',
    'client-never-answered': 'the client never answered it',
    'client-cannot-show-forms': 'the client cannot show forms',
    'filed-with-round': 'asked in the client too: the first answer counts',
    task: 'a task waits for your answer: the first answer counts',
  } satisfies Record<Origin['reason'], string>),
);

function originOf(from: Origin): string {
  let why = REASONS.get(from.reason) || 'asked by the tool';
  if (from.reason === 'client-never-answered' && typeof from.afterMs === 'number') why += ` within ${Math.round(from.afterMs / 1000)} s`;
  return `from ${String(from.tool)} · ${why}`;
}

function badges(card: Card, q: QuestionView): void {
  const state = q.state === 'answered' ? ' answered' : q.waiting ? ' waiting' : '';
  const text =
    q.state === 'answered'
      ? q.waiting
        ? 'answered · being delivered'
        : 'answered · waits for the next call'
      : q.from?.reason === 'task'
        ? 'a task is waiting'
        : q.waiting
          ? 'a call is waiting now'
          : 'no call waiting';
  card.meta.replaceChildren(
    h('span', { className: `badge${state}`, text }),
    h('span', { text: `key ${q.key}` }),
    h('span', { text: `asked ${when(q.createdAt)}` }),
    h('span', { text: `expires ${when(q.expiresAt)}` }),
  );
  if (q.from) card.meta.append(h('span', { className: 'from', text: originOf(q.from) }));
  if (q.addressed) card.meta.append(h('span', { className: 'to', text: addressedText(q) }));
  card.decisions.replaceChildren(
    ...(q.decisions ?? []).map((d) => h('li', { text: `${d.by} ${DECIDED.get(d.action) ?? d.action} · ${when(Date.parse(d.at))}` })),
  );
  card.decisions.hidden = !q.decisions?.length;
  // Each person decides once: after theirs, the form stays for the others.
  if (q.decided) card.done();
}

const DECIDED = new Map([
  ['accept', 'accepted'],
  ['decline', 'declined'],
  ['cancel', 'cancelled'],
]);

/** For whom an addressed question is, who asked it and how many must accept: `for group finance, dave@x · 2 must accept`. */
function addressedText(q: QuestionView): string {
  const { to, quorum } = q.addressed!;
  const names = to.map((a) => ('group' in a ? `group ${a.group}` : 'email' in a ? a.email : a.subject));
  const need = quorum > 1 ? ` · ${quorum} must accept` : '';
  return `for ${names.join(', ')}${need}${q.askedBy ? ` · asked by ${q.askedBy}` : ''}`;
}

/** A duration as a person reads it: 90 min, 2 h, 3 days. */
function period(ms: number): string {
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}

/** The arguments a standing approval is for: `customer acme, region eu`. */
const matched = (match: Record<string, unknown>) =>
  Object.entries(match)
    .map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');

/** The person's standing approvals, each with its Revoke button; read again after each change. */
async function loadGrants(): Promise<void> {
  const r = await fetch(`${INBOX_BASE}/grants`, { credentials: 'same-origin', headers: CHANNEL }).catch(() => undefined);
  if (!r?.ok) return;
  const { grants } = (await r.json()) as { grants: GrantView[] };
  byId('grants').hidden = grants.length === 0;
  byId('grant-list').replaceChildren(
    ...grants.map((g) => {
      const revoke = async () => {
        await fetch(`${INBOX_BASE}/grants/${encodeURIComponent(g.id)}/revoke`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: CHANNEL,
        });
        await loadGrants();
      };
      return h('li', { 'data-id': g.id }, [
        h('span', { text: `${g.tool} for ${matched(g.match)}, until ${when(g.expiresAt)} ` }),
        h('button', { type: 'button', text: 'Revoke', onclick: () => void revoke() }),
      ]);
    }),
  );
}

/** One line of a question's history: when, what, who, how (and the action of an answer). */
function historyLine(e: DecisionEntry): HTMLElement {
  const what =
    e.event === 'answered' && e.action
      ? `answered (${e.action})`
      : e.event === 'granted' && e.until
        ? `granted until ${when(Date.parse(e.until))}`
        : e.event;
  const from = e.address ? ` from ${e.address}` : '';
  return h('li', { text: `${when(Date.parse(e.at))} · ${what} by ${e.by} · ${e.channel}${from}` });
}

/** The question's history from the decision log, read each time it is opened. */
function historyOf(q: QuestionView): HTMLElement {
  const list = h('ol', { className: 'entries' });
  const load = async () => {
    list.replaceChildren(h('li', { text: 'Loading…' }));
    try {
      const r = await fetch(`${INBOX_BASE}/questions/${encodeURIComponent(q.id)}/log`, { credentials: 'same-origin', headers: CHANNEL });
      const data = (await r.json().catch(() => ({}))) as { entries?: DecisionEntry[]; message?: string };
      if (!r.ok || !Array.isArray(data.entries)) return list.replaceChildren(h('li', { text: data.message || `Error ${r.status}` }));
      list.replaceChildren(...data.entries.map(historyLine));
    } catch {
      list.replaceChildren(h('li', { text: 'Could not reach the server.' }));
    }
  };
  const details = h('details', { className: 'history' }, [h('summary', { text: 'History' }), list]);
  details.addEventListener('toggle', () => void (details.open && load()));
  return details;
}

function createCard(q: QuestionView): Card {
  const schema = q.requestedSchema as { properties?: Record<string, Property>; required?: unknown };
  const props = schema.properties ?? {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields: { name: string; f: Field }[] = Object.keys(props).map((name) => ({
    name,
    f: field(q.id, name, props[name] ?? {}, required.includes(name)),
  }));
  const result = h('p', { className: 'result', role: 'status' });
  const buttons = [
    h('button', { type: 'submit', className: 'primary', text: 'Submit' }),
    h('button', { type: 'button', text: 'Decline', onclick: () => send('decline') }),
    h('button', { type: 'button', text: 'Cancel', onclick: () => send('cancel') }),
  ];
  const onsubmit = (e: Event) => {
    e.preventDefault();
    send('accept');
  };
  // A tool that offers standing approvals: the person may accept the same for later calls (routes.ts checks it).
  const offer = q.from?.grant;
  const same = offer ? h('input', { type: 'checkbox', name: 'grant' }) : undefined;
  const sameLabel =
    offer && same
      ? h('label', { className: 'check grant' }, [same, `Accept the same for ${matched(offer.match)} for ${period(offer.forMs)}`])
      : null;
  const form = h('form', { noValidate: false, onsubmit }, [
    ...fields.map((x) => x.f.node),
    sameLabel,
    h('div', { className: 'actions' }, buttons),
  ]);
  const meta = h('p', { className: 'meta' });
  const decisions = h('ul', { className: 'decisions', 'aria-label': 'Decided so far', hidden: true });
  const enable = (on: boolean) => {
    for (const b of buttons) b.disabled = !on;
  };
  const card: Card = {
    q,
    meta,
    decisions,
    node: h('article', { className: 'question', 'data-id': q.id }, [
      h('h2', { text: q.message }),
      meta,
      decisions,
      form,
      result,
      historyOf(q),
    ]),
    done: () => {
      for (const el of Array.from(form.elements)) if ('disabled' in el) el.disabled = true;
    },
  };
  const failed = (text: string) => {
    answered.delete(q.id);
    enable(true);
    result.className = 'result error';
    result.textContent = text;
  };

  async function send(action: Action): Promise<void> {
    const body: { action: Action; content?: Record<string, unknown>; grant?: boolean } = { action };
    if (action === 'accept') {
      if (!form.reportValidity()) return;
      const content: Record<string, unknown> = Object.create(null); // keyed by the schema's field names, so __proto__ is a field like any other
      for (const x of fields) {
        const v = x.f.read();
        if (v !== undefined) content[x.name] = v;
      }
      body.content = content;
      if (same?.checked) body.grant = true;
    }
    enable(false);
    result.className = 'result';
    result.textContent = 'Sending…';
    // The live view may drop the question (delivered) before this reply comes: it is logged as ours either way.
    answered.set(q.id, { message: q.message, action, where: 'sent' });
    let status: number;
    let data: AnswerReply;
    try {
      const r = await fetch(`${INBOX_BASE}/questions/${encodeURIComponent(q.id)}/answer`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', ...CHANNEL },
        body: JSON.stringify(body),
      });
      status = r.status;
      data = await r.json().catch(() => ({}));
    } catch {
      return failed('Could not reach the server. Try again.');
    }
    if (status === 200 && data.status === 'decided') {
      // An addressed question with a quorum: this decision counts (and is logged here once the question leaves); the
      // question waits for the others'.
      result.className = 'result ok';
      result.textContent = `${action === 'accept' ? 'Accepted' : 'Declined'}: your decision is in; ${data.accepts} of ${data.quorum} accepts so far.`;
      card.done();
      return;
    }
    if (status === 200) {
      const where =
        data.delivered === 'task'
          ? 'the task goes on with it'
          : data.delivered === 'waiting-call'
            ? 'the waiting call gets it now'
            : `it waits for the next call that asks ${q.key}`;
      answered.set(q.id, { message: q.message, action, where });
      if (data.granted) void loadGrants();
      result.className = 'result ok';
      result.textContent = `${action === 'accept' ? 'Accepted' : action === 'decline' ? 'Declined' : 'Cancelled'}: ${where}.`;
      for (const el of Array.from(form.elements)) if ('disabled' in el) el.disabled = true;
      return;
    }
    failed(
      status === 409 && data.error === 'already_decided' && data.message
        ? data.message
        : status === 409
          ? 'This question already has an answer.'
          : status === 404
            ? 'This question is gone.'
            : data.message || `Error ${status}`,
    );
    if (status === 401) signedOut();
  }
  return card;
}

function logDone(id: string, a: Answered): void {
  answered.delete(id);
  byId('done').hidden = false;
  byId('log').prepend(
    h('li', { text: `${a.message} — ${a.action}${a.delivered ? ', delivered to the call that asked' : `, ${a.where}`}` }),
  );
}

function render(view: InboxView): void {
  byId('who').textContent = `Questions for ${view.signedInAs}`;
  const seen = new Set<string>();
  for (const q of view.questions) {
    seen.add(q.id);
    let card = cards.get(q.id);
    if (!card) {
      card = createCard(q);
      cards.set(q.id, card);
      byId('questions').append(card.node);
    }
    card.q = q;
    badges(card, q);
  }
  for (const [id, card] of cards) {
    if (seen.has(id)) continue;
    card.node.remove();
    cards.delete(id);
    const mine = answered.get(id);
    // A task's question leaves the view as soon as it is answered: the task, not a call, takes the answer.
    if (mine) logDone(id, card.q.from?.reason === 'task' ? { ...mine, where: 'the task goes on with it' } : { ...mine, delivered: true });
    else if (card.q.state === 'answered') logDone(id, { message: card.q.message, action: 'answered elsewhere', delivered: true });
    else if (card.q.from?.reason === 'task')
      logDone(id, { message: card.q.message, action: 'closed', where: 'answered in the client, or its task ended' });
  }
  byId('empty').hidden = cards.size > 0;
}

function signedOut(): void {
  source?.close();
  byId('live').className = 'live';
  byId('live').textContent = 'signed out';
  byId('who').textContent = 'Not signed in';
  if (linkFailed) return; // its own message stays
  // A server that signs people in at a provider puts its Sign in link in the header: the way in, shown as such (it
  // may print one-time links too, which still work).
  const provider = document.querySelector<HTMLAnchorElement>(`header .account a[href="${INBOX_BASE}/sign-in/oidc"]`);
  if (provider) {
    const status = byId('status');
    status.className = 'status welcome';
    status.replaceChildren(
      h('span', { text: 'Sign in to see the questions waiting for you. ' }),
      h('a', { href: provider.href, className: 'sign-in', text: 'Sign in' }),
    );
  } else setStatus('Open the one-time inbox link the server printed for you (each link works once).');
}

function connect(): void {
  source = new EventSource(`${INBOX_BASE}/questions/events`);
  source.addEventListener('open', () => {
    byId('live').className = 'live on';
    byId('live').textContent = 'live';
    setStatus('');
  });
  // The same view as GET /questions (events.ts), sent at once and again on every change.
  source.addEventListener('questions', (e) => render(JSON.parse((e as MessageEvent<string>).data) as InboxView));
  source.addEventListener('error', () => {
    byId('live').className = 'live';
    byId('live').textContent = 'reconnecting';
    fetch(`${INBOX_BASE}/questions`, { credentials: 'same-origin', headers: CHANNEL }).then(
      (r) => r.status === 401 && signedOut(),
      () => {},
    );
  });
}

async function start(): Promise<void> {
  const match = /(?:^#|&)code=([A-Za-z0-9_-]+)/.exec(location.hash);
  try {
    if (match) {
      history.replaceState(null, '', location.pathname + location.search); // the code leaves the address bar
      const r = await fetch(`${INBOX_BASE}/sign-in`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: match[1] }),
      });
      if (!r.ok) {
        linkFailed = true;
        setStatus('This link was already used or has expired. Ask for a new one.');
      }
    }
    const r = await fetch(`${INBOX_BASE}/questions`, { credentials: 'same-origin', headers: CHANNEL });
    if (r.status === 401) return signedOut();
    render((await r.json()) as InboxView);
    connect();
    void loadGrants();
  } catch {
    setStatus('Could not reach the server.');
  }
}

void start();
