// serveStdio: the server over newline-delimited JSON-RPC on stdin/stdout, with nothing but MCP on stdout.
import type { Readable, Writable } from 'node:stream';
import { ANONYMOUS, type AuthInfo } from '../model';
import { errorResponse, parseJson, wireError } from '../protocol';
import type { EnvSource } from '../runtime';
import { buildServer, type ServerInput } from '../app';
import { nodeAead } from './node-aead';
import { NODE_STORE_CRYPTO } from './node-store-crypto';
import { nodeHmac } from './node-hmac';
import { StdioConnection, readLines, guardOutput } from '../stdio';

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const CLOSE_GRACE_MS = 2_000;
const TOO_LARGE = errorResponse(null, wireError('PARSE_ERROR', 'Parse error: message too large'));
const NOT_UTF8 = errorResponse(null, wireError('PARSE_ERROR', 'Parse error: the message is not valid UTF-8'));

export interface StdioOptions {
  /** Default process.stdin. */
  input?: Readable;
  /** Default process.stdout. While it is process.stdout, other writes to stdout go to stderr. */
  output?: Writable;
  /** The caller every request runs as. Default anonymous: the client is whoever started this process. */
  auth?: AuthInfo;
  env?: EnvSource;
  /** A line longer than this is refused with a parse error. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Exit the process once the input closes. Default true when the input is process.stdin. */
  exitOnClose?: boolean;
  /** Sees every message in and out (parley dev logs them); it must not throw. */
  observe?: (direction: 'in' | 'out', message: unknown) => void;
}

// parseJson: what an observer walks is held to the depth the connection takes (MAX_JSON_DEPTH); deeper stays text.
const parsedOrText = (text: string): unknown => {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
};

export interface StdioServer {
  /** Resolves once the input closed and the calls in flight ended. */
  closed: Promise<void>;
  /** Stops reading and cancels the calls in flight. */
  close(): Promise<void>;
}

/**
 * Serves the server on stdin/stdout for a client that started this process (a desktop app, an agent).
 * @example await serveStdio(Server); // in bin/server.ts, started by the client
 */
export async function serveStdio(input: ServerInput, options: StdioOptions = {}): Promise<StdioServer> {
  const server = await buildServer(input, options.env, undefined, { hmac: nodeHmac, aead: nodeAead, storeCrypto: NODE_STORE_CRYPTO }); // node:crypto: stdio runs on Node
  const stdin = options.input ?? process.stdin;
  const sink = guardOutput(options.output ?? process.stdout);
  const { observe } = options;
  const send = (message: unknown) => {
    observe?.('out', message);
    return sink.write(JSON.stringify(message));
  };
  const connection = new StdioConnection(server, options.auth ?? ANONYMOUS, send);
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stop();
      // A client may close stdin once it has sent everything: calls that end soon still get their answer.
      await Promise.race([connection.settled(), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
      connection.cancelAll('The client closed stdin');
      sink.restore();
      finish();
      if (options.exitOnClose ?? stdin === process.stdin) process.exit(0);
    })());
  const stop = readLines(stdin, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, {
    line: (text) => {
      if (observe) observe('in', parsedOrText(text));
      connection.receive(text);
    },
    oversize: () => void sink.write(JSON.stringify(TOO_LARGE)),
    notUtf8: () => void sink.write(JSON.stringify(NOT_UTF8)),
    end: () => void close(),
  });
  // A client that went away leaves a broken pipe: stop as if stdin had closed.
  (options.output ?? process.stdout).once('error', () => void close());
  server.logger.info(`Serving ${server.info.name} ${server.info.version} over stdio`);
  return { closed, close };
}
