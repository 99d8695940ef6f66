// Starts a real Redis Cluster for a test: three masters (and a replica each, on request) from redis-server on spare
// loopback ports, joined with redis-cli --cluster create; stopped and its files removed after.
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sparePort } from './ports';
import { spawnRedisServer } from './redis';

const run = promisify(execFile);

export interface ClusterNode {
  host: string;
  port: number;
  /** Ends the process at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

export interface RunningCluster {
  nodes: ClusterNode[];
  /** `[{ host, port }, …]` of every node: what the `cluster` option takes. */
  seeds: { host: string; port: number }[];
  /** Runs redis-cli against one node (`-c` not set): its reply as text. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The ports of the masters, and of the replicas with the port of the master each follows. */
  roles(): Promise<{ masters: number[]; replicas: { port: number; of: number }[] }>;
  /** The port of the master serving `key`'s slot (a key or a sharded channel), and of its replica (0 without). */
  shardOf(key: string): Promise<{ master: number; replica: number }>;
  stop(): Promise<void>;
}

function launch(port: number, dir: string, password?: string): Promise<ChildProcess> {
  const auth = password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
  const args = [...auth, '--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir];
  const cluster = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000'];
  return spawnRedisServer([...args, ...cluster]);
}

const end = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill(signal);
  });

/**
 * Three masters, with `replicas: 1` a replica of each too; resolves once every node says cluster_state:ok and every
 * replica has synced. With
 * `password`, every node requires it (`--requirepass`, and `--masterauth` for its replica).
 */
export async function startRedisCluster(options: { replicas?: 0 | 1; password?: string } = {}): Promise<RunningCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cluster-'));
  const count = options.replicas === 1 ? 6 : 3;
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => end(child, 'SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  };
  const auth = options.password === undefined ? [] : ['-a', options.password, '--no-auth-warning'];
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', [...auth, '-h', '127.0.0.1', '-p', String(port), ...args])).stdout.trim();
  try {
    while (ports.length < count) {
      const port = await sparePort();
      if (ports.includes(port)) continue;
      children.push(await launch(port, dir, options.password));
      ports.push(port);
    }
    const replicas = options.replicas === 1 ? ['--cluster-replicas', '1'] : [];
    await run('redis-cli', [...auth, '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), ...replicas, '--cluster-yes']);
    const deadline = Date.now() + 15_000;
    for (const port of ports) {
      while (!(await cli(port, 'cluster', 'info')).includes('cluster_state:ok')) {
        if (Date.now() > deadline) throw new Error(`the cluster did not come up on ${port}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // A replica that has not synced yet would take over empty in a failover: wait until each one's link is up.
    for (const port of ports) {
      for (;;) {
        const info = await cli(port, 'info', 'replication');
        if (info.includes('role:master') || info.includes('master_link_status:up')) break;
        if (Date.now() > deadline) throw new Error(`the replica on ${port} did not sync`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const roles = async () => {
    const lines = (await cli(ports[0]!, 'cluster', 'nodes')).split('\n');
    const byId = new Map(lines.map((line) => [line.split(' ')[0]!, line]));
    const portOf = (line: string) => Number(/:(\d+)@/.exec(line)?.[1]);
    const live = lines.filter((line) => !/fail|noaddr/.test(line.split(' ')[2] ?? ''));
    return {
      masters: live.filter((line) => line.split(' ')[2]!.includes('master')).map(portOf),
      replicas: live
        .filter((line) => line.split(' ')[2]!.includes('slave'))
        .map((line) => ({ port: portOf(line), of: portOf(byId.get(line.split(' ')[3]!) ?? '') })),
    };
  };
  const shardOf = async (key: string) => {
    const slot = Number(await cli(ports[0]!, 'cluster', 'keyslot', key));
    const lines = (await cli(ports[0]!, 'cluster', 'nodes')).split('\n');
    const serves = (line: string) =>
      line
        .split(' ')
        .slice(8)
        .some((range) => {
          const [from, to] = range.split('-').map(Number);
          return slot >= from! && slot <= (to ?? from)!;
        });
    const master = lines.find((line) => line.split(' ')[2]!.includes('master') && serves(line))!;
    const port = (line: string | undefined) => Number(/:(\d+)@/.exec(line ?? '')?.[1] ?? 0);
    return { master: port(master), replica: port(lines.find((line) => line.split(' ')[3] === master.split(' ')[0])) };
  };
  return {
    nodes: ports.map((port, i) => ({ host: '127.0.0.1', port, kill: () => end(children[i]!, 'SIGKILL') })),
    seeds: ports.map((port) => ({ host: '127.0.0.1', port })),
    cli,
    roles,
    shardOf,
    stop,
  };
}
