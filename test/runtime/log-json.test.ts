// The JSON log format: one object a line with time, level and msg first; an object's fields beside them, an Error as
// `error`, anything else as `details`; on an edge runtime the console gets the object, whose fields Workers Logs indexes.
import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/runtime';

afterEach(() => {
  vi.restoreAllMocks();
  delete (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime;
});

const entries = (log: (logger: ReturnType<typeof createLogger>) => void) => {
  const lines: string[] = [];
  log(createLogger({ level: 'debug', format: 'json' }, (line) => void lines.push(line)));
  for (const line of lines) expect(line).not.toContain('\n');
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
};

it('puts an object’s fields beside time, level and msg, which they cannot replace', () => {
  const [entry] = entries((l) =>
    l.info('hello', { requestId: 7, level: 'fake', msg: 'fake', big: 10n, ids: new Set([1]), by: new Map([['a', 1]]) }),
  );
  expect(entry).toEqual({ time: expect.any(String), level: 'info', msg: 'hello', requestId: 7, big: '10', ids: [1], by: { a: 1 } });
  expect(Object.keys(entry!).slice(0, 3)).toEqual(['time', 'level', 'msg']);
});

it('writes an Error as `error` with its name, message, stack, fields and cause; other details as `details`', () => {
  const error = Object.assign(new TypeError('bad', { cause: new Error('under') }), { code: 'E_BAD' });
  const [failed, listed, said] = entries((l) => {
    l.error('failed', error);
    l.warn('listed', ['a', 'b']);
    l.debug('said', 'text');
  });
  expect(failed!.error).toMatchObject({ name: 'TypeError', message: 'bad', code: 'E_BAD', cause: { message: 'under' } });
  expect((failed!.error as { stack: string }).stack).toMatch(/^TypeError: bad\n {4}at /);
  expect(listed!.details).toEqual(['a', 'b']);
  expect(said!.details).toBe('text');
});

it('writes a line for details it cannot serialize', () => {
  const [entry] = entries((l) =>
    l.info('odd', {
      bad: {
        toJSON: () => {
          throw new Error('no');
        },
      },
    }),
  );
  expect(entry).toEqual({ time: expect.any(String), level: 'info', msg: 'odd', details: '[not serializable]' });
});

it('on an edge runtime, hands the level’s console method the object', () => {
  (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime = 'edge-runtime';
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  createLogger({ format: 'json' }).warn('careful', { requestId: 'r1' });
  expect(warn.mock.calls).toEqual([[{ time: expect.any(String), level: 'warn', msg: 'careful', requestId: 'r1' }]]);
});
