// Bundles a Worker entry with esbuild the way wrangler does, for tests that run it inside workerd.
import { build } from 'esbuild';

export async function bundleWorker(entry: string): Promise<{ code: string; nodeImports: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
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
