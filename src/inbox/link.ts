// printQuestionInboxLink(this): a one-time inbox link for the caller, printed for the person, never returned.
import { ElicitationNotSupportedError } from '../protocol';
import { ElicitRun } from '../elicitation';
import { runOf, type RequestContext } from '../model';

/**
 * Prints a one-time sign-in link to the caller's inbox on the server's stderr (as `persistent.inboxLinks` allows) and
 * returns only when it expires: a link in a tool result would let the agent answer its own questions.
 * @example async execute() { return printQuestionInboxLink(this); } // { expiresAt }
 */
export function printQuestionInboxLink(ctx: RequestContext): Promise<{ expiresAt: number }> {
  const run = runOf(ctx);
  const questions = run instanceof ElicitRun ? run.call.questions : undefined;
  if (!questions)
    return Promise.reject(
      new ElicitationNotSupportedError('printQuestionInboxLink() needs `elicitation: { enabled: true, persistent: true }`'),
    );
  return questions.printLink();
}
