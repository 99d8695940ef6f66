// The parts of z everywhere but an edge bundle ("#zod-parts"): zod's own compiler, which compiles a schema's parser with
// `new Function` where the runtime allows it, and zod's fromJSONSchema. zod-parts-edge.ts says why an edge bundle differs.
export { compile, compileFn } from 'zod/v4/core';
export { fromJSONSchema } from 'zod';
