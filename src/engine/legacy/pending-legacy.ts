// Pending questions as releases before the question store kept them (until 2026-12-06): `pending:<session id>:<request
// id>`, `pending:<session id>` and `answer:<session id>:<request id>` in plain, values as elicitation/sealed-record.ts
// seals them. A question waits at most elicitation's ttl (minutes): this read-only fallback, and pending.ts's
// legacyAnswer, can go in the first release after every deployment has run this one for a day.
import { openRecord } from '../../elicitation';
import type { LegacyRecords } from '../../stores';

export function legacyPendingRecords(keyPrefix: string, secret: string | undefined): LegacyRecords {
  return {
    name: (kind, sessionId, elicitId) =>
      kind === 'pending' || kind === 'answer' ? `${keyPrefix}${kind}:${sessionId}${elicitId ? `:${elicitId}` : ''}` : undefined,
    async open(raw) {
      const opened = await openRecord<Record<string, unknown>>(raw, secret);
      return opened.ok ? opened.record : undefined;
    },
  };
}
