// A second ceiling: bare node:http, reading the body from the socket and answering the simple tool's result, nothing
// else. Its answers go out together at the end of the event loop's turn (setImmediate), as parley-mcp/node's do
// (src/adapters/node-turn.ts): written one by one, each write pays a wake-up of its peer, and a ceiling that writes
// that way is beaten by Parley itself (106% in one run of session six), so it is no ceiling.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce, exitOnSignal, simpleResult } from './fixture';

const queued: [ServerResponse, string][] = [];
const flush = () => {
  for (const [response, body] of queued.splice(0))
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; params: { arguments: { name: string } } };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      result: simpleResult(message.params.arguments.name),
    });
    if (queued.push([response, body]) === 1) setImmediate(flush);
  });
});
server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
exitOnSignal(() => new Promise<void>((done) => server.close(() => done())));
