// z as Parley re-exports it: zod's API without its ~50 translations of error messages, which a bundler cannot drop
// from a re-exported namespace (they cost ~38 KB gzip in every Worker). English stays zod's default.
export * from 'zod';
export * as core from './zod-core';
/** zod's compiler, left out of an edge bundle, where it cannot run, and its JSON Schema reader, left out there for size (zod-parts-edge.ts). */
export { compile, fromJSONSchema } from '#zod-parts';
/** Left out to keep bundles small: `import { locales } from 'zod'` and `z.config(locales.fr())` for another language. */
export const locales: undefined = undefined;
/** zod's namespace inside itself would bring the translations back; Parley's `z` is this module. */
export const z: undefined = undefined;
