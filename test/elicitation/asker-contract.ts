// The asker contract as one test body: every way a call's questions reach the person (docs/architecture.md's glossary,
// "asker") runs it through its real path: rounds (2026-07-28 over HTTP), the older era's call stream, the
// sendElicitationResult fallback, and connect()'s in-process handler. Each driver plays the person and the client.
import { describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';

/** A question as the person sees it. */
export interface Question {
  message: string;
  requestedSchema?: Record<string, unknown>;
}
export interface Answer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}
/** What one driver does: calls a tool of the server `config` builds, answering each question the person is shown with `answer`. */
export interface AskerDriver {
  start(config: FrontMcpConfigInput): Promise<{
    call(tool: string, args: Record<string, unknown>, answer: (question: Question) => Answer): Promise<Record<string, any>>;
    close(): Promise<void>;
  }>;
}

const confirm = z.object({ confirm: z.boolean(), note: z.string().optional() });

@Tool({ name: 'ask_once', description: 'Asks one question', inputSchema: { id: z.string() } })
class AskOnce extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Close ticket ${id}?`, confirm);
    return { status: answer.status, content: answer.content ?? null };
  }
}

@Tool({ name: 'ask_twice', description: 'Asks two questions, one after the other', inputSchema: {} })
class AskTwice extends ToolContext {
  async execute() {
    const first = await this.elicit('Which team?', z.object({ team: z.string() }));
    const second = await this.elicit(`Which person in ${first.content?.team}?`, z.object({ person: z.string() }));
    return { first: first.content ?? null, second: second.content ?? null };
  }
}

@Tool({ name: 'ask_default', description: 'Asks with a default', inputSchema: {} })
class AskDefault extends ToolContext {
  async execute() {
    const answer = await this.elicit('Priority?', z.object({ level: z.number().int().default(3), note: z.string().optional() }));
    return { status: answer.status, content: answer.content ?? null };
  }
}

@Tool({ name: 'ask_both', description: 'Asks two questions at once', inputSchema: {} })
class AskBoth extends ToolContext {
  async execute() {
    const [first, second] = await Promise.all([
      this.elicit('Which team?', z.object({ team: z.string() })),
      this.elicit('Which person?', z.object({ person: z.string() })),
    ]);
    return { first: first.content ?? null, second: second.content ?? null };
  }
}

@App({ id: 'askers', tools: [AskOnce, AskTwice, AskDefault, AskBoth] })
class Askers {}
const CONFIG: FrontMcpConfigInput = { info: { name: 'askers', version: '1.0.0' }, apps: [Askers], elicitation: { enabled: true } };

/** The person answering ask_twice and ask_both: a team, then a person; `seen` collects the messages shown. */
const teamThenPerson =
  (seen: string[]) =>
  (q: Question): Answer => {
    seen.push(q.message);
    return { action: 'accept', content: q.message === 'Which team?' ? { team: 'billing' } : { person: 'nour' } };
  };

/** Runs the contract over the asker `driver` reaches. */
export function describeAskerContract(name: string, driver: AskerDriver): void {
  describe(`asker contract: ${name}`, () => {
    const withServer = async (run: (server: Awaited<ReturnType<AskerDriver['start']>>) => Promise<void>) => {
      const server = await driver.start(CONFIG);
      try {
        await run(server);
      } finally {
        await server.close();
      }
    };

    it('shows the person the message and the schema, and hands the tool the accepted content', () =>
      withServer(async (server) => {
        const seen: Question[] = [];
        const result = await server.call(
          'ask_once',
          { id: 'T-1' },
          (q) => (seen.push(q), { action: 'accept', content: { confirm: true, note: 'ok' } }),
        );
        expect(seen).toHaveLength(1);
        expect(seen[0]!.message).toBe('Close ticket T-1?');
        expect(seen[0]!.requestedSchema).toMatchObject({
          type: 'object',
          properties: { confirm: { type: 'boolean' }, note: { type: 'string' } },
          required: ['confirm'],
        });
        expect(result.structuredContent).toEqual({ status: 'accept', content: { confirm: true, note: 'ok' } });
      }));

    it('hands the tool a decline and a cancel as such, with no content', () =>
      withServer(async (server) => {
        for (const action of ['decline', 'cancel'] as const)
          expect((await server.call('ask_once', { id: 'T-2' }, () => ({ action }))).structuredContent).toEqual({
            status: action,
            content: null,
          });
      }));

    it('asks two questions in turn, each once, each answer reaching its own question', () =>
      withServer(async (server) => {
        const seen: string[] = [];
        const result = await server.call('ask_twice', {}, teamThenPerson(seen));
        expect(seen).toEqual(['Which team?', 'Which person in billing?']);
        expect(result.structuredContent).toEqual({ first: { team: 'billing' }, second: { person: 'nour' } });
      }));

    it('fills the defaults of an accepted answer that left them out', () =>
      withServer(async (server) => {
        const result = await server.call('ask_default', {}, () => ({ action: 'accept', content: {} }));
        expect(result.structuredContent).toEqual({ status: 'accept', content: { level: 3 } });
      }));

    it('fails the call with INVALID_INPUT on an accepted answer that does not fit the schema: the tool never sees it', () =>
      withServer(async (server) => {
        const result = await server.call('ask_once', { id: 'T-3' }, () => ({ action: 'accept', content: { confirm: 'yes' } }));
        expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
        expect(result.content[0].text).toMatch(/confirm: .*expected boolean/);
        expect(result.structuredContent).toBeUndefined();
      }));

    it('asks questions asked together, each once, and hands each its own answer', () =>
      withServer(async (server) => {
        const seen: string[] = [];
        const result = await server.call('ask_both', {}, teamThenPerson(seen));
        expect(seen.sort()).toEqual(['Which person?', 'Which team?']);
        expect(result.structuredContent).toEqual({ first: { team: 'billing' }, second: { person: 'nour' } });
      }));
  });
}
