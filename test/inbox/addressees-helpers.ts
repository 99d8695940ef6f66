// Questions addressed to other people: a real OpenID provider (oidc-provider on loopback) with four people (alice the
// caller, bob and carol in finance, dave on call), servers whose inbox signs people in there, and each person's
// inbox over its JSON routes, signed in as a browser does (the provider's login and consent pages, driven over HTTP).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { App, Tool, ToolContext, z, type ElicitOptions, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { bearer } from '../helpers/bearer';
import { authorize, startIdp, type TestIdp } from '../helpers/oidc';

export const SECRET = 'addressees-test-signing-secret';
export const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** What the provider's ID token says of each person (dave's groups claim is a string, as some providers send one). */
export const PEOPLE = new Map<string, Record<string, unknown>>([
  ['alice', { email: 'alice@example.com', email_verified: true, groups: ['engineering'] }],
  ['bob', { email: 'bob@example.com', email_verified: true, groups: ['finance'] }],
  ['carol', { email: 'carol@example.com', email_verified: true, groups: ['finance', 'audit'] }],
  ['dave', { email: 'dave@example.com', email_verified: true, groups: 'oncall' }],
]);

export const startPeopleIdp = (): Promise<TestIdp> => startIdp(undefined, 'jwt', PEOPLE);

/** A refund that waits for the people the call names: what the tool got back, every decision included. */
@Tool({
  name: 'refund',
  inputSchema: {
    order: z.string(),
    to: z.array(z.record(z.string(), z.string())),
    quorum: z.number().int().optional(),
    declines: z.number().int().optional(),
    waitMs: z.number().int().positive(),
    // Passed as given, so a test can send a wrong one (escalation.test.ts).
    escalate: z.unknown().optional(),
    expire: z.unknown().optional(),
  },
})
class Refund extends ToolContext {
  async execute(input: {
    order: string;
    to: Record<string, string>[];
    quorum?: number;
    declines?: number;
    waitMs: number;
    escalate?: unknown;
    expire?: unknown;
  }) {
    const { order, to, quorum, declines, waitMs, escalate, expire } = input;
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean() }), {
      ttl: waitMs,
      persist: { key: `refund-${order}` },
      to: to as NonNullable<ElicitOptions['to']>,
      ...(quorum === undefined ? {} : { quorum }),
      ...(declines === undefined ? {} : { declines }),
      ...(escalate === undefined ? {} : { escalate: escalate as ElicitOptions['escalate'] }),
      ...(expire === undefined ? {} : { expire: expire as ElicitOptions['expire'] }),
    });
    const reason = answer.reason === undefined ? {} : { reason: answer.reason };
    return { status: answer.status, content: answer.content ?? null, decisions: answer.decisions ?? [], ...reason };
  }
}

@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Registers the inbox at the provider as a confidential web client for these redirect URIs. */
export async function registerInbox(idp: TestIdp, redirectUris: string[]): Promise<{ clientId: string; clientSecret: string }> {
  const response = await fetch(`${idp.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  });
  const body = (await response.json()) as { client_id: string; client_secret: string };
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

const callbackOf = (port: number) => `http://127.0.0.1:${port}/_frontmcp/sign-in/callback`;

/**
 * Servers on known ports (the provider holds their redirect URIs) that sign people in at `idp`, asking for their
 * email and groups; `name` is shared, so several of them on one store are instances of one server.
 */
export async function startServers(
  idp: TestIdp,
  options: {
    count?: number;
    name: string;
    storage?: unknown;
    oidc?: boolean;
    notify?: ((notice: unknown, tools: object) => void) | object;
  } = {
    name: 'approvals',
  },
): Promise<RunningServer[]> {
  const ports = await Promise.all(Array.from({ length: options.count ?? 1 }, freePort));
  const client = await registerInbox(idp, ports.map(callbackOf));
  return Promise.all(
    ports.map((port) => {
      const config: FrontMcpConfigInput = {
        info: { name: options.name, version: '1.0.0' },
        apps: [Refunds],
        logger: quiet,
        // Callers' tokens name the issuer the inbox signs people in at (HS256 here: the agent's side is not under test).
        auth: { secret: SECRET, issuer: idp.issuer },
        http:
          options.oidc === false ? { auth: { people: 'loopback-token' } } : { auth: { oidc: { ...client, scope: 'openid email groups' } } },
        elicitation: {
          enabled: true,
          persistent: {
            storage: (options.storage ?? { type: 'memory' }) as never,
            ...(options.notify ? { notify: options.notify as never } : {}),
          },
        },
      };
      return serve(config, { port, quiet: true });
    }),
  );
}

export interface Person {
  cookie: string;
  questions(): Promise<Array<Record<string, any>>>;
  /** Waits for a question whose message is `message` (and `until` holds of it) and returns it. */
  waitFor(message: string, until?: (q: Record<string, any>) => boolean): Promise<Record<string, any>>;
  answer(id: string, body: unknown): Promise<{ status: number; body: any }>;
  history(id: string): Promise<Array<Record<string, any>>>;
}

/** What the inbox's sign-in page and the provider's pages do in a browser, over HTTP: resolves with the session cookie. */
export async function signInCookie(origin: string, login: string): Promise<string> {
  const binding = 'ab'.repeat(32);
  const started = await fetch(`${origin}/_frontmcp/sign-in/oidc`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ binding }),
  });
  if (started.status !== 303) throw new Error(`sign-in did not start: ${started.status}`);
  const flow = started.headers.get('set-cookie')!.split(';')[0]!;
  const callback = `${origin}/_frontmcp/sign-in/callback`;
  const back = await authorize(new URL(started.headers.get('location')!), callback, login);
  const finished = await fetch(callback, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, cookie: flow, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: back.get('code') ?? '', state: back.get('state') ?? '', binding }),
  });
  const session = finished.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('parley_inbox='));
  if (finished.status !== 200 || !session) throw new Error(`sign-in did not finish: ${finished.status} ${await finished.text()}`);
  return session;
}

/** A person signed in to the inbox at `origin` through the provider. */
export async function signIn(origin: string, login: string): Promise<Person> {
  const cookie = await signInCookie(origin, login);
  const questions = async () => {
    const response = await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } });
    if (!response.ok) throw new Error(`questions: ${response.status}`);
    return ((await response.json()) as { questions: Array<Record<string, any>> }).questions;
  };
  return {
    cookie,
    questions,
    async waitFor(message, until = () => true) {
      for (let i = 0; i < 400; i++) {
        const found = (await questions()).find((q) => q.message === message && until(q));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no question "${message}" in the inbox of ${login}`);
    },
    async answer(id, body) {
      const response = await fetch(`${origin}/_frontmcp/questions/${id}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    async history(id) {
      const response = await fetch(`${origin}/_frontmcp/questions/${id}/log`, { headers: { cookie } });
      return ((await response.json()) as { entries: Array<Record<string, any>> }).entries;
    },
  };
}

/** The caller's bearer token (alice's agent), naming the provider as its issuer. */
export const callerToken = (idp: TestIdp, sub = 'alice') => bearer(sub, SECRET, idp.issuer);

export const yes = { action: 'accept', content: { approve: true } };
export const no = { action: 'decline' };
