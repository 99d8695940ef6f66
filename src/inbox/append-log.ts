// An append-only log on the store contract, which has no list and no counter: a chain of numbered slots, each taken by
// one writer on any instance through the store's atomic `take`. A slot's entry is sealed under its own name (the
// question store's naming and sealing); its token is a plain mark. Slot 0 is written by the chain's one starter.
import { QuestionRecords } from '../stores';

/** A record kind: the sealed entry of a slot, and the token whose one taker writes it. */
const ENTRY = 'log';
const TOKEN = 'log-t';
/** How long an append waits for a slot another writer is opening before it gives up (and says so). */
const STUCK_MS = 2_000;
const PAUSE_MS = 15;
/** A read stops after this many empty slots in a row: a writer that died mid-append leaves one hole, not eight. */
const GAP = 8;
/** Where the next append of a chain starts looking, per chain written from this process (least recent dropped). */
const KEPT_HEADS = 1_000;

const slot = (chain: string, i: number) => `${chain}#${i}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Appending to slot i: take its token (of every writer, exactly one gets it), then open slot i + 1 (set its token) and
 * write the entry, both at once. A writer that did not get the token moves on: past a slot whose entry is there, or
 * to the next slot's token while an entry is on its way. Nothing is ever written twice into a slot, and nothing is
 * rewritten: an entry is only set once, and expires with the chain (`ttlMs` from its last write).
 */
export class AppendLog {
  readonly #heads = new Map<string, number>();
  /** Without the legacy names of the inbox's records: a log was never kept under them, so a miss looks once. */
  readonly records: QuestionRecords;

  constructor(
    records: QuestionRecords,
    readonly ttlMs: number,
  ) {
    this.records = new QuestionRecords(records.backend, records.keys, records.sealing);
  }

  /** Starts a chain with its first entry: only its one starter (the question's filer, who made its id) calls it. */
  async start(owner: string, chain: string, value: unknown): Promise<void> {
    await Promise.all([
      this.records.put(ENTRY, owner, slot(chain, 0), value, this.ttlMs),
      this.records.mark(TOKEN, owner, slot(chain, 1), this.ttlMs),
    ]);
    this.#remember(owner, chain, 1);
  }

  /** Opens slot 0 of a new chain whose first entry anyone may write (a question's decisions): only its one starter calls it. */
  async open(owner: string, chain: string): Promise<void> {
    await this.records.mark(TOKEN, owner, slot(chain, 0), this.ttlMs);
  }

  /**
   * Opens slot 0 of a chain that nobody starts on purpose (a day's list): only when nothing of it is there yet. Two
   * openers in the same instant may both open it: the one race this leaves (see docs/approvals.md).
   */
  async openIfNew(owner: string, chain: string): Promise<void> {
    if (this.#heads.has(`${owner}\u0000${chain}`)) return; // fast path: this process wrote to it already
    const [token, entry, next] = await Promise.all([
      this.records.has(TOKEN, owner, slot(chain, 0)),
      this.records.has(ENTRY, owner, slot(chain, 0)),
      this.records.has(TOKEN, owner, slot(chain, 1)),
    ]);
    if (!token && !entry && !next) await this.records.mark(TOKEN, owner, slot(chain, 0), this.ttlMs);
  }

  /**
   * Appends an entry; resolves with its slot, or undefined when the chain is full (`cap` slots) or stuck. `ordered`:
   * the entry is written before the next slot opens (a round trip more), so whoever appends after it reads it: a
   * question's decisions are counted so, by the writer that reads them last.
   */
  async append(owner: string, chain: string, value: unknown, cap: number, ordered = false): Promise<number | undefined> {
    const head = `${owner}\u0000${chain}`;
    let i = this.#heads.get(head) ?? 0;
    const until = Date.now() + STUCK_MS;
    const fill = async (at: number) => {
      const entry = () => this.records.put(ENTRY, owner, slot(chain, at), value, this.ttlMs);
      const next = () => (at + 1 < cap ? this.records.mark(TOKEN, owner, slot(chain, at + 1), this.ttlMs) : undefined);
      if (ordered) await entry().then(next);
      else await Promise.all([next(), entry()]);
      this.#remember(owner, chain, at + 1);
      return at;
    };
    while (i < cap) {
      if (await this.records.claim(TOKEN, owner, slot(chain, i))) return fill(i);
      if (await this.records.has(ENTRY, owner, slot(chain, i))) {
        i++;
        continue;
      }
      // Slot i is taken and its entry on its way, or not opened yet: the next one may be open already.
      if (i + 1 < cap && (await this.records.has(ENTRY, owner, slot(chain, i + 1)))) {
        i += 2;
        continue;
      }
      if (i + 1 < cap && (await this.records.claim(TOKEN, owner, slot(chain, i + 1)))) return fill(i + 1);
      if (Date.now() > until) return undefined;
      await pause(PAUSE_MS);
    }
    return undefined;
  }

  /** The chain's entries in slot order (a hole, where a writer died mid-append, is skipped). */
  async read<T>(owner: string, chain: string, cap: number): Promise<T[]> {
    const found: T[] = [];
    let empty = 0;
    for (let from = 0; from < cap && empty < GAP; from += GAP) {
      const batch = Array.from({ length: Math.min(GAP, cap - from) }, (_, k) => this.records.read<T>(ENTRY, owner, slot(chain, from + k)));
      for (const entry of await Promise.all(batch)) {
        if (entry === undefined) empty++;
        else {
          empty = 0;
          found.push(entry);
        }
      }
    }
    return found;
  }

  #remember(owner: string, chain: string, next: number): void {
    const head = `${owner}\u0000${chain}`;
    this.#heads.delete(head);
    this.#heads.set(head, next);
    if (this.#heads.size > KEPT_HEADS) this.#heads.delete(this.#heads.keys().next().value!);
  }
}
