// `npm run conformance [revision]`: serves the fixture on a free loopback port, runs the official suite for the revision
// (without one, for 2026-07-28 and then 2025-11-25 against the same fixture), and fails on any failure that counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The revisions checked: the one named, else the current one and the newest before it, which the same endpoint serves. */
const revisions = process.argv[2] ? [process.argv[2]] : ['2026-07-28', '2025-11-25'];
const suite = path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const hooks = path.join(root, 'scripts/conformance/register.mjs');
const fixture = path.join(root, 'examples/conformance/serve.ts');
const baseline = path.join(root, 'examples/conformance/expected-failures.yaml');

/** Unscored scenarios allowed to fail: the names listed in the expected-failures file. */
const allowed = new Set(
  readFileSync(baseline, 'utf8')
    .split('\n')
    .flatMap((line) => /^\s*-\s*([\w/.-]+)\s*$/.exec(line)?.[1] ?? []),
);

function startFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', fixture], {
    cwd: root,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/**
 * The Skills extension's server scenarios (SEP-2640). An extension's scenarios are in no revision's requirement set, so
 * `--requirements` never runs them: they run by name, at 2026-07-28 (the suite's wire for extensions), and count as
 * required here: every check must pass, none skipped (a fixture that stopped declaring skills would skip them all).
 */
const SKILL_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

function runSuite(url: string, revision: string, outputDir: string): Promise<{ code: number; output: string }> {
  return runConformance(['--url', url, '--requirements', revision, '--expected-failures', baseline, '-o', outputDir]);
}

function runConformance(options: string[]): Promise<{ code: number; output: string }> {
  const args = ['--import', hooks, suite, 'server', ...options];
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

/** Each skills scenario by name: its checks' statuses, from the checks.json the suite saves. */
async function checkSkills(url: string, outputDir: string): Promise<{ ok: boolean; passed: number; failed: number; skipped: number }> {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  let ok = true;
  for (const scenario of SKILL_SCENARIOS) {
    console.log(`\n=== Running scenario: ${scenario} (the Skills extension, counted as required) ===`);
    const { code, output } = await runConformance(['--url', url, '--scenario', scenario, '-o', outputDir]);
    const saved = /^Results saved to (.+)$/m.exec(output)?.[1];
    const checks: { id: string; status: string }[] = saved ? JSON.parse(readFileSync(path.join(saved.trim(), 'checks.json'), 'utf8')) : [];
    const of = (status: string) => checks.filter((check) => check.status === status);
    counts.passed += of('SUCCESS').length;
    counts.failed += of('FAILURE').length;
    counts.skipped += of('SKIPPED').length;
    const skipped = of('SKIPPED').map((check) => check.id);
    if (code !== 0 || checks.length === 0 || of('FAILURE').length > 0 || skipped.length > 0) {
      ok = false;
      console.error(`\n${scenario} did not pass whole (exit ${code}${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}).`);
    }
  }
  return { ok, ...counts };
}

/** Runs the suite for one revision; true when nothing that counts failed. Ends with its own summary line. */
async function check(url: string, revision: string, outputDir: string): Promise<{ ok: boolean; total: string }> {
  console.log(`Conformance ${revision} against the fixture at ${url}`);
  const { code, output } = await runSuite(url, revision, outputDir);
  const unexpected = unexpectedFailures(output);
  const summarized = output.includes('=== SUMMARY ===');
  if (code !== 0) console.error(`\nThe suite reports failures that count for ${revision} (exit ${code}).`);
  if (unexpected.length) console.error(`\nScenarios failed that expected-failures.yaml does not list: ${unexpected.join(', ')}`);
  if (!summarized) console.error('\nThe suite printed no summary.');
  const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(output);
  const skills = revision === '2026-07-28' ? await checkSkills(url, outputDir) : undefined;
  const ok = code === 0 && unexpected.length === 0 && summarized && (skills?.ok ?? true);
  if (ok) console.log(`\nConformance ${revision}: every required scenario and every pending scenario passed.`);
  if (!total) return { ok, total: 'no total printed' };
  if (!skills) return { ok, total: total[0] };
  const passed = Number(total[1]) + skills.passed;
  const failed = Number(total[2]) + skills.failed;
  return {
    ok,
    total: `Total: ${passed} passed, ${failed} failed (${total[1]} of the requirement set; ${skills.passed} of the ${SKILL_SCENARIOS.length} sep-2640 scenarios, ${skills.skipped} skipped)`,
  };
}

const { child, url } = await startFixture();
const outputDir = await mkdtemp(path.join(tmpdir(), 'parley-conformance-'));
const results: { revision: string; ok: boolean; total: string }[] = [];
try {
  for (const revision of revisions) results.push({ revision, ...(await check(url, revision, outputDir)) });
} finally {
  child.kill();
  await rm(outputDir, { recursive: true, force: true });
}
console.log('\n=== CONFORMANCE ===');
for (const { revision, ok, total } of results) console.log(`${ok ? '✓' : '✗'} ${revision}: ${total}${ok ? '' : ' (failures that count)'}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
