// npm test's first step: the programs the suite runs that npm does not install. Each missing one is installed with
// Debian's apt-get when this process may (root, apt-get present); otherwise it stops at once with the exact command.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';

// program on PATH -> Debian package, and what needs it
const NEEDS = [
  ['redis-server', 'redis-server', 'the Redis store tests, two-instance tests and the secret canary'],
  ['chromium', 'chromium', 'the inbox page tests (driven by playwright-core)'],
  ['script', 'bsdutils', 'parley dev and parley inbox in a pseudo-terminal'],
  ['valgrind', 'valgrind', 'npm run bench:check, the instruction-count regression gate'],
];

const onPath = (program) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
const missing = NEEDS.filter(([program]) => !onPath(program));
if (missing.length === 0) process.exit(0);

const packages = missing.map(([, pkg]) => pkg);
const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
for (const [program, , why] of missing) process.stderr.write(`npm test: ${program} is not installed (needed by ${why})\n`);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !onPath('apt-get')) {
  process.stderr.write(`npm test: install it first, then run npm test again:\n  ${isRoot ? '' : 'sudo '}${command}\n`);
  process.exit(1);
}

process.stderr.write(`npm test: installing ${packages.join(', ')} with apt-get\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const run = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
if (!run(['update', '-qq']) || !run(['install', '-y', '-qq', '--no-install-recommends', ...packages])) {
  process.stderr.write(`npm test: apt-get could not install ${packages.join(', ')}; run it yourself:\n  ${command}\n`);
  process.exit(1);
}
const still = missing.filter(([program]) => !onPath(program)).map(([program]) => program);
if (still.length) {
  process.stderr.write(`npm test: still missing after apt-get: ${still.join(', ')}\n`);
  process.exit(1);
}
