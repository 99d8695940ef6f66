// ToolContext: the base class of every tool. execute() does the work; elicit() asks the person mid-call.
import { RequestContext, runOf } from './request-context';

export abstract class ToolContext<In = any, Out = unknown> extends RequestContext {
  abstract execute(input: In): Promise<Out> | Out;

  /**
   * Makes this call a task, here: the client gets the task's handle at once and polls it, and execute() goes on. What
   * execute() asked before is asked as input_required rounds (the client retries the call with the answers); what it
   * asks after waits in the task (`input_required`, answered with tasks/update), `this.progress()` becomes the task's
   * statusMessage and `this.signal` fires on tasks/cancel. Resolves true once the call is a task; false when it goes on
   * as an ordinary call: the tool's `execution.taskSupport` is 'forbidden' (the default), or the request did not
   * declare the tasks extension, or its protocol revision has none. Returning before startTask() answers at once.
   * @example await this.startTask(); // the work below runs as a task
   */
  protected startTask(): Promise<boolean> {
    return runOf(this)?.startTask() ?? Promise.resolve(false);
  }

  /**
   * Runs `fn` once per call and returns its result, as JSON: when execute() runs again from the top (a 2026-07-28
   * round's retry, a task resumed, an older client's answer through sendElicitationResult), the result recorded the
   * first time is returned and `fn` does not run. Put a side effect before a question (charging a card, opening a
   * ticket) in a step; code outside steps runs again on every replay. A step that throws is not recorded (the next run
   * tries it again); one name twice in one run is an error.
   * @example const ticket = await this.step('open-ticket', () => tickets.open(input.title));
   */
  protected step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    return runOf(this)!.step(name, fn);
  }
}
