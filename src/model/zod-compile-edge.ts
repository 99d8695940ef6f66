// z.compile and z.core.compileFn as an edge bundle gets them (workerd, edge-light), through "#zod-compile". zod's
// compiler writes a parser as source text and runs it with `new Function`, which Workers and Vercel Edge forbid: there
// zod's own compile() hands the schema back on its runtime parser, and compileFn throws. These do the same without
// carrying the compiler (~31 KB minified, 7.7 KB gzip), which a namespace re-export would otherwise keep in every Worker.
import { type compile as zodCompile, type compileFn as zodCompileFn, ZodCompileUnsupportedError } from 'zod/v4/core';

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
