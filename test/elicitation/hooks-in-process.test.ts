import { describe, expect, it } from 'vitest';
import type { ElicitationAnswer, ElicitationQuestion } from 'parley-mcp';
import { connectMcp } from 'parley-mcp/testing';
import { config } from '../../examples/help-desk/server';
import { LegacyExtras } from '../fixtures/legacy-desk';
import { Hooked, recordingHooks } from '../fixtures/hooked-app';

// The in-process client of parley-mcp/testing: no socket, the handler called directly, on both eras.
const seen = { questions: [] as ElicitationQuestion[], answers: [] as ElicitationAnswer[] };
const server = { ...config, apps: [...config.apps!, Hooked, LegacyExtras], elicitation: { enabled: true, hooks: recordingHooks(seen) } };

describe.each(['2026-07-28', '2025-11-25'])('elicitation hooks in process, %s', (protocolVersion) => {
  it('rewords a question, refuses one, and rejects an answer', async () => {
    seen.questions.length = 0;
    seen.answers.length = 0;
    const mcp = await connectMcp(server, { protocolVersion });
    const asked: string[] = [];
    mcp.onElicitation((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { color: asked.length === 1 ? 'teal' : 'plaid' } };
    });
    try {
      expect((await mcp.tools.call('pick_color')).structuredContent).toEqual({ status: 'accept', color: 'teal' });
      const rejected = await mcp.tools.call('pick_color');
      expect(rejected.isError).toBe(true);
      expect(rejected.text()).toBe('Rejected: plaid is not a color');
      const refused = await mcp.tools.call('ask_password');
      expect(refused.text()).toBe('Refused: forms must not ask for passwords');
      expect(asked).toEqual(['[desk] Which color?', '[desk] Which color?']);
      expect(seen.questions.map((q) => [q.tool, q.message])).toEqual([
        ['pick_color', 'Which color?'],
        ['pick_color', 'Which color?'],
        ['ask_password', 'Your password, please'],
      ]);
      expect(seen.answers.map((a) => a.result.content)).toEqual([{ color: 'teal' }, { color: 'plaid' }]);
    } finally {
      await mcp.close();
    }
  });
});

describe('an unanswered question in process', () => {
  it('fails with ELICITATION_TIMEOUT once its ttl passes (2025-11-25 waits; 2026-07-28 rounds never wait)', async () => {
    const mcp = await connectMcp(server, { protocolVersion: '2025-11-25' });
    mcp.onElicitation(() => new Promise(() => {})); // nobody answers
    try {
      const result = await mcp.tools.call('confirm_quickly', { id: 'T-9' });
      expect(result.isError).toBe(true);
      expect(result._meta?.code).toBe('ELICITATION_TIMEOUT');
    } finally {
      await mcp.close();
    }
  });
});
