// The package test's tools: pack Parley once, install the tarball into fresh projects, run their commands.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(import.meta.dirname, 'fixtures');
const run = promisify(execFile);

/** This process's environment without vitest's own variables, which would confuse a vitest the project runs. */
const clean = () =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'));

/**
 * The tarball `npm pack` makes (its prepack script builds dist/ first), made once per `vitest run`: the test files
 * run in worker processes of one vitest process, so the first to claim a folder named after that parent packs into
 * it and the others wait for its `tarball` file (or its `error` file).
 */
let packed: Promise<string> | undefined;
export function packOnce(): Promise<string> {
  return (packed ??= (async () => {
    const dir = join(tmpdir(), `parley-pack-${runId()}`);
    try {
      mkdirSync(dir);
    } catch {
      return waitForPack(dir);
    }
    try {
      const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, maxBuffer: 16 << 20 });
      const tarball = join(dir, stdout.trim().split('\n').pop()!);
      writeFileSync(join(dir, 'tarball.part'), tarball);
      renameSync(join(dir, 'tarball.part'), join(dir, 'tarball'));
      return tarball;
    } catch (error) {
      writeFileSync(join(dir, 'error'), String(error));
      throw error;
    }
  })());
}

/** The vitest process this worker belongs to: its pid and, on Linux, its start time (pids are reused). */
function runId(): string {
  const stat = existsSync(`/proc/${process.ppid}/stat`) ? readFileSync(`/proc/${process.ppid}/stat`, 'utf8') : '';
  return `${process.ppid}-${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? 0}`;
}

async function waitForPack(dir: string): Promise<string> {
  for (let waited = 0; waited < 170_000; waited += 250) {
    if (existsSync(join(dir, 'tarball'))) return readFileSync(join(dir, 'tarball'), 'utf8');
    if (existsSync(join(dir, 'error')))
      throw new Error(`npm pack failed in another test file: ${readFileSync(join(dir, 'error'), 'utf8')}`);
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`npm pack did not finish in another test file (${dir})`);
}

/** A TCP port nothing listens on right now, for servers that take a port number (next start). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/** A fresh project folder with these files; `from` copies fixtures into it. The caller removes it (`dispose`). */
export function project(files: Record<string, string>, from: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-user-'));
  for (const name of from) cpSync(join(FIXTURES, name), join(dir, name), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Removes a project (its node_modules is tens of MB: asynchronously, so other tests' timers keep running). */
export const dispose = (dir: string) => rm(dir, { recursive: true, force: true });

/** The MCP clients the checks use, at the versions the suite pins (from the shared npm cache). */
export const CLIENT_PACKAGES = ['@modelcontextprotocol/client@2.4.0', '@modelcontextprotocol/sdk@1.32.2'];

/** `npm install` in a project, preferring the npm cache the repository's own install filled. */
export async function npmInstall(dir: string, packages: string[]): Promise<void> {
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages], {
    cwd: dir,
    maxBuffer: 16 << 20,
    env: { ...clean(), npm_config_update_notifier: 'false' },
  });
}

/** Runs a command in a project; resolves with its output, rejects with it on a non-zero exit. */
export async function sh(
  dir: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return run(command, args, { cwd: dir, env: { ...clean(), ...env }, maxBuffer: 16 << 20, timeout: 240_000 });
}

/**
 * Starts a server process and resolves with its URL once it prints `LISTENING <url>`; `stop()` ends it and whatever it
 * started (`npm start` leaves tsx running when only npm is signalled: the process runs in a group of its own).
 */
export function startApp(
  dir: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  listening = /LISTENING (\S+)/,
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void>; output: () => string }> {
  const child = spawn(command, args, { cwd: dir, env: { ...clean(), ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      process.kill(-child.pid!, 'SIGTERM');
    });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(
      () => (void stop(), reject(new Error(`${command} ${args.join(' ')} did not listen in 60 s:\n${output}`))),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = listening.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolveStart({ url, child, stop, output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${command} exited (${code}) before listening:\n${output}`))));
  });
}

/** A tool call check.mjs makes instead of close_ticket: its arguments and the answer it gives to the question. */
export interface CheckCall {
  name: string;
  arguments: Record<string, unknown>;
  answer: Record<string, unknown>;
}

/** Both official clients complete a round against `url` (node check.mjs, from the project); `v1-task` as a task. */
export async function checkClients(
  dir: string,
  url: string,
  clients: ('v1' | 'v2' | 'v1-task')[] = ['v2', 'v1'],
  node = process.execPath,
  call?: CheckCall,
) {
  if (!existsSync(join(dir, 'check.mjs'))) cpSync(join(FIXTURES, 'check.mjs'), join(dir, 'check.mjs'));
  const { stdout } = await sh(dir, node, ['check.mjs', url, ...clients], call ? { CHECK_CALL: JSON.stringify(call) } : {});
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { client: string; version: string; asked: string[]; result: unknown });
}

export const files = (dir: string) => readdirSync(dir);

/**
 * A runtime from the npm registry (node@22, node@24, bun, deno carry their binaries), installed once into
 * .tmp/runtimes/ and reused by later runs. Resolves with the binary's path.
 */
export async function runtime(spec: 'node@22' | 'node@24' | 'bun' | 'deno'): Promise<string> {
  const dir = join(ROOT, '.tmp', 'runtimes', spec.replace('@', ''));
  const bin = join(dir, 'node_modules', '.bin', spec.split('@')[0]!);
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    await npmInstall(dir, [spec]);
  }
  return bin;
}
