// The server: its apps and tools. worker.ts serves it on Cloudflare Workers; the tests (server.test.ts) run it in-process.
import { App, type FrontMcpConfigInput } from 'parley-mcp';
import { Approve } from './approve.tool';
import { Greet } from './greet.tool';
import { InboxLink } from './inbox-link.tool';

@App({ id: 'main', name: '__NAME__', tools: [Greet, Approve, InboxLink] })
export class Main {}

export const config: FrontMcpConfigInput = {
  info: { name: '__NAME__', version: '0.1.0' },
  apps: [Main],
  elicitation: { enabled: true },
};
