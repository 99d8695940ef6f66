// npm run size: the Worker bundle's size, minified and gzipped, and what each package adds. Reports; never fails on a size.
import { gzipSync } from 'node:zlib';
import { bundleWorker } from '../test/helpers/bundle';

const ENTRIES: Record<string, string> = {
  'help-desk Worker (examples/cloudflare/worker.ts)': 'examples/cloudflare/worker.ts',
};
const GOAL_KB = 100;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

for (const [name, entry] of Object.entries(ENTRIES)) {
  const { code, metafile } = await bundleWorker(entry, { minify: true });
  const gzip = gzipSync(code).length;
  console.log(`${name}: ${kb(gzip)} gzip, ${kb(Buffer.byteLength(code))} minified (goal: under ${GOAL_KB} KB gzip)`);
  const byPackage = new Map<string, number>();
  for (const [file, input] of Object.entries(Object.values(metafile.outputs)[0]!.inputs)) {
    const where = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
    byPackage.set(where, (byPackage.get(where) ?? 0) + input.bytesInOutput);
  }
  for (const [where, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).filter(([, b]) => b >= 512))
    console.log(`  ${where.padEnd(32)} ${kb(bytes).padStart(9)} minified`);
}
