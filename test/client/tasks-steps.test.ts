// this.step() in a call that becomes a task, with parley-mcp/client over HTTP: a step before a round question runs
// once over the round's retry (recorded in requestState), a step inside the task once (recorded in the task's record).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { McpClient } from 'parley-mcp/client';
import { serve, type RunningServer } from 'parley-mcp/node';

const ran = { quote: 0, charge: 0 };

@Tool({
  name: 'quote_then_charge',
  description: 'Quotes in a step, asks in a round, becomes a task, charges in a step, asks in the task',
  inputSchema: { item: z.string() },
  execution: { taskSupport: 'optional' },
})
class QuoteThenCharge extends ToolContext {
  async execute({ item }: { item: string }) {
    const quote = await this.step('quote', () => ({ item, price: 10 * ++ran.quote }));
    const go = await this.elicit(`Buy ${item} for ${quote.price}?`, z.object({ go: z.boolean() }));
    if (!go.content?.go) return 'not bought';
    await this.startTask();
    const receipt = await this.step('charge', () => `R-${++ran.charge}`);
    const sure = await this.elicit(`Charged ${receipt}: ship it?`, z.object({ ship: z.boolean() }));
    return `${item} at ${quote.price}, ${receipt}, ship=${sure.content?.ship}`;
  }
}

@App({ id: 'steps', tools: [QuoteThenCharge] })
class Steps {}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let server: RunningServer;
beforeAll(async () => {
  server = await serve(
    {
      info: { name: 'steps', version: '1.0.0' },
      apps: [Steps],
      elicitation: { enabled: true },
      logger: quiet,
      tasks: { pollIntervalMs: 20 },
    },
    { port: 0 },
  );
});
afterAll(() => server.close());

describe('this.step() in a call that becomes a task', () => {
  it('runs the step before the round once and the step inside the task once', async () => {
    const client = new McpClient({ url: server.url, tasks: { minPollMs: 1 } });
    const asked: string[] = [];
    client.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: params.message.startsWith('Buy') ? { go: true } : { ship: true } };
    });
    try {
      const result = await client.callTool({ name: 'quote_then_charge', arguments: { item: 'lamp' } });
      expect(result.content).toEqual([{ type: 'text', text: 'lamp at 10, R-1, ship=true' }]);
      expect(asked).toEqual(['Buy lamp for 10?', 'Charged R-1: ship it?']);
      expect(ran).toEqual({ quote: 1, charge: 1 });
    } finally {
      await client.close();
    }
  });
});
