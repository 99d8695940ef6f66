// A webhook receiver on loopback for the nudge tests: it keeps each POST's headers and body, and answers with the next
// status of `statuses` (the last one repeats); `answerWith` starts a new list from the next POST on.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export async function receiver(
  statuses: number[],
): Promise<{ url: string; received: Received[]; answerWith(next: number[]): void; close(): Promise<void> }> {
  const received: Received[] = [];
  let from = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses[Math.min(received.length - 1 - from, statuses.length - 1)]!;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const answerWith = (next: number[]) => {
    statuses = next;
    from = received.length;
  };
  return {
    url: `http://127.0.0.1:${port}/hooks/parley`,
    received,
    answerWith,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
