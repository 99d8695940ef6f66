// People auth: inbox sessions, opened by one-time codes bound to a subject, an OpenID Connect sign-in, or the startup token.
import { readCookie, SESSION_COOKIE, SESSION_TTL_MS, type SignInFlow } from '../auth';
import { randomBytes, toBase64Url } from '../crypto';
import { INSPECT, inspectFields } from '../runtime';
import type { StoreBackend } from '../stores';
import { QuestionCodec } from './codec';
import { type InboxPerson, personOf } from './addressees';

const CODE_TTL_MS = 10 * 60_000;
const FLOW_TTL_MS = 10 * 60_000;
// The additional data a sign-in flow is sealed with, so no other sealed value opens as one.
const FLOW_LABEL = 'parley:sign-in-flow';

/**
 * A signed-in person: `subject` is whose questions they see; undefined when they signed in with the startup token. A
 * provider's sign-in keeps what its ID token said of them too (their `sub`, verified email, groups), for the questions
 * addressed to them.
 */
type PeopleSession = Partial<InboxPerson>;

/** A flow as its cookie seals it: bound to its `state`, to the browser that started it (`binding`), and to a deadline. */
interface SealedFlow extends SignInFlow {
  state: string;
  binding: string;
  until: number;
}

// The servers of this process with people auth, by name, so `LoopbackTokenAuth.createCode()` finds its server.
const RUNNING = new Map<string, LoopbackTokenAuth>();

/**
 * People auth for a loopback server. A code from `createCode({ subject })` signs a person in once, for that subject's
 * questions only. The startup token (made when the server starts, for the app's own people pages) opens no inbox.
 */
export class LoopbackTokenAuth {
  // #private: the startup token, and the store and codec that keep codes and sessions, are never serialized or inspected.
  readonly #startupToken = toBase64Url(randomBytes(32));
  readonly #backend: StoreBackend;
  readonly #codec: QuestionCodec;
  // Seals sign-in flows into their cookie: the store's secret when it has one (any instance opens them), else a key of
  // this process's own (a sign-in then finishes on the instance that started it).
  readonly #flowCodec: QuestionCodec;

  constructor(
    readonly serverName: string,
    backend: StoreBackend,
    codec: QuestionCodec,
  ) {
    this.#backend = backend;
    this.#codec = codec;
    this.#flowCodec = codec.encrypted ? codec : new QuestionCodec('', toBase64Url(randomBytes(32)));
    RUNNING.set(serverName, this);
  }

  /** The token made at startup; the inbox answers it with 401. */
  get startupToken(): string {
    return this.#startupToken;
  }

  [INSPECT](_depth: number, options: { depth?: number | null }, inspect: Parameters<typeof inspectFields>[3]): string {
    return inspectFields('LoopbackTokenAuth', this, options, inspect);
  }

  /** The running server with people auth named `server`, or the only one. */
  static of(server?: string): LoopbackTokenAuth {
    if (server !== undefined) {
      const found = RUNNING.get(server);
      if (!found) throw new Error(`No running server named "${server}" has http.auth.people: 'loopback-token' with elicitation.persistent`);
      return found;
    }
    if (RUNNING.size !== 1)
      throw new Error(
        `${RUNNING.size === 0 ? 'No running server has' : 'Several running servers have'} http.auth.people: 'loopback-token'; name one: createCode({ subject, server })`,
      );
    return RUNNING.values().next().value!;
  }

  /**
   * Makes a one-time sign-in code for a subject's inbox. Send it to that person only: whoever holds it can answer.
   * @example const { code, expiresAt } = await LoopbackTokenAuth.createCode({ subject: questionSubjectOf(this.auth)! });
   */
  static createCode(options: { subject: string; server?: string }): Promise<{ code: string; expiresAt: number }> {
    return LoopbackTokenAuth.of(options.server).createCode(options);
  }

  async createCode({ subject }: { subject: string }): Promise<{ code: string; expiresAt: number }> {
    if (typeof subject !== 'string' || !/^(principal|session):./.test(subject))
      throw new Error('createCode needs a subject from questionSubjectOf()');
    const code = toBase64Url(randomBytes(32));
    const expiresAt = Date.now() + CODE_TTL_MS;
    const key = await this.#codec.tokenKey('code', code);
    await this.#backend.set(key, await this.#codec.seal({ subject }, '', key), CODE_TTL_MS);
    return { code, expiresAt };
  }

