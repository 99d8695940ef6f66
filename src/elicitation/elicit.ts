// elicit(): one semantics for every era. It numbers the questions, builds the params, asks, and checks the answer.
import { ElicitationDisabledError, InvalidInputError } from '../server/errors';
import { toFormSchema } from '../server/schema';
import type { ElicitOptions, ElicitResult, SchemaInput } from '../server/tool-types';
import { checkAnswer } from './answer';
import type { Asker, ElicitParams } from './types';

export interface ElicitSettings {
  enabled: boolean;
  production: boolean;
}

/** The elicitation state of one run of execute(): how many questions it asked, and how they travel. */
export class ElicitRun {
  private count = 0;
  constructor(
    readonly settings: ElicitSettings,
    readonly asker: Asker,
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
    const raw = await this.asker.ask(key, params, options);
    return checkAnswer(raw ?? {}, schema, mode);
  }
}
