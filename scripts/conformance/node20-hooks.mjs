// ESM loader hooks for running the conformance suite on Node 20: its `fs` import gets globSync, which Node 20 lacks.
import * as fs from 'node:fs';

const SHIM = new URL('./fs-with-glob.mjs', import.meta.url).href;
const SUITE = '/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, next) {
  // Only the suite's own `fs` import is redirected, and only on a Node without fs.globSync.
  if ((specifier === 'fs' || specifier === 'node:fs') && !('globSync' in fs) && context.parentURL?.includes(SUITE))
    return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}
