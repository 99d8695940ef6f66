// Graceful shutdown with 2026-07-28 calls in flight: a call that finishes within the grace period gets its result; one
// still running when it ends gets a JSON-RPC error under its own id (-31002), as JSON or as its stream's last event,
// and its tool's signal fires. Never a cut connection with no answer.
import { describe, expect, it } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, createFetchHandler } from 'parley-mcp';
import { mcpRequest, meta, read } from '../helpers/requests';
import { parseEvents } from '../helpers/sse';

let release = () => {};
const reasons: unknown[] = [];
const forever = (signal: AbortSignal) => {
  signal.addEventListener('abort', () => reasons.push((signal.reason as { data?: { code?: string } }).data?.code), { once: true });
  return new Promise<never>(() => {}); // ignores its signal: only the end of the grace answers it
};

@Tool({ name: 'finishes', description: 'Answers once the test releases it', inputSchema: {} })
class Finishes extends ToolContext {
  async execute() {
    await new Promise<void>((resolve) => (release = resolve));
    return 'finished';
  }
}
@Tool({ name: 'stuck', description: 'Never answers', inputSchema: {} })
class Stuck extends ToolContext {
  execute() {
    return forever(this.signal);
  }
}
@Tool({ name: 'stuck_streaming', description: 'Reports progress, then never answers', inputSchema: {} })
class StuckStreaming extends ToolContext {
  execute() {
    this.progress(1);
    return forever(this.signal);
  }
}
@App({ id: 'shutdown', tools: [Finishes, Stuck, StuckStreaming] })
class ShutdownApp {}
@FrontMcp({ info: { name: 'shutdown', version: '1.0.0' }, apps: [ShutdownApp], logging: { level: 'error' } })
class Server {}

const call = (name: string) => mcpRequest('tools/call', { name, arguments: {}, _meta: { ...meta(), progressToken: name } });
const idOf = async (request: Request) => ((await request.clone().json()) as { id: number }).id;

describe('handler.close({ graceMs }) with 2026-07-28 calls in flight', () => {
  it('answers the calls that finish within the grace, and ends the rest with -31002 under their own ids', async () => {
    const handler = createFetchHandler(Server);
    const [finishing, stuck, streaming] = [call('finishes'), call('stuck'), call('stuck_streaming')];
    const ids = [await idOf(stuck), await idOf(streaming)];
    const finished = handler(finishing);
    const cut = handler(stuck);
    const stream = await handler(streaming); // its progress made it a stream already
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const closed = handler.close({ graceMs: 200 });
    release();
    expect((await read(await finished)).body.result.content[0].text).toBe('finished');
    await closed;

    const answer = await read(await cut);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ id: ids[0], error: { code: -31002, data: { code: 'SHUTTING_DOWN' } } });
    const events = parseEvents(await stream.text());
    expect(events.at(-1)).toMatchObject({ id: ids[1], error: { code: -31002, data: { code: 'SHUTTING_DOWN' } } });
    expect(reasons).toEqual(['SHUTTING_DOWN', 'SHUTTING_DOWN']);
  });
});
