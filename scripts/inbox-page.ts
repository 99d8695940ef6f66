// npm run inbox-page: bundles the inbox page (src/inbox/page/) into the module the server serves it from, so the
// page is typed, linted source and still runs on Workers (no files read at run time). `--check` (npm run lint) writes
// nothing and fails when the committed module is not what this would write.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, transform } from 'esbuild';
import { INBOX_BASE } from '../src/protocol';

const ROOT = join(import.meta.dirname, '..');
const PAGE = join(ROOT, 'src/inbox/page');
/** The generated module, committed so the package needs no build step to serve the page. */
const GENERATED = join(ROOT, 'src/inbox/page.generated.ts');

const HEADER = `// The inbox page as the server serves it, generated from src/inbox/page/ by scripts/inbox-page.ts: do not edit.
// Change the page there and run \`npm run inbox-page\`; \`npm run lint\` fails while this file is stale.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the \${…} in INBOX_SCRIPT are the minified script's own
`;

/** The page's HTML with its comments and the white space between tags dropped, and the base path written in. */
function html(): string {
  const text = readFileSync(join(PAGE, 'inbox.html'), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s+</g, '><')
    .replaceAll('{{INBOX_BASE}}', INBOX_BASE)
    .trim();
  if (text.includes('{{')) throw new Error('inbox.html: a {{placeholder}} other than {{INBOX_BASE}}');
  return `${text}\n`;
}

async function script(): Promise<string> {
  const result = await build({
    entryPoints: [join(PAGE, 'app.ts')],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'none',
    define: { __INBOX_BASE__: JSON.stringify(INBOX_BASE) },
    charset: 'utf8',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

async function css(): Promise<string> {
  return (await transform(readFileSync(join(PAGE, 'app.css'), 'utf8'), { loader: 'css', minify: true, charset: 'utf8' })).code;
}

/** Biome's own format of the module, so `biome check` has nothing to say about a generated file. */
function formatted(source: string): string {
  const biome = join(ROOT, 'node_modules/.bin/biome');
  const out = spawnSync(biome, ['format', `--stdin-file-path=${relative(ROOT, GENERATED)}`], {
    cwd: ROOT,
    input: source,
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`biome format failed: ${out.stderr}`);
  return out.stdout;
}

/** The generated module's text, built in memory. */
async function inboxPageModule(): Promise<string> {
  const [js, style] = await Promise.all([script(), css()]);
  return formatted(`${HEADER}
/** The page: static HTML with no server data in it; the script fetches the questions. */
export const INBOX_HTML = ${JSON.stringify(html())};

/** The page's script, bundled and minified from src/inbox/page/app.ts. It builds the DOM from text, never from HTML. */
export const INBOX_SCRIPT = ${JSON.stringify(js)};

/** The page's style, minified from src/inbox/page/app.css. */
export const INBOX_CSS = ${JSON.stringify(style)};
`);
}

// A file named after the flags is written or checked instead of the committed module (the test checks copies of it).
const check = process.argv.includes('--check');
const file = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? GENERATED;
const fresh = await inboxPageModule();
if (!check) writeFileSync(file, fresh);
else if (!existsSync(file) || readFileSync(file, 'utf8') !== fresh) {
  console.error(`${relative(ROOT, file)} is stale: it is not what src/inbox/page/ builds to. Run \`npm run inbox-page\`.`);
  process.exit(1);
}
