// The parts of z an edge bundle (workerd, edge-light) gets through "#zod-parts" in place of zod's own; zod-parts-node.ts
// has zod's own, everywhere else. A bundler cannot drop one export of a namespace another module re-exports (Parley's
// z, which is zod's API), so every Worker that imports z carries all of it; these stand-ins keep two parts out:
// - zod's compiler writes a parser as source text and runs it with `new Function`, which Workers and Vercel Edge forbid:
//   there zod's own compile() hands the schema back on its runtime parser, and compileFn throws. These do the same
//   without carrying the compiler (~31 KB minified, 7.7 KB gzip).
// - fromJSONSchema, zod's reader of a JSON Schema (~15 KB minified, 4.9 KB gzip), which Parley does not use: a Worker
//   that needs it imports it from zod, and carries it only then.
import { type compile as zodCompile, type compileFn as zodCompileFn, ZodCompileUnsupportedError } from 'zod/v4/core';
import type { fromJSONSchema as zodFromJSONSchema } from 'zod';

const NO_CODE_GENERATION = 'code generation on this runtime, which forbids new Function';

/** zod's compile() where code cannot be generated: the schema as it is, or with `strict`, the reason it was not compiled. */
export const compile: typeof zodCompile = (schema, options) => {
  if (options?.strict) throw new ZodCompileUnsupportedError(NO_CODE_GENERATION);
  return schema;
};

/** zod's compileFn() where code cannot be generated: it always throws, as zod's does there. */
export const compileFn: typeof zodCompileFn = () => {
  throw new ZodCompileUnsupportedError(NO_CODE_GENERATION);
};

/** Left out of an edge bundle's z to keep Workers small: it throws, naming where to import zod's own from. */
export const fromJSONSchema: typeof zodFromJSONSchema = () => {
  throw new Error(
    "z.fromJSONSchema is left out of Parley's z in an edge bundle, to keep it small: import { fromJSONSchema } from 'zod' where you need it",
  );
};
