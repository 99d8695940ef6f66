// The asker contract (asker-contract.ts) over the four askers of a call, each reached the way a client reaches it.
import { connect, createFetchHandler } from 'parley-mcp';
import { McpClient } from 'parley-mcp/client';
import { type Answer, type AskerDriver, describeAskerContract } from './asker-contract';

/** A parley-mcp/client over the handler in this process, speaking `protocolVersion`, answering with elicitation declared. */
const clientDriver = (protocolVersion: string): AskerDriver => ({
  async start(config) {
    const handler = createFetchHandler(config);
    const client = new McpClient({ url: 'http://localhost/mcp', fetch: (r) => handler(r), protocolVersion });
    return {
      async call(name, args, answer) {
        client.onElicitation((params) => answer({ message: params.message, requestedSchema: params.requestedSchema }));
        return client.callTool({ name, arguments: args });
      },
      close: () => client.close(),
    };
  },
});

/**
 * An older client that declared no elicitation: each question comes back as a pending result, and the client's model
 * answers it through the sendElicitationResult tool, until the tool's own result comes.
 */
const fallbackDriver: AskerDriver = {
  async start(config) {
    const handler = createFetchHandler(config);
    const client = new McpClient({
      url: 'http://localhost/mcp',
      fetch: (r) => handler(r),
      protocolVersion: '2025-11-25',
      elicitation: false,
    });
    return {
      async call(name, args, answer) {
        let result = await client.callTool({ name, arguments: args });
        for (let asked = 0; result._meta?.elicitationPending; asked++) {
          if (asked > 10) throw new Error('the fallback kept asking');
          const { elicitId, message, schema } = result._meta.elicitationPending as {
            elicitId: string;
            message: string;
            schema: Record<string, unknown>;
          };
          const given: Answer = answer({ message, requestedSchema: schema });
          result = await client.callTool({ name: 'sendElicitationResult', arguments: { elicitId, ...given } });
        }
        return result;
      },
      close: () => client.close(),
    };
  },
};

/** connect(): the tool runs in this process and its questions go to the handler given. */
const handlerDriver: AskerDriver = {
  async start(config) {
    const client = await connect(config);
    return {
      async call(name, args, answer) {
        client.onElicitation((params) => answer({ message: params.message, requestedSchema: params.requestedSchema }));
        return client.callTool(name, args);
      },
      close: () => client.dispose(),
    };
  },
};

describeAskerContract('rounds (2026-07-28)', clientDriver('2026-07-28'));
describeAskerContract('stream (2025-11-25)', clientDriver('2025-11-25'));
describeAskerContract('fallback (sendElicitationResult)', fallbackDriver);
describeAskerContract('handler (connect())', handlerDriver);
