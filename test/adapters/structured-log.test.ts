// Handing Parley's log to pino, as docs/logs-and-tracing.md shows: a real pino logger receives each entry's message and
// its details as fields (the access log's request id, method, status and time; a failed tool's error), redacted and
// escaped as every log line is.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { mcpRequest } from '../helpers/requests';

@Tool({ name: 'explode', inputSchema: { text: z.string() } })
class Explode extends ToolContext {
  execute({ text }: { text: string }): string {
    throw new Error(text);
  }
}

@App({ id: 'pino', tools: [Explode] })
class PinoApp {}

const written: string[] = [];
const log = pino(
  { level: 'debug' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  }),
);

// The recipe in docs/logs-and-tracing.md: pino takes (fields, message); an Error goes under `err`, its serializer's key.
const toPino =
  (level: 'debug' | 'info' | 'warn' | 'error') =>
  (message: string, details?: unknown): void => {
    if (details === undefined) log[level](message);
    else if (details instanceof Error) log[level]({ err: details }, message);
    else if (typeof details === 'object' && details !== null && !Array.isArray(details)) log[level](details, message);
    else log[level]({ details }, message);
  };
const logger = { debug: toPino('debug'), info: toPino('info'), warn: toPino('warn'), error: toPino('error') };

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  written.length = 0;
});

it('pino receives the access log with its fields and a tool error with its stack, redacted and escaped', async () => {
  const config: FrontMcpConfigInput = { info: { name: 'to-pino', version: '1' }, apps: [PinoApp], logger };
  running = await serve(config, { port: 0, quiet: true, accessLog: true });
  const request = mcpRequest('tools/call', { name: 'explode', arguments: { text: 'boom\u0085 at redis://u:hunter2-secret@db:6379' } });
  const id = JSON.parse(await request.clone().text()).id;
  const response = await fetch(running.url, { method: 'POST', headers: request.headers, body: await request.text() });
  expect(response.status).toBe(200);
  const entries = () => written.map((line) => JSON.parse(line) as Record<string, any>);
  await vi.waitFor(() => expect(entries().some((e) => e.requestId === id)).toBe(true));
  const access = entries().find((e) => e.requestId === id)!;
  expect(access).toMatchObject({ level: 30, method: 'tools/call', status: 200 });
  expect(access.ms).toBeTypeOf('number');
  expect(access.msg).toMatch(/tools\/call explode → tool error INTERNAL_ERROR/);
  const failed = entries().find((e) => e.level === 50)!;
  expect(failed.msg).toMatch(/^Tool "explode" failed \(error id [0-9a-f-]{36}\)$/);
  expect(failed.err.type).toBe('Error');
  expect(failed.err.message).toBe('boom\\x85 at redis://***@db:6379');
  expect(failed.err.stack).toMatch(/^Error: boom\\x85 at redis:\/\/\*\*\*@db:6379\n {4}at /);
  expect(written.join('')).not.toContain('hunter2-secret');
});
