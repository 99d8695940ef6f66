// The matchers the docs' tests use, for tool results, raw JSON-RPC responses and tool lists.
import { expect } from 'vitest';
import type { CallToolResult, RpcResponse, Tool } from '../client';
import { ToolResult } from './tool-result';

const asResult = (received: unknown): ToolResult | undefined =>
  received instanceof ToolResult
    ? received
    : typeof received === 'object' && received !== null && Array.isArray((received as CallToolResult).content)
      ? new ToolResult(received as CallToolResult)
      : undefined;

const show = (value: unknown) => JSON.stringify(value instanceof ToolResult ? value.raw : value)?.slice(0, 500) ?? String(value);

const notA = (what: string, received: unknown) => ({ pass: false, message: () => `expected ${what}, got ${show(received)}` });

function toolsOf(received: unknown): Tool[] | undefined {
  if (Array.isArray(received)) return received as Tool[];
  const tools = (received as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) ? (tools as Tool[]) : undefined;
}

expect.extend({
  /** A tool result with isError set, and `_meta.code` equal to `code` when one is given. */
  toBeError(received: unknown, code?: string) {
    const result = asResult(received);
    if (!result) return notA('a tool result', received);
    const actual = result._meta?.code;
    const pass = result.isError && (code === undefined || actual === code);
    return {
      pass,
      message: () =>
        pass
          ? `expected a successful result, got an error${actual ? ` (${actual})` : ''}: ${result.text()}`
          : `expected an error result${code ? ` with code ${code}` : ''}, got ${result.isError ? `code ${String(actual)}` : 'success'}: ${show(result.raw)}`,
    };
  },

  /** Some text item of a tool result contains `text` (or matches it, for a RegExp). */
  toHaveTextContent(received: unknown, text: string | RegExp) {
    const result = asResult(received);
    if (!result) return notA('a tool result', received);
    const all = result.text();
    const pass = typeof text === 'string' ? all.includes(text) : text.test(all);
    return { pass, message: () => `expected the result's text ${pass ? 'not ' : ''}to contain ${String(text)}, got: ${all}` };
  },

  /** A raw JSON-RPC response whose error has this code. */
  toHaveErrorCode(received: unknown, code: number) {
    const error = (received as RpcResponse | null)?.error as { code?: unknown } | undefined;
    const pass = error?.code === code;
    return { pass, message: () => `expected a JSON-RPC error ${pass ? 'other than' : 'with code'} ${code}, got ${show(received)}` };
  },

  /** A tool list (an array, or a tools/list result) that has a tool with this name. */
  toContainTool(received: unknown, name: string) {
    const tools = toolsOf(received);
    if (!tools) return notA('a list of tools', received);
    const pass = tools.some((t) => t?.name === name);
    return {
      pass,
      message: () => `expected the tools ${pass ? 'not ' : ''}to include "${name}"; they are: ${tools.map((t) => t.name).join(', ')}`,
    };
  },

  /** A tool result without isError, or a JSON-RPC response with a result and no error. */
  toBeSuccessful(received: unknown) {
    const result = asResult(received);
    const response = received as RpcResponse | null;
    const pass = result
      ? !result.isError
      : !!response && typeof response === 'object' && 'result' in response && !response.error && response.result?.isError !== true;
    return { pass, message: () => `expected ${pass ? 'a failure' : 'success'}, got ${show(received)}` };
  },
});

interface ParleyMatchers<R = unknown> {
  /** A tool result with isError set, and `_meta.code` equal to `code` when one is given. */
  toBeError(code?: string): R;
  /** Some text item of a tool result contains `text`. */
  toHaveTextContent(text: string | RegExp): R;
  /** A raw JSON-RPC response whose error has this code. */
  toHaveErrorCode(code: number): R;
  /** A tool list that has a tool with this name. */
  toContainTool(name: string): R;
  /** A tool result without isError, or a JSON-RPC response with a result. */
  toBeSuccessful(): R;
}

declare module 'vitest' {
  interface Matchers<T = any> extends ParleyMatchers<T> {}
}

export { expect };
