// z.core as Parley re-exports it: zod's core without its translations (see zod.ts).
export * from 'zod/v4/core';
/** zod's compiler, left out of an edge bundle, where it cannot run (zod-parts-edge.ts). */
export { compile, compileFn } from '#zod-parts';
/** Left out to keep bundles small: `import { locales } from 'zod/v4/core'`. */
export const locales: undefined = undefined;
