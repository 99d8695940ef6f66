// An older client's (2025-11-25) elicitation round, driven by hand: the call's SSE stream brings elicitation/create,
// the answer is POSTed (to the same instance or another one), and the stream ends with the result. autocannon cannot
// read a stream while posting, so this driver keeps a fixed number of clients each running rounds back to back.
import { percentile } from './load';
import { roundDone, roundQuestion, ROUND_TOOL } from '../servers/fixture';

const LEGACY = '2025-11-25';

export interface LegacyRoundResult {
  rounds: number;
  roundsPerSec: number;
  p50: number;
  p99: number;
  bad: number;
  badSample?: string;
  valid: boolean;
}

const headers = (session?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } : {}),
});

async function post(url: string, body: unknown, session?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify(body), signal });
}

/** Opens a session: initialize, then notifications/initialized. */
export async function openSession(url: string): Promise<string> {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'bench', version: '1.0.0' } },
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`initialize gave no session (${init.status})`);
  await (await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  return session;
}

/** The JSON-RPC messages of an SSE body, as they arrive. */
async function* sseMessages(response: Response): AsyncGenerator<Record<string, any>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) yield JSON.parse(data) as Record<string, any>;
    }
  }
}

/** One round; returns undefined when it went as expected, or what went wrong. */
async function round(callUrl: string, answerUrl: string, session: string, n: number): Promise<string | undefined> {
  const id = `L-${n}`;
  const response = await post(
    callUrl,
    { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: ROUND_TOOL, arguments: { id } } },
    session,
  );
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return `call answered ${response.status} ${await response.text()}`;
  let asked = false;
  for await (const message of sseMessages(response)) {
    if (message.method === 'elicitation/create') {
      if (message.params?.message !== roundQuestion(id)) return `asked ${JSON.stringify(message)}`;
      const answer = await post(
        answerUrl,
        { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { confirm: true } } },
        session,
      );
      await answer.text();
      if (answer.status !== 202) return `answer got ${answer.status}`;
      asked = true;
    } else if (message.id === n) {
      return asked && message.result?.content?.[0]?.text === roundDone(id) ? undefined : `result ${JSON.stringify(message)}`;
    }
  }
  return 'the stream ended with no result';
}

/** `clients` sessions run rounds back to back for `seconds`: calls go to `callUrl`, answers to `answerUrl`. */
export async function runLegacyRounds(
  callUrl: string,
  answerUrl: string,
  options: { clients: number; seconds?: number; rounds?: number },
): Promise<LegacyRoundResult> {
  const times: number[] = [];
  let bad = 0;
  let badSample: string | undefined;
  let next = 0;
  const started = performance.now();
  const until = started + (options.seconds ?? Infinity) * 1000;
  const more = () => performance.now() < until && (options.rounds === undefined || next < options.rounds);
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      const session = await openSession(callUrl);
      while (more()) {
        const t = performance.now();
        const problem = await round(callUrl, answerUrl, session, ++next).catch((e: Error) => e.message);
        if (problem) {
          bad++;
          badSample ??= problem.slice(0, 300);
        } else times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    rounds: times.length,
    roundsPerSec: times.length / elapsed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    bad,
    badSample,
    valid: bad === 0 && times.length > 0,
  };
}

/** Starts a call and waits until its question arrives; the call then stays pending until `signal` aborts it. */
export async function askAndLeave(url: string, session: string, n: number, signal: AbortSignal): Promise<void> {
  const response = await post(
    url,
    { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: ROUND_TOOL, arguments: { id: `P-${n}` } } },
    session,
    signal,
  );
  for await (const message of sseMessages(response)) if (message.method === 'elicitation/create') return;
  throw new Error('the call ended without asking');
}

export interface ManyQuestionsResult {
  calls: number;
  /** Calls that did not end with their own answer's result (a wrong or missing result, an error). */
  lost: number;
  lostSample?: string;
  roundsPerSec: number;
  /** Question received (elicitation/create on the call's stream) to the call's result, in ms. */
  p50: number;
  p99: number;
}

/** One call that asks: question on `callUrl`'s stream, answer POSTed to `answerUrl`; resolves to the question-to-result ms, or throws. */
async function timedRound(callUrl: string, answerUrl: string, session: string, n: number): Promise<number> {
  const id = `M-${n}`;
  const response = await post(
    callUrl,
    { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: ROUND_TOOL, arguments: { id } } },
    session,
  );
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new Error(`call answered ${response.status} ${await response.text()}`);
  let asked: number | undefined;
  for await (const message of sseMessages(response)) {
    if (message.method === 'elicitation/create') {
      if (message.params?.message !== roundQuestion(id)) throw new Error(`asked ${JSON.stringify(message)}`);
      asked = performance.now();
      const answer = await post(
        answerUrl,
        { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { confirm: true } } },
        session,
      );
      await answer.text();
      if (answer.status !== 202) throw new Error(`answer got ${answer.status}`);
    } else if (message.id === n) {
      if (asked === undefined || message.result?.content?.[0]?.text !== roundDone(id)) throw new Error(`result ${JSON.stringify(message)}`);
      return performance.now() - asked;
    }
  }
  throw new Error('the stream ended with no result');
}

/**
 * Row 7: `sessions` sessions, each with `perSession` concurrent calls that ask at once (one pending record each),
 * every answer POSTed to `answerUrl`; waves back to back for `seconds` (or `waves` waves). Each call's result must carry
 * its own order id, so a crossed or dropped answer counts as lost.
 */
export async function runManyQuestions(
  callUrl: string,
  answerUrl: string,
  options: { sessions: number; perSession: number; seconds?: number; waves?: number },
): Promise<ManyQuestionsResult> {
  const times: number[] = [];
  let calls = 0;
  let lost = 0;
  let lostSample: string | undefined;
  let next = 0;
  const started = performance.now();
  const until = started + (options.seconds ?? Infinity) * 1000;
  await Promise.all(
    Array.from({ length: options.sessions }, async () => {
      const session = await openSession(callUrl);
      for (let wave = 0; performance.now() < until && (options.waves === undefined || wave < options.waves); wave++) {
        await Promise.all(
          Array.from({ length: options.perSession }, async () => {
            calls++;
            try {
              times.push(await timedRound(callUrl, answerUrl, session, ++next));
            } catch (e) {
              lost++;
              lostSample ??= (e as Error).message.slice(0, 300);
            }
          }),
        );
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { calls, lost, lostSample, roundsPerSec: times.length / elapsed, p50: percentile(times, 50), p99: percentile(times, 99) };
}
