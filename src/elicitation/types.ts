// What travels between elicit() and the era-specific ways of asking: the question's params and the raw answer.
import type { ElicitOptions } from '../server/tool-types';

export interface ElicitParams {
  mode?: 'url';
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
}

/** An answer as the client sent it, not yet checked. */
export interface RawAnswer {
  action?: unknown;
  content?: unknown;
}

/** One way an elicitation travels: an input_required round, a server→client request, or the fallback. */
export interface Asker {
  /** Resolves with the client's raw answer; a round that ends the run never resolves. */
  ask(key: string, params: ElicitParams, options: ElicitOptions): Promise<RawAnswer>;
  /**
   * An answer this request already carries for the key, so nothing is asked: `replayed` when an earlier round
   * brought it (the hooks saw it then), else it arrived with this request.
   */
  known?(key: string): { replayed: boolean } | undefined;
}

export const ELICIT_METHOD = 'elicitation/create';
