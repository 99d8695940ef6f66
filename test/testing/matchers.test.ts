// The matchers pass on what they describe and fail, with a message that says why, on anything else.
import { describe, it } from 'vitest';
import { expect, ToolResult } from 'parley-mcp/testing';

const ok = new ToolResult({ content: [{ type: 'text', text: 'deleted t3' }] });
const failed = new ToolResult({ content: [{ type: 'text', text: 'bad answer' }], isError: true, _meta: { code: 'INVALID_INPUT' } });

describe('toBeError', () => {
  it('checks isError, and the code when given', () => {
    expect(failed).toBeError();
    expect(failed).toBeError('INVALID_INPUT');
    expect(failed.raw).toBeError('INVALID_INPUT');
    expect(ok).not.toBeError();
    expect(() => expect(failed).toBeError('ELICITATION_TIMEOUT')).toThrow(
      'expected an error result with code ELICITATION_TIMEOUT, got code INVALID_INPUT',
    );
    expect(() => expect(ok).toBeError()).toThrow('got success');
    expect(() => expect({ result: {} }).toBeError()).toThrow('expected a tool result');
  });
});

describe('toHaveTextContent', () => {
  it('looks for the text in the text items', () => {
    expect(ok).toHaveTextContent('deleted');
    expect(ok).toHaveTextContent(/t\d/);
    expect(() => expect(ok).toHaveTextContent('purged')).toThrow("expected the result's text to contain purged, got: deleted t3");
  });
});

describe('toHaveErrorCode', () => {
  it('reads a raw response', () => {
    const response = { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } };
    expect(response).toHaveErrorCode(-32021);
    expect(() => expect(response).toHaveErrorCode(-32602)).toThrow('expected a JSON-RPC error with code -32602');
    expect(() => expect({ jsonrpc: '2.0', id: 1, result: {} }).toHaveErrorCode(-32602)).toThrow();
  });
});

describe('toContainTool', () => {
  it('takes a tool list or a tools/list result', () => {
    const tools = [{ name: 'close_ticket', inputSchema: {} }];
    expect(tools).toContainTool('close_ticket');
    expect({ tools }).toContainTool('close_ticket');
    expect(tools).not.toContainTool('sendElicitationResult');
    expect(() => expect(tools).toContainTool('delete_ticket')).toThrow(
      'expected the tools to include "delete_ticket"; they are: close_ticket',
    );
  });
});

describe('toBeSuccessful', () => {
  it('takes a tool result or a raw response', () => {
    expect(ok).toBeSuccessful();
    expect({ jsonrpc: '2.0', id: 1, result: { tools: [] } }).toBeSuccessful();
    expect(failed).not.toBeSuccessful();
    expect({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }).not.toBeSuccessful();
    expect({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } }).not.toBeSuccessful();
  });
});

describe('ToolResult', () => {
  it('reads structuredContent, else JSON text, and says when there is neither', () => {
    expect(new ToolResult({ content: [], structuredContent: { a: 1 } }).json()).toEqual({ a: 1 });
    expect(new ToolResult({ content: [{ type: 'text', text: '{"b":2}' }] }).json()).toEqual({ b: 2 });
    expect(() => ok.json()).toThrow('its text is not JSON: deleted t3');
  });
});