  /** Spends a code (once) or checks the startup token; returns a new session id, or undefined when refused. */
  async signIn(proof: { code?: unknown; token?: unknown }): Promise<string | undefined> {
    let session: PeopleSession;
    if (typeof proof.code === 'string' && proof.code.length <= 256) {
      const record = await this.#read<{ subject: string }>('code', proof.code, true);
      if (typeof record?.subject !== 'string') return undefined;
      session = { subject: record.subject };
    } else if (typeof proof.token === 'string' && (await sameSecret(proof.token, this.#startupToken))) {
      session = {};
    } else return undefined;
    return this.#keep('session', toBase64Url(randomBytes(32)), session, SESSION_TTL_MS);
  }

  /** The ID token claim that lists a person's groups (`http.auth.oidc.groupsClaim`), set when the server is built. */
  groupsClaim = 'groups';

  /** A new session for a subject a provider signed in (OpenID Connect), with what its verified ID token says: its id, for the cookie. */
  openSession(subject: string, claims: Record<string, unknown>): Promise<string> {
    return this.#keep(
      'session',
      toBase64Url(randomBytes(32)),
      personOf(subject, claims, this.groupsClaim) satisfies PeopleSession,
      SESSION_TTL_MS,
    );
  }

  /** Ends the session a cookie header names (signing out); nothing when it names none. */
  async endSession(cookieHeader: string | null): Promise<void> {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    if (!id || id.length > 128) return;
    for (const key of await this.#codec.tokenKeys('session', id)) await this.#backend.delete(key);
  }

  /**
   * Seals what an OpenID Connect sign-in needs back at its callback, for its cookie: nothing is stored before a person
   * signs in. Good for ten minutes, for this `state` and the browser that holds `binding`.
   */
  sealSignIn(flow: SignInFlow, state: string, binding: string): Promise<string> {
    return this.#flowCodec.seal({ ...flow, state, binding, until: Date.now() + FLOW_TTL_MS } satisfies SealedFlow, '', FLOW_LABEL);
  }

  /** The flow a cookie sealed, when it is for this `state` and this browser's `binding` and not past its ten minutes. */
  async openSignIn(sealed: string | undefined, state: string, binding: string): Promise<SignInFlow | undefined> {
    if (!sealed || sealed.length > 1024) return undefined;
    const flow = await this.#flowCodec.open<SealedFlow>(sealed, '', FLOW_LABEL);
    if (!flow || !(flow.until > Date.now()) || flow.state !== state || !(await sameSecret(binding, flow.binding))) return undefined;
    return { verifier: flow.verifier, nonce: flow.nonce };
  }

  /** Seals a record in the store under a token's key (its digest: the store never holds the token itself). */
  async #keep(kind: string, token: string, record: object, ttlMs: number): Promise<string> {
    const key = await this.#codec.tokenKey(kind, token);
    await this.#backend.set(key, await this.#codec.seal(record, '', key), ttlMs);
    return token;
  }

  /** The session a cookie header names, or undefined. */
  async session(cookieHeader: string | null): Promise<PeopleSession | undefined> {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    if (!id || id.length > 128) return undefined;
    return this.#read<PeopleSession>('session', id);
  }

  /** A token's record under the first listed secret's key, else an older one's (a code is taken: spent once). */
  async #read<T>(kind: string, token: string, take = false): Promise<T | undefined> {
    for (const key of await this.#codec.tokenKeys(kind, token)) {
      const raw = await (take ? this.#backend.take(key) : this.#backend.get(key));
      if (raw !== undefined) return this.#codec.open<T>(raw, '', key);
    }
    return undefined;
  }

  /** Forgets this server in the process registry (when it is closed). */
  unregister(): void {
    if (RUNNING.get(this.serverName) === this) RUNNING.delete(this.serverName);
  }
}

/** Compares two secrets through their digests, so the time taken says nothing about where they differ. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (s: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
