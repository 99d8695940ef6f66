// A Worker with persistent questions and the inbox, for the edge tests: its store is Durable Objects when the env binds
// PARLEY_STORE, else Redis over HTTP (UPSTASH_REDIS_REST_URL). The caller is whoever the `x-test-user` header names
// (the host verified it: HandlerOptions.auth), so a test can be two people; inbox_code makes that person a one-time
// sign-in code (a real deployment sends it to the person, never to the client). PERSISTENT and UNANSWERED (JSON) are
// elicitation.persistent and elicitation.unanswered.
import { App, createFetchHandler, type FetchHandler, LoopbackTokenAuth, questionSubjectOf, Tool, ToolContext, z } from 'parley-mcp';
import { enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableInbox } from 'parley-mcp/inbox';
import { enableRedisHttp } from 'parley-mcp/redis-http';

export { ParleyStore } from 'parley-mcp/cloudflare';

@Tool({
  name: 'approve_refund',
  inputSchema: { order: z.string(), waitMs: z.number().int().positive().optional() },
  outputSchema: { approved: z.boolean(), note: z.string().optional() },
})
class ApproveRefund extends ToolContext {
  async execute({ order, waitMs }: { order: string; waitMs?: number }) {
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean(), note: z.string().max(200).optional() }), {
      ttl: waitMs ?? 60_000,
      persist: { key: `refund-${order}` },
    });
    return { approved: answer.status === 'accept' && answer.content?.approve === true, note: answer.content?.note };
  }
}

/** Asked as any question is: under elicitation.unanswered (the UNANSWERED binding), filed in the inbox beside its round. */
@Tool({ name: 'confirm_refund', inputSchema: { order: z.string() }, outputSchema: { approved: z.boolean() } })
class ConfirmRefund extends ToolContext {
  async execute({ order }: { order: string }) {
    const answer = await this.elicit(`Confirm refund ${order}?`, z.object({ approve: z.boolean() }));
    return { approved: answer.status === 'accept' && answer.content?.approve === true };
  }
}

@Tool({ name: 'inbox_code', inputSchema: {}, outputSchema: { code: z.string() } })
class InboxCode extends ToolContext {
  async execute() {
    const { code } = await LoopbackTokenAuth.createCode({ subject: questionSubjectOf(this.auth)!, server: 'inbox-worker' });
    return { code };
  }
}

@App({ id: 'refunds', tools: [ApproveRefund, ConfirmRefund, InboxCode] })
class Refunds {}

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    if (!handler) {
      if (env.PARLEY_STORE) enableDurableObjects();
      else enableRedisHttp();
      if (env.INBOX !== 'off') enableInbox();
      handler = createFetchHandler({
        info: { name: 'inbox-worker', version: '1.0.0' },
        apps: [Refunds],
        http: { auth: { people: 'loopback-token' } },
        elicitation: {
          enabled: true,
          persistent: JSON.parse(String(env.PERSISTENT ?? 'true')),
          edge: 'stateless',
          ...(env.UNANSWERED ? { unanswered: JSON.parse(String(env.UNANSWERED)) } : {}),
        },
      });
    }
    const user = request.headers.get('x-test-user');
    const auth = user ? { user: { sub: user, iss: 'https://idp.example' } } : undefined;
    return handler(request, { env: env as Record<string, string>, ctx, ...(auth ? { auth } : {}) });
  },
};
