// The runtimes of row 8, from the npm registry (node@22, node@24, bun and deno carry their binaries), installed once
// into .tmp/runtimes/ (where the package tests put them too) and reused.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export type RuntimeSpec = 'node@22' | 'node@24' | 'bun' | 'deno';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The command that runs a bundled server on `spec`: the binary, then its arguments before the script. */
export async function runtimeCommand(spec: RuntimeSpec): Promise<string[]> {
  const dir = `${ROOT}.tmp/runtimes/${spec.replace('@', '')}`;
  const bin = `${dir}/node_modules/.bin/${spec.split('@')[0]}`;
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/package.json`, '{ "private": true }\n');
    await promisify(execFile)('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      cwd: dir,
      maxBuffer: 16 << 20,
      timeout: 300_000,
    });
  }
  return spec === 'deno' ? [bin, 'run', '-A'] : [bin];
}

/** The runtime and the version it reports, for the table: "Node v22.23.3", "Bun 1.4.5", "Deno 2.9.6". */
export async function runtimeVersion(command: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(command[0]!, ['--version'], { timeout: 30_000 });
  const version = /\d+\.\d+\.\d+/.exec(stdout)?.[0] ?? stdout.trim();
  const name = /deno/i.test(stdout) ? 'Deno' : /^v\d/.test(stdout.trim()) ? 'Node' : 'Bun';
  return `${name} ${version}`;
}
