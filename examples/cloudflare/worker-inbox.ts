// The whole afternoon-long approval on Workers: the help desk with its task tool and a refund whose question waits in
// the person's inbox (persist), served by this Worker under /_frontmcp/inbox. Everything that outlives a call (tasks,
// questions, answers, inbox sessions) lives in Durable Objects: wrangler.toml binds PARLEY_STORE to ParleyStore.
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableInbox } from 'parley-mcp/inbox';
import { enableTasks } from 'parley-mcp/tasks';
import { config, HelpDesk } from '../help-desk/server';
import { Exports } from './exports';

export { ParleyStore } from 'parley-mcp/cloudflare';

enableDurableObjects(); // env.PARLEY_STORE
enableTasks();
enableInbox();

@Tool({
  name: 'approve_refund',
  description: 'Asks the person to approve a refund; the question waits in their inbox until they answer',
  inputSchema: { order: z.string() },
  outputSchema: { approved: z.boolean() },
})
class ApproveRefund extends ToolContext {
  async execute({ order }: { order: string }) {
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean() }), {
      ttl: 30_000,
      persist: { key: `refund-${order}` },
    });
    return { approved: answer.status === 'accept' && answer.content?.approve === true };
  }
}

@App({ id: 'refunds', tools: [ApproveRefund] })
class Refunds {}

export default createWorker({
  ...config,
  apps: [HelpDesk, Exports, Refunds],
  // People sign in to the inbox with a one-time code the app sends them (LoopbackTokenAuth.createCode), or with
  // http.auth.oidc through their identity provider.
  http: { auth: { people: 'loopback-token' } },
  elicitation: { enabled: true, persistent: true },
});
