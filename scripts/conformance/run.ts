// `npm run conformance [revision]`: serves the fixture on a free loopback port, runs the official suite, and fails on any failure that counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const revision = process.argv[2] ?? '2026-07-28';
const suite = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const hooks = path.join(root, 'scripts/conformance/register.mjs');
const fixture = path.join(root, 'examples/conformance/serve.ts');
const baseline = path.join(root, 'examples/conformance/expected-failures.yaml');

/** Unscored scenarios allowed to fail: the names listed in the expected-failures file. */
const allowed = new Set(readFileSync(baseline, 'utf8').split('\n').flatMap((line) => /^\s*-\s*([\w/.-]+)\s*$/.exec(line)?.[1] ?? []));

function startFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk) => (log += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The fixture did not start within 30 s:\n${log}`)), 30_000);
    createInterface({ input: child.stdout! }).once('line', (url) => {
      clearTimeout(timer);
      resolve({ child, url: url.trim() });
    });
    child.once('exit', (code) => reject(new Error(`The fixture exited (${code}) before listening:\n${log}`)));
  });
}

function runSuite(url: string, outputDir: string): Promise<{ code: number; output: string }> {
  const args = ['--import', hooks, suite, 'server', '--url', url, '--requirements', revision, '--expected-failures', baseline, '-o', outputDir];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, output })));
}

/** Scenarios the summary marks failed that the expected-failures file does not list (required, pending or other). */
function unexpectedFailures(output: string): string[] {
  const summary = output.split('=== SUMMARY ===')[1] ?? '';
  return [...summary.matchAll(/^✗ ([\w/.-]+): /gm)].map((m) => m[1]!).filter((name) => !allowed.has(name));
}

const { child, url } = await startFixture();
const outputDir = await mkdtemp(path.join(tmpdir(), 'parley-conformance-'));
let failed = false;
try {
  console.log(`Conformance ${revision} against the fixture at ${url}`);
  const { code, output } = await runSuite(url, outputDir);
  const unexpected = unexpectedFailures(output);
  if (code !== 0) console.error(`\nThe suite reports failures that count for ${revision} (exit ${code}).`);
  if (unexpected.length) console.error(`\nScenarios failed that expected-failures.yaml does not list: ${unexpected.join(', ')}`);
  if (!output.includes('=== SUMMARY ===')) console.error('\nThe suite printed no summary.');
  failed = code !== 0 || unexpected.length > 0 || !output.includes('=== SUMMARY ===');
  if (!failed) console.log(`\nConformance ${revision}: every required scenario and every pending scenario passed.`);
} finally {
  child.kill();
  await rm(outputDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
