// A trace a client starts, continued by Parley's spans: the parent from params._meta (2026-07-28, the official v2
// client) and from the traceparent header (2025-11-25, the official v1 client); the MCP semantic conventions'
// attributes, status ERROR on a tool error, and the mcp.server.operation.duration histogram.
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as otel from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';
import { createNodeHandler, serve, type RunningServer } from 'parley-mcp/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchHandler } from 'parley-mcp';
import { Hono } from 'hono';
import { getConnInfo, streamHandle } from 'hono/aws-lambda';
import { functionUrlFetch, installAwsLambdaGlobal } from '../helpers/lambda';
import { mcpRequest } from '../helpers/requests';

// What the tool's own code sees: the baggage the client sent, and its own span's parent (the execute_tool span).
const seen: { baggage?: string; parent?: string }[] = [];
class AskPin extends ToolContext {
  async execute() {
    const answer = await this.elicit('Your PIN?', { pin: z.string() });
    const inner = otel.trace.getTracer('tool').startSpan('lookup');
    inner.end();
    seen.push({
      baggage: otel.propagation.getBaggage(otel.context.active())?.getEntry('tenant')?.value,
      parent: (inner as unknown as ReadableSpan).parentSpanContext?.spanId,
    });
    return { ok: answer.status === 'accept' };
  }
}
Tool({ name: 'ask_pin', description: 'Asks for a PIN', inputSchema: {} })(AskPin);
class Broken extends ToolContext {
  async execute(): Promise<never> {
    throw new Error('the ledger is closed');
  }
}
Tool({ name: 'broken', description: 'Fails', inputSchema: {} })(Broken);
const Pins = App({ id: 'pins', tools: [AskPin, Broken] })(class {});
const config = { info: { name: 'Pins', version: '1.0.0' }, apps: [Pins], elicitation: { enabled: true } };
const Server = FrontMcp(config)(class {});

const exporter = new InMemorySpanExporter();
class Reader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}
const reader = new Reader();
let server: RunningServer;
beforeAll(async () => {
  otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  otel.propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // Before the server is built, as an application's SDK setup runs first: the histogram is made once per server.
  otel.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  server = await serve(Server, { port: 0, quiet: true });
});
afterAll(async () => {
  await server.close();
  otel.trace.disable();
  otel.propagation.disable();
  otel.context.disable();
  otel.metrics.disable();
});
beforeEach(() => {
  exporter.reset();
  seen.length = 0;
});

const named = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** A client-side span, and the W3C fields that carry it (with a baggage entry), as a client instrumentation injects them. */
function clientTrace() {
  const span = otel.trace.getTracer('agent').startSpan('agent turn');
  const baggage = otel.propagation.createBaggage({ tenant: { value: 'acme' } });
  const context = otel.propagation.setBaggage(otel.trace.setSpan(otel.context.active(), span), baggage);
  const carrier: Record<string, string> = {};
  otel.propagation.inject(context, carrier);
  span.end();
  return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId, carrier };
}

async function durations() {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'mcp.server.operation.duration');
  return metric;
}

