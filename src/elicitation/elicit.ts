// elicit(): one semantics for every era. It numbers the questions, builds the params, runs the hooks, asks, and checks the answer.
import { ElicitationDisabledError, InvalidInputError } from '../server/errors';
import { toFormSchema } from '../server/schema';
import type { AuthInfo, ElicitOptions, ElicitResult, SchemaInput } from '../server/tool-types';
import { checkAnswer } from './answer';
import { runRequestHooks, runResultHooks, type ElicitationHooks, type ElicitationQuestion } from './hooks';
import type { Asker, ElicitParams } from './types';

export interface ElicitSettings {
  enabled: boolean;
  production: boolean;
  hooks?: ElicitationHooks;
}

/** Who asks: the tool and its caller, as the hooks see them. */
export interface ElicitCall {
  tool: string;
  auth: AuthInfo;
}

/** The elicitation state of one run of execute(): how many questions it asked, and how they travel. */
export class ElicitRun {
  private count = 0;
  constructor(
    readonly settings: ElicitSettings,
    readonly asker: Asker,
    readonly call: ElicitCall,
  ) {}

  async elicit(message: string, schema: SchemaInput, options: ElicitOptions = {}): Promise<ElicitResult<unknown>> {
    if (!this.settings.enabled)
      throw new ElicitationDisabledError(
        this.settings.production
          ? 'Elicitation is disabled on this server.'
          : 'Elicitation is disabled in server configuration. Set `elicitation: { enabled: true }` in @FrontMcp to use this.elicit().',
      );
    const mode = options.mode ?? 'form';
    if (typeof message !== 'string' || message === '') throw new InvalidInputError('elicit() needs a message');
    let params: ElicitParams;
    if (mode === 'url') {
      if (!options.url) throw new InvalidInputError('url is required when mode is "url"');
      params = { mode: 'url', message, url: options.url, elicitationId: options.elicitationId ?? `elicit-${crypto.randomUUID()}` };
    } else {
      params = { message, requestedSchema: toFormSchema(schema) };
    }
    const key = `elicitation-${++this.count}`;
    const question: ElicitationQuestion = { tool: this.call.tool, key, mode, message, auth: this.call.auth, ...(mode === 'url' ? { url: options.url } : { requestedSchema: params.requestedSchema }) };
    const known = this.asker.known?.(key);
    // A question goes out only when the request carries no answer to it; only then do the request hooks run.
    if (!known) params = { ...params, message: await runRequestHooks(this.settings.hooks, question) };
    const raw = await this.asker.ask(key, params, options);
    const result = checkAnswer(raw ?? {}, schema, mode);
    if (!known?.replayed) await runResultHooks(this.settings.hooks, { ...question, result });
    return result;
  }
}
