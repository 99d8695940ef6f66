// A server module named main.ts with a config export and no server.ts beside it: what the fixture's lookup falls back to.
import { App, FrontMcp, Tool, ToolContext } from 'parley-mcp';

@Tool({ name: 'ping_main', description: 'Answers pong', inputSchema: {} })
class PingMain extends ToolContext {
  execute() {
    return 'pong from main.ts';
  }
}

@App({ id: 'main-only', tools: [PingMain] })
class MainOnly {}

export const config = { info: { name: 'main-only', version: '1.0.0' }, apps: [MainOnly] };

@FrontMcp(config)
export default class Server {}
