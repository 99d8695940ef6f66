// ToolContext: the base class of every tool. execute() does the work; elicit() asks the person mid-call.
import { RequestContext } from './request-context';

export abstract class ToolContext<In = any, Out = unknown> extends RequestContext {
  abstract execute(input: In): Promise<Out> | Out;
}
