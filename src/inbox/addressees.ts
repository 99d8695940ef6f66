// Questions addressed to other people than their caller (`to`): who they are (a provider's `sub`, a verified email, a
// group or role of its groups claim), how a signed-in person is matched against them at decision time, and the names
// of the lists that show each addressee their questions. Every name from outside is compared, never used as a key
// of an object: a group called `__proto__` is a group like any other.
import type { Addressee, Escalation } from '../model';
import { InvalidInputError } from '../protocol';

/** What an inbox session knows of its person: their subject, and for a provider's sign-in what its ID token said. */
export interface InboxPerson {
  subject: string;
  /** The provider's `sub`: only a sign-in through `http.auth.oidc` has one (a one-time code's session does not). */
  sub?: string;
  /** Lower-cased, and only when the provider said it is verified. */
  email?: string;
  /** Undefined: no group known (the claim was missing); never a match. */
  groups?: string[];
}

/**
 * How a question is addressed: to whom, and how many accepts (or declines) decide it; who else may decide it after a
 * deadline (`escalate`, each `afterMs` from its filing), and when it ends undecided (`expire`).
 */
export interface Addressing {
  to: Addressee[];
  quorum: number;
  declines: number;
  escalate?: Escalation[];
  expire?: { afterMs: number; reason: string };
}

const MAX_ADDRESSEES = 20;
/** Groups read from a sign-in at most (Entra ID stops at 200 too: above it, it sends none). */
const MAX_GROUPS = 200;
/** Decisions a question takes at most (each person once). */
const MAX_QUORUM = 32;
const NAME = /^[^\u0000-\u001f\u007f]{1,256}$/;
const KINDS = ['subject', 'email', 'group'] as const;
type Kind = (typeof KINDS)[number];

/** The one kind and value of an addressee, or a sentence saying what is wrong with it. */
function partsOf(entry: unknown): [Kind, string] | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return "each addressee is { subject }, { email } or { group }, e.g. to: [{ group: 'finance' }]";
  const kinds = KINDS.filter((kind) => Object.hasOwn(entry, kind));
  const extra = Object.keys(entry).filter((name) => !(KINDS as readonly string[]).includes(name));
  if (kinds.length !== 1 || extra.length > 0)
    return `an addressee names exactly one of subject, email or group (got ${JSON.stringify(Object.keys(entry))})`;
  const kind = kinds[0]!;
  const value = (entry as Record<string, unknown>)[kind];
  if (typeof value !== 'string' || !NAME.test(value)) return `${kind} must be 1-256 characters, no control characters`;
  if (kind === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return `email ${JSON.stringify(value)} is not an email address`;
  return [kind, kind === 'email' ? value.toLowerCase() : value];
}

/** A list of addressees checked (`name`: the option, for the error), as kind and value each. */
function readList(to: unknown, name: string): [Kind, string][] {
  if (!Array.isArray(to) || to.length === 0 || to.length > MAX_ADDRESSEES)
    throw new InvalidInputError(
      `${name} must list 1-${MAX_ADDRESSEES} addressees, e.g. ${name}: [{ group: 'finance' }, { email: 'dave@example.com' }]`,
    );
  const parts = to.map(partsOf);
  const wrong = parts.find((p): p is string => typeof p === 'string');
  if (wrong) throw new InvalidInputError(`${name}: ${wrong}`);
  return parts as [Kind, string][];
}

const asAddressees = (parts: [Kind, string][]) => parts.map(([kind, value]) => ({ [kind]: value }) as Addressee);

/** A list of addressees checked, as `to` is (`name`: the option, for the error): an escalation step's. */
export const readAddressees = (to: unknown, name: string): Addressee[] => asAddressees(readList(to, name));

/**
 * The checked addressing of `elicit()`'s options, or undefined without `to`; throws InvalidInputError when wrong.
 * `deadlines`: its `escalate` and `expire` as escalation.ts read them (loaded with the sign-in their people need).
 */
export function readAddressing(
  options: { to?: unknown; quorum?: unknown; declines?: unknown; escalate?: unknown; expire?: unknown },
  deadlines: Pick<Addressing, 'escalate' | 'expire'> = {},
): Addressing | undefined {
  const { to, quorum = 1, declines = 1 } = options;
  if (to === undefined) {
    for (const name of ['quorum', 'declines', 'escalate', 'expire'] as const)
      if (options[name] !== undefined) throw new InvalidInputError(`${name} is about the decisions of addressees: name them with \`to\``);
    return undefined;
  }
  const parts = readList(to, 'to');
  const count = (n: unknown, name: string) => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_QUORUM)
      throw new InvalidInputError(`${name} must be a whole number from 1 to ${MAX_QUORUM}`);
    return n;
  };
  const needed = count(quorum, 'quorum');
  // Named people alone can never reach a quorum larger than they are: refused now, not after a day of waiting (with
  // an escalation, its people count too: escalation.ts checks).
  const people = new Set(parts.map(([kind, value]) => `${kind}\u0000${value}`));
  if (!deadlines.escalate && parts.every(([kind]) => kind !== 'group') && needed > people.size)
    throw new InvalidInputError(`quorum ${needed} needs more accepts than the ${people.size} people named in to`);
  return { to: asAddressees(parts), quorum: needed, declines: count(declines, 'declines'), ...deadlines };
}

