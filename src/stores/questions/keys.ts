// The question store's one key naming: `<prefix><kind>:<name>`, where the name is the HMAC-SHA256 of what the key names
// (kind, owner, part) under a key made from the secret, or without a secret its SHA-256: no task id, subject or session
// id is ever in a store key. The kind (`pending`, `result`, `task`, `q`…) stays readable, as the docs' key table says.
import { createHmacKey, type HmacKey, secretList, type StoreCrypto, WEB_STORE_CRYPTO } from '../../crypto';

/** What the naming keys are made from: the inbox's names since its first release, so its keys never changed. */
const NAMING = 'parley-persistent-questions-v1:keys:';
/** How many owners' names are kept made, per kind (a task's parts are about ten names). */
const KEPT_OWNERS = 512;
/** How many names are kept made per owner (an inbox subject may have many questions). */
const KEPT_PARTS = 64;

/**
 * Names under a secret setting (comma-separated, newest first): the first names what is written, and a read looks under
 * each listed secret's name in turn, so a record written before a rotation is found until it expires.
 */
export class QuestionKeys {
  // #private: the keys made from the secrets are never serialized or inspected from here.
  readonly #keys: Promise<HmacKey>[];
  // The names made last under the first secret, by kind, owner and part (about 150 bytes each): looked up without
  // joining the three into one string, which a task's every poll would build and hash again.
  readonly #made = new Map<string, Map<string, Map<string, Promise<string>>>>();

  constructor(
    readonly prefix: string,
    secret: string | undefined,
    private readonly crypto: StoreCrypto = WEB_STORE_CRYPTO,
  ) {
    this.#keys = secretList(secret).map((one) => createHmacKey(`${NAMING}${one}`, crypto.hmac));
  }

  get keyed(): boolean {
    return this.#keys.length > 0;
  }

  /** Where a record is written: its name under the first secret (a digest without one). */
  name(kind: string, owner: string, part = ''): Promise<string> {
    // Fast path: a task's parts are named on every poll and change; a name made lately is not made again.
    let owners = this.#made.get(kind);
    if (owners === undefined) this.#made.set(kind, (owners = new Map()));
    let parts = owners.get(owner);
    if (parts === undefined) {
      if (owners.size >= KEPT_OWNERS) owners.delete(owners.keys().next().value!);
      owners.set(owner, (parts = new Map()));
    }
    let name = parts.get(part);
    if (name === undefined) {
      if (parts.size >= KEPT_PARTS) parts.delete(parts.keys().next().value!);
      name = this.#name(this.#keys[0], kind, owner, part);
      parts.set(part, name);
      const made = parts;
      name.catch(() => made.delete(part));
    }
    return name;
  }

  /** Every name a record may be under, the first secret's first. */
  async names(kind: string, owner: string, part = ''): Promise<string[]> {
    // Fast path: one secret (or none) has one name.
    if (this.#keys.length <= 1) return [await this.name(kind, owner, part)];
    return Promise.all(this.#keys.map((key) => this.#name(key, kind, owner, part)));
  }

  async #name(key: Promise<HmacKey> | undefined, kind: string, owner: string, part: string): Promise<string> {
    const text = `${kind}\u0000${owner}\u0000${part}`;
    return `${this.prefix}${kind}:${await (key ? (await key).sign(text) : this.crypto.digest(text))}`;
  }
}
