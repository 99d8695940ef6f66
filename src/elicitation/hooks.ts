// Elicitation hooks: plain functions that see each question before it is asked and each answer when it arrives.
import type { ElicitationAnswer, ElicitationHooks, ElicitationMove, ElicitationQuestion } from '../model';

export async function runRequestHooks(hooks: ElicitationHooks | undefined, question: ElicitationQuestion): Promise<string> {
  let message = question.message;
  for (const hook of hooks?.request ?? []) {
    const change = await hook(Object.freeze({ ...question, message }));
    if (change && typeof change.message === 'string' && change.message !== '') message = change.message;
  }
  return message;
}

export async function runResultHooks(hooks: ElicitationHooks | undefined, answer: ElicitationAnswer): Promise<void> {
  for (const hook of hooks?.result ?? []) await hook(Object.freeze({ ...answer }));
}

export async function runMovedHooks(hooks: ElicitationHooks | undefined, move: ElicitationMove): Promise<void> {
  for (const hook of hooks?.moved ?? []) await hook(Object.freeze({ ...move }));
}