/**
 * Who may decide the question at `now`: `to`, and each escalation step's addressees once its deadline passed (by the
 * clock, so a step is in force even before the deadline machinery logs and nudges it). An escalation adds people:
 * decisions made before it count, and those asked first may still decide.
 */
export function addresseesAt(addressed: Addressing, createdAt: number, now = Date.now()): Addressee[] {
  const steps = addressed.escalate?.filter((step) => createdAt + step.afterMs <= now) ?? [];
  return [...addressed.to, ...steps.flatMap((step) => step.to)];
}

/** The latest escalation step in force at `now`: since when (ms), and whom it added; undefined before the first. */
export function escalationOf(addressed: Addressing, createdAt: number, now = Date.now()): { at: number; to: Addressee[] } | undefined {
  const step = addressed.escalate?.findLast((s) => createdAt + s.afterMs <= now);
  return step && { at: createdAt + step.afterMs, to: step.to };
}

/** Everyone a question may ever be for: its lists name them all from its filing, and each reader is checked by the clock. */
export const everyAddressee = (addressed: Addressing): Addressee[] => [...addressed.to, ...(addressed.escalate ?? []).flatMap((s) => s.to)];

/** Whether the person is one of the addressees, by what their sign-in says now. */
export function isAddressee(to: readonly Addressee[], person: InboxPerson): boolean {
  if (person.sub === undefined) return false; // only a provider's sign-in tells who someone is beyond a subject
  const groups = new Set(person.groups ?? []);
  return to.some((entry) => {
    const [kind, value] = partsOf(entry) as [Kind, string];
    if (kind === 'subject') return value === person.sub;
    if (kind === 'email') return person.email !== undefined && value === person.email;
    return groups.has(value);
  });
}

/** The list each addressee's questions are kept in: `to:<kind>:<value>`, the owner of a list record. */
export const listsOf = (to: readonly Addressee[]): string[] => [
  ...new Set(to.map((entry) => (partsOf(entry) as [Kind, string]).join(':')).map((name) => `to:${name}`)),
];

/** The lists a signed-in person reads: by their sub, their verified email and each of their groups. */
export function listsFor(person: InboxPerson): string[] {
  if (person.sub === undefined) return [];
  return listsOf([
    { subject: person.sub },
    ...(person.email ? [{ email: person.email }] : []),
    ...(person.groups ?? []).filter((g) => NAME.test(g)).map((group) => ({ group })),
  ]);
}

/** For whom a question waits, as the caller's status and the page say it: `group finance, dave@example.com`. */
export function whomOf({ to, quorum }: Pick<Addressing, 'to' | 'quorum'>): string {
  const names = to.map((entry) => {
    const [kind, value] = partsOf(entry) as [Kind, string];
    return kind === 'group' ? `group ${value}` : value;
  });
  return `${names.join(', ')}${quorum > 1 ? ` (${quorum} must accept)` : ''}`;
}

/**
 * The value at a claim's name in a verified ID token's claims: the name as a key first (a namespaced URL key such as
 * `https://example.com/roles` has dots of its own), else a dotted path (`realm_access.roles`). Own keys only.
 */
function claimAt(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let at: unknown = claims;
  for (const step of name.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

/**
 * What the inbox keeps of a provider's sign-in: its `sub`, its email when the provider says it is verified, and the
 * groups its `groupsClaim` lists (a string or an array of strings; missing or of another shape: no group known).
 */
export function personOf(subject: string, claims: Record<string, unknown>, groupsClaim = 'groups'): InboxPerson {
  const sub = claimAt(claims, 'sub');
  const email = claimAt(claims, 'email');
  const verified = claimAt(claims, 'email_verified') === true;
  const listed = claimAt(claims, groupsClaim);
  const groups = typeof listed === 'string' ? [listed] : Array.isArray(listed) ? listed.filter((g) => typeof g === 'string') : undefined;
  return {
    subject,
    ...(typeof sub === 'string' && sub !== '' ? { sub } : {}),
    ...(verified && typeof email === 'string' && email !== '' ? { email: email.toLowerCase() } : {}),
    ...(groups ? { groups: groups.slice(0, MAX_GROUPS) } : {}),
  };
}
