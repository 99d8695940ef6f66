// Row 15 on Node: the edge tests' inbox server (test/edge/entries/inbox-app.ts: persistent questions, the inbox, the
// caller from `x-test-user`) with its questions in the memory store, its fetch handler under node:http. The Worker beside
// it is the same app in workerd with Durable Objects (test/edge/entries/inbox-worker.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callerOf, inboxHandler } from '../../test/edge/entries/inbox-app';
import { announce, exitOnSignal } from './fixture';

const env = { PERSISTENT: JSON.stringify({ storage: { type: 'memory' } }) };
const handler = inboxHandler(env);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
    const response = await handler(request, { env, ...callerOf(request) });
    const out: Record<string, string | string[]> = Object.fromEntries(response.headers);
    if (response.headers.has('set-cookie')) out['set-cookie'] = response.headers.getSetCookie();
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
});
server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
exitOnSignal(() => new Promise<void>((resolve) => server.close(() => resolve())));
