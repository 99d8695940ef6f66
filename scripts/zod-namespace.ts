// After tsdown: dist/model/zod.js and zod-core.js as ESM re-exports, the way src/ writes them. Rolldown writes a
// module that is `export *` from zod as an object filled at run time from all of zod (`__reExport`), which no bundler
// can shake, so a Worker built from the installed package carried zod's ~50 translations (about 39 KB gzip, over the
// budget). As plain `export *` modules, bundlers see that `locales` is Parley's own (undefined) and leave them out.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const MODULES = ['zod', 'zod-core'];
const INDEX_IMPORT = 'import { zod_exports } from "./model/zod.js";';

export function writeZodNamespace(root: string): void {
  for (const name of MODULES) {
    const source = readFileSync(join(root, 'src/model', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    writeFileSync(join(root, 'dist/model', `${name}.js`), outputText.replace(/from '\.\/(zod-core)'/g, "from './$1.js'"));
    rmSync(join(root, 'dist/model', `${name}.js.map`), { force: true }); // the maps described rolldown's output
  }
  const index = join(root, 'dist/index.js');
  const text = readFileSync(index, 'utf8');
  if (!text.includes(INDEX_IMPORT)) throw new Error(`dist/index.js no longer has \`${INDEX_IMPORT}\`: update scripts/zod-namespace.ts`);
  writeFileSync(index, text.replace(INDEX_IMPORT, 'import * as zod_exports from "./model/zod.js";'));
}
