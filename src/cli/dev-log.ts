// parley dev's log of questions: a line per question asked and per answer received (requests: ../adapters/exchange-log.ts).
import { clip, isRecord, type ExchangeLog } from '../adapters';
import { INBOX_REASONS } from '../elicitation';
import type { ElicitationHooks, ParleyConfigInput } from '../model';

/** Hooks that log each question as it is asked and each answer as it arrives (what was answered only with `content`). */
function loggingHooks(log: ExchangeLog, content: boolean): Required<ElicitationHooks> {
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
          `${a.tool} got ${a.key}${a.answeredIn === 'inbox' ? ' from the inbox' : ''}: ${a.result.status}${content && a.result.content !== undefined ? ` ${clip(JSON.stringify(a.result.content))}` : ''}`,
        ),
    ],
    moved: [(m) => log.line(`${m.tool} put ${m.key} in the caller's inbox: ${INBOX_REASONS[m.reason]}`)],
  };
}

/**
 * The user's config with the dev log's hooks added beside the user's own, of every kind: they log last before a question
 * goes out, first when its answer comes, and after the user's when a question moves to the inbox. What a person
 * answered is theirs: the log shows it only at the debug level (the config's `logging.level`, else `LOG_LEVEL`).
 */
export function withDevHooks(config: ParleyConfigInput, log: ExchangeLog): ParleyConfigInput {
  const dev = loggingHooks(log, (config.logging?.level ?? process.env.LOG_LEVEL) === 'debug');
  const own = config.elicitation?.hooks;
  const hooks: Required<ElicitationHooks> = {
    request: [...(own?.request ?? []), ...dev.request],
    result: [...dev.result, ...(own?.result ?? [])],
    moved: [...(own?.moved ?? []), ...dev.moved],
  };
  return { ...config, elicitation: { ...config.elicitation, hooks } };
}
