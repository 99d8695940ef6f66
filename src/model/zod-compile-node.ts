// z.compile and z.core.compileFn everywhere but an edge bundle ("#zod-compile"): zod's own, which compile a schema's
// parser with `new Function` where the runtime allows it. zod-compile-edge.ts says why an edge bundle differs.
export { compile, compileFn } from 'zod/v4/core';
