// The inbox over HTTP for the CLI: spend the one-time code for a session, list the questions, answer one. No redirects.
import { INBOX_BASE, parseJson } from '../protocol';
import { checkAddress, type InboxLink } from './inbox-link';

export interface InboxQuestion {
  id: string;
  key: string;
  message: string;
  requestedSchema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  state: 'open' | 'answered';
  waiting: boolean;
  expiresAt: number;
  /** Where it came from and why it is in the inbox, as the server says (docs/unanswered.md). */
  from?: { tool?: unknown; reason?: unknown };
}

interface InboxView {
  signedInAs: string;
  questions: InboxQuestion[];
}

const TIMEOUT_MS = 15_000;

export class InboxClient {
  private cookie?: string;
  constructor(private readonly origin: string) {
    checkAddress(new URL(origin));
  }

  private async send(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; response: Response }> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    headers.set('parley-channel', 'cli'); // the decision log names the channel
    const response = await fetch(`${this.origin}${path}`, {
      ...init,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status >= 300 && response.status < 400)
      throw new Error(`The server answered ${path} with a redirect (${response.status}); parley inbox follows none`);
    const text = await response.text();
    let body: any;
    try {
      body = text ? parseJson(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body, response };
  }

  /** Spends the link's code (it works once) and keeps the session cookie. */
  async signIn(link: InboxLink): Promise<void> {
    const { status, response } = await this.send(`${INBOX_BASE}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: link.code }),
    });
    if (status === 401) throw new Error('This link was already used or has expired: ask for a new one (each run needs a fresh link)');
    if (status !== 204) throw new Error(`Sign-in failed (HTTP ${status})`);
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('parley_inbox='));
    if (!cookie) throw new Error('The server signed in without a session cookie');
    this.cookie = cookie;
  }

  async list(): Promise<InboxView> {
    const { status, body } = await this.send(`${INBOX_BASE}/questions`);
    if (status !== 200 || !body || !Array.isArray(body.questions)) throw new Error(`Could not list the questions (HTTP ${status})`);
    return body as InboxView;
  }

  /** The decision log's entries of the signed-in person's questions since `since` (ms since the epoch). */
  async log(since = 0): Promise<Record<string, unknown>[]> {
    const { status, body } = await this.send(`${INBOX_BASE}/log?since=${since}`);
    if (status === 404) throw new Error(typeof body?.message === 'string' ? body.message : 'This server keeps no decision log');
    if (status !== 200 || !body || !Array.isArray(body.entries)) throw new Error(`Could not read the decision log (HTTP ${status})`);
    return body.entries as Record<string, unknown>[];
  }

  /** The signed-in person's standing approvals. */
  async grants(): Promise<{ id: string; tool: string; match: Record<string, unknown>; expiresAt: number }[]> {
    const { status, body } = await this.send(`${INBOX_BASE}/grants`);
    if (status !== 200 || !body || !Array.isArray(body.grants)) throw new Error(`Could not list the standing approvals (HTTP ${status})`);
    return body.grants;
  }

  /** Revokes one: false when it was not standing (revoked already, expired, or someone else's). */
  async revoke(id: string): Promise<boolean> {
    const { status } = await this.send(`${INBOX_BASE}/grants/${encodeURIComponent(id)}/revoke`, { method: 'POST' });
    if (status !== 200 && status !== 404) throw new Error(`Could not revoke it (HTTP ${status})`);
    return status === 200;
  }

  async answer(
    id: string,
    action: 'accept' | 'decline' | 'cancel',
    content?: Record<string, unknown>,
  ): Promise<{ ok: boolean; message: string }> {
    const payload = action === 'accept' ? { action, content: content ?? {} } : { action };
    const { status, body } = await this.send(`${INBOX_BASE}/questions/${encodeURIComponent(id)}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (status === 200)
      return {
        ok: true,
        message:
          body?.delivered === 'task'
            ? 'the task goes on with it'
            : body?.delivered === 'waiting-call'
              ? 'the waiting call has it'
              : 'it waits for the next call that asks it',
      };
    if (status === 409) return { ok: false, message: 'this question already has an answer' };
    if (status === 404) return { ok: false, message: 'no such question for this sign-in' };
    return { ok: false, message: typeof body?.message === 'string' ? body.message : `HTTP ${status}` };
  }
}
