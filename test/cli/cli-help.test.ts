// `parley --version`, and `--help` on every subcommand the top-level usage lists.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index';

const written = { out: '', err: '' };
afterEach(() => {
  vi.restoreAllMocks();
  written.out = written.err = '';
});
function capture() {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((written.out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((written.err += String(chunk)), true));
}

it('--version prints the package version on stdout', async () => {
  const { name, version } = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
  capture();
  expect(await main(['--version'])).toBe(0);
  expect(written.out).toBe(`${name} ${version}\n`);
});

it("lists the commands in docs/cli.md's order", async () => {
  capture();
  expect(await main(['--help'])).toBe(0);
  const listed = [...written.err.matchAll(/^ {2}parley ([a-z]+) /gm)].map((m) => m[1]!);
  const page = readFileSync(resolve(__dirname, '../../docs/cli.md'), 'utf8');
  expect(listed).toEqual([...page.matchAll(/^\| \[`parley ([a-z]+)/gm)].map((m) => m[1]!));
});

it('every listed subcommand answers --help with its own usage and exit code 0', async () => {
  capture();
  expect(await main(['--help'])).toBe(0);
  const commands = [...written.err.matchAll(/^ {2}parley ([a-z]+) /gm)].map((m) => m[1]!);
  expect(commands).toEqual(expect.arrayContaining(['dev', 'inbox', 'token']));
  for (const command of commands) {
    written.err = written.out = '';
    expect(await main([command, '--help']), command).toBe(0);
    expect(written.out + written.err, command).toMatch(new RegExp(`^(Usage: )?parley ${command}\\b`));
  }
});
