// `parley inbox --url` against a Worker in workerd with Durable Objects: a tool on one isolate files a persistent
// question, the person lists and answers it with the CLI over the Worker's loopback HTTP address (which another
// isolate serves), and the next call of the key gets that answer. The link's code is made by the app, as a
// deployment sends it to the person.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInbox } from '../../src/cli/inbox';
import { bundleWorker } from '../helpers/bundle';
import { startDurableWorkers, type DurableWorkers } from '../helpers/durable-objects';
import { inboxClient } from './inbox-edge';

let workers: DurableWorkers;
let origin: string;
beforeAll(async () => {
  const bundle = await bundleWorker('test/edge/entries/inbox-worker.ts');
  expect(bundle.nodeImports).toEqual([]);
  workers = startDurableWorkers({ code: bundle.code });
  // The Worker's own HTTP address: requests whose host no route names go to the first Worker (the objects' isolate).
  origin = (await workers.mf.ready).origin;
});
afterAll(() => workers?.dispose());

/** `parley inbox` in this process, the link in FRONTMCP_INBOX_LINK, its output captured. */
async function parley(args: string[], link: string) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => ({ isTTY: false, write: (s: string) => (add(s), true) }) as unknown as NodeJS.WriteStream;
  const code = await runInbox(args, {
    stdin: Readable.from(['']) as unknown as NodeJS.ReadStream,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    env: { FRONTMCP_INBOX_LINK: link },
  });
  return { code, stdout, stderr };
}

describe('parley inbox --url against a Worker', () => {
  it('lists the question a tool filed on another isolate and answers it; the next call gets the answer', { timeout: 60_000 }, async () => {
    const s = inboxClient(workers.send);
    const link = async () => {
      const made = await s.call('b', 'dana', 'inbox_code');
      return `${origin}/_frontmcp/inbox#code=${made.result.structuredContent.code as string}`;
    };
    const first = await s.call('a', 'dana', 'approve_refund', { order: 'CLI-1', waitMs: 200 });
    expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });

    const listed = await parley(['--url', origin], await link());
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Questions for https://idp.example#dana: 1');
    expect(listed.stdout).toContain('Refund order CLI-1?');
    expect(listed.stdout).toContain('key refund-CLI-1 · no call waiting');
    const id = /\[([0-9a-f-]{36})\] Refund order CLI-1\?/.exec(listed.stdout)![1]!;

    // A link is spent once: the same one again signs nobody in.
    const spent = await link();
    expect((await parley(['--url', origin], spent)).code).toBe(0);
    const again = await parley(['--url', origin], spent);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('This link was already used or has expired');

    const answered = await parley(['--url', origin, '--answer', id, '--content', '{"approve":true,"note":"from the CLI"}'], await link());
    expect(answered.stdout).toBe(`Answered ${id} (accept): it waits for the next call that asks it.\n`);
    expect(answered.code).toBe(0);
    const twice = await parley(['--url', origin, '--answer', id, '--decline'], await link());
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe('Not answered: this question already has an answer.\n');

    const next = await s.call('a', 'dana', 'approve_refund', { order: 'CLI-1', waitMs: 200 });
    expect(next.result.structuredContent).toEqual({ approved: true, note: 'from the CLI' });
    // Another person's link lists nothing of dana's.
    const erin = await s.call('b', 'erin', 'inbox_code');
    const theirs = await parley(['--url', origin], `${origin}/_frontmcp/inbox#code=${erin.result.structuredContent.code as string}`);
    expect(theirs.stdout).toContain('Questions for https://idp.example#erin: 0');
    expect(workers.output()).not.toContain('ERROR');
  });
});
