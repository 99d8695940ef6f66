import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, createFetchHandler, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { mcpRequest, read } from '../helpers/requests';

const SECRET = 'hunter2-do-not-trace';
class AskPin extends ToolContext {
  async execute() {
    const answer = await this.elicit(`Your PIN (${SECRET})?`, { pin: z.string() });
    return { status: answer.status, ok: answer.status === 'accept' };
  }
}
Tool({ name: 'ask_pin', description: 'Asks for a PIN', inputSchema: {} })(AskPin);
const Pins = App({ id: 'pins', tools: [AskPin] })(class {});
const Server = FrontMcp({ info: { name: 'Pins', version: '1.0.0' }, apps: [Pins], elicitation: { enabled: true } })(class {});

const exporter = new InMemorySpanExporter();
beforeAll(() => void otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })));
afterAll(() => otel.trace.disable());
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((s) => s.name === name);
const parentOf = (span: ReturnType<typeof spans>[number]) => span.parentSpanContext?.spanId;
const noSecrets = () => {
  const text = JSON.stringify(spans().map((s) => ({ a: s.attributes, e: s.events })));
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('4321');
};

describe('OpenTelemetry spans', () => {
  it('traces a 2026-07-28 elicitation round: two requests, a tool span under each, question events', async () => {
    const handler = createFetchHandler(Server);
    const first = await read(await handler(mcpRequest('tools/call', { name: 'ask_pin', arguments: {} })));
    expect(first.body.result.resultType).toBe('input_required');
    const second = await read(
      await handler(
        mcpRequest('tools/call', {
          name: 'ask_pin',
          arguments: {},
          requestState: first.body.result.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { pin: '4321' } } },
        }),
      ),
    );
    expect(second.body.result.structuredContent).toEqual({ status: 'accept', ok: true });

    const requests = named('tools/call ask_pin');
    const tools = named('execute_tool ask_pin');
    expect(requests).toHaveLength(2);
    expect(tools).toHaveLength(2);
    expect(requests.map((s) => s.attributes)).toEqual([
      expect.objectContaining({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'ask_pin',
        'parley.protocol.era': 'modern',
        'mcp.protocol.version': '2026-07-28',
        'parley.result.type': 'input_required',
        'parley.round': 1,
      }),
      expect.objectContaining({ 'parley.result.type': 'complete', 'parley.round': 2 }),
    ]);
    for (const [i, tool] of tools.entries()) {
      expect(parentOf(tool)).toBe(requests[i]!.spanContext().spanId);
      expect(tool.spanContext().traceId).toBe(requests[i]!.spanContext().traceId);
    }
    expect(tools[0]!.events.map((e) => e.name)).toEqual(['parley.question.asked']);
    expect(tools[1]!.events.map((e) => e.name)).toEqual(['parley.question.answered']);
    expect(tools[1]!.events[0]!.attributes).toEqual({
      'gen_ai.tool.name': 'ask_pin',
      'parley.question.key': 'elicitation-1',
      'parley.question.mode': 'form',
      'parley.protocol.era': 'modern',
      'parley.store.kind': 'request-state',
    });
    noSecrets();
    await handler.close?.();
  });

  describe('2025-11-25', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await serve(Server, { port: 0, quiet: true });
    });
    afterAll(() => server.close());

    it('traces initialize and a call that asks, with the answer and a decline as events', async () => {
      const client = new V1Client({ name: 'otel-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      let action: 'accept' | 'decline' = 'accept';
      client.setRequestHandler(ElicitRequestSchema, async () => (action === 'accept' ? { action, content: { pin: '4321' } } : { action }));
      await client.connect(new V1Transport(new URL(server.url)));
      expect((await client.callTool({ name: 'ask_pin', arguments: {} })).structuredContent).toEqual({ status: 'accept', ok: true });
      action = 'decline';
      expect((await client.callTool({ name: 'ask_pin', arguments: {} })).structuredContent).toEqual({ status: 'decline', ok: false });
      await client.close();

      expect(named('initialize')[0]!.attributes).toMatchObject({
        'mcp.method.name': 'initialize',
        'parley.protocol.era': 'legacy',
        'mcp.protocol.version': '2025-11-25',
      });
      const requests = named('tools/call ask_pin');
      const tools = named('execute_tool ask_pin');
      expect(requests).toHaveLength(2);
      expect(requests[0]!.attributes).toMatchObject({
        'parley.protocol.era': 'legacy',
        'mcp.protocol.version': '2025-11-25',
        'parley.result.type': 'complete',
      });
      expect(requests[0]!.attributes['parley.round']).toBeUndefined();
      expect(tools.map(parentOf)).toEqual(requests.map((s) => s.spanContext().spanId));
      expect(tools.map((t) => t.events.map((e) => e.name))).toEqual([
        ['parley.question.asked', 'parley.question.answered'],
        ['parley.question.asked', 'parley.question.declined'],
      ]);
      expect(tools[0]!.events[1]!.attributes).toMatchObject({
        'parley.protocol.era': 'legacy',
        'parley.store.kind': 'memory',
        'parley.question.key': 'elicitation-1',
      });
      noSecrets();
    });
  });

  it('records nothing with telemetry: false', async () => {
    const handler = createFetchHandler({
      info: { name: 'Pins', version: '1.0.0' },
      apps: [Pins],
      elicitation: { enabled: true },
      telemetry: false,
    });
    await read(await handler(mcpRequest('tools/list')));
    expect(spans()).toEqual([]);
  });

  // Issue #48: with no provider registered a request starts no span at all, until one is registered.
  it('traces once a tracer provider is registered after the server started, and not before', async () => {
    otel.trace.disable();
    try {
      const handler = createFetchHandler(Server);
      await read(await handler(mcpRequest('tools/list')));
      expect(spans()).toEqual([]);
      otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      await read(await handler(mcpRequest('tools/list')));
      expect(named('tools/list')).toHaveLength(1);
    } finally {
      otel.trace.disable();
      otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    }
  });
});
