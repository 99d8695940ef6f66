// A test file's output is its own: parley-mcp/testing starts the server with no internal startup line at the default
// log level (it opened every file with "Created elicitation store { … }") (#34).
import { afterEach, expect, it, vi } from 'vitest';
import { connectMcp } from 'parley-mcp/testing';
import { config } from '../../examples/help-desk/server';

afterEach(() => {
  vi.restoreAllMocks();
});

it('starting a server with elicitation on and listing its tools logs nothing', async () => {
  const written: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
  vi.spyOn(console, 'info').mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
  const mcp = await connectMcp({ ...config, info: { name: 'quiet', version: '1.0.0' } });
  try {
    expect(await mcp.tools.list()).toContainTool('close_ticket');
  } finally {
    await mcp.close();
  }
  expect(written).toEqual([]);
});
