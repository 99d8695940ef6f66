// The decision log's entries made during a call are events on the call's span (OpenTelemetry, a real SDK exporter).
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { inboxServer } from './inbox-helpers';

@Tool({ name: 'refund', inputSchema: { customer: z.string(), amount: z.number() }, grant: { match: ['customer'], forMs: 60_000 } })
class Refund extends ToolContext {
  async execute({ customer, amount }: { customer: string; amount: number }) {
    const answer = await this.elicit(`Refund ${amount} to ${customer}?`, z.object({ approve: z.boolean() }), {
      ttl: 10_000,
      persist: { key: `r-${amount}` },
    });
    return { refunded: answer.status === 'accept' };
  }
}
@App({ id: 'refunds', tools: [Refund] })
class Refunds {}

const exporter = new InMemorySpanExporter();
beforeAll(() => void otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })));
afterAll(() => otel.trace.disable());
beforeEach(() => exporter.reset());

describe('the decision log on the call trace', () => {
  it('puts the ask on the tool span as parley.decision.asked, with who and the channel and never the message', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const call = s.call('approve_deploy', { version: '5.0.0' });
    const q = await s.waitForQuestion(cookie, 'deploy-5.0.0');
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie });
    await call;
    const [tool] = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool approve_deploy');
    expect(tool!.events.map((e) => e.name)).toEqual(['parley.decision.asked']);
    expect(tool!.events[0]!.attributes).toEqual({
      'gen_ai.tool.name': 'approve_deploy',
      'parley.protocol.era': 'modern',
      'parley.store.kind': 'request-state',
      'parley.question.id': q.id,
      'parley.question.key': 'deploy-5.0.0',
      'parley.decision.by': 'https://idp.example#dana',
      'parley.decision.channel': 'call',
    });
    expect(JSON.stringify(tool!.events)).not.toContain('Deploy 5.0.0?');
  });

  it('puts a standing approval’s use on the span of the call it answered, as parley.decision.used', async () => {
    const s = inboxServer({ apps: [Refunds] });
    const cookie = await s.signIn();
    const first = s.call('refund', { customer: 'acme', amount: 1 });
    const q = await s.waitForQuestion(cookie, 'r-1');
    await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true }, grant: true }, { cookie });
    await first;
    exporter.reset();
    expect((await s.call('refund', { customer: 'acme', amount: 2 })).result.structuredContent).toEqual({ refunded: true });
    const [tool] = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool refund');
    expect(tool!.events.map((e) => e.name)).toEqual(['parley.decision.used']);
    expect(tool!.events[0]!.attributes).toMatchObject({ 'parley.question.key': 'r-2', 'parley.decision.channel': 'call' });
  });
});
