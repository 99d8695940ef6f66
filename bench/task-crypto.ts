// npx tsx --conditions=parley-source bench/task-crypto.ts: what the task store's crypto costs per one-question task, on
// WebCrypto (a Worker's way, and Node's without parley-mcp/node) and on node:crypto (adapters/node-store-crypto.ts),
// alternately in this one process so a busy machine weighs on both alike. A memory store: no network, the store's own
// CPU (SHA-256 of names, HKDF per storage key, AES-GCM seal and open) and the waits on Node's thread pool.
import { NODE_STORE_CRYPTO } from '../src/adapters/node-store-crypto';
import { WEB_STORE_CRYPTO, type StoreCrypto } from '../src/crypto';
import { TaskStore } from '../src/engine/tasks/task-store';
import { MemoryStore } from '../src/stores';

const question = { method: 'elicitation/create', params: { mode: 'form', message: 'Confirm?', requestedSchema: { type: 'object' } } };
const answer = { action: 'accept', content: { confirm: true } };

/** The store's side of the bench's one-question task: created, parked at its question, polled, answered, taken in, ended, polled. */
async function cycle(store: TaskStore): Promise<void> {
  const task = await store.create({ tool: 'confirm_order_task' });
  await store.park(task.taskId, [['confirm', question]]);
  await store.snapshot(task.taskId, undefined);
  await store.answer(task.taskId, undefined, { confirm: answer });
  const got = await store.answers(task.taskId, ['confirm']);
  await store.settle(task.taskId, got);
  await store.finish(task.taskId, { status: 'completed', result: { content: [{ type: 'text', text: String(got.size) }] } });
  if ((await store.snapshot(task.taskId, undefined))?.status !== 'completed') throw new Error('the task did not complete');
}

const stores: [string, StoreCrypto][] = [
  ['WebCrypto', WEB_STORE_CRYPTO],
  ['node:crypto', NODE_STORE_CRYPTO],
];
const concurrency = Number(process.argv[2] ?? 1);
for (const count of [500, 2_000, 2_000, 2_000]) {
  for (const [label, crypto] of stores) {
    const store = new TaskStore({ backend: new MemoryStore(), keyPrefix: 'b:', secret: 'a bench secret' }, undefined, crypto);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let done = 0; done < count; done += concurrency) await Promise.all(Array.from({ length: concurrency }, () => cycle(store)));
    const used = process.cpuUsage(cpu);
    console.log(
      `${label}: ${count} tasks, ${((used.user + used.system) / count).toFixed(0)} µs CPU and ${(((performance.now() - started) * 1000) / count).toFixed(0)} µs wall each`,
    );
  }
}
