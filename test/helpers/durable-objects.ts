// Durable Objects in workerd for tests: one miniflare process with two isolates of a Worker (a and b) and a third that
// hosts the objects, all bound to the same namespace; and a StoreBackend in Node that runs each operation in an isolate.
import { Miniflare, type WorkerOptions } from 'miniflare';
import type { Readable } from 'node:stream';
import type { StoreBackend } from '../../src/stores';

export type Isolate = 'a' | 'b';

export interface DurableWorkers {
  mf: Miniflare;
  /** A request to isolate a or b (the URL's origin is replaced). */
  send(to: Isolate, path: string, init?: RequestInit): Promise<Response>;
  /** Everything the isolates wrote to stdout and stderr. */
  output(): string;
  dispose(): Promise<void>;
}

interface DurableOptions {
  /** The bundled Worker: its default export serves a and b, and it exports the classes named in `classes`. */
  code: string;
  /** Bindings to Durable Object classes of `code`, with SQLite storage unless `kv` (a class declared with new_classes). */
  classes?: Record<string, { className: string; kv?: boolean }>;
  bindings?: Record<string, string>;
  /** A folder where objects keep their storage, so it outlives this workerd process. */
  persist?: string;
  /** Service bindings of every isolate: a worker's name (`objects` is the one hosting the objects) or a handler in Node. */
  serviceBindings?: WorkerOptions['serviceBindings'];
}

export function startDurableWorkers({ code, classes, bindings = {}, persist, serviceBindings }: DurableOptions): DurableWorkers {
  let output = '';
  const collect = (stream: Readable) => stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const declared = classes ?? { PARLEY_STORE: { className: 'ParleyStore' } };
  const objects = (scriptName?: string) =>
    Object.fromEntries(
      Object.entries(declared).map(([binding, { className, kv }]) => [binding, { className, scriptName, useSQLite: !kv }]),
    );
  const worker = (name: string, scriptName?: string) => ({
    name,
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    bindings,
    ...(serviceBindings ? { serviceBindings } : {}),
    durableObjects: objects(scriptName),
    routes: [`${name}.test/*`],
  });
  const mf = new Miniflare({
    cf: false,
    durableObjectsPersist: persist ?? false,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      collect(stdout);
      collect(stderr);
    },
    workers: [worker('objects'), worker('a', 'objects'), worker('b', 'objects')],
  });
  return {
    mf,
    output: () => output,
    send: async (to, path, init) =>
      (await mf.dispatchFetch(`http://${to}.test${path}`, init as Parameters<Miniflare['dispatchFetch']>[1])) as unknown as Response,
    dispose: () => mf.dispose(),
  };
}

interface TestSocket {
  accept(): void;
  send(message: string): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** The Durable Objects store as isolate `to` runs it, driven from Node over fetch, subscriptions over a WebSocket each. */
export function remoteStore(workers: DurableWorkers, to: Isolate, namespace = 'PARLEY_STORE'): StoreBackend {
  const sockets = new Set<TestSocket>();
  const call = async (path: string, params: Record<string, string>, body?: string) => {
    const query = new URLSearchParams({ ...params, ns: namespace });
    const response = await workers.send(to, `${path}?${query}`, { method: 'POST', body });
    if (response.status >= 400) throw new Error(await response.text());
    return response.status === 204 ? undefined : response.text();
  };
  return {
    type: 'durable-objects',
    supportsPubSub: true,
    distributed: true,
    get: (key) => call('/get', { key }),
    set: async (key, value, ttlMs) => void (await call('/set', ttlMs === undefined ? { key } : { key, ttl: String(ttlMs) }, value)),
    delete: async (key) => void (await call('/delete', { key })),
    take: (key) => call('/take', { key }),
    publish: async (channel, message) => Number(await call('/publish', { channel }, message)),
    subscribe: async (channel, onMessage) => {
      const query = new URLSearchParams({ channel, ns: namespace });
      const response = await workers.mf.dispatchFetch(`http://${to}.test/subscribe?${query}`, { headers: { upgrade: 'websocket' } });
      const socket = (response as unknown as { webSocket: TestSocket | null }).webSocket;
      if (!socket) throw new Error(`subscribe: HTTP ${response.status} ${await response.text()}`);
      let live!: () => void;
      let stopped!: () => void;
      const [isLive, isStopped] = [new Promise<void>((r) => (live = r)), new Promise<void>((r) => (stopped = r))];
      socket.addEventListener('message', ({ data }) => {
        const text = String(data);
        if (text === 'c:live') live();
        else if (text === 'c:stopped') stopped();
        else if (text.startsWith('m:')) onMessage(text.slice(2));
      });
      socket.accept();
      sockets.add(socket);
      await isLive;
      let stopping: Promise<void> | undefined;
      return () =>
        (stopping ??= (async () => {
          socket.send('stop');
          await isStopped;
          sockets.delete(socket);
        })());
    },
    close: async () => {
      for (const socket of sockets) socket.close();
      sockets.clear();
    },
  };
}
