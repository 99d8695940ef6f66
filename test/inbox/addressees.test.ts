// Questions addressed to other people than their caller (`to`) and their quorum, at a real OpenID provider: alice's
// agent asks finance; bob and carol (in finance) decide, alice and dave cannot; each decides once; the tool gets
// every decision; a group named __proto__ matches nobody; a server where nobody signs in at a provider refuses `to`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { LoopbackTokenAuth } from 'parley-mcp';
import type { RunningServer } from 'parley-mcp/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { callerToken, no, type Person, signIn, startPeopleIdp, startServers, yes } from './addressees-helpers';

const SERVER_NAME = `addressees-${process.pid}`;
let idp: TestIdp;
let server: RunningServer;
let origin: string;
const people = new Map<string, Person>();
/** What `persistent.notify` was given for each question filed. */
const notices: [any, object][] = [];
const person = (login: string) => people.get(login)!;

/** Alice's agent calls refund with the official v1 client; resolves with what the tool returned and what it heard. */
async function refund(
  args: Record<string, unknown>,
  on = server,
): Promise<{ result: Promise<any>; heard: string[]; close(): Promise<void> }> {
  const client = new Client({ name: 'alice-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(on.url), { requestInit: { headers: { authorization: await callerToken(idp) } } }),
  );
  const heard: string[] = [];
  const result = client
    .callTool({ name: 'refund', arguments: { waitMs: 20_000, ...args } }, CallToolResultSchema, {
      onprogress: (progress) => heard.push(progress.message ?? ''),
      timeout: 30_000,
    })
    .then((r) => r.structuredContent);
  return { result, heard, close: () => client.close() };
}

const by = (login: string) => `${idp.issuer}#${login}`;

beforeAll(async () => {
  idp = await startPeopleIdp();
  server = (await startServers(idp, { name: SERVER_NAME, notify: (notice, tools) => void notices.push([notice, tools]) }))[0]!;
  origin = new URL(server!.url).origin;
  for (const login of ['alice', 'bob', 'carol', 'dave']) people.set(login, await signIn(origin, login));
});
afterAll(async () => {
  await server?.close({ graceMs: 0 });
  await idp?.close();
});

describe('a question addressed to a group', () => {
  it('is for finance: the caller cannot answer it, dave (not in finance) is refused, bob answers; the caller hears for whom', async () => {
    const call = await refund({ order: 'A1', to: [{ group: 'finance' }] });
    try {
      const q = await person('bob').waitFor('Refund order A1?');
      expect(q.addressed).toEqual({ to: [{ group: 'finance' }], quorum: 1, declines: 1 });
      expect(q.askedBy).toBe(by('alice'));
      expect(q.decided).toBe(false);
      expect((await person('carol').questions()).map((x) => x.id)).toContain(q.id);
      // Not in the inbox of its caller nor of dave, and neither may answer it.
      expect((await person('alice').questions()).map((x) => x.id)).not.toContain(q.id);
      expect((await person('dave').questions()).map((x) => x.id)).not.toContain(q.id);
      const alice = await person('alice').answer(q.id, yes);
      expect(alice).toMatchObject({ status: 403, body: { error: 'not_addressed' } });
      expect(alice.body.message).toContain('group finance');
      expect((await person('dave').answer(q.id, yes)).status).toBe(404);
      await expect.poll(() => call.heard).toEqual(['Waiting for group finance to answer in the inbox: Refund order A1?']);
      // The nudge says whom it is for, to relay it there, and offers no link of the caller's (who cannot answer it).
      const [notice, tools] = notices.find(([n]) => n.questionId === q.id)!;
      expect(notice).toMatchObject({ principal: `principal:${by('alice')}`, addressed: { to: [{ group: 'finance' }], quorum: 1 } });
      expect(tools).toEqual({});

      expect(await person('bob').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'answered', delivered: 'waiting-call' } });
      const got = await call.result;
      expect(got).toMatchObject({ status: 'accept', content: { approve: true } });
      expect(got.decisions).toEqual([{ by: by('bob'), at: expect.any(String), action: 'accept', content: { approve: true } }]);
      expect(Date.parse(got.decisions[0].at)).toBeGreaterThan(Date.now() - 60_000);
    } finally {
      await call.close();
    }
  });

  it('2 of 2: bob then carol accept, bob twice is refused, the inbox shows who decided, the tool gets both and the log has both', async () => {
    const call = await refund({ order: 'A2', to: [{ group: 'finance' }], quorum: 2 });
    try {
      const q = await person('bob').waitFor('Refund order A2?');
      await expect.poll(() => call.heard).toEqual(['Waiting for group finance (2 must accept) to answer in the inbox: Refund order A2?']);
      expect(await person('bob').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1, quorum: 2 } });
      const twice = await person('bob').answer(q.id, { action: 'decline' });
      expect(twice).toMatchObject({ status: 409, body: { error: 'already_decided' } });
      expect(twice.body.message).toContain('each person decides once');
      // Both see who decided so far (never what they answered); bob's is in.
      const forCarol = await person('carol').waitFor('Refund order A2?', (x) => x.decisions?.length === 1);
      expect(forCarol).toMatchObject({
        decided: false,
        state: 'open',
        decisions: [{ by: by('bob'), action: 'accept', at: expect.any(String) }],
      });
      expect(forCarol.decisions[0].content).toBeUndefined();
      expect((await person('bob').waitFor('Refund order A2?')).decided).toBe(true);

      expect(await person('carol').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'answered' } });
      const got = await call.result;
      expect(got.status).toBe('accept');
      expect(got.decisions.map((d: { by: string; action: string }) => [d.by, d.action])).toEqual([
        [by('bob'), 'accept'],
        [by('carol'), 'accept'],
      ]);
      // The caller reads her question's history: each decision, by whom.
      const answered = (await person('alice').history(q.id)).filter((e) => e.event === 'answered');
      expect(answered.map((e) => [e.by, e.action, e.channel])).toEqual([
        [by('bob'), 'accept', 'json'],
        [by('carol'), 'accept', 'json'],
      ]);
    } finally {
      await call.close();
    }
  });

  it('a decline ends it at once (by default), and a later decision is refused', async () => {
    const call = await refund({ order: 'A3', to: [{ group: 'finance' }], quorum: 2 });
    try {
      const q = await person('carol').waitFor('Refund order A3?');
      expect(await person('carol').answer(q.id, no)).toMatchObject({ status: 200, body: { status: 'answered' } });
      const got = await call.result;
      expect(got).toMatchObject({ status: 'decline', content: null });
      expect(got.decisions.map((d: { by: string; action: string }) => [d.by, d.action])).toEqual([[by('carol'), 'decline']]);
      expect([404, 409]).toContain((await person('bob').answer(q.id, yes)).status);
    } finally {
      await call.close();
    }
  });

  it('declines: 2 lets one decline pass: bob declines, dave and carol accept (a person by email, one by sub)', async () => {
    const to = [{ group: 'finance' }, { email: 'DAVE@example.com' }];
    const call = await refund({ order: 'A4', to, quorum: 2, declines: 2 });
    try {
      const q = await person('dave').waitFor('Refund order A4?');
      expect(await person('bob').answer(q.id, no)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 0 } });
      expect(await person('dave').answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1 } });
      expect((await person('carol').answer(q.id, yes)).status).toBe(200);
      const got = await call.result;
      expect(got.status).toBe('accept');
      expect(got.decisions.map((d: { by: string }) => d.by)).toEqual([by('bob'), by('dave'), by('carol')]);
    } finally {
      await call.close();
    }
  });

  it('a group named __proto__ or constructor is a name like any other: it matches nobody here', async () => {
    const call = await refund({ order: 'A5', to: [{ group: '__proto__' }, { group: 'constructor' }], waitMs: 300 });
    await call.result.catch(() => undefined); // the call stops waiting; the question stays
    await call.close();
    for (const login of ['alice', 'bob', 'carol', 'dave'])
      expect((await person(login).questions()).map((q) => q.message)).not.toContain('Refund order A5?');
  });

  it("counts only what the provider signed: a one-time code for bob's own subject is no addressee, nor any body field", async () => {
    const call = await refund({ order: 'A6', to: [{ subject: 'bob' }] });
    try {
      const q = await person('bob').waitFor('Refund order A6?');
      const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${idp.issuer}#bob`, server: SERVER_NAME });
      const signedIn = await fetch(`${origin}/_frontmcp/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ code }),
      });
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      const listed = (await (await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } })).json()) as { questions: unknown[] };
      expect(listed.questions).toEqual([]);
      const spoofed = await fetch(`${origin}/_frontmcp/questions/${q.id}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify({ ...yes, sub: 'bob', groups: ['finance'], email: 'bob@example.com' }),
      });
      expect(spoofed.status).toBe(404);
      // Dave's claims say nothing of bob either, whatever his body says.
      expect((await person('dave').answer(q.id, { ...yes, sub: 'bob' })).status).toBe(404);
      expect((await person('bob').answer(q.id, yes)).status).toBe(200);
      expect((await call.result).decisions.map((d: { by: string }) => d.by)).toEqual([by('bob')]);
    } finally {
      await call.close();
    }
  });

  it('refuses a wrong `to` with a clear error', async () => {
    const request = async (to: unknown, extra: Record<string, unknown> = {}) => {
      const response = await fetch(
        mcpRequest(
          'tools/call',
          { name: 'refund', arguments: { order: 'bad', to, waitMs: 100, ...extra } },
          { url: server.url, headers: { authorization: await callerToken(idp) } },
        ),
      );
      return JSON.stringify((await read(response)).body);
    };
    expect(await request([{ team: 'finance' }])).toContain('exactly one of subject, email or group');
    expect(await request([{ email: 'dave@example.com' }], { quorum: 2 })).toContain('quorum 2 needs more accepts than the 1 people named');
  });
});

describe('a server where nobody signs in at a provider', () => {
  it('refuses `to` at the first call, naming the setting', async () => {
    const [plain] = await startServers(idp, { name: `addressees-plain-${process.pid}`, oidc: false });
    try {
      const response = await fetch(
        mcpRequest(
          'tools/call',
          { name: 'refund', arguments: { order: 'B1', to: [{ group: 'finance' }], waitMs: 100 } },
          { url: plain!.url, headers: { authorization: await callerToken(idp) } },
        ),
      );
      const text = JSON.stringify((await read(response)).body);
      expect(text).toContain('http: { auth: { oidc: { clientId } } }');
    } finally {
      await plain?.close({ graceMs: 0 });
    }
  });
});
