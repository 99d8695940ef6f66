// Who an addressed question is for, from a verified ID token's claims: the groups claim by name, a namespaced URL key
// or a dotted path, a string or an array; a missing claim is no group known; names from outside (`__proto__`,
// `constructor`) are compared, never looked up; and where a quorum's decisions stand.
import { describe, expect, it } from 'vitest';
import { isAddressee, personOf, readAddressing } from '../../src/inbox/addressees';
import { outcomeOf } from '../../src/inbox/decisions';

const SUBJECT = 'principal:https://idp.example#u1';

describe('personOf', () => {
  it('reads groups from `groups`, `roles`, a namespaced URL key and a dotted path; a string is one group', () => {
    expect(personOf(SUBJECT, { sub: 'u1', groups: ['finance', 'ops'] }).groups).toEqual(['finance', 'ops']);
    expect(personOf(SUBJECT, { sub: 'u1', roles: 'approver' }, 'roles').groups).toEqual(['approver']);
    const url = 'https://parley.example/roles';
    expect(personOf(SUBJECT, { sub: 'u1', [url]: ['admin'] }, url).groups).toEqual(['admin']);
    expect(personOf(SUBJECT, { sub: 'u1', realm_access: { roles: ['finance'] } }, 'realm_access.roles').groups).toEqual(['finance']);
  });

  it('knows no group when the claim is missing or of another shape, and only a verified email', () => {
    expect(personOf(SUBJECT, { sub: 'u1' }).groups).toBeUndefined();
    expect(personOf(SUBJECT, { sub: 'u1', groups: 7 }).groups).toBeUndefined();
    expect(personOf(SUBJECT, { sub: 'u1', groups: ['a', 3, null] }).groups).toEqual(['a']);
    expect(personOf(SUBJECT, { sub: 'u1', email: 'U1@Example.com' }).email).toBeUndefined();
    expect(personOf(SUBJECT, { sub: 'u1', email: 'U1@Example.com', email_verified: true }).email).toBe('u1@example.com');
    // A path through what an object inherits is no claim: `constructor.name` is not read off Object.
    expect(personOf(SUBJECT, { sub: 'u1' }, 'constructor.name').groups).toBeUndefined();
    expect(personOf(SUBJECT, { sub: 'u1' }, '__proto__').groups).toBeUndefined();
  });
});

describe('isAddressee', () => {
  const bob = personOf('principal:https://idp.example#bob', {
    sub: 'bob',
    email: 'bob@example.com',
    email_verified: true,
    groups: ['finance'],
  });
  it('matches by sub, verified email or group, and nothing else', () => {
    expect(isAddressee([{ group: 'finance' }], bob)).toBe(true);
    expect(isAddressee([{ email: 'bob@example.com' }], bob)).toBe(true);
    expect(isAddressee([{ subject: 'bob' }], bob)).toBe(true);
    expect(isAddressee([{ group: 'Finance' }, { subject: 'carol' }, { email: 'carol@example.com' }], bob)).toBe(false);
  });

  it('treats __proto__ and constructor as plain names: nobody without them matches, a member does', () => {
    for (const group of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(isAddressee([{ group }], bob), group).toBe(false);
    const odd = personOf(SUBJECT, JSON.parse('{"sub":"u1","groups":["__proto__","constructor"]}'));
    expect(isAddressee([{ group: '__proto__' }], odd)).toBe(true);
    expect(isAddressee([{ group: 'constructor' }], odd)).toBe(true);
    expect(isAddressee([{ group: 'finance' }], odd)).toBe(false);
  });

  it('matches nobody signed in without a provider (a one-time code has no sub)', () => {
    expect(isAddressee([{ subject: 'bob' }], { subject: 'principal:bob' })).toBe(false);
  });
});

describe('readAddressing', () => {
  it('refuses what cannot be meant', () => {
    expect(() => readAddressing({ to: [] })).toThrow(/1-20 addressees/);
    expect(() => readAddressing({ to: [{ group: 'a', email: 'b@c' }] })).toThrow(/exactly one of/);
    expect(() => readAddressing({ to: [{ email: 'not an address' }] })).toThrow(/not an email/);
    expect(() => readAddressing({ to: [{ group: 'a' }], quorum: 0 })).toThrow(/quorum must be/);
    expect(() => readAddressing({ quorum: 2 })).toThrow(/name them with `to`/);
    expect(readAddressing({ to: [{ email: 'Dave@X.example' }] })).toEqual({ to: [{ email: 'dave@x.example' }], quorum: 1, declines: 1 });
  });
});

describe('outcomeOf', () => {
  const d = (by: string, action: 'accept' | 'decline') => ({ by, at: '2026-12-06T20:00:00.000Z', action });
  it('counts each person once, in chain order', () => {
    expect(outcomeOf([d('bob', 'accept'), d('bob', 'accept')], { quorum: 2, declines: 1 })).toMatchObject({ done: false, accepts: 1 });
    expect(outcomeOf([d('bob', 'accept'), d('bob', 'decline'), d('carol', 'accept')], { quorum: 2, declines: 1 })).toMatchObject({
      done: true,
      action: 'accept',
      decisions: [d('bob', 'accept'), d('carol', 'accept')],
    });
    expect(outcomeOf([d('bob', 'decline'), d('carol', 'accept')], { quorum: 1, declines: 1 })).toMatchObject({
      done: true,
      action: 'decline',
    });
  });
});
