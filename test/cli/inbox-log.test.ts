// `parley inbox log` as a person runs it: the real command in a child process, against a real Node server, printing
// the decision log of their questions as JSON Lines.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { bearer } from '../helpers/bearer';
import { mcpRequest } from '../helpers/requests';

@Tool({ name: 'refund', inputSchema: { customer: z.string() }, grant: { match: ['customer'], forMs: 3_600_000 } })
class Refund extends ToolContext {
  async execute({ customer }: { customer: string }) {
    const answer = await this.elicit(`Refund ${customer}?`, z.object({ approve: z.boolean() }), {
      ttl: 20_000,
      persist: { key: `refund-${customer}` },
    });
    return { refunded: answer.status === 'accept' };
  }
}
@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

const NAME = `cli-log-${process.pid}`;
const SECRET = 'cli-log-signing-secret';
const SUBJECT = 'principal:dana';
let server: RunningServer;
let origin: string;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve(
    { ...config, apps: [...config.apps!, Refunds], info: { name: NAME, version: '1' }, logger: quiet, auth: { secret: SECRET } },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
});
afterAll(() => server?.close());

const call = async (args: Record<string, unknown>, name = 'approve_deploy') => {
  const headers = { authorization: await bearer('dana', SECRET) };
  return ((await (await fetch(mcpRequest('tools/call', { name, arguments: args }, { url: server.url, headers }))).json()) as any).result;
};
const link = async () => `${origin}/_frontmcp/inbox#code=${(await LoopbackTokenAuth.createCode({ subject: SUBJECT, server: NAME })).code}`;

function parley(args: string[], input: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/parley.js', 'inbox', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('parley inbox log', () => {
  it('prints each entry of the person’s questions as one JSON line: the ask, the CLI’s view and its answer', async () => {
    expect((await call({ version: '9.0.0', waitMs: 50 }))._meta).toMatchObject({ code: 'QUESTION_PENDING' });
    const listed = await parley(['--url', origin], `${await link()}\n`);
    expect(listed.stdout).toContain('Deploy 9.0.0?');
    const id = /\[([0-9a-f-]{36})\]/.exec(listed.stdout)![1]!;
    const answered = await parley(['--url', origin, '--answer', id, '--decline'], `${await link()}\n`);
    expect(answered.code).toBe(0);
    const logged = await parley(['log', '--url', origin, '--since', '2026-01-01'], `${await link()}\n`);
    expect(logged).toMatchObject({ code: 0, stderr: '' });
    const lines = logged.stdout.trimEnd().split('\n');
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    const common = { question: id, key: 'deploy-9.0.0', tool: 'approve_deploy', by: 'dana' };
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { at, event: 'asked', ...common, channel: 'call' },
      { at, event: 'viewed', ...common, channel: 'cli' },
      { at, event: 'answered', ...common, channel: 'cli', action: 'decline' },
    ]);
  });

  it('refuses a --since it cannot read, and answering flags, with a clear line', async () => {
    const bad = await parley(['log', '--url', origin, '--since', 'last tuesday'], `${await link()}\n`);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toBe('parley inbox: --since must be a date (2026-12-01) or milliseconds since the epoch\n');
    const mixed = await parley(['log', '--url', origin, '--decline'], `${await link()}\n`);
    expect(mixed.stderr).toMatch(/parley inbox log reads the log/);
  });

  it('lists the person’s standing approvals with parley inbox grants, and revokes one with --revoke', async () => {
    const refund = call({ customer: 'acme' }, 'refund');
    const { code } = await LoopbackTokenAuth.createCode({ subject: SUBJECT, server: NAME });
    const signIn = await fetch(`${origin}/_frontmcp/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    let question: { id: string } | undefined;
    for (let i = 0; i < 200 && !question; i++) {
      const view = (await (await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } })).json()) as any;
      question = view.questions.find((q: { key: string; waiting: boolean }) => q.key === 'refund-acme' && q.waiting);
      if (!question) await new Promise((r) => setTimeout(r, 10));
    }
    const answer = await fetch(`${origin}/_frontmcp/questions/${question!.id}/answer`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: { approve: true }, grant: true }),
    });
    const { granted } = (await answer.json()) as { granted: { id: string } };
    expect((await refund).structuredContent).toEqual({ refunded: true });

    const listed = await parley(['grants', '--url', origin], `${await link()}\n`);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^Standing approvals: 1\n\\[${granted.id}\\] refund customer="acme" · until \\d{4}-`));
    const revoked = await parley(['grants', '--url', origin, '--revoke', granted.id], `${await link()}\n`);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked ${granted.id}: the next matching call asks again.\n` });
    const again = await parley(['grants', '--url', origin, '--revoke', granted.id], `${await link()}\n`);
    expect(again).toMatchObject({ code: 1, stdout: 'Not revoked: no such standing approval.\n' });
    expect((await parley(['grants', '--url', origin], `${await link()}\n`)).stdout).toBe('Standing approvals: 0\n');
  });
});
