// A server with the unanswered-question policy behind a real Node listener, a side effect counted per deploy, and a
// person who answers in the caller's inbox through its routes.
import { App, LoopbackTokenAuth, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { bearer } from '../helpers/bearer';
import { mcpRequest } from '../helpers/requests';

export const SECRET = 'unanswered-test-signing-secret';
export const ISSUER = 'https://idp.example';

/** Deploys done, per version: the side effect that must happen once per approval. */
export const deploys = new Map<string, number>();

@Tool({ name: 'deploy', inputSchema: { version: z.string(), waitMs: z.number().int().positive().optional() } })
class Deploy extends ToolContext {
  async execute({ version, waitMs }: { version: string; waitMs?: number }) {
    const answer = await this.elicit(`Deploy ${version}?`, z.object({ approve: z.boolean(), by: z.string().optional() }), {
      ttl: waitMs ?? 4_000,
    });
    if (answer.status !== 'accept' || !answer.content?.approve) return { deployed: false };
    deploys.set(version, (deploys.get(version) ?? 0) + 1);
    return { deployed: true, by: answer.content.by };
  }
}

/** Two questions in one call: on 2026-07-28, two rounds. */
@Tool({ name: 'release', inputSchema: { version: z.string() } })
class Release extends ToolContext {
  async execute({ version }: { version: string }) {
    const go = await this.elicit(`Release ${version}?`, z.object({ approve: z.boolean(), by: z.string().optional() }), { ttl: 4_000 });
    const notes = await this.elicit(`Release notes for ${version}?`, z.object({ notes: z.string() }), { ttl: 4_000 });
    if (go.content?.approve) deploys.set(`release-${version}`, (deploys.get(`release-${version}`) ?? 0) + 1);
    return { released: go.content?.approve === true, by: go.content?.by, notes: notes.content?.notes };
  }
}

@App({ id: 'unanswered', tools: [Deploy, Release] })
class Deploys {}

export interface PolicyServer {
  server: RunningServer;
  url: URL;
  name: string;
  authorization(sub: string): Promise<string>;
  /** A hand-built 2026-07-28 tools/call as a caller (extra: requestState, inputResponses, _meta); its JSON-RPC result. */
  call(sub: string, name: string, args: Record<string, unknown>, extra?: Record<string, unknown>): Promise<Record<string, any>>;
  /** Signs a person in for a caller's inbox; returns what lists and answers their questions. */
  person(sub: string): Promise<Person>;
  close(): Promise<void>;
}

export interface Person {
  questions(): Promise<Array<Record<string, any>>>;
  /** Waits for a question whose message is `message` and returns it. */
  waitFor(message: string, waiting?: boolean): Promise<Record<string, any>>;
  answer(id: string, body: unknown): Promise<{ status: number; body: any }>;
  /** The question's entries in the decision log. */
  history(id: string): Promise<Array<Record<string, any>>>;
}

let n = 0;
export async function policyServer(
  overrides: Partial<FrontMcpConfigInput> = {},
  serveOptions: { accessLog?: boolean } = {},
): Promise<PolicyServer> {
  const name = `unanswered-${process.pid}-${++n}`;
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const config: FrontMcpConfigInput = {
    info: { name, version: '1.0.0' },
    apps: [Deploys],
    logger: quiet,
    auth: { secret: SECRET },
    http: { auth: { people: 'loopback-token' } },
    elicitation: { enabled: true, persistent: { storage: { type: 'memory' } }, unanswered: { afterMs: 300, then: 'inbox' } },
    ...overrides,
  };
  const server = await serve(config, { port: 0, ...serveOptions });
  const url = new URL(server.url);
  await fetch(`${url.origin}/_frontmcp/inbox`); // builds the server, and its people auth with it
  const person = async (sub: string): Promise<Person> => {
    const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#${sub}`, server: name });
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${url.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url.origin, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const signedIn = await post('/_frontmcp/sign-in', { code });
    if (signedIn.status !== 204) throw new Error(`sign-in failed: ${signedIn.status}`);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const questions = async () =>
      (
        (await (await fetch(`${url.origin}/_frontmcp/questions`, { headers: { cookie } })).json()) as {
          questions: Array<Record<string, any>>;
        }
      ).questions;
    return {
      questions,
      async waitFor(message, waiting) {
        for (let i = 0; i < 400; i++) {
          const found = (await questions()).find((q) => q.message === message && (waiting === undefined || q.waiting === waiting));
          if (found) return found;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`no question "${message}" in the inbox`);
      },
      async answer(id, body) {
        const response = await post(`/_frontmcp/questions/${id}/answer`, body, cookie);
        return { status: response.status, body: await response.json() };
      },
      async history(id) {
        const response = await fetch(`${url.origin}/_frontmcp/questions/${id}/log`, { headers: { cookie } });
        return ((await response.json()) as { entries: Array<Record<string, any>> }).entries;
      },
    };
  };
  const call = async (sub: string, tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const request = mcpRequest(
      'tools/call',
      { name: tool, arguments: args, ...extra },
      { url: server.url, headers: { authorization: await bearer(sub, SECRET, ISSUER) } },
    );
    const body = (await (await fetch(request)).json()) as { result?: Record<string, any>; error?: unknown };
    if (!body.result) throw new Error(`no result: ${JSON.stringify(body)}`);
    return body.result;
  };
  return { server, url, name, call, authorization: (sub) => bearer(sub, SECRET, ISSUER), person, close: () => server.close() };
}
