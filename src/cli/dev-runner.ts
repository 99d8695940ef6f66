// parley dev's supervisor: runs the server module in a child process, and runs it again when a source file changes.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildReport } from './dev-child';
import { watchTree, type TreeWatch } from './dev-watch';

const SOURCE = /\.(?:[cm]?[jt]sx?|json)$/;
const IGNORED = /(?:^|[\\/])(?:node_modules|\.git)(?:[\\/]|$)/;
const DEBOUNCE_MS = 150;

interface RunnerOptions {
  entry: string;
  /** The folder watched (recursively) for changes. */
  root: string;
  mode: 'http' | 'stdio';
  port: number;
  print(line: string): void;
  /** Where the child's stderr (and, over HTTP, stdout) go. */
  logSink: NodeJS.WritableStream;
  /** Over stdio: wires the new child's stdin/stdout into the client's stream. */
  attach?(child: ChildProcess): void;
  onReady?(report: ChildReport): void;
}

export class DevRunner {
  private child?: ChildProcess;
  private watcher?: TreeWatch;
  private timer?: ReturnType<typeof setTimeout>;
  private stopping?: Promise<void>;
  private closed = false;

  constructor(private readonly options: RunnerOptions) {}

  start(): void {
    // Survives atomic saves (a temp file renamed over the source): see dev-watch.ts.
    const skip = (path: string) => IGNORED.test(path);
    this.watcher = watchTree(
      this.options.root,
      (name) => {
        if (!SOURCE.test(name) || IGNORED.test(name)) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.restart(name), DEBOUNCE_MS);
      },
      skip,
    );
    this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    await this.stop();
  }

  private async restart(changed: string): Promise<void> {
    if (this.closed) return;
    this.options.print(`[parley] ${changed} changed: restarting`);
    await this.stop();
    if (!this.closed) this.spawn();
  }

  private spawn(): void {
    const { entry, mode, port } = this.options;
    const loader = fileURLToPath(import.meta.resolve('tsx'));
    // Built (dist/cli/*.js) in an installed package; in Parley's own repository, the source, whose users' modules
    // import parley-mcp from its source too (the "parley-source" export condition).
    const fromSource = import.meta.url.endsWith('.ts');
    const script = fileURLToPath(new URL(fromSource ? './dev-child.ts' : './dev-child.js', import.meta.url));
    const flags = fromSource ? ['--conditions=parley-source', '--import', loader] : ['--import', loader];
    // A log on our own stderr is handed to the child as it is, so the server sees the terminal a person sees (and prints
    // inbox links there, as `persistent.inboxLinks: 'terminal'` allows); a --log file stays a pipe.
    const stderr = this.options.logSink === process.stderr ? 'inherit' : 'pipe';
    const child = spawn(process.execPath, [...flags, script, entry, mode, String(port)], { stdio: ['pipe', 'pipe', stderr, 'ipc'] });
    this.child = child;
    child.stderr?.pipe(this.options.logSink, { end: false });
    if (mode === 'stdio') this.options.attach?.(child);
    else child.stdout!.pipe(this.options.logSink, { end: false });
    child.on('message', (report: ChildReport) => {
      if (report.type === 'ready') this.options.onReady?.(report);
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.closed || signal === 'SIGTERM') return;
      const why = code === 3 ? 'fix the error above' : `the server exited (${signal ?? `code ${code}`})`;
      this.options.print(`[parley] ${why}; waiting for a change to ${this.options.root}`);
    });
  }

  /** Ends the running child, if any, and resolves once it has exited and freed its port. */
  private stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return (this.stopping ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(force);
        this.stopping = undefined;
        resolve();
      });
      child.kill('SIGTERM');
    }));
  }
}
