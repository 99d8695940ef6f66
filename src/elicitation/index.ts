// The elicitation floor's door: elicit() and its run, the answer checks, request state, hooks and form checks.
export { ElicitRun } from './elicit';
export { checkFlatForm } from './form-check';
export { NO_LIMITS, PendingCounts } from './pending-limits';
export type { Asking, PendingLimits } from './pending-limits';
export { digestArguments, openState, sealState } from './request-state';
export type { StateBinding, StateCheck } from './request-state';
export { StepLog } from './step';
export { SERVER_KEY, RoundAsker, elicitationModes, missingFor, unversionedAsker } from './rounds';
export { openRecord, sealRecord } from './sealed-record';
export { createStateKeys } from './state-keys';
export type { StateKeys } from './state-keys';
export { ELICIT_METHOD } from './types';
export type { Asker, ElicitParams, OtherInputMethod, PersistentAsker, RawAnswer, RecordedStep } from './types';
export { DEFAULT_TTL_MS, ttlOf } from './ttl';
export type { ElicitSettings, UnansweredModule } from './elicit';
export type { QuestionOrigin, TaskLink } from './types';
export { INBOX_REASONS } from './unanswered-policy';
