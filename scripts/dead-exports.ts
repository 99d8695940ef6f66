// npm run lint: fails on an export in src/ that nothing needs, so dead code cannot hide behind `export`. The rule:
// - an export of a public door (a file package.json "exports" names) is the API, and so is what it re-exports;
// - any other export lives while another file of src/ imports it (through a door counts: a re-export passes it on), or
//   bin/, scripts/, bench/ or examples/ do (programs of the project);
// - an import from test/ keeps an export only when src/ uses the thing too (its own file counts): a test may reach
//   into a module to test a part of it, but code that only tests call is dead code with a test, and goes;
// - an import() or `import * as` of a src/ file uses the exports whose names src/ (or that importer) mentions anywhere.
// It reads the files' syntax only (the TypeScript parser, no type checker), so it runs in about a second.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
const SRC = 'src/';
const USERS = ['src', 'test', 'scripts', 'bench', 'examples', 'bin', 'templates'];
const SKIP = new Set(['node_modules', 'peers', '.tmp', 'dist']);

type Export =
  | { kind: 'local'; name: string; node: ts.Node }
  | { kind: 'from'; name: string; files: string[]; as: string }
  | { kind: 'namespace'; name: string; file: string };

interface Module {
  file: string;
  exports: Map<string, Export>;
  stars: string[];
  /** Every identifier in the file, and how often, for "does this file mention it". */
  names: Map<string, number>;
  source: ts.SourceFile;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(ROOT, path)] : [];
  });
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** parley-mcp's own names (package.json "exports") and "#…" imports, each to the source files it loads. */
const packageNames = new Map<string, string[]>();
for (const [key, value] of Object.entries<any>(pkg.exports))
  if (value['parley-source'])
    packageNames.set(key === '.' ? pkg.name : `${pkg.name}${key.slice(1)}`, [join('src', relative('./src', value['parley-source']))]);
for (const [key, value] of Object.entries<any>(pkg.imports))
  packageNames.set(
    key,
    [...new Set(Object.values<string>(value['parley-source']))].map((path) => join('src', relative('./src', path))),
  );
const DOORS = new Set([...packageNames].filter(([name]) => !name.startsWith('#')).flatMap(([, files]) => files));

