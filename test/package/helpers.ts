// The package test's tools: pack Parley once, install the tarball into fresh projects, run their commands.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(import.meta.dirname, 'fixtures');
const run = promisify(execFile);

/** This process's environment without vitest's own variables, which would confuse a vitest the project runs. */
const clean = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'));

/** The tarball `npm pack` makes (its prepack script builds dist/ first), made once per test process. */
let packed: Promise<string> | undefined;
export function packOnce(): Promise<string> {
  return (packed ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-pack-'));
    const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, maxBuffer: 16 << 20 });
    return join(dir, stdout.trim().split('\n').pop()!);
  })());
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
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages], { cwd: dir, maxBuffer: 16 << 20, env: { ...clean(), npm_config_update_notifier: 'false' } });
}

/** Runs a command in a project; resolves with its output, rejects with it on a non-zero exit. */
export async function sh(dir: string, command: string, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run(command, args, { cwd: dir, env: { ...clean(), ...env }, maxBuffer: 16 << 20, timeout: 240_000 });
}

/** Starts a server process and resolves with its URL once it prints `LISTENING <url>`; `stop()` ends it. */
export function startApp(dir: string, command: string, args: string[], env: Record<string, string> = {}, listening = /LISTENING (\S+)/): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void>; output: () => string }> {
  const child = spawn(command, args, { cwd: dir, env: { ...clean(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => (void stop(), reject(new Error(`${command} ${args.join(' ')} did not listen in 60 s:\n${output}`))), 60_000);
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

/** Both official clients complete a round against `url` (node check.mjs, from the project). */
export async function checkClients(dir: string, url: string, clients: ('v1' | 'v2')[] = ['v2', 'v1'], node = process.execPath) {
  if (!existsSync(join(dir, 'check.mjs'))) cpSync(join(FIXTURES, 'check.mjs'), join(dir, 'check.mjs'));
  const { stdout } = await sh(dir, node, ['check.mjs', url, ...clients]);
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as { client: string; version: string; asked: string[]; result: unknown });
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
