// docs/unanswered.md's receiver blocks, run as they stand: the Slack recipe relays a real Parley server's nudge (verified
// with Standard Webhooks) to a local stand-in for Slack's incoming webhook, and its Approve button's link answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z, type InboxNotice } from 'parley-mcp';
import { policyServer, type PolicyServer } from '../inbox/unanswered-helpers';
import { checkedBlocks, read, ROOT } from './markdown';

const OUT = join(ROOT, '.tmp', 'unanswered-recipes');
const WHSEC = `whsec_${Buffer.from('slack-recipe-test-key-32-bytes!!').toString('base64')}`;

type Recipe = {
  slackMessage(notice: InboxNotice): { text: string; blocks: Array<Record<string, any>> };
  slackRelay(options: { secret: string; slackWebhookUrl: string }): (request: Request) => Promise<Response>;
};

@Tool({ name: 'publish', inputSchema: { post: z.string() } })
class Publish extends ToolContext {
  async execute({ post }: { post: string }) {
    const answer = await this.elicit(`Publish <${post}> & tell everyone?`, z.object({ approve: z.boolean() }), { ttl: 4_000 });
    return { status: answer.status, approve: answer.content?.approve ?? null };
  }
}

@App({ id: 'recipes', tools: [Publish] })
class Recipes {}

/** A local HTTP server handing each request to `handle` as a Fetch API Request. */
async function httpServer(handle: (request: Request) => Promise<Response>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: body || undefined }));
      res.statusCode = response.status;
      res.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

let recipe: Recipe;
let s: PolicyServer;
const servers: Server[] = [];
const slackMessages: Array<Record<string, any>> = [];
const relayed: number[] = [];

beforeAll(async () => {
  const block = checkedBlocks(read(join(ROOT, 'docs', 'unanswered.md'))).find((b) => b.name === 'slack.ts');
  if (!block) throw new Error('docs/unanswered.md has no <!-- check: slack.ts --> block');
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'slack.ts'), block.code);
  recipe = (await import(join(OUT, 'slack.ts'))) as Recipe;
  const slack = await httpServer(async (request) => {
    slackMessages.push(await request.json());
    return new Response('ok');
  });
  const relay = recipe.slackRelay({ secret: WHSEC, slackWebhookUrl: slack.url });
  const receiver = await httpServer(async (request) => {
    const response = await relay(request);
    relayed.push(response.status);
    return response;
  });
  servers.push(slack.server, receiver.server);
  s = await policyServer({
    apps: [Recipes],
    elicitation: {
      enabled: true,
      persistent: { storage: { type: 'memory' }, notify: { url: `${receiver.url}hook`, secret: WHSEC, actionLinks: 'possession' } },
      unanswered: { afterMs: 100, then: 'inbox' },
    },
  });
});
afterAll(async () => {
  await s?.close();
  for (const server of servers) await new Promise((r) => server.close(r));
});

describe("docs/unanswered.md's Slack recipe", () => {
  it('posts the question with Approve and Decline link buttons, and Approve answers', async () => {
    expect((await s.call('uma', 'publish', { post: 'launch' })).resultType).toBe('input_required');
    for (let i = 0; i < 200 && relayed.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(relayed).toEqual([204]);
    const [message] = slackMessages;
    expect(message!.text).toBe('Publish <launch> & tell everyone?');
    expect(message!.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `*Publish &lt;launch&gt; &amp; tell everyone?*\nAsked by \`publish\` on ${s.name}` },
    });
    const [approve, decline] = message!.blocks[1]!.elements as Array<Record<string, any>>;
    expect(approve).toMatchObject({ type: 'button', text: { type: 'plain_text', text: 'Approve' }, style: 'primary' });
    expect(decline).toMatchObject({ text: { text: 'Decline' }, style: 'danger' });
    expect(approve!.url).toMatch(/\/_frontmcp\/act\?.*a=accept/);
    // The button opens the confirm page; its POST answers.
    expect(await (await fetch(approve!.url)).text()).toContain('Nothing is answered until you press the button');
    const posted = await fetch(approve!.url, { method: 'POST', headers: { origin: s.url.origin, 'sec-fetch-site': 'same-origin' } });
    expect(posted.status).toBe(200);
    expect((await s.call('uma', 'publish', { post: 'launch' })).structuredContent).toEqual({ status: 'accept', approve: true });
  });

  it('refuses a request it cannot verify, and gives a form question one inbox button', async () => {
    const relay = recipe.slackRelay({ secret: WHSEC, slackWebhookUrl: 'http://127.0.0.1:9/never' });
    const forged = new Request('http://127.0.0.1/hook', {
      method: 'POST',
      headers: { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{}',
    });
    expect((await relay(forged)).status).toBe(401);
    const message = recipe.slackMessage({
      type: 'question.filed',
      server: 'deploys',
      questionId: 'q',
      message: 'Plan the release',
      createdAt: 0,
      expiresAt: 1,
      actions: { form: 'https://mcp.example.com/_frontmcp/act?l=x&a=form&e=1&s=y', expiresAt: 1 },
    });
    expect(message.blocks[1]!.elements).toEqual([
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Answer in the inbox' },
        url: 'https://mcp.example.com/_frontmcp/act?l=x&a=form&e=1&s=y',
        action_id: 'parley-answer-in-the-inbox',
      },
    ]);
  });
});
