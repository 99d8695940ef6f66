// 2026-07-28: elicit() as input_required rounds. A question without its answer ends the run; the retry runs it again.
import { ErrorCode, McpWireError } from '../protocol';
import { ElicitationNotSupportedError } from '../server/errors';
import type { Asker, ElicitParams, RawAnswer } from './types';
import { ELICIT_METHOD } from './types';

export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** Which elicitation modes a request's clientCapabilities declare (`elicitation: {}` means form). */
export function elicitationModes(capabilities: Record<string, unknown> | undefined): { form: boolean; url: boolean } {
  const e = capabilities?.elicitation;
  if (typeof e !== 'object' || e === null) return { form: false, url: false };
  const declared = e as Record<string, unknown>;
  const url = 'url' in declared;
  return { form: 'form' in declared || !url, url };
}

/** Asks by collecting input requests; the run is suspended until the client retries with answers. */
export class RoundAsker implements Asker {
  readonly inputRequests: Record<string, InputRequest> = {};
  readonly suspended: Promise<void>;
  private wake!: () => void;

  /** `answers` holds every answer so far; `replayed` names those an earlier round brought (from requestState). */
  constructor(
    private readonly answers: Record<string, RawAnswer>,
    private readonly capabilities: Record<string, unknown>,
    private readonly replayed: ReadonlySet<string> = new Set(),
  ) {
    this.suspended = new Promise((resolve) => (this.wake = resolve));
  }

  known(key: string): { replayed: boolean } | undefined {
    return this.answers[key] ? { replayed: this.replayed.has(key) } : undefined;
  }

  ask(key: string, params: ElicitParams): Promise<RawAnswer> {
    const mode = params.mode === 'url' ? 'url' : 'form';
    if (!elicitationModes(this.capabilities)[mode])
      throw new McpWireError(ErrorCode.MissingCapability, `This request requires the \`elicitation${mode === 'url' ? '.url' : ''}\` client capability`, {
        requiredCapabilities: { elicitation: { [mode]: {} } },
      });
    const answer = this.answers[key];
    if (answer) return Promise.resolve(answer);
    this.inputRequests[key] = { method: ELICIT_METHOD, params: params as unknown as Record<string, unknown> };
    this.wake();
    // Never settles: the run ends here, and the client's retry runs execute() again from the top.
    return new Promise<RawAnswer>(() => {});
  }
}

/** For a request that named no protocol version: nobody can be asked. */
export const unversionedAsker: Asker = {
  ask() {
    throw new ElicitationNotSupportedError(
      'This client named no protocol version, so it cannot be asked for input. Use a client that speaks 2026-07-28 and declares the elicitation capability.',
    );
  },
};
