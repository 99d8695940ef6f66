// Where the default logger writes: on Node every level to stderr (stdio's stdout stays MCP only); elsewhere each level
// to its console method.
import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/runtime';

afterEach(() => {
  vi.restoreAllMocks();
  delete (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime;
});

const spies = () =>
  Object.fromEntries(
    (['debug', 'info', 'warn', 'error', 'log'] as const).map((m) => [m, vi.spyOn(console, m).mockImplementation(() => {})]),
  );

it('on Node, every level goes to console.error', () => {
  const spy = spies();
  const logger = createLogger('debug');
  logger.debug('d');
  logger.info('i');
  logger.warn('w');
  expect(spy.error!.mock.calls.map((c) => c[0])).toEqual(['[parley] DEBUG d', '[parley] INFO i', '[parley] WARN w']);
  expect(spy.info).not.toHaveBeenCalled();
});

it('on an edge runtime, each level goes to its own console method', () => {
  (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime = 'edge-runtime';
  const spy = spies();
  const logger = createLogger('debug');
  logger.debug('d');
  logger.info('i', { n: 1 });
  logger.warn('w');
  logger.error('e');
  expect(spy.debug!.mock.calls).toEqual([['[parley] DEBUG d']]);
  expect(spy.info!.mock.calls).toEqual([['[parley] INFO i', { n: 1 }]]);
  expect(spy.warn!.mock.calls).toEqual([['[parley] WARN w']]);
  expect(spy.error!.mock.calls).toEqual([['[parley] ERROR e']]);
});
