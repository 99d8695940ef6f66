// Getting the person's answer from the one registered handler: no handler declines, a throw cancels, an undeclared mode declines.
import type { ElicitAnswer, ElicitationHandler, ElicitRequestParams } from './types';

interface DeclaredModes {
  form: boolean;
  url: boolean;
}

/** Which elicitation modes a capabilities object declares (`elicitation: {}` means form). */
export function declaredModes(capabilities: Record<string, unknown>): DeclaredModes {
  const e = capabilities.elicitation;
  if (typeof e !== 'object' || e === null) return { form: false, url: false };
  const url = Object.hasOwn(e, 'url');
  return { form: Object.hasOwn(e, 'form') || !url, url };
}

export async function askHandler(
  handler: ElicitationHandler | undefined,
  params: ElicitRequestParams,
  modes: DeclaredModes,
  signal: AbortSignal,
): Promise<ElicitAnswer> {
  // Nobody to ask, or a kind of question this client never offered to show: the answer is no.
  if (!handler || !modes[params.mode === 'url' ? 'url' : 'form']) return { action: 'decline' };
  try {
    const answer = await handler(params, { signal });
    return answer && typeof answer === 'object' ? answer : { action: 'cancel' };
  } catch {
    return { action: 'cancel' };
  }
}
