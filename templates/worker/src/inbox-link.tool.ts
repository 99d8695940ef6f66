// The way in to the inbox while you try it: prints a one-time sign-in link on the Worker's log (wrangler dev's
// terminal, or `npx wrangler tail` once deployed), never in the tool's result, which the agent reads. For people
// other than you, send them codes yourself or sign them in at their identity provider (README.md, "The inbox").
import { printQuestionInboxLink, Tool, ToolContext } from 'parley-mcp';

@Tool({ name: 'inbox_link', description: "Print a one-time link to the caller's inbox on the server's log" })
export class InboxLink extends ToolContext {
  async execute() {
    return printQuestionInboxLink(this); // { expiresAt }
  }
}
