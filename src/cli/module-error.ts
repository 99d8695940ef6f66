// Showing an error in the user's server module the way an editor wants it: file:line:column first, then what is wrong.
import { spawnSync } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

// A path starts right after "at " or "(": Node's own frames (node:internal/process/task_queues:83:21) are no file.
const FRAME = /(?:^at |\()((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/** One or more lines, each starting with a location the terminal can open. */
export function describeModuleError(error: unknown, entry: string, ownDir: string): string {
  if (!(error instanceof Error)) return `${entry}: ${String(error)}`;
  // esbuild (through tsx) reports syntax errors as "Transform failed with N errors:\n<file>:<line>:<col>: ERROR: <text>".
  if (/^Transform failed/.test(error.message)) return error.message.split('\n').slice(1).filter(Boolean).join('\n');
  // Errors about a declared tool carry "(declared at <file>:<line>:<col>)".
  const declared = /^(.*) \(declared at (.+)\)$/s.exec(error.message);
  if (declared) return `${declared[2]}: ${declared[1]}`;
  // An error made for a person (a port in use) has no location to show.
  if ((error as { code?: unknown }).code === 'EADDRINUSE' || (error as { code?: unknown }).code === 'EACCES') return error.message;
  const frame = userFrame(error.stack, ownDir);
  if (!frame && error.name === 'SyntaxError') {
    const found = syntaxErrorIn(entry);
    if (found) return found;
  }
  return `${frame ?? entry}: ${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
}

/**
 * Where a JavaScript entry's syntax error is: Node gives an imported module's SyntaxError no position (tsx's esbuild
 * reports TypeScript's), so ask `node --check`, which prints `<file>:<line>`, the line, and a caret under the column.
 */
function syntaxErrorIn(entry: string): string | undefined {
  if (!/^\.[cm]?js$/.test(extname(entry))) return undefined;
  const { status, stderr } = spawnSync(process.execPath, ['--check', entry], { encoding: 'utf8' });
  if (status === 0) return undefined;
  const [where, code = '', caret = ''] = stderr.split('\n');
  const line = /:(\d+)$/.exec(where ?? '')?.[1];
  const reason = /^SyntaxError: .*$/m.exec(stderr)?.[0];
  if (!line || !reason) return undefined;
  const hint = /^\s*@/.test(code) ? ' (JavaScript has no decorator syntax: call the decorator as a function, or name the file .ts)' : '';
  return `${entry}:${line}:${caret.indexOf('^') + 1}: ${reason}${hint}`;
}

/** The first stack frame in the user's code: not Node's, not a dependency's, not Parley's own. */
function userFrame(stack: string | undefined, ownDir: string): string | undefined {
  for (const line of stack?.split('\n').slice(1) ?? []) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (file.includes('/node_modules/') || file.startsWith(ownDir)) continue;
    return `${file}:${m[2]}:${m[3]}`;
  }
  return undefined;
}
