import { describe, expect, it } from 'vitest';
import { ElicitationTimeoutError, z } from 'parley';
import { ElicitRun } from '../../src/elicitation/elicit';
import type { Asker } from '../../src/elicitation/types';

// Askers for the two ways a question travels: one that holds the call open (and nobody answers), one that ends the run.
const silentWaiter: Asker = { waits: true, ask: () => new Promise(() => {}) };
const answeringWaiter: Asker = { waits: true, ask: async () => ({ action: 'accept', content: { ok: true } }) };
const settings = { enabled: true, production: false };
const call = { tool: 'probe', auth: { user: { sub: 'anonymous' }, anonymous: true } };

describe('an unanswered question', () => {
  it('fails with ElicitationTimeoutError once its ttl passes, when the asker waits', async () => {
    const run = new ElicitRun(settings, silentWaiter, call);
    const error = await run.elicit('Anyone?', z.object({ ok: z.boolean() }), { ttl: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElicitationTimeoutError);
    expect(error).toMatchObject({ code: 'ELICITATION_TIMEOUT', message: 'Elicitation request timed out' });
  });

  it('returns the answer when it comes in time', async () => {
    const run = new ElicitRun(settings, answeringWaiter, call);
    expect(await run.elicit('Ok?', z.object({ ok: z.boolean() }), { ttl: 60_000 })).toEqual({ status: 'accept', content: { ok: true } });
  });

  it('refuses a ttl that is not a positive number', async () => {
    const run = new ElicitRun(settings, answeringWaiter, call);
    await expect(run.elicit('Ok?', z.object({ ok: z.boolean() }), { ttl: -1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
