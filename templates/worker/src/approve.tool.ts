// A question that waits in the person's inbox (`persist`): if nobody answers within `ttl`, the call ends with
// QUESTION_PENDING and the question stays; the person answers it in the inbox (/_frontmcp/inbox) when they can, and
// the next call with the same key gets that answer. worker.ts turns persistent questions on (enableInbox()).
import { Tool, ToolContext, z } from 'parley-mcp';

const Approval = z.object({ approve: z.boolean().describe('Approve it?') });

@Tool({
  name: 'approve',
  description: 'Ask the person to approve something; the question waits in their inbox until they answer',
  // The question's key names it for the caller's next call: letters, digits, `.`, `_` and `-`.
  inputSchema: {
    what: z
      .string()
      .regex(/^[\w.-]{1,100}$/)
      .describe('What to approve, such as deploy-v2'),
  },
})
export class Approve extends ToolContext {
  async execute({ what }: { what: string }) {
    const answer = await this.elicit(`Approve ${what}?`, Approval, {
      ttl: 60_000, // how long this call waits; the question itself waits a day (persistent.ttlMs)
      persist: { key: `approve-${what}` },
    });
    return { approved: answer.status === 'accept' && answer.content?.approve === true };
  }
}
