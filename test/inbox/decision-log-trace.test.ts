// The decision log's entries made during a call are events on the call's span (OpenTelemetry, a real SDK exporter).
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxServer } from './inbox-helpers';

const exporter = new InMemorySpanExporter();
beforeAll(() => void otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })));
afterAll(() => otel.trace.disable());

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
});
