// The questions subsystem's door: persistent questions, their subjects and people auth (the inbox routes hang off the service).
export { InvalidQuestionStoreError, QuestionPendingError, QuestionSupersededError } from '../protocol';
export { questionSubjectOf } from '../model';
export { LoopbackTokenAuth } from './people';
export { QuestionService } from './service';
export { printQuestionInboxLink } from './link';
export type { InboxLinks, PersistentOptions, QuestionStorage } from './options';
export { QuestionCodec } from './codec';
export { EDGE_REFUSAL } from '../protocol';
export { readPersistentOptions } from './options';
export { QuestionStore } from './question-store';
export type { InboxNotice, NotifyFunction } from './notify-options';
export { createNotify } from './notify';
export { readNotifyOption } from './notify-options';
export { ActionLinks } from './action-links';
export { DueNudges } from './due-nudges';
export { readAddressing } from './addressees';
export type { Escalations } from './escalation';
