// The questions subsystem's door: persistent questions, their subjects, people auth and the inbox routes.
export { InvalidQuestionStoreError, QuestionPendingError, QuestionSupersededError } from './errors';
export { questionSubjectOf } from './subject';
export { LoopbackTokenAuth } from './people';
export { QuestionService } from './service';
export { createQuestionService } from './setup';
export { printQuestionInboxLink } from './link';
export { questionRoutes } from './routes';
export type { InboxLinks, PersistentOptions, QuestionStorage } from './options';
