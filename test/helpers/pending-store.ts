// A backend as the elicitation store PendingQuestions takes (records sealed with a test secret), and a logger that
// says nothing: for tests that drive pending questions straight, one PendingQuestions per "instance".
import type { ElicitationStore, StoreBackend } from '../../src/stores';

export const quiet = { debug() {}, info() {}, warn() {}, error() {} } as never;

export const storeOf = (backend: StoreBackend): ElicitationStore => ({
  backend,
  keyPrefix: 'mcp:',
  secret: 'a secret the records are sealed with',
  info: { type: backend.type, keyPrefix: 'mcp:', supportsPubSub: true, encrypted: true },
});
