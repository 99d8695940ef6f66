// `parley inbox --url <server>`: sign in with a one-time link (from a terminal prompt, stdin or FRONTMCP_INBOX_LINK),
// list the caller's questions, and answer them on a terminal or with --answer <id> --content '{…}' / --decline / --cancel.
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { ReadStream } from 'node:tty';
import { parseArgs } from 'node:util';
import { parseJson } from '../protocol';
import { InboxClient, type InboxQuestion } from './inbox-client';
import { clean, parseInboxLink } from './inbox-link';
import { askForm, describeFields } from './inbox-form';
import { INBOX_REASONS } from '../elicitation';
import type { InboxReason } from '../model';

interface CliIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

const USAGE = `Usage: parley inbox --url <server> [--answer <id> (--content '<json>' | --decline | --cancel)]
       parley inbox log --url <server> [--since <date or ms>]   the decision log, as JSON Lines on stdout
       parley inbox grants --url <server> [--revoke <id>]       standing approvals: list them, or revoke one

The one-time inbox link is read from FRONTMCP_INBOX_LINK, else stdin, else asked for on the terminal
(so it shows in no process list or shell history). Each run needs a fresh link.`;

/** Runs the command; resolves with the exit code. */
export async function runInbox(
  argv: string[],
  io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const say = (line = '') => io.stdout.write(`${line}\n`);
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        answer: { type: 'string' },
        content: { type: 'string' },
        decline: { type: 'boolean' },
        cancel: { type: 'boolean' },
        since: { type: 'string' },
        revoke: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    say(USAGE);
    return 0;
  }
  try {
    if (positionals[0] === 'log') {
      const since = parseSince(values.since);
      if (values.answer !== undefined || values.content !== undefined || values.decline || values.cancel)
        throw new Error('parley inbox log reads the log: --answer, --content, --decline and --cancel go without "log"');
      const link = parseInboxLink(positionals[1] ?? (await readLink(io)), values.url);
      const client = new InboxClient(link.origin);
      await client.signIn(link);
      // One entry a line (JSON escapes every control character, so no entry spans two lines).
      for (const entry of await client.log(since)) io.stdout.write(`${JSON.stringify(entry)}\n`);
      return 0;
    }
    if (positionals[0] === 'grants') return await runGrants(io, { link: positionals[1], url: values.url, revoke: values.revoke });
    if (values.since !== undefined) throw new Error('--since goes with "parley inbox log"');
    if (values.revoke !== undefined) throw new Error('--revoke goes with "parley inbox grants"');
    const action = values.decline ? 'decline' : values.cancel ? 'cancel' : 'accept';
    if (values.decline && values.cancel) throw new Error('Choose one of --decline and --cancel');
    if (values.answer === undefined && (values.content !== undefined || values.decline || values.cancel))
      throw new Error('--content, --decline and --cancel go with --answer <id>');
    let content: Record<string, unknown> | undefined;
    if (values.content !== undefined) {
      if (action !== 'accept') throw new Error('--content goes with an accept, not with --decline or --cancel');
      content = parseContent(values.content);
    }
    const link = parseInboxLink(positionals[0] ?? (await readLink(io)), values.url);
    const client = new InboxClient(link.origin);
    await client.signIn(link);
    if (values.answer !== undefined) {
      const outcome = await client.answer(values.answer, action, content);
      say(
        outcome.ok
          ? `Answered ${clean(values.answer, true)} (${action}): ${outcome.message}.`
          : `Not answered: ${clean(outcome.message, true)}.`,
      );
      return outcome.ok ? 0 : 1;
    }
    const view = await client.list();
    say(`Questions for ${clean(view.signedInAs, true)}: ${view.questions.length}`);
    for (const q of view.questions) printQuestion(say, q);
    const open = view.questions.filter((q) => q.state === 'open');
    if (open.length === 0) return 0;
    const terminal = io.stdout.isTTY ? terminalInput(io.stdin) : undefined;
    if (!terminal) {
      say();
      say(NOT_ASKING);
      return 0;
    }
    try {
      await answerOnTerminal({ stdin: terminal, stdout: io.stdout }, client, open);
    } finally {
      if (terminal !== io.stdin) terminal.destroy();
    }
    return 0;
  } catch (error) {
    io.stderr.write(`parley inbox: ${clean((error as Error).message)}\n`);
    return 1;
  }
}

