// Bundles a Worker entry with esbuild the way wrangler does, for tests that run it inside workerd.
import { build } from 'esbuild';

/** `format: 'iife'` for runtimes that take a script rather than a module (edge-runtime). */
export async function bundleWorker(entry: string, format: 'esm' | 'iife' = 'esm'): Promise<{ code: string; nodeImports: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format,
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
  });
  const nodeImports = Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.path.startsWith('node:') || (i.external && i.path !== '<runtime>')).map((i) => i.path),
  );
  return { code: result.outputFiles[0]!.text, nodeImports };
}
