// Action links in the nudge: signed, expiring links that answer a yes/no question from a chat or an email (single use,
// recorded in the store), or open the question in the inbox.
import { fromBase64Url, hkdfBytes, hmac, importHmacKey, randomBytes, sameSignature, toBase64Url } from '../crypto';
import { INBOX_BASE } from '../protocol';
import type { ActionLinkAccess, ActionLinkAnswers } from './notify-options';
import type { QuestionStore, StoredQuestion } from './question-store';

type LinkAction = 'accept' | 'decline' | 'form';

const LINK_ACTIONS: ReadonlySet<string> = new Set<LinkAction>(['accept', 'decline', 'form']);
/** The link's query, every name exactly once and nothing else: `l` link id, `a` action, `e` expiry (Unix s), `s` signature. */
const PARAMS: ReadonlySet<string> = new Set(['l', 'a', 'e', 's']);
const LINK_ID = /^[A-Za-z0-9_-]{22}$/;
const EXPIRY = /^[1-9][0-9]{0,11}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const LABEL = 'parley-action-links-v1';

/** What the store keeps for one question's links (both of a yes/no pair): taken by the first use. */
export interface LinkRecord {
  questionId: string;
  /** Whose question it is: the answer is filed under this subject. */
  subject: string;
  /** Who may use the links when signed in: today the owner; a question's addressees join here. */
  addressees: string[];
}

export interface VerifiedLink {
  id: string;
  action: LinkAction;
  /** When it stops working, ms since the epoch. */
  expiresAt: number;
}

/** One property the accept link sets: a boolean (to true) or a string with exactly one allowed value (to that value). */
function oneClickValue(property: unknown): { value: unknown } | undefined {
  if (typeof property !== 'object' || property === null) return undefined;
  const p = property as Record<string, unknown>;
  if (p.type === 'boolean') return { value: true };
  const only = Array.isArray(p.enum) ? p.enum : Array.isArray(p.oneOf) ? p.oneOf.map((o) => (o as { const?: unknown })?.const) : undefined;
  return p.type === 'string' && only?.length === 1 && typeof only[0] === 'string' ? { value: only[0] } : undefined;
}

/**
 * The content a yes/no form's accept link answers, undefined for any other form. A yes/no form has no properties (a
 * plain "OK?"), or exactly one: a boolean (accept sets it to true) or a string with a one-value `enum` or `oneOf`
 * (accept sets that value). Its decline link answers `decline`, with no content.
 */
export function yesNoContent(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const properties = schema.properties ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  const names = Object.keys(properties);
  if (names.length === 0) return {};
  if (names.length > 1) return undefined;
  const name = names[0]!;
  const one = oneClickValue((properties as Record<string, unknown>)[name]);
  return one && { [name]: one.value };
}

export class ActionLinks {
  readonly #key: Promise<CryptoKey>;

  constructor(
    private readonly store: QuestionStore,
    secret: string,
    /** Who a link answers for (see WebhookOptions.actionLinks). */
    readonly access: Exclude<ActionLinkAccess, 'off'>,
    private readonly maxAgeMs: number,
  ) {
    this.#key = hkdfBytes(secret, LABEL).then((bytes) => importHmacKey(bytes));
  }

  /** The links for a question of `subject`'s, recorded in the store until they expire; a yes/no pair or a form link. */
  async create(subject: string, question: StoredQuestion, origin: string): Promise<ActionLinkAnswers & { expiresAt: number }> {
    const id = toBase64Url(randomBytes(16));
    const e = Math.floor(Math.min(question.expiresAt, Date.now() + this.maxAgeMs) / 1000);
    const expiresAt = e * 1000;
    const record: LinkRecord = { questionId: question.id, subject, addressees: [subject] };
    const key = await this.store.codec.tokenKey('act', id);
    await this.store.backend.set(key, await this.store.codec.seal(record, '', key), Math.max(1, expiresAt - Date.now()));
    const link = async (action: LinkAction) => {
      const query = new URLSearchParams({ l: id, a: action, e: String(e), s: await this.#sign(id, action, e) });
      return `${origin}${INBOX_BASE}/act?${query}`;
    };
    if (yesNoContent(question.requestedSchema) === undefined) return { form: await link('form'), expiresAt };
    return { accept: await link('accept'), decline: await link('decline'), expiresAt };
  }

  /** A link's query checked: its names, its signature, then its expiry. Says why it fails, never what it would have named. */
  async verify(query: URLSearchParams): Promise<VerifiedLink | 'invalid' | 'expired'> {
    const seen = new Map<string, string>();
    for (const [name, value] of query) {
      if (!PARAMS.has(name) || seen.has(name)) return 'invalid';
      seen.set(name, value);
    }
    const id = seen.get('l') ?? '';
    const action = seen.get('a') ?? '';
    const e = seen.get('e') ?? '';
    const s = seen.get('s') ?? '';
    if (!LINK_ID.test(id) || !LINK_ACTIONS.has(action) || !EXPIRY.test(e) || !SIGNATURE.test(s) || !fromBase64Url(s)) return 'invalid';
    if (!sameSignature(s, await this.#sign(id, action as LinkAction, Number(e)))) return 'invalid';
    const expiresAt = Number(e) * 1000;
    if (Date.now() >= expiresAt) return 'expired';
    return { id, action: action as LinkAction, expiresAt };
  }

  /** The record of a link not used yet, undefined once used (or expired from the store). */
  async record(link: VerifiedLink): Promise<LinkRecord | undefined> {
    const key = await this.store.codec.tokenKey('act', link.id);
    const raw = await this.store.backend.get(key);
    return raw === undefined ? undefined : this.store.codec.open<LinkRecord>(raw, '', key);
  }

  /** Uses the link: true for the one taker (the store's atomic take), false when it was used already. */
  async take(link: VerifiedLink): Promise<boolean> {
    return (await this.store.backend.take(await this.store.codec.tokenKey('act', link.id))) !== undefined;
  }

  /** Whether `subject` (the signed-in person, if any) may use a link: an addressee, or anyone when possession is enough. */
  mayUse(record: LinkRecord, subject: string | undefined): boolean {
    return this.access === 'possession' || (subject !== undefined && record.addressees.includes(subject));
  }

  async #sign(id: string, action: LinkAction, e: number): Promise<string> {
    return toBase64Url(await hmac(await this.#key, `${id}.${action}.${e}`));
  }
}
