// Bundles a Worker entry with esbuild the way wrangler does, for tests that run it inside workerd and for npm run size.
import { build, type Metafile } from 'esbuild';

export interface BundleOptions {
  /** 'iife' for runtimes that take a script rather than a module (edge-runtime). */
  format?: 'esm' | 'iife';
  minify?: boolean;
}

export async function bundleWorker(entry: string, options: BundleOptions = {}): Promise<{ code: string; nodeImports: string[]; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: options.format ?? 'esm',
    minify: options.minify ?? false,
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
  return { code: result.outputFiles[0]!.text, nodeImports, metafile: result.metafile };
}
