// A task on Cloudflare Workers whose person answers 10 s after its question, through another isolate: two workerd
// instances (miniflare) of one Worker on Redis over HTTP (the Upstash REST test server on a real redis-server), with
// the limit on a stretch of work set to 2 s through the field createWorker sets (Cloudflare's is 30 s after the
// response). The work does a step (a POST to a recorder this test runs, outside every isolate), then parks at its
// question: nothing runs while the person takes five times that limit, and the answer sent to the other isolate
// completes the task there by replay, within seconds, the step not run again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskState } from 'parley-mcp/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { startUpstashServer, type UpstashServer } from '../helpers/upstash-server';
import { splitTasksClient, startWorkerPair, upstashBindings, type WorkerPair } from '../helpers/worker-pair';

const STRETCH_LIMIT_MS = 2_000;
const ANSWER_AFTER_MS = 5 * STRETCH_LIMIT_MS;

/** What the steps sent, in order; each is answered with its count (`#1`, `#2`, …). */
const charges: string[] = [];
const recorder = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => response.end(`#${charges.push(body)}`));
});

let redis: RunningRedis;
let upstash: UpstashServer;
let workers: WorkerPair | undefined;
beforeAll(async () => {
  redis = await startRedis();
  upstash = await startUpstashServer(redis.url);
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await workers?.dispose();
  await new Promise((resolve) => recorder.close(resolve));
  await upstash?.close();
  await redis?.stop();
});

describe('a Worker task answered long after its question, on another isolate', () => {
  it('waits past the stretch limit with nothing running, completes on the isolate answered, its step ran once', {
    timeout: 60_000,
  }, async () => {
    const { port } = recorder.address() as AddressInfo;
    workers = await startWorkerPair('test/edge/entries/task-worker.ts', {
      ...upstashBindings(upstash),
      AFTER_RESPONSE_MS: String(STRETCH_LIMIT_MS),
      STEP_URL: `http://127.0.0.1:${port}/charge`,
    });
    const { client, routed } = splitTasksClient(workers);
    const seen: TaskState[] = [];
    let askedAt = 0;
    let answeredAt = 0;
    client.onElicitation(async (params) => {
      expect(params.message).toBe('Ship order A-17?');
      askedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, ANSWER_AFTER_MS));
      answeredAt = Date.now();
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await client.callTool(
        { name: 'charge_then_ask', arguments: { order: 'A-17' } },
        { onTaskStatus: (t) => seen.push(t) },
      );
      const text = (result.content as { text: string }[])[0]!.text;
      const [, chargedOn, shippedOn] = /^charged A-17 on (\w+) \(#1\); shipped on (\w+)$/.exec(text) ?? [];
      // The step ran on A, before the question; the answer's isolate replayed the work and took its recorded result.
      expect(chargedOn).toBeDefined();
      expect(shippedOn).toBeDefined();
      expect(shippedOn).not.toBe(chargedOn);
      expect(charges).toEqual([`charge A-17 on ${chargedOn}`]);
      // The person took five times the stretch limit (a timer may fire a millisecond early by Date.now, so the bound
      // is four); the task waited (input_required), not failed, and completed within seconds of the answer.
      expect(answeredAt - askedAt).toBeGreaterThan(4 * STRETCH_LIMIT_MS);
      expect(Date.now() - answeredAt).toBeLessThan(5_000);
      expect(seen.map((t) => t.status)).toContain('input_required');
      expect(seen.map((t) => t.status)).not.toContain('failed');
      expect(seen.at(-1)).toMatchObject({ status: 'completed' });
      expect(routed.filter((r) => r.startsWith('tools/call'))).toEqual(['tools/call a']);
      expect(routed).toContain('tasks/update b');
      expect(routed.filter((r) => r.startsWith('tasks/') && !r.endsWith(' b'))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
