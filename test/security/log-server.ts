// The server whose log the log-injection tests read, run as its own process: the security fixture with the default
// logger (text on stderr, or JSON) and a tool that fails with the caller's text, over HTTP with the access log ("http", prints
// `listening <url>` on stdout) or over stdio ("stdio").
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve } from 'parley-mcp/node';
import { serveStdio } from 'parley-mcp/stdio';
import { config as hostile } from './fixture';

@Tool({
  name: 'fail_with',
  description: 'Fails with the text it is given: a tool error the caller reads, or a thrown error only the log shows',
  inputSchema: { text: z.string(), thrown: z.boolean() },
})
class FailWith extends ToolContext {
  execute({ text, thrown }: { text: string; thrown: boolean }) {
    if (thrown) throw new Error(text);
    return this.fail(text);
  }
}

@App({ id: 'failing', tools: [FailWith] })
class Failing {}

const { logger: _quiet, ...rest } = hostile;
// PARLEY_TEST_LOG_FORMAT=json: the JSON log.
const format = process.env.PARLEY_TEST_LOG_FORMAT === 'json' ? 'json' : undefined;
const config: FrontMcpConfigInput = { ...rest, apps: [...(rest.apps ?? []), Failing], logging: { format } };

if (process.argv[2] === 'stdio') await serveStdio(config);
else {
  const running = await serve(config, { port: 0, quiet: true, accessLog: true });
  process.stdout.write(`listening ${running.url}\n`);
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}
