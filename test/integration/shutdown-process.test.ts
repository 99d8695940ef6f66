// A deploy's stop, in a real process: on SIGTERM serve()'s close() refuses new work, lets a waiting question be answered
// within its grace, ends what is still waiting with SHUTTING_DOWN (never in silence), and the process exits.
import { afterAll, expect, it } from 'vitest';
import { freshFetch as send } from '../helpers/fresh-fetch';
import { startInstance, type Instance } from '../helpers/instances';
import { LEGACY, legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';

const started: Instance[] = [];
afterAll(() => Promise.all(started.map((i) => i.kill())));

async function instance(graceMs: number): Promise<Instance> {
  const one = await startInstance({ PARLEY_TEST_GRACE_MS: String(graceMs) });
  started.push(one);
  return one;
}

/** The call's messages until its stream ends. */
async function rest(events: ReturnType<typeof sseReader>): Promise<any[]> {
  const all: any[] = [];
  for (let event = await events.next(); event; event = await events.next()) all.push(event.data);
  return all;
}

async function waitingCall(on: Instance) {
  const session = await openLegacySession(send, { elicitation: {} }, {}, on.url);
  const events = sseReader(
    await send(legacyPost(request('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } }), session, {}, on.url)),
  );
  const question = (await events.next())!.data;
  expect(question.method).toBe('elicitation/create');
  return { session, events, question };
}

it('answers a question that arrives within the grace, refuses new sessions meanwhile, then exits', async () => {
  const on = await instance(5_000);
  const { session, events, question } = await waitingCall(on);
  const exited = on.terminate();
  // The SIGTERM handler runs in the child: wait until it refuses new sessions.
  let refused: Response | undefined;
  for (let i = 0; i < 50 && !refused; i++) {
    const response = await send(
      legacyPost(
        request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        undefined,
        {},
        on.url,
      ),
    );
    if (response.status === 503) refused = response;
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(refused?.status).toBe(503);
  expect((await refused!.json()).error).toMatchObject({ code: -31002, data: { code: 'SHUTTING_DOWN' } });
  const answered = await send(
    legacyPost({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } }, session, {}, on.url),
  );
  expect(answered.status).toBe(202);
  const messages = await rest(events);
  expect(messages.at(-1).result.structuredContent ?? JSON.parse(messages.at(-1).result.content[0].text)).toMatchObject({ closed: true });
  await exited;
});

it('ends a question nobody answers within the grace with SHUTTING_DOWN before its stream closes, then exits', async () => {
  const on = await instance(300);
  const { events } = await waitingCall(on);
  const exited = on.terminate();
  const messages = await rest(events);
  expect(messages.at(-1).error).toMatchObject({ code: -31002, data: { code: 'SHUTTING_DOWN' } });
  await exited;
});
