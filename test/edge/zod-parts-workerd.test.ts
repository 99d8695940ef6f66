// z.compile in an edge bundle: zod's compiler (code run through new Function) is left out, and what stands in does
// inside workerd what zod's own does there: the schema back on zod's runtime parser, a refusal under `strict`. And
// z.fromJSONSchema, left out for size: it says where to import zod's own from.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let worker: RunningWorker;
let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorker('test/edge/entries/zod-parts-worker.ts'));
  worker = startWorker(code);
});
afterAll(() => worker?.dispose());

it('leaves zod’s code generator out of the bundle', () => {
  // Both are in zod's compiler only: what it writes for an object's keys, and the error it throws when eval fails.
  expect(code).not.toContain('generated code failed to evaluate');
  expect(code).not.toContain('function compileFn');
});

it('leaves zod’s JSON Schema reader out of the bundle, and z.fromJSONSchema names where to import it from', async () => {
  expect(code).not.toContain('dependentSchemas and dependentRequired are not supported'); // fromJSONSchema's refusal
  const response = await worker.send(new Request('http://worker/'));
  expect(((await response.json()) as { fromJsonSchema: string }).fromJsonSchema).toBe(
    "z.fromJSONSchema is left out of Parley's z in an edge bundle, to keep it small: import { fromJSONSchema } from 'zod' where you need it",
  );
});

it('hands the schema back on the runtime parser, and refuses under strict, as zod does where new Function is forbidden', async () => {
  const response = await worker.send(new Request('http://worker/'));
  expect(await response.json()).toMatchObject({ same: true, good: true, bad: ['id', 'count'], strict: 'unsupported', fn: 'unsupported' });
});
