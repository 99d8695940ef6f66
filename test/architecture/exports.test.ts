// The names each public entry point exports, values and types alike, held against a snapshot: moving a file or
// adding a door must never change the package's API by accident. A deliberate change updates the snapshot (-u).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) =>
  typeof target === 'object' && target['parley-source'] ? [[subpath, join(ROOT, target['parley-source'])] as const] : [],
);

function exportedNames(): Record<string, string[]> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    experimentalDecorators: true,
    customConditions: ['parley-source'],
  };
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    options,
  );
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    entries.map(([subpath, file]) => {
      const source = program.getSourceFile(file);
      const symbol = source && checker.getSymbolAtLocation(source);
      if (!symbol) throw new Error(`${subpath}: ${file} has no module symbol`);
      return [
        subpath,
        checker
          .getExportsOfModule(symbol)
          .map((s) => s.name)
          .sort(),
      ];
    }),
  );
}

describe('the public API', () => {
  it('has a snapshot for every entry point in package.json', () => {
    expect(entries.map(([subpath]) => subpath)).toContain('.');
    expect(entries.length).toBeGreaterThanOrEqual(10);
  });

  it('exports exactly the names it exported before, types included', { timeout: 60_000 }, () => {
    expect(exportedNames()).toMatchSnapshot();
  });

  it('exports exactly the values it exported before, when loaded', async () => {
    const values: Record<string, string[]> = {};
    for (const [subpath] of entries)
      values[subpath] = Object.keys(await import(subpath === '.' ? 'parley-mcp' : `parley-mcp/${subpath.slice(2)}`)).sort();
    expect(values).toMatchSnapshot();
  });
});
