// A second ceiling: bare node:http, reading the body from the socket and answering the simple tool's result, nothing else.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce, exitOnSignal, greeting } from './fixture';

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; params: { arguments: { name: string } } };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      result: { content: [{ type: 'text', text: greeting(message.params.arguments.name) }] },
    });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
exitOnSignal(() => new Promise<void>((done) => server.close(() => done())));
