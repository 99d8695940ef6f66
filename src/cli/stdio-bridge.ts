// parley dev --stdio: the client's stdin/stdout stay with this process while the server's child comes and goes.
import type { ChildProcess } from 'node:child_process';
import { errorResponse, parseJson, wireError, type JsonRpcId, type WireErrorKey } from '../protocol';
import { readLines } from '../stdio';

const REPLAY_ID = 'parley-dev-replay';
const MAX_LINE = 4 * 1024 * 1024;

// parseJson: a line nested past MAX_JSON_DEPTH is no message here (the server refuses it), so its id is never walked.
const parse = (line: string): Record<string, any> | undefined => {
  try {
    const value = parseJson(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

export class StdioBridge {
  private child?: ChildProcess;
  /** Requests sent to the current child and not answered yet, by JSON id. */
  private readonly pending = new Map<string, JsonRpcId>();
  /** A client before 2026-07-28 initialized once; a new child is given the same initialize. */
  private initialize?: Record<string, any>;

  constructor(
    private readonly write: (line: string) => void,
    private readonly onClientGone: () => void,
  ) {}

  listen(input: NodeJS.ReadableStream): void {
    readLines(input as never, MAX_LINE, {
      line: (text) => this.fromClient(text),
      oversize: () => this.fail(null, 'PARSE_ERROR', 'Parse error: message too large'),
      notUtf8: () => this.fail(null, 'PARSE_ERROR', 'Parse error: the message is not valid UTF-8'),
      end: () => this.onClientGone(),
    });
  }

  /** A new child: replays initialize if the client sent one, then carries its lines to the client. */
  attach(child: ChildProcess): void {
    this.child = child;
    if (this.initialize) {
      child.stdin!.write(`${JSON.stringify({ ...this.initialize, id: REPLAY_ID })}\n`);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    }
    readLines(child.stdout!, MAX_LINE, { line: (text) => this.fromServer(text), oversize: () => {}, notUtf8: () => {}, end: () => {} });
    child.stdin!.on('error', () => {});
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
      // The requests it held are lost: say so, so the client does not wait for them.
      for (const id of this.pending.values()) this.fail(id, 'INTERNAL_ERROR', 'The server restarted while this request ran; send it again');
      this.pending.clear();
    });
  }

  private fromClient(text: string): void {
    const message = parse(text);
    const isRequest = message && typeof message.method === 'string' && message.id !== undefined;
    if (isRequest && message.method === 'initialize') this.initialize = message;
    if (!this.child || this.child.exitCode !== null) {
      if (isRequest)
        this.fail(message.id, 'INTERNAL_ERROR', 'The server module failed to load; fix it (see the log) and send the request again');
      return;
    }
    if (isRequest) this.pending.set(JSON.stringify(message.id), message.id);
    this.child.stdin!.write(`${text}\n`);
  }

  /** An answer this process gives in the server's stead, as every JSON-RPC error goes out. */
  private fail(id: JsonRpcId | null, key: WireErrorKey, message: string): void {
    this.write(JSON.stringify(errorResponse(id, wireError(key, message))));
  }

  private fromServer(text: string): void {
    const message = parse(text);
    if (message && message.method === undefined) {
      if (message.id === REPLAY_ID) return;
      this.pending.delete(JSON.stringify(message.id));
    }
    this.write(text);
  }
}
