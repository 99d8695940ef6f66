// What the older era keeps for one server: its sessions, the questions waiting for their answers, and whether it is
// shutting down. app/ builds it with the server, and the server holds it: no table beside the server keyed by it.
import type { Logger } from '../../runtime';
import type { ServerSettings } from '../../model';
import type { ElicitationStore } from '../../stores';
import { createPendingQuestions, type PendingQuestions } from './pending';
import { SessionTable, type SessionParts } from './sessions';

export interface LegacyState {
  readonly pending: PendingQuestions;
  readonly sessions: SessionTable;
  /** Set when close() starts: new calls and sessions (of either era) are refused from then on. */
  closing: boolean;
}

interface LegacyParts extends Pick<SessionParts, 'sessionSecret' | 'watch'> {
  settings: Pick<ServerSettings, 'elicitation' | 'http'>;
  store?: ElicitationStore;
  logger: Logger;
}

/** The older era's state for a server being built. */
export function createLegacyState({ settings, store, logger, sessionSecret, watch }: LegacyParts): LegacyState {
  const pending = createPendingQuestions(settings.elicitation, store, logger);
  const sessions = new SessionTable({ limits: settings.http.sessions, store, sessionSecret, pending, logger, watch });
  return { pending, sessions, closing: false };
}
