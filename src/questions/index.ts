// The questions subsystem's door: persistent questions, their subjects and people auth (the inbox routes hang off the service).
export { InvalidQuestionStoreError, QuestionPendingError, QuestionSupersededError } from './errors';
export { questionSubjectOf } from './subject';
export { LoopbackTokenAuth } from './people';
export type { QuestionService } from './service';
export { createQuestionService } from './open';
export { printQuestionInboxLink } from './link';
export type { InboxLinks, PersistentOptions, QuestionStorage } from './options';
