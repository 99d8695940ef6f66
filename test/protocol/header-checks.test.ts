// The headers that repeat the body (protocol/modern-checks.ts): a value sent as it stands is taken without decoding,
// and only then; one that decoding would change (spaces at an end, =?base64?…?=, characters past ASCII) is checked
// as before, so the fast path answers exactly what the slow one did.
import { describe, expect, it } from 'vitest';
import { checkHeaders, readEnvelope } from '../../src/protocol';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const headers = (name: string) => new Headers({ 'mcp-method': 'tools/call', 'mcp-name': name });
const code = (check: () => void) => {
  try {
    check();
    return 'ok';
  } catch (error) {
    return (error as { code?: number }).code;
  }
};

describe('header checks against the body', () => {
  it('takes a plain value equal to the body', () => {
    expect(code(() => checkHeaders(headers('list_tickets'), 'tools/call', { name: 'list_tickets' }))).toBe('ok');
    expect(code(() => readEnvelope({ _meta: META }, '2026-07-28'))).toBe('ok');
  });

  it('refuses, as decoding does, a value equal to the body that decoding would change', () => {
    // Headers() trims what it is given, so these reach the check as the raw strings a Node request can carry.
    const raw = (value: string) => ({ get: (name: string) => (name === 'mcp-name' ? value : 'tools/call') }) as unknown as Headers;
    for (const name of ['=?base64?eA==?=', 'café', 'tab\there'])
      expect(code(() => checkHeaders(raw(name), 'tools/call', { name }))).toBe(-32020);
    expect(code(() => checkHeaders(raw(' padded '), 'tools/call', { name: ' padded ' }))).toBe(-32020);
    expect(code(() => checkHeaders(raw('=?base64?eA==?='), 'tools/call', { name: 'x' }))).toBe('ok');
  });

  it('requires MCP-Protocol-Version when the host gives headers, and not when it gives none (stdio)', () => {
    expect(code(() => readEnvelope({ _meta: META }, null))).toBe(-32020);
    expect(code(() => readEnvelope({ _meta: META }, '2025-11-25'))).toBe(-32020);
    expect(code(() => readEnvelope({ _meta: META }))).toBe('ok');
  });
});
