// How the inbox's records sit in a store: the question store's naming and sealing (stores/questions), owner the
// subject. With a secret, names are HMACs and values sealed per subject, the storage key as additional data (the names
// and keys the inbox always had); without one, names are SHA-256 digests and values plain JSON.
import { sha256, toHex } from '../crypto';
import { QuestionKeys, QuestionRecords, QuestionSeal, type LegacyRecords, type StoreBackend } from '../stores';

/**
 * Without a secret, releases before the question store named records `<prefix><kind>:<subject>[:<part>]` and tokens
 * `<prefix><kind>:<hex SHA-256>`: read-only fallbacks, so a question filed before an upgrade is still found. Persistent
 * questions live up to elicitation.persistent's ttl: these can go once every deployment without a secret ran this
 * release for longer (a release after 2027-03-06 may delete them).
 */
const plainName = (prefix: string, kind: string, subject: string, part: string): string =>
  `${prefix}${kind}:${subject}${part ? `:${part}` : ''}`;

/**
 * The secret setting may list several (comma-separated, newest first): the first names and seals what is written, and
 * reads look under each listed secret's names and open a value under the key id it names. A record of a secret no
 * longer listed is unreachable: it expires.
 */
export class QuestionCodec {
  // #private: the keys made from the secrets are never serialized or inspected from here.
  readonly #keys: QuestionKeys;
  readonly #sealing: QuestionSeal;

  constructor(
    readonly prefix: string,
    secret?: string,
  ) {
    this.#keys = new QuestionKeys(prefix, secret);
    this.#sealing = new QuestionSeal(secret);
  }

  get encrypted(): boolean {
    return this.#sealing.encrypted;
  }

  /** The records of this codec on a backend: what the question store and people auth read and write through. */
  records(backend: StoreBackend): QuestionRecords {
    const legacy: LegacyRecords | undefined = this.encrypted
      ? undefined
      : {
          name: (kind, subject, part) => plainName(this.prefix, kind, subject, part),
          open: (raw, subject, key) => this.open(raw, subject, key),
        };
    return new QuestionRecords(backend, this.#keys, this.#sealing, legacy);
  }

  /** The storage key of a record kind for a subject (and part, e.g. a question id): where writes go. */
  key(kind: string, subject: string, part = ''): Promise<string> {
    return this.#keys.name(kind, subject, part);
  }

  /** Every storage key the record may be under, the first secret's first: a read looks at each in turn. */
  async keys(kind: string, subject: string, part = ''): Promise<string[]> {
    const names = await this.#keys.names(kind, subject, part);
    return this.encrypted ? names : [...names, plainName(this.prefix, kind, subject, part)];
  }

  /** The key of a secret token (a sign-in code, a session id): never the token itself. */
  tokenKey(kind: string, token: string): Promise<string> {
    return this.key(kind, '', token);
  }

  /** Every key a secret token may be under (see keys). */
  async tokenKeys(kind: string, token: string): Promise<string[]> {
    const names = await this.#keys.names(kind, '', token);
    return this.encrypted ? names : [...names, `${this.prefix}${kind}:${toHex(await sha256(token))}`];
  }

  seal(value: unknown, subject: string, storageKey: string): Promise<string> {
    return this.#sealing.seal(value, subject, storageKey);
  }

  /** The value, or undefined when it is missing, unreadable, or sealed under a secret no longer listed. */
  open<T>(raw: string | undefined, subject: string, storageKey: string): Promise<T | undefined> {
    return this.#sealing.open<T>(raw, subject, storageKey);
  }
}
