// parley init <dir>: a new project from templates/app (shipped in the package): a server whose tool asks, its tests,
// and its entries for Node, Cloudflare Workers and Next.js/Vercel. `--worker` makes a Cloudflare Worker project from
// templates/worker instead: its store in Durable Objects, tasks and the inbox on, `npm run dev` in wrangler dev. Its
// package.json depends on this parley-mcp.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const INIT_USAGE = `parley init <dir> [--worker]

  Makes a new MCP server project in <dir> (which must not exist yet, or be empty):
  src/server.ts with a tool that asks, src/server.test.ts (vitest), src/main.ts for Node (npm start),
  src/worker.ts and wrangler.toml for Cloudflare Workers, app/api/mcp/route.ts and next.config.mjs for Next.js
  and Vercel.
  Then: cd <dir> && npm install && npm start

  --worker  a Cloudflare Worker project instead: src/worker.ts with its store in Durable Objects, tasks and the
            inbox on (persistent questions), wrangler.toml binding them, src/server.ts and its tests.
            Then: cd <dir> && npm install && npm run dev`;

// From dist/cli/init.js and src/cli/init.ts alike, the package root is two folders up.
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Files whose text names the project (in both templates). */
const NAMED = ['README.md', 'wrangler.toml', 'src/server.ts'];

export async function init(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, worker: { type: 'boolean' } },
  });
  if (values.help) return (void process.stderr.write(`${INIT_USAGE}\n`), 0);
  if (positionals.length !== 1) return fail(`give one directory to make the project in\n\n${INIT_USAGE}`);
  const target = resolve(positionals[0]!);
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    return fail(`${positionals[0]} already exists and is not an empty directory: choose a new one (Parley does not overwrite files)`);

  const name = packageName(basename(target));
  const own = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const kind = values.worker ? WORKER : NODE;
  cpSync(join(PACKAGE_ROOT, 'templates', kind.template), target, { recursive: true });
  renameSync(join(target, 'gitignore'), join(target, '.gitignore')); // npm pack leaves out files named .gitignore
  for (const file of NAMED) writeFileSync(join(target, file), readFileSync(join(target, file), 'utf8').replaceAll('__NAME__', name));
  writeFileSync(
    join(target, 'package.json'),
    `${JSON.stringify(projectPackage(kind, name, { version: own.version, tsx: own.dependencies.tsx! }), null, 2)}\n`,
  );

  const relativePath = relative(process.cwd(), target) || '.';
  const where = /[\s'"$]/.test(relativePath) ? JSON.stringify(relativePath) : relativePath;
  process.stdout.write(`Made ${name} in ${where}. Next:\n  cd ${where}\n  npm install\n${kind.next}`);
  return 0;
}

// Pinned: newer wranglers need Node 22.12, and parley-mcp runs on Node 20.12, so an unpinned `npx wrangler` breaks there.
const WRANGLER = '4.86.0';

interface ProjectKind {
  template: string;
  scripts: Record<string, string>;
  /** What init prints after `npm install`. */
  next: string;
}

/** A project for Node, with entries for Workers and Next.js too (templates/app). */
const NODE: ProjectKind = {
  template: 'app',
  scripts: {
    start: 'tsx src/main.ts',
    dev: 'parley dev src/server.ts',
    test: 'vitest run',
    typecheck: 'tsc',
    'worker:dev': 'wrangler dev',
    'worker:deploy': 'wrangler deploy',
  },
  next: '  npm start      # http://127.0.0.1:3000/mcp\n  npm test\nREADME.md says how to deploy it to Cloudflare Workers and to Next.js or Vercel.\n',
};

/** A Cloudflare Worker project, its store in Durable Objects (templates/worker). */
const WORKER: ProjectKind = {
  template: 'worker',
  scripts: {
    dev: 'wrangler dev',
    test: 'vitest run',
    typecheck: 'tsc',
    build: 'wrangler deploy --dry-run --outdir dist',
    deploy: 'wrangler deploy',
  },
  next: '  npm run dev    # wrangler dev: http://localhost:8787/mcp\n  npm test\nREADME.md says which secrets to set before `npm run deploy`.\n',
};

/** The new project's package.json: this parley-mcp's version, and the tsx that parley-mcp itself runs on. */
function projectPackage(kind: ProjectKind, name: string, { version, tsx }: { version: string; tsx: string }) {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: kind.scripts,
    dependencies: { 'parley-mcp': `^${version}`, tsx },
    devDependencies: { '@types/node': '^22.0.0', typescript: '^5.9.3', vitest: '^4.1.12', wrangler: WRANGLER },
    // npm 11 warns on every install about install scripts nobody reviewed (npm 12 will skip them): these are the tree's
    // (esbuild through tsx and wrangler; workerd and sharp through wrangler), each fetching or checking its own binary;
    // and better-sqlite3's, which builds the driver of the inbox's default store once the README's install adds it.
    allowScripts: { esbuild: true, workerd: true, sharp: true, 'better-sqlite3': true },
  };
}

/** A directory's name as an npm package and Worker name: lowercase letters, digits and dashes. */
function packageName(dir: string): string {
  return (
    dir
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'mcp-server'
  );
}

function fail(message: string): number {
  process.stderr.write(`parley init: ${message}\n`);
  return 1;
}
