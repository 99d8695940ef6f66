// Starts a real redis-server on a spare loopback port for a test, and stops it after.
import { spawn, type ChildProcess } from 'node:child_process';
import { sparePort } from './ports';

export interface RunningRedis {
  host: string;
  port: number;
  /** redis://127.0.0.1:<port> (redis://:<password>@127.0.0.1:<port> with a password) */
  url: string;
  stop(): Promise<void>;
  /** Sends the process a signal: SIGSTOP freezes it as a hung VM would (SIGCONT resumes it), SIGKILL ends it at once. */
  signal(signal: NodeJS.Signals): void;
}

/** Spawns redis-server with these arguments and resolves once it accepts connections; rejects with its output if it exits. */
export function spawnRedisServer(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(new Error(`redis-server could not start (is it installed?): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

function launch(port: number, password?: string, aofDir?: string): Promise<ChildProcess> {
  const auth = password === undefined ? [] : ['--requirepass', password];
  // With aofDir, every write is appended (fsync always) there, so a restart on the same dir loses nothing.
  const persistence = aofDir === undefined ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', aofDir];
  return spawnRedisServer(['--bind', '127.0.0.1', '--port', String(port), '--save', '', ...persistence, ...auth]);
}

/**
 * Starts redis-server on 127.0.0.1 with no persistence; retries on another port if the chosen one was taken.
 * With `port` (say, to restart one that was stopped) it uses that port and doesn't retry. With `password`, clients must
 * AUTH (`--requirepass`); `url` then carries it. With `aofDir`, Redis keeps an append-only file there (persistence on).
 */
export async function startRedis(options: { port?: number; password?: string; aofDir?: string } = {}): Promise<RunningRedis> {
  let lastError: unknown;
  for (let attempt = 0; attempt < (options.port ? 1 : 5); attempt++) {
    const port = options.port ?? (await sparePort());
    try {
      const child = await launch(port, options.password, options.aofDir);
      return {
        host: '127.0.0.1',
        port,
        url:
          options.password === undefined
            ? `redis://127.0.0.1:${port}`
            : `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGCONT'); // a stopped server handles SIGTERM only once it runs again
            child.kill('SIGTERM');
          }),
        signal: (signal) => void child.kill(signal),
      };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
