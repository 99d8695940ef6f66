// parley dev's log of questions: a line per question asked and per answer received (requests: ../adapters/exchange-log.ts).
import { clip, isRecord, type ExchangeLog } from '../adapters';
import { INBOX_REASONS } from '../elicitation';
import type { ElicitationHooks } from '../server';

/** Hooks that log each question as it is asked and each answer as it arrives. */
export function loggingHooks(log: ExchangeLog): Required<ElicitationHooks> {
  return {
    request: [
      (q) => {
        const fields = Object.keys(isRecord(q.requestedSchema?.properties) ? q.requestedSchema.properties : {});
        log.line(
          `${q.tool} asks ${q.key}: ${JSON.stringify(clip(q.message))}${q.mode === 'url' ? ` (open ${q.url})` : ` (${fields.join(', ')})`}`,
        );
      },
    ],
    result: [
      (a) =>
        log.line(
          `${a.tool} got ${a.key}${a.answeredIn === 'inbox' ? ' from the inbox' : ''}: ${a.result.status}${a.result.content !== undefined ? ` ${clip(JSON.stringify(a.result.content))}` : ''}`,
        ),
    ],
    moved: [(m) => log.line(`${m.tool} put ${m.key} in the caller's inbox: ${INBOX_REASONS[m.reason]}`)],
  };
}
