// Wire errors come from one table (src/protocol/error-table.ts): a throw site names a key, never a code's status, and
// `data.code` is the table's. This keeps it so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, WIRE_ERRORS, wireError, RetryLaterError } from '../../src/protocol';
import { ROOT, sourceFiles } from './imports';

/**
 * Where a McpWireError may be built by hand: the error classes, the client, which rebuilds the error a server sent, and
 * 2025-11-25's tasks/result, which answers with the wire error a failed task stored (built from the table when it ended).
 */
const BUILDERS = new Set(['protocol/errors.ts', 'client/exchange.ts', 'client/task-follow.ts', 'engine/legacy/tasks.ts']);

const textOf = (file: string) => readFileSync(join(ROOT, 'src', file), 'utf8');

describe('the error table', () => {
  it('is the only way src/ builds a wire error: no `new McpWireError(` outside protocol/errors.ts', () => {
    const found = sourceFiles()
      .filter((file) => !BUILDERS.has(file))
      .flatMap((file) => [...textOf(file).matchAll(/new McpWireError\(/g)].map(() => file));
    expect(found).toEqual([]);
  });

  it('names no wire error code by number and no data.code by hand outside the table', () => {
    // `ErrorCode.X` at a throw site picks a code without its status; a `{ code: 'SHUTTING_DOWN' }` beside it repeats
    // the table's data.code, free to drift from it.
    const found = sourceFiles()
      .filter((file) => !file.startsWith('protocol/') && !file.startsWith('client/'))
      .filter((file) => /\bErrorCode\.\w+|new RetryLaterError\([^)]*\{ code: '/.test(textOf(file)));
    expect(found).toEqual([]);
  });

  it('gives each key its code, its status and its data.code, the throw site only the words', () => {
    const codes = new Set<number>(Object.values(ErrorCode));
    for (const [key, row] of Object.entries(WIRE_ERRORS)) {
      expect(codes.has(row.code), `${key}'s code ${row.code} is in ErrorCode`).toBe(true);
      const error = wireError(key as keyof typeof WIRE_ERRORS, 'what happened', { more: 1 });
      expect({ key, code: error.code, status: error.status, message: error.message }).toEqual({
        key,
        code: row.code,
        status: row.status,
        message: 'what happened',
      });
      const dataCode = 'coded' in row ? { code: key } : {};
      expect(error.data).toEqual({ ...dataCode, more: 1 });
    }
    const later = new RetryLaterError('SHUTTING_DOWN', 'going away', 1);
    expect([later.status, later.data]).toEqual([503, { code: 'SHUTTING_DOWN', retryAfterSeconds: 1 }]);
  });
});