function resolve(from: string, spec: string): string[] {
  if (packageNames.has(spec)) return packageNames.get(spec)!;
  if (!spec.startsWith('.')) return [];
  const base = normalize(join(dirname(from), spec)).replace(/\.(js|ts)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return [candidate];
  return [];
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

function identifiers(source: ts.SourceFile): Map<string, number> {
  const names = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.set(node.text, (names.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Imports: file -> names taken by name, and the files taken whole (import(), import * as, typeof import()). */
interface Imports {
  named: { file: string; name: string }[];
  whole: string[];
}

function read(file: string): { module: Module; imports: Imports } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const exports = new Map<string, Export>();
  const stars: string[] = [];
  const imports: Imports = { named: [], whole: [] };
  /** Local names bound by an import, so `import { a } from './a'; export { a }` passes a's export on. */
  const bound = new Map<string, { file: string; name: string }>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      for (const target of resolve(file, statement.moduleSpecifier.text)) {
        if (!clause) continue;
        if (clause.name) {
          imports.named.push({ file: target, name: 'default' });
          bound.set(clause.name.text, { file: target, name: 'default' });
        }
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) imports.whole.push(target);
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) {
            const name = (element.propertyName ?? element.name).text;
            imports.named.push({ file: target, name });
            bound.set(element.name.text, { file: target, name });
          }
      }
    } else if (ts.isExportDeclaration(statement)) {
      const spec = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      const targets = spec === undefined ? [] : resolve(file, spec);
      const clause = statement.exportClause;
      if (spec !== undefined && !clause) stars.push(...targets);
      else if (clause && ts.isNamespaceExport(clause))
        for (const target of targets) exports.set(clause.name.text, { kind: 'namespace', name: clause.name.text, file: target });
      else if (clause && ts.isNamedExports(clause))
        for (const element of clause.elements) {
          const local = (element.propertyName ?? element.name).text;
          const name = element.name.text;
          if (spec !== undefined) exports.set(name, { kind: 'from', name, files: targets, as: local });
          else if (bound.has(local)) exports.set(name, { kind: 'from', name, files: [bound.get(local)!.file], as: bound.get(local)!.name });
          else exports.set(name, { kind: 'local', name, node: element });
        }
    } else if (ts.isExportAssignment(statement)) {
      exports.set('default', { kind: 'local', name: 'default', node: statement });
    } else if (hasExport(statement)) {
      if (isDefault(statement)) exports.set('default', { kind: 'local', name: 'default', node: statement });
      else if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations)
          for (const id of bindingNames(declaration.name)) exports.set(id.text, { kind: 'local', name: id.text, node: declaration });
      else {
        const name = (statement as ts.DeclarationStatement).name;
        if (name && ts.isIdentifier(name)) exports.set(name.text, { kind: 'local', name: name.text, node: statement });
      }
    }
  }
  // import('…'), typeof import('…') and new URL('…', import.meta.url) (a file run by path) anywhere in the file.
  const visit = (node: ts.Node): void => {
    const byPath = ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL';
    if ((ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) || byPath) {
      const [arg] = (node as ts.CallExpression | ts.NewExpression).arguments ?? [];
      if (arg && ts.isStringLiteral(arg)) imports.whole.push(...resolve(file, arg.text));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      imports.whole.push(...resolve(file, node.argument.literal.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { module: { file, exports, stars, names: identifiers(source), source }, imports };
}

/** How often a file uses its own export's name, its declaration and `export { … }` aside. */
function usedInOwnFile(module: Module, name: string): boolean {
  let uses = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === name) {
      const parent = node.parent;
      const declares = (parent as { name?: ts.Node }).name === node && !ts.isShorthandPropertyAssignment(parent);
      const member =
        (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) &&
        (parent as { name?: ts.Node; right?: ts.Node }).name === node;
      if (!declares && !member && !ts.isExportSpecifier(parent) && !(ts.isQualifiedName(parent) && parent.right === node)) uses++;
    }
    ts.forEachChild(node, visit);
  };
  visit(module.source);
  return uses > 0;
}

const files = USERS.flatMap((dir) => walk(join(ROOT, dir)));
const read_ = files.map(read);
const modules = new Map(read_.map(({ module }) => [module.file, module]));

/** The kinds of use each src/ export has: 'src' (src/ or another program imports it), 'test' (only a test). */
const used = new Map<string, Set<'src' | 'test'>>();
const key = (file: string, name: string) => `${file}\0${name}`;

function use(file: string, name: string, by: 'src' | 'test', seen = new Set<string>()): void {
  const module = modules.get(file);
  if (!module || seen.has(key(file, name))) return;
  seen.add(key(file, name));
  const found = module.exports.get(name);
  if (!found) {
    for (const star of module.stars) use(star, name, by, seen);
    return;
  }
  const kinds = used.get(key(file, name)) ?? new Set();
  kinds.add(by);
  used.set(key(file, name), kinds);
  if (found.kind === 'from') for (const target of found.files) use(target, found.as, by, seen);
  if (found.kind === 'namespace') useWhole(found.file, by, undefined);
}

/** A module taken whole: each export whose name src/ (or, from outside src/, the importer) mentions elsewhere. */
const srcNames = new Map<string, number>();
for (const module of modules.values())
  if (module.file.startsWith(SRC)) for (const [name, count] of module.names) srcNames.set(name, (srcNames.get(name) ?? 0) + count);

function useWhole(file: string, by: 'src' | 'test', importer: Module | undefined): void {
  const module = modules.get(file);
  if (!module) return;
  for (const name of module.exports.keys()) {
    const elsewhere = (srcNames.get(name) ?? 0) - (module.names.get(name) ?? 0) > 0;
    if (elsewhere || (importer?.names.has(name) ?? false)) use(file, name, by);
  }
}

for (const door of DOORS) for (const name of modules.get(door)?.exports.keys() ?? []) use(door, name, 'src');
for (const { module, imports } of read_) {
  const by = module.file.startsWith('test/') ? 'test' : 'src';
  for (const { file, name } of imports.named) if (file !== module.file) use(file, name, by);
  for (const file of imports.whole) if (file !== module.file) useWhole(file, by, module);
}

/** Whether src/ uses what an export names: another file imports it, or its own file does (followed through re-exports). */
function usedInSrc(file: string, name: string, seen = new Set<string>()): boolean {
  const module = modules.get(file);
  const found = module?.exports.get(name);
  if (!module || !found || seen.has(key(file, name))) return false;
  seen.add(key(file, name));
  if (used.get(key(file, name))?.has('src')) return true;
  if (found.kind === 'from') return found.files.some((target) => usedInSrc(target, found.as, seen));
  return found.kind === 'local' && usedInOwnFile(module, name);
}

const dead: string[] = [];
for (const module of modules.values()) {
  if (!module.file.startsWith(SRC) || DOORS.has(module.file)) continue;
  for (const [name, found] of module.exports) {
    const kinds = used.get(key(module.file, name));
    if (kinds?.has('src')) continue;
    const line = found.kind === 'local' ? module.source.getLineAndCharacterOfPosition(found.node.getStart()).line + 1 : 0;
    const where = `${module.file}${line ? `:${line}` : ''} ${name}`;
    if (kinds?.has('test')) {
      if (!usedInSrc(module.file, name)) dead.push(`${where}: only tests import it and nothing in src/ uses it (delete it and its test)`);
    } else
      dead.push(
        `${where}: nothing imports it (${found.kind === 'local' && usedInOwnFile(module, name) ? 'drop the export' : 'delete it'})`,
      );
  }
}

if (dead.length > 0) {
  console.error(`dead exports (scripts/dead-exports.ts says the rule):\n${dead.sort().join('\n')}`);
  process.exit(1);
}
