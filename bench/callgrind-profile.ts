// npx tsx --conditions=parley-source bench/callgrind-profile.ts [scenario] [cycles] [warm-up] [top]: the gate's count
// (bench/lib/callgrind-count.ts: the same driver, flags and counted window) by function, with `--perf-basic-prof` added
// so that V8's JIT code is named from /tmp/perf-<pid>.map, and each JavaScript function put in its source file by the
// bundle's `// path` lines. Prints, per counted cycle: the parts (Parley's own JavaScript, the driver's, its libraries',
// Node's, V8's builtins, JSON, the collector, the compiler, malloc, crypto), then the top functions by inclusive and by
// self instructions. Inclusive counts follow calls, not awaits: work resumed from a microtask is its resumer's. The
// flag itself moves the total by under 1%.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { buildDriver, NODE_FLAGS, removeDriver } from './lib/callgrind-count';

const [scenario = 'simpleCall', cyclesArg, warmUpArg, topArg = '25'] = process.argv.slice(2);
const cycles = Number(cyclesArg ?? (scenario === 'elicitationRound' ? 500 : 1000));
const warmUp = Number(warmUpArg ?? (scenario === 'elicitationRound' ? 3000 : 6000));
const top = Number(topArg);

/** The JIT code's names: sorted [start, end, name]. */
function perfMap(pid: number): [number, number, string][] {
  const entries: [number, number, string][] = [];
  for (const line of readFileSync(`/tmp/perf-${pid}.map`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) entries.push([parseInt(m[1]!, 16), parseInt(m[1]!, 16) + parseInt(m[2]!, 16), m[3]!]);
  }
  return entries.sort((a, b) => a[0] - b[0]);
}

