// npm run build: src/ to dist/ as ESM with .d.ts and source maps, one output file per source file (unbundled), so
// dist/ keeps src/'s layout: the lazy driver imports stay separate files and "#node-only" stays a runtime choice.
import { defineConfig } from 'tsdown';
import { writeZodNamespace } from './scripts/zod-namespace';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/testing/index.ts',
    'src/client/index.ts',
    'src/adapters/node.ts',
    'src/adapters/stdio.ts',
    'src/adapters/cloudflare.ts',
    'src/adapters/vercel.ts',
    'src/stores/redis.ts',
    'src/stores/sqlite.ts',
    'src/stores/redis-http.ts',
    'src/app/enable-tasks.ts',
    'src/app/enable-inbox.ts',
    'src/engine/skills/define.ts',
    'src/auth/introspection.ts',
    // What package.json "imports" and the parley command load by path.
    'src/app/node-only-node.ts',
    'src/app/node-only-edge.ts',
    'src/model/zod-parts-node.ts',
    'src/model/zod-parts-edge.ts',
    'src/cli/index.ts',
    'src/cli/dev-child.ts',
  ],
  unbundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  fixedExtension: false,
  sourcemap: true,
  dts: true, // no declaration maps: they would point at src/, which the package does not ship
  clean: true,
  tsconfig: 'tsconfig.build.json',
  // The edge/Node split is package.json's, at run time; dependencies and peers are the user's install.
  deps: { neverBundle: [/^#node-only$/, /^#zod-parts$/, /^node:/] },
  // z's modules as ESM re-exports, so bundlers leave zod's translations out (scripts/zod-namespace.ts says why).
  hooks: { 'build:done': () => writeZodNamespace(import.meta.dirname) },
});