describe('a trace that follows the call', () => {
  it('2026-07-28: continues the traceparent in params._meta, through both rounds of a question', async () => {
    const trace = clientTrace();
    expect(Object.keys(trace.carrier).sort()).toEqual(['baggage', 'traceparent']);
    const client = new Client(
      { name: 'otel-v2', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { pin: '4321' } }));
    // The header is a decoy: on 2026-07-28 _meta is the parent.
    const decoy = '00-11111111111111111111111111111111-2222222222222222-01';
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { traceparent: decoy } } }));
    const result = await client.callTool({ name: 'ask_pin', arguments: {}, _meta: trace.carrier });
    expect(result.structuredContent).toEqual({ ok: true });

    // Both rounds (the question, then the retry with its answer) hang under the client's span.
    const requests = named('tools/call ask_pin');
    expect(requests.map((s) => [s.spanContext().traceId, parentOf(s), s.attributes['parley.result.type']])).toEqual([
      [trace.traceId, trace.spanId, 'input_required'],
      [trace.traceId, trace.spanId, 'complete'],
    ]);
    const last = requests.at(-1)!;
    expect(last.kind).toBe(otel.SpanKind.SERVER);
    expect(last.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'ask_pin',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'jsonrpc.request.id': expect.any(String),
      'client.address': '127.0.0.1', // the socket's peer, as serve() passes it
    });
    // The tool's code runs in its span's context: its own span nests under execute_tool, and it reads the baggage.
    const tool = named('execute_tool ask_pin').at(-1)!;
    expect(parentOf(tool)).toBe(last.spanContext().spanId);
    expect(seen).toEqual([{ baggage: 'acme', parent: tool.spanContext().spanId }]);
    await client.close();
  });

  it('2025-11-25: continues the traceparent header, with the session id; a tool error and a JSON-RPC error are ERROR', async () => {
    const trace = clientTrace();
    const client = new V1Client({ name: 'otel-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { pin: '4321' } }));
    const transport = new V1Transport(new URL(server.url), { requestInit: { headers: trace.carrier } });
    await client.connect(transport);
    expect((await client.callTool({ name: 'ask_pin', arguments: {} })).structuredContent).toEqual({ ok: true });
    expect((await client.callTool({ name: 'broken', arguments: {} })).isError).toBe(true);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow();
    const session = transport.sessionId!;
    await client.close();

    const [initialize] = named('initialize');
    const [call] = named('tools/call ask_pin');
    const [failed] = named('tools/call broken');
    const [unknown] = named('tools/call no_such_tool');
    for (const span of [initialize!, call!, failed!, unknown!]) {
      expect(span.spanContext().traceId).toBe(trace.traceId);
      expect(parentOf(span)).toBe(trace.spanId);
      expect(span.attributes).toMatchObject({
        'mcp.session.id': session,
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
        'client.address': '127.0.0.1',
      });
    }
    expect(call!.attributes).toMatchObject({ 'jsonrpc.request.id': expect.any(String), 'gen_ai.operation.name': 'execute_tool' });
    expect(call!.status.code).toBe(otel.SpanStatusCode.UNSET);
    expect(seen).toEqual([{ baggage: 'acme', parent: named('execute_tool ask_pin')[0]!.spanContext().spanId }]);
    expect(failed!.attributes['error.type']).toBe('tool_error');
    expect(failed!.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(unknown!.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknown!.attributes['rpc.jsonrpc.error_code']).toBeUndefined();
    expect(unknown!.status.code).toBe(otel.SpanStatusCode.ERROR);

    const metric = await durations();
    expect(metric?.descriptor.unit).toBe('s');
    const points = metric!.dataPoints as { attributes: Record<string, unknown>; value: { count: number } }[];
    const of = (tool: string) =>
      points.find((p) => p.attributes['gen_ai.tool.name'] === tool && p.attributes['mcp.protocol.version'] === '2025-11-25');
    expect(of('ask_pin')?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'ask_pin',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
    });
    expect(of('broken')?.attributes['error.type']).toBe('tool_error');
    expect(of('no_such_tool')?.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(of('ask_pin')!.value.count).toBe(1);
  });
});

describe('client.address: the socket peer, or a proxy header only when the config names it', () => {
  const spoofed = { 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' };
  const addressOf = async (handler: ReturnType<typeof createFetchHandler>, options?: { client?: string }) => {
    exporter.reset();
    const response = await handler(mcpRequest('tools/call', { name: 'broken', arguments: {} }, { headers: spoofed }), options);
    expect(response.status).toBe(200);
    await response.text();
    return named('tools/call broken')[0]!.attributes['client.address'];
  };

  it('a fetch handler (Workers, Bun, Deno) records the address its host gives, and never a header by default', async () => {
    const handler = createFetchHandler(Server);
    expect(await addressOf(handler)).toBeUndefined();
    expect(await addressOf(handler, { client: '198.51.100.7' })).toBe('198.51.100.7');
    await handler.close({ graceMs: 0 });
  });

  it('http.clientAddressHeader names the trusted proxy header (CF-Connecting-IP on Workers); a list is not taken', async () => {
    const trusted = createFetchHandler({ ...config, http: { clientAddressHeader: 'cf-connecting-ip' } });
    expect(await addressOf(trusted, { client: '10.0.0.2' })).toBe('203.0.113.9');
    const listed = createFetchHandler({ ...config, http: { clientAddressHeader: 'x-forwarded-for' } });
    spoofed['x-forwarded-for'] = '203.0.113.9, 10.0.0.1';
    expect(await addressOf(listed, { client: '10.0.0.2' })).toBe('10.0.0.2');
    await Promise.all([trusted.close({ graceMs: 0 }), listed.close({ graceMs: 0 })]);
  });

  it('a value that is no header name is refused at startup, naming the setting and what to write', async () => {
    await expect(createNodeHandler({ ...config, http: { clientAddressHeader: 'CF-Connecting-IP: 1.2.3.4' } })).rejects.toThrow(
      "http.clientAddressHeader: a header name, like 'cf-connecting-ip' or 'x-real-ip'",
    );
  });

  it("the AWS Lambda recipe passes the function URL's sourceIp (through a stand-in: Lambda cannot run here)", async () => {
    installAwsLambdaGlobal();
    const mcp = createFetchHandler(Server);
    const app = new Hono();
    app.all('/mcp', (c) => mcp(c.req.raw, { client: getConnInfo(c).remote.address }));
    const lambdaFetch = functionUrlFetch(streamHandle(app), { sourceIp: '198.51.100.23' });
    exporter.reset();
    const request = mcpRequest('tools/call', { name: 'broken', arguments: {} }, { headers: spoofed });
    expect((await lambdaFetch(request)).status).toBe(200);
    expect(named('tools/call broken')[0]!.attributes['client.address']).toBe('198.51.100.23');
    await mcp.close({ graceMs: 0 });
  });

  it('createNodeHandler mounted in an app passes its socket peer', async () => {
    const mcp = await createNodeHandler(Server);
    const app = createServer((req, res) => mcp(req, res));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    exporter.reset();
    const { port } = app.address() as AddressInfo;
    const request = mcpRequest('tools/call', { name: 'broken', arguments: {} }, { url: `http://127.0.0.1:${port}/mcp` });
    expect((await fetch(request)).status).toBe(200);
    expect(named('tools/call broken')[0]!.attributes['client.address']).toBe('127.0.0.1');
    await mcp.close({ graceMs: 0 });
    app.closeAllConnections();
    await new Promise((resolve) => app.close(resolve));
  });
});