/** `parley inbox grants`: lists the person's standing approvals, or revokes one (`--revoke <id>`). */
async function runGrants(io: CliIo, given: { link?: string; url?: string; revoke?: string }): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const link = parseInboxLink(given.link ?? (await readLink(io)), given.url);
  const client = new InboxClient(link.origin);
  await client.signIn(link);
  if (given.revoke !== undefined) {
    const revoked = await client.revoke(given.revoke);
    say(revoked ? `Revoked ${clean(given.revoke, true)}: the next matching call asks again.` : 'Not revoked: no such standing approval.');
    return revoked ? 0 : 1;
  }
  const grants = await client.grants();
  say(`Standing approvals: ${grants.length}`);
  for (const g of grants) {
    const match = Object.entries(g.match ?? {})
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join(' ');
    say(`[${clean(g.id, true)}] ${clean(String(g.tool), true)} ${clean(match, true)} · until ${new Date(g.expiresAt).toISOString()}`);
  }
  return 0;
}

const NOT_ASKING = `Not asking: there is no terminal to type answers in. Answer one with
  parley inbox --url <server> --answer <id> --content '<json>'   (or --decline, --cancel)
with a fresh link (this one is spent).`;

/**
 * Where answers are typed: stdin on a terminal, else the terminal itself when the link came piped on stdin
 * (`pbpaste | parley inbox`); undefined with no terminal at all.
 */
function terminalInput(stdin: NodeJS.ReadStream): NodeJS.ReadStream | undefined {
  if (stdin.isTTY) return stdin;
  try {
    return new ReadStream(openSync('/dev/tty', 'r')) as NodeJS.ReadStream;
  } catch {
    return undefined; // no controlling terminal (CI, a service, Windows)
  }
}

/** --since: ms since the epoch, or a date `Date.parse` reads (2026-12-01, 2026-12-01T09:00:00Z); 0 when absent. */
function parseSince(text: string | undefined): number {
  if (text === undefined) return 0;
  const ms = /^[0-9]{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error('--since must be a date (2026-12-01) or milliseconds since the epoch');
  return ms;
}

function parseContent(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new Error('--content must be JSON, such as \'{"approve":true}\'');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('--content must be a JSON object');
  return value as Record<string, unknown>;
}

/** FRONTMCP_INBOX_LINK, else stdin (piped), else a prompt on the terminal that does not echo the link. */
async function readLink(io: CliIo): Promise<string> {
  const fromEnv = io.env.FRONTMCP_INBOX_LINK;
  if (fromEnv) return fromEnv;
  if (!io.stdin.isTTY) {
    let text = '';
    for await (const chunk of io.stdin) {
      text += chunk;
      if (text.includes('\n') || text.length > 4096) break;
    }
    const line = text.split('\n')[0]?.trim();
    if (!line) throw new Error('No inbox link: set FRONTMCP_INBOX_LINK, pipe it on stdin, or run on a terminal');
    return line;
  }
  io.stdout.write('Paste the inbox link (it is not shown): ');
  const line = await readHidden(io.stdin);
  io.stdout.write('\n');
  return line.trim();
}

/** Reads one line from a terminal in raw mode, echoing nothing (Ctrl-C gives up). */
function readHidden(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stdin.setRawMode(true);
    stdin.resume();
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new Error('No link given'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else if (text.length < 4096) text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

function printQuestion(say: (line?: string) => void, q: InboxQuestion): void {
  say();
  say(`[${clean(q.id, true)}] ${clean(q.message)}`);
  say(
    `  key ${clean(q.key, true)} · ${q.state === 'answered' ? 'answered' : q.from?.reason === 'task' ? 'a task is waiting' : q.waiting ? 'a call is waiting' : 'no call waiting'} · expires ${new Date(q.expiresAt).toISOString()}`,
  );
  const reason =
    typeof q.from?.reason === 'string' && Object.hasOwn(INBOX_REASONS, q.from.reason)
      ? INBOX_REASONS[q.from.reason as InboxReason]
      : undefined;
  if (reason) say(`  from ${clean(String(q.from?.tool), true)} · ${reason}`);
  for (const line of describeFields(q.requestedSchema)) say(`  ${line}`);
}

async function answerOnTerminal(io: Pick<CliIo, 'stdin' | 'stdout'>, client: InboxClient, open: InboxQuestion[]): Promise<void> {
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
  try {
    for (const q of open) {
      io.stdout.write(`\n${clean(q.message)}\n`);
      const choice = (await rl.question('Answer? [a]ccept, [d]ecline, [c]ancel, [s]kip: ')).trim().toLowerCase();
      if (!['a', 'd', 'c'].includes(choice[0] ?? 's')) continue;
      const action = choice[0] === 'a' ? 'accept' : choice[0] === 'd' ? 'decline' : 'cancel';
      const content = action === 'accept' ? await askForm(rl, io.stdout, q.requestedSchema) : undefined;
      const outcome = await client.answer(q.id, action, content);
      io.stdout.write(outcome.ok ? `Answered (${action}): ${outcome.message}.\n` : `Not answered: ${clean(outcome.message, true)}.\n`);
    }
  } finally {
    rl.close();
  }
}