function nameAt(map: [number, number, string][], address: number): string | undefined {
  let lo = 0;
  let hi = map.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid]![0] <= address) {
      if (address < map[mid]![1]) found = map[mid]![2];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** esbuild marks each module of the bundle with a `// path` line: a bundle line's source file. */
function sourceOf(bundle: string): (line: number) => string {
  const markers: [number, string][] = [];
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(line);
      if (m) markers.push([i + 1, m[1]!.replace(/^node_modules\//, '~/')]);
    });
  return (line) => markers.findLast(([start]) => start <= line)?.[1] ?? '?';
}

/** Self and inclusive instructions per function name, from one callgrind part (calls within one name not counted twice). */
function costs(
  file: string,
  rename: (fn: string) => string,
): { self: Map<string, number>; inclusive: Map<string, number>; calls: Map<string, number>; total: number } {
  const names = new Map<string, string>();
  const named = (value: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(value);
    if (!m) return value;
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? value;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const calls = new Map<string, number>(); // `callee\tcaller`: instructions of the calls, callee's inclusive
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  let fn = '';
  let callee: string | undefined;
  let inCall = false;
  let total = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) {
      fn = rename(named(line.slice(3)));
      continue;
    }
    if (line.startsWith('cfn=')) {
      callee = rename(named(line.slice(4)));
      continue;
    }
    if (line.startsWith('calls=')) {
      inCall = true;
      continue;
    }
    const m = /^(?:[+-]?\d+|\*)\s+(\d+)/.exec(line);
    if (m) {
      const n = Number(m[1]);
      if (inCall) {
        if (callee !== fn) {
          add(inclusive, fn, n);
          add(calls, `${callee}\t${fn}`, n);
        }
        inCall = false;
      } else {
        add(self, fn, n);
        add(inclusive, fn, n);
        total += n;
      }
      continue;
    }
    const t = /^(?:summary|totals): (\d+)/.exec(line);
    if (t) total = Number(t[1]);
  }
  return { self, inclusive, calls, total };
}

/** The part a function is counted in. */
function partOf(fn: string): string {
  if (fn.startsWith('src/')) return "Parley's JavaScript (src/)";
  if (fn.startsWith('bench/')) return "the driver's JavaScript (bench/)";
  if (fn.startsWith('~/')) return 'libraries (node_modules: zod…)';
  if (fn.startsWith('node:')) return "Node's own JavaScript (node:internal, undici)";
  if (/JsonParse|JSONParse|JsonParser|JsonStringif|JSONStringify|JSON_|FastJsonStringifier/i.test(fn))
    return 'JSON.parse and JSON.stringify';
  if (
    /Scaveng|MarkCompact|Heap::|Sweeper|GCTracer|MemoryAllocator|ConcurrentMarking|Marking|Evacuat|PagedSpace|NewSpace|SemiSpace|RememberedSet|SlotSet|IterateRoots|MemoryChunk|Heap\b/.test(
      fn,
    )
  )
    return 'garbage collection';
  if (
    /compiler::|Turbofan|TurboFan|Pipeline|Maglev|Sparkplug|baseline::|OptimizingCompile|Compiler::|Zone::|interpreter::|BytecodeGenerator|Parser::|ParserBase|Scanner|ast::|AstNode|DeclarationScope|Scope::/.test(
      fn,
    )
  )
    return 'compiling (TurboFan, parser, bytecode)';
  if (
    /^(?:__)?(?:malloc|free|calloc|realloc|_int_malloc|_int_free|malloc_consolidate|unlink_chunk|cfree|operator new|operator delete)|tcache|arena_get/.test(
      fn,
    )
  )
    return 'malloc/free';
  if (/EVP_|OPENSSL|ossl_|aes|gcm|AES|GCM|SHA|sha256|HMAC|CRYPTO_|BN_|crypto::|CipherBase|Hmac|Hash::/.test(fn))
    return 'crypto (OpenSSL, node:crypto)';
  if (/Promise|Microtask|AsyncFunction|Await|Resolve|Reject|PerformPromiseThen|EnqueueJob/.test(fn))
    return 'promises, microtasks, async functions';
  if (fn.startsWith('Builtins_') || /IC(_|$)|LoadIC|StoreIC|KeyedLoad|KeyedStore/.test(fn)) return "V8's builtins and inline caches";
  if (/^(?:v8::|node::|uv_|Runtime_|v8_inspector)/.test(fn)) return "V8's runtime and Node's C++";
  if (/^(?:mem|str|__mem|__str|simdutf|icu_)/.test(fn)) return 'libc strings and memory, simdutf, ICU';
  return 'other';
}

const driver = await buildDriver();
const source = sourceOf(driver);
const out = `/tmp/parley-profile-${process.pid}-${scenario}.out`;
let pid = 0;
try {
  const valgrind = ['--tool=callgrind', `--callgrind-out-file=${out}`, '--dump-before=uv_os_getpriority', '--smc-check=all-non-file'];
  // As the gate runs it: valgrind by its path, and no environment (its size is start-up allocation too).
  const valgrindPath = execFileSync('sh', ['-c', 'command -v valgrind'], { encoding: 'utf8' }).trim();
  const child = execFile(
    valgrindPath,
    [...valgrind, process.execPath, ...NODE_FLAGS, '--perf-basic-prof', driver, scenario, String(cycles), String(warmUp)],
    { maxBuffer: 16 * 1024 * 1024, env: {} },
  );
  pid = child.pid!;
  await new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`valgrind exited with ${code}`)))),
  );
  const map = perfMap(pid);
  const rename = (fn: string) => {
    if (!/^0x[0-9a-f]+$/.test(fn)) return fn;
    const jit = nameAt(map, parseInt(fn, 16));
    if (!jit) return '(unnamed JIT code)';
    // `JS:*name file:///…/cycles.mjs:line:column` (V8 11), or a builtin, stub or regular expression's code.
    const at = /^(?:\w+:)?[*~^+]?(.*?) (?:file:\/\/)?(\S*?):(\d+):\d+$/.exec(jit);
    if (!at) return jit.replace(/^(?:\w+:)?[*~^+]?/, '') || jit;
    const [, name, script, line] = at;
    const file = script!.endsWith('cycles.mjs') ? source(Number(line)) : script!;
    return `${file} ${name || '(anonymous)'}`;
  };
  const { self, inclusive, calls, total } = costs(`${out}.2`, rename);
  const per = (n: number) => Math.round(n / cycles).toLocaleString('en-US');
  console.log(`${scenario}: ${per(total)} instructions per cycle (${cycles} after ${warmUp}), with --perf-basic-prof\n`);
  const parts = new Map<string, number>();
  for (const [fn, n] of self) parts.set(partOf(fn), (parts.get(partOf(fn)) ?? 0) + n);
  console.log('| part (self) | per cycle |\n|---|---|');
  for (const [part, n] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${part} | ${per(n)} |`);
  // By inclusive, the frames every cycle runs under (the event loop, the microtask queue, the interpreter's handlers) left out.
  const framing = (fn: string) => inclusive.get(fn)! >= 0.9 * total || /^Builtins_\w+Handler|^\(below main\)/.test(fn);
  for (const [title, map] of [
    ['inclusive', new Map([...inclusive].filter(([fn]) => !framing(fn)))],
    ['self', self],
  ] as const) {
    console.log(`\n| function (by ${title}) | inclusive | self |\n|---|---|---|`);
    for (const [fn] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`| ${fn.replaceAll('|', '\\|').slice(0, 110)} | ${per(inclusive.get(fn) ?? 0)} | ${per(self.get(fn) ?? 0)} |`);
  }
  // ALL=1: every function of 200 instructions a cycle or more, by inclusive (to grep for one); ALL=<n> (n > 1): of n or more.
  if (process.env.ALL) {
    const least = Number(process.env.ALL) > 1 ? Number(process.env.ALL) : 200;
    console.log('\n| every function | inclusive | self |\n|---|---|---|');
    for (const [fn, n] of [...inclusive].filter(([, n]) => n / cycles >= least).sort((a, b) => b[1] - a[1]))
      console.log(`| ${fn.replaceAll('|', '\\|').slice(0, 110)} | ${per(n)} | ${per(self.get(fn) ?? 0)} |`);
  }
  // CALLERS=<regular expression>: who calls the functions it matches (JSON.parse's and JSON.stringify's entries, say).
  const asked = process.env.CALLERS && new RegExp(process.env.CALLERS);
  if (asked) {
    console.log('\n| function | caller | inclusive of the calls |\n|---|---|---|');
    for (const [key, n] of [...calls]
      .filter(([key]) => asked.test(key.split('\t')[0]!))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)) {
      const [callee, caller] = key.split('\t');
      console.log(`| ${callee!.slice(0, 70)} | ${caller!.slice(0, 70)} | ${per(n)} |`);
    }
  }
} finally {
  removeDriver(driver);
  for (const part of [out, `${out}.1`, `${out}.2`, `${out}.3`]) rmSync(part, { force: true });
  if (pid) rmSync(`/tmp/perf-${pid}.map`, { force: true });
}
