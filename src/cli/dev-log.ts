// parley dev's log of questions: a line per question asked and per answer received (requests: ../adapters/exchange-log.ts).
import { clip, isRecord, type ExchangeLog } from '../adapters';
import type { ElicitationHooks } from '../server';

/** Hooks that log each question as it is asked and each answer as it arrives. */
export function loggingHooks(log: ExchangeLog): Required<ElicitationHooks> {
  return {
    request: [
      (q) => {
        const fields = Object.keys(isRecord(q.requestedSchema?.properties) ? q.requestedSchema.properties : {});
        log.line(`${q.tool} asks ${q.key}: ${JSON.stringify(clip(q.message))}${q.mode === 'url' ? ` (open ${q.url})` : ` (${fields.join(', ')})`}`);
      },
    ],
    result: [(a) => log.line(`${a.tool} got ${a.key}: ${a.result.status}${a.result.content !== undefined ? ` ${clip(JSON.stringify(a.result.content))}` : ''}`)],
  };
}
