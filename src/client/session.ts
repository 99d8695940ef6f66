// What the client needs from an era: send a raw request, run a request to its final result, close.
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol';
import type { RpcResponse } from './exchange';
import type { ElicitationHandler } from './types';

export interface Session {
  readonly protocolVersion: string;
  send(message: JsonRpcRequest, signal?: AbortSignal): Promise<RpcResponse>;
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** What a session borrows from its client. */
export interface SessionContext {
  nextId(): number;
  handler(): ElicitationHandler | undefined;
  maxRounds: number;
  /** Fires when the client closes. */
  closed: AbortSignal;
  onNotification?: (notification: JsonRpcNotification) => void;
}
