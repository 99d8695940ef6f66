// What the client needs from an era: send a raw request, run a request to its final result, close.
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol';
import type { RpcResponse } from './exchange';
import type { CallOptions, ElicitationHandler } from './types';

/** A request's options inside the client: a call's own, and whether a task result is followed or handed back. */
export interface RequestOptions extends CallOptions {
  /** 'return' hands back the first task state instead of polling it (startTool). Default 'follow'. */
  task?: 'follow' | 'return';
}

export interface Session {
  readonly protocolVersion: string;
  send(message: JsonRpcRequest, signal?: AbortSignal): Promise<RpcResponse>;
  request(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** What a session borrows from its client. */
export interface SessionContext {
  nextId(): number;
  handler(): ElicitationHandler | undefined;
  maxRounds: number;
  /** Fires when the client closes. */
  closed: AbortSignal;
  /** A call's signal: its caller's (when given) joined with `closed`, a signal of its own, so many calls at once put
   * no listeners on the one `closed` they share (Node warns past ten on one signal). */
  signal(given?: AbortSignal): AbortSignal;
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Whether the user turned tasks on (ClientOptions.tasks). */
  tasks: boolean;
  /** A task's wait between polls, from the server's suggestion. */
  pace(suggested: unknown): number;
}
