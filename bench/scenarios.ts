// The scenarios the rows run: what each sends and what each response body must be.
import type { Scenario } from './lib/load';
import { MODERN, isTextResult, modernRequest, resultOf } from './lib/wire';
import {
  ROUND_TOOL,
  SIMPLE_ARGS,
  SIMPLE_JSON_TOOL,
  SIMPLE_TEXT,
  SIMPLE_TOOL,
  THREE_TOOL,
  roundDone,
  roundQuestion,
  threeDone,
  threeQuestion,
} from './servers/fixture';

/** tools/call of the simple tool (or `tool`, another with the same input); `expected` is the text its result must carry. */
export const simpleCall = (expected = SIMPLE_TEXT, tool = SIMPLE_TOOL): Scenario => ({
  steps: [
    {
      request: modernRequest('tools/call', { name: tool, arguments: SIMPLE_ARGS }),
      check: (body) => isTextResult(resultOf(body), expected),
    },
  ],
});

let rounds = 0;

/** A full 2026-07-28 elicitation round: the call answered input_required, then the retry with the answer and requestState.
 * Each round names another order, as real rounds do, so nothing keyed by the arguments can be reused across rounds. */
export const elicitationRound = (): Scenario => ({
  steps: [
    {
      request(context) {
        context.id = `A-${++rounds}`;
        return modernRequest('tools/call', { name: ROUND_TOOL, arguments: { id: context.id } });
      },
      check(body, context) {
        const result = resultOf(body);
        // requestState is optional in the protocol (tmcp sends none when the tool saved nothing); when present it is text.
        const requests =
          result?.resultType === 'input_required' && ['string', 'undefined'].includes(typeof result.requestState)
            ? Object.entries(result.inputRequests ?? {})
            : [];
        const [key, request] = requests[0] ?? [];
        if (
          requests.length !== 1 ||
          (request as any)?.method !== 'elicitation/create' ||
          (request as any).params?.message !== roundQuestion(String(context.id))
        )
          return false;
        context.key = key;
        context.state = result!.requestState;
        return true;
      },
    },
    {
      request: (context) =>
        modernRequest('tools/call', {
          name: ROUND_TOOL,
          arguments: { id: context.id },
          ...(context.state === undefined ? {} : { requestState: context.state }),
          inputResponses: { [String(context.key)]: { action: 'accept', content: { confirm: true } } },
        }),
      check: (body, context) => isTextResult(resultOf(body), roundDone(String(context.id))),
    },
  ],
});

/** The simple call to Parley's twin tool whose input is plain JSON Schema: row 1's second line, and what the in-process
 * and callgrind drivers compare with simpleCall for JSON Schema's cost. */
export const simpleJsonCall = (): Scenario => simpleCall(SIMPLE_TEXT, SIMPLE_JSON_TOOL);

export const toolsList = (): Scenario => ({
  steps: [
    {
      request: modernRequest('tools/list'),
      check(body) {
        // The two tools every server serves; Parley's also lists row 1's JSON-Schema twin of the simple tool (one more
        // tool to write, so its figure is not flattered).
        const tools = resultOf(body)?.tools;
        if (!Array.isArray(tools)) return false;
        const names = new Set(tools.map((t) => t?.name));
        return (
          names.has(SIMPLE_TOOL) &&
          names.has(ROUND_TOOL) &&
          [...names].every((n) => n === SIMPLE_TOOL || n === ROUND_TOOL || n === SIMPLE_JSON_TOOL)
        );
      },
    },
  ],
});

export const discover = (): Scenario => ({
  steps: [
    {
      request: modernRequest('server/discover'),
      check(body) {
        const versions = resultOf(body)?.supportedVersions;
        return Array.isArray(versions) && versions.includes(MODERN);
      },
    },
  ],
});

/** Two plain calls in a row on each connection: what an elicitation round is compared with. */
export const twoPlainCalls = (): Scenario => ({ steps: [...simpleCall().steps, ...simpleCall().steps] });

let threes = 0;

/** The call of three rounds of row 13 (served with BENCH_TASKS): THREE_TOOL without the tasks extension asks its three
 * checks one round at a time; each retry carries the requestState and the newest answer. In-process under callgrind it
 * is taskThreeReplays' comparison (bench/lib/in-process-cycle.ts); it is not in bench:check's gate. */
export const roundThree = (): Scenario => {
  const ask = (check: number): Scenario['steps'][number] => ({
    request: (context) =>
      check === 1 ? modernRequest('tools/call', { name: THREE_TOOL, arguments: { id: (context.id = `R3-${++threes}`) } }) : retry(context),
    check(body, context) {
      const result = resultOf(body);
      const requests = result?.resultType === 'input_required' ? Object.entries(result.inputRequests ?? {}) : [];
      if (requests.length !== 1 || (requests[0]![1] as any)?.params?.message !== threeQuestion(String(context.id), check)) return false;
      context.key = requests[0]![0];
      context.state = result!.requestState;
      return true;
    },
  });
  const retry = (context: Record<string, unknown>) =>
    modernRequest('tools/call', {
      name: THREE_TOOL,
      arguments: { id: context.id },
      requestState: context.state,
      inputResponses: { [String(context.key)]: { action: 'accept', content: { confirm: true } } },
    });
  return {
    steps: [
      ask(1),
      ask(2),
      ask(3),
      { request: retry, check: (body, context) => isTextResult(resultOf(body), threeDone(String(context.id))) },
    ],
  };
};
