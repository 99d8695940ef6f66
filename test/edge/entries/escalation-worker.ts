// A Worker whose persistent questions are addressed (`to`) with deadlines the call names (`escalate`, `expire`), kept in
// Durable Objects, its inbox signing people in at the provider the OIDC binding names (JSON: clientId, clientSecret,
// issuer, scope). The caller is whoever `x-test-user` names at the issuer `x-test-issuer` names (the host verified
// them: HandlerOptions.auth). No PARLEY_SELF: the deadlines fire on the next request that finds them due.
import { App, createFetchHandler, type ElicitOptions, type FetchHandler, Tool, ToolContext, z } from 'parley-mcp';
import { enableDurableObjects } from 'parley-mcp/cloudflare';
import { enableInbox, enableOidcSignIn } from 'parley-mcp/inbox';

export { ParleyStore } from 'parley-mcp/cloudflare';

@Tool({
  name: 'refund_later',
  inputSchema: {
    order: z.string(),
    waitMs: z.number().int().positive(),
    escalate: z.unknown().optional(),
    expire: z.unknown().optional(),
  },
})
class RefundLater extends ToolContext {
  async execute({ order, waitMs, escalate, expire }: { order: string; waitMs: number; escalate?: unknown; expire?: unknown }) {
    const answer = await this.elicit(`Refund order ${order}?`, z.object({ approve: z.boolean() }), {
      ttl: waitMs,
      persist: { key: `refund-${order}` },
      to: [{ group: 'finance' }],
      ...(escalate === undefined ? {} : { escalate: escalate as ElicitOptions['escalate'] }),
      ...(expire === undefined ? {} : { expire: expire as ElicitOptions['expire'] }),
    });
    const reason = answer.reason === undefined ? {} : { reason: answer.reason };
    return { status: answer.status, decisions: (answer.decisions ?? []).map((d) => `${d.by} ${d.action}`), ...reason };
  }
}

@App({ id: 'refunds', tools: [RefundLater] })
class Refunds {}

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    if (!handler) {
      enableDurableObjects();
      enableInbox();
      enableOidcSignIn();
      handler = createFetchHandler({
        info: { name: 'escalation-worker', version: '1.0.0' },
        apps: [Refunds],
        http: { auth: { oidc: JSON.parse(String(env.OIDC)) }, publicUrl: String(env.PUBLIC_URL) },
        elicitation: { enabled: true, persistent: true, edge: 'stateless' },
      });
    }
    const user = request.headers.get('x-test-user');
    const auth = user ? { user: { sub: user, iss: request.headers.get('x-test-issuer') ?? '' } } : undefined;
    return handler(request, { env: env as Record<string, string>, ctx, ...(auth ? { auth } : {}) });
  },
};
