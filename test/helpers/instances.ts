// Starts Parley instances as child processes (node --import tsx) for tests that span processes, and stops them after.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = 'test/fixtures/instance-server.ts';

export interface Instance {
  url: string;
  /** Everything the instance logged so far. */
  log(): string;
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL), as a crash would: nothing of it says goodbye. */
  kill(): Promise<void>;
  /** Sends SIGTERM and resolves once the process exited. */
  terminate(): Promise<void>;
}

/** Starts one instance with these environment variables (on top of a clean copy of this process's); `script`: another fixture. */
export function startInstance(env: Record<string, string | undefined>, script = SCRIPT): Promise<Instance> {
  const clean = { ...process.env };
  for (const name of ['REDIS_URL', 'REDIS_HOST', 'MCP_SESSION_SECRET', 'MCP_ELICITATION_SECRET', 'MCP_SERVER_SECRET', 'PARLEY_TEST_STORE'])
    delete clean[name];
  const child: ChildProcess = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...clean, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill(signal);
    });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening (\S+)/.exec(output)?.[1];
      if (url)
        resolve({
          url,
          log: () => output,
          stop: () => end('SIGTERM'),
          kill: () => end('SIGKILL'),
          terminate: () => end('SIGTERM'),
        });
    });
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}:\n${output}`)));
  });
}
