// The inbox example: approve_deploy (a persistent question, as in docs/elicitation.md) and inbox_link (a one-time link on stderr).
import { App, FrontMcp, printQuestionInboxLink, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';

@Tool({
  name: 'approve_deploy',
  description: 'Asks the person to approve a deploy; the question waits in the inbox if nobody answers in time',
  inputSchema: { version: z.string(), waitMs: z.number().int().positive().optional() },
  outputSchema: { approved: z.boolean(), note: z.string().optional() },
})
export class ApproveDeployTool extends ToolContext {
  async execute(input: { version: string; waitMs?: number }) {
    const answer = await this.elicit(
      `Deploy ${input.version}?`,
      z.object({
        approve: z.boolean().describe('Approve this deploy'),
        environment: z.enum(['staging', 'production']).default('staging'),
        note: z.string().max(200).optional().describe('A note for the changelog'),
      }),
      { ttl: input.waitMs ?? 60_000, persist: { key: `deploy-${input.version}` } },
    );
    return { approved: answer.status === 'accept' && answer.content?.approve === true, note: answer.content?.note };
  }
}

@Tool({
  name: 'inbox_link',
  description: 'Prints a one-time inbox link on the server console',
  inputSchema: {},
  outputSchema: { expiresAt: z.number() },
})
export class InboxLinkTool extends ToolContext {
  async execute() {
    return printQuestionInboxLink(this); // the link goes to stderr, never to the MCP client
  }
}

@App({ id: 'deploys', tools: [ApproveDeployTool, InboxLinkTool] })
export class Deploys {}

export const config: FrontMcpConfigInput = {
  info: { name: 'deploys', version: '1.0.0' },
  apps: [Deploys],
  http: { auth: { people: 'loopback-token' } },
  elicitation: { enabled: true, persistent: { storage: { type: 'memory' } } },
};

@FrontMcp(config)
export default class Server {}
