// The server of the edge inbox tests (a Worker's, and a Vercel edge route's): persistent questions, the inbox, and
// elicitation.unanswered when the env's UNANSWERED says (PERSISTENT and UNANSWERED are JSON); OIDC (JSON: clientId,
// clientSecret, issuer) signs people in at a provider, PUBLIC_URL is the origin people reach it at. The caller is whoever
// the `x-test-user` header names, at the issuer `x-test-issuer` names (default https://idp.example; the host verified
// them: HandlerOptions.auth), so a test can be two people; inbox_code makes that person a one-time sign-in code (a real
// deployment sends it to the person, never to the client).
import {
  App,
  type AuthInfo,
  createFetchHandler,
  type FetchHandler,
  LoopbackTokenAuth,
  questionSubjectOf,
  Tool,
  ToolContext,
  z,
} from 'parley-mcp';

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

/** A persistent question `chars` characters long: past what one store value may hold, once sealed. */
@Tool({ name: 'long_question', inputSchema: { chars: z.number().int().positive() }, outputSchema: { approved: z.boolean() } })
class LongQuestion extends ToolContext {
  async execute({ chars }: { chars: number }) {
    const answer = await this.elicit(`Approve ${'x'.repeat(chars)}?`, z.object({ approve: z.boolean() }), {
      ttl: 200,
      persist: { key: `long-${chars}` },
    });
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

@App({ id: 'refunds', tools: [ApproveRefund, ConfirmRefund, LongQuestion, InboxCode] })
class Refunds {}

/** The server, from the env's settings. */
export function inboxHandler(env: Record<string, unknown>): FetchHandler {
  return createFetchHandler({
    info: { name: 'inbox-worker', version: '1.0.0' },
    apps: [Refunds],
    http: {
      auth: { people: 'loopback-token', ...(env.OIDC ? { oidc: JSON.parse(String(env.OIDC)) } : {}) },
      ...(env.PUBLIC_URL ? { publicUrl: String(env.PUBLIC_URL) } : {}),
    },
    elicitation: {
      enabled: true,
      persistent: JSON.parse(String(env.PERSISTENT ?? 'true')),
      edge: 'stateless',
      ...(env.UNANSWERED ? { unanswered: JSON.parse(String(env.UNANSWERED)) } : {}),
    },
  });
}

/** The caller the test names in `x-test-user`, as a host that verified them passes it. */
export function callerOf(request: Request): { auth?: AuthInfo } {
  const user = request.headers.get('x-test-user');
  return user ? { auth: { user: { sub: user, iss: request.headers.get('x-test-issuer') ?? 'https://idp.example' } } } : {};
}
