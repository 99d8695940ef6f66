// Standing approvals: "accept, and the same for the next period". A tool declares the rule (`grant: { match, forMs }`);
// a person who accepts one of its persistent questions may accept the same for later calls by the same caller whose
// named arguments are equal; those calls get the accepted answer without asking, each use in the decision log.
import { checkFlatForm } from '../elicitation';
import { type GrantRule, MAX_GRANT_MS } from '../model';
import type { QuestionRecords } from '../stores';
import type { DecisionChannel, DecisionLog, Witness } from './decision-log';
import { whoOf } from './decision-log';
import type { StoredQuestion } from './question-store';

/** A grant as it is kept (sealed per subject) and listed. */
interface Grant {
  id: string;
  tool: string;
  /** The arguments it is for, as the rule names them. */
  match: Record<string, unknown>;
  /** The accepted answer later calls get. */
  content: Record<string, unknown>;
  /** The form it answers (its schema's JSON): a question with another form is asked as usual. */
  form: string;
  grantedAt: number;
  expiresAt: number;
  /** The question it was given on, and its key. */
  question: string;
  key: string;
}

/** A call of a tool that offers grants: its rule and its arguments. */
export interface GrantCall {
  tool: string;
  rule: GrantRule;
  args: Record<string, unknown>;
}

const GRANT = 'grant';
const INDEX = 'grant-i';
/** Grants listed per person (the oldest leave the list, and stand until they expire). */
const KEPT_GRANTS = 256;

interface Listed {
  id: string;
  part: string;
}

/** The arguments a rule names, from a call's (keys sorted): undefined when the call leaves one out. */
export function matchOf(rule: GrantRule, args: Record<string, unknown>): Record<string, unknown> | undefined {
  const match: Record<string, unknown> = {};
  for (const name of [...rule.match].sort()) {
    if (!Object.hasOwn(args, name) || args[name] === undefined) return undefined;
    match[name] = args[name];
  }
  return match;
}

const partOf = (tool: string, match: Record<string, unknown>) => JSON.stringify([tool, match]);
const formOf = (schema: Record<string, unknown> | undefined) => JSON.stringify(schema ?? { type: 'object', properties: {} });

export class Grants {
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly records: QuestionRecords,
    private readonly log: DecisionLog | undefined,
  ) {}

  /**
   * The answer a standing grant gives a question of this call (used, and logged), or undefined: no rule match, no
   * grant, or a question of another form.
   */
  async use(
    subject: string,
    call: GrantCall,
    question: { key: string; requestedSchema?: Record<string, unknown> },
    witness: Witness,
  ): Promise<Record<string, unknown> | undefined> {
    const match = matchOf(call.rule, call.args);
    if (!match) return undefined;
    const grant = await this.records.read<Grant>(GRANT, subject, partOf(call.tool, match));
    if (!grant || grant.expiresAt <= Date.now() || grant.form !== formOf(question.requestedSchema)) return undefined;
    if (checkFlatForm(grant.content, question.requestedSchema ?? {}) !== undefined) return undefined;
    await this.log?.grantEntry(subject, grant, { event: 'used', by: whoOf(subject), channel: 'call', key: question.key }, witness);
    return grant.content;
  }

  /** Gives the grant a question offers (its `from.grant`), with the accepted content; undefined when it offers none. */
  async give(
    subject: string,
    question: StoredQuestion,
    content: Record<string, unknown>,
    via: { channel: DecisionChannel; address?: string },
  ): Promise<Grant | undefined> {
    const offer = question.from?.grant;
    if (!offer || !question.from) return undefined;
    const now = Date.now();
    const grant: Grant = {
      id: crypto.randomUUID(),
      tool: question.from.tool,
      match: offer.match,
      content,
      form: formOf(question.requestedSchema),
      grantedAt: now,
      expiresAt: now + offer.forMs,
      question: question.id,
      key: question.key,
    };
    const part = partOf(grant.tool, grant.match);
    await this.records.put(GRANT, subject, part, grant, offer.forMs);
    await this.#change(subject, (listed) => [...listed.filter((l) => l.part !== part), { id: grant.id, part }].slice(-KEPT_GRANTS));
    await this.log?.granted(subject, question, grant, { by: whoOf(subject), ...via });
    return grant;
  }

  /** The person's grants that stand now, oldest first. */
  async list(subject: string): Promise<Grant[]> {
    const listed = await this.#read(subject);
    const grants = await Promise.all(listed.map((l) => this.records.read<Grant>(GRANT, subject, l.part)));
    const now = Date.now();
    return grants.filter((g, i): g is Grant => g !== undefined && g.id === listed[i]!.id && g.expiresAt > now);
  }

  /** Revokes one of the person's grants: true when it stood. A later call that matches asks again. */
  async revoke(subject: string, id: string, via: { channel: DecisionChannel; address?: string }): Promise<boolean> {
    const listed = (await this.#read(subject)).find((l) => l.id === id);
    if (!listed) return false;
    const grant = await this.records.read<Grant>(GRANT, subject, listed.part);
    const stood = grant?.id === id && grant.expiresAt > Date.now();
    if (stood) await this.records.drop(GRANT, subject, listed.part);
    await this.#change(subject, (all) => all.filter((l) => l.id !== id));
    if (stood) await this.log?.grantEntry(subject, grant!, { event: 'revoked', by: whoOf(subject), channel: via.channel }, via);
    return stood;
  }

  async #read(subject: string): Promise<Listed[]> {
    const listed = await this.records.read<unknown>(INDEX, subject);
    return Array.isArray(listed) ? listed.filter((l): l is Listed => typeof l?.id === 'string' && typeof l?.part === 'string') : [];
  }

  /**
   * Read-modify-write of the person's list, one at a time in this process. Two instances changing one person's list
   * in the same instant may lose a line of it (as the question index): the grant itself still stands and is used.
   */
  #change(subject: string, change: (listed: Listed[]) => Listed[]): Promise<void> {
    const run = async () => {
      const next = change(await this.#read(subject));
      if (next.length === 0) await this.records.drop(INDEX, subject);
      else await this.records.put(INDEX, subject, '', next, MAX_GRANT_MS);
    };
    const previous = this.#locks.get(subject) ?? Promise.resolve();
    const done = previous.then(run, run);
    this.#locks.set(subject, done);
    void done.finally(() => this.#locks.get(subject) === done && this.#locks.delete(subject)).catch(() => {});
    return done;
  }
}
