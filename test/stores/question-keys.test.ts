// The question store's names as QuestionKeys keeps them made: whatever it kept or dropped (more owners and more parts
// of one owner than it keeps), each name is the one a fresh instance makes, and never another owner's or part's.
import { describe, expect, it } from 'vitest';
import { QuestionKeys } from '../../src/stores';

describe('the names QuestionKeys keeps made', () => {
  for (const secret of ['a names secret', undefined]) {
    it(`are the names a fresh instance makes, past what it keeps (${secret ? 'keyed' : 'digest'})`, async () => {
      const kept = new QuestionKeys('p:', secret);
      const want = async (kind: string, owner: string, part: string) => new QuestionKeys('p:', secret).name(kind, owner, part);
      const asked: [string, string, string][] = [];
      for (let n = 0; n < 600; n++) asked.push(['task', `tsk_${n}`, 'r'], ['task', `tsk_${n}`, 'e'], ['task-owner', `tsk_${n}`, '']);
      for (let n = 0; n < 100; n++) asked.push(['q', 'one subject', `question-${n}`]);
      const made = await Promise.all(asked.map(([kind, owner, part]) => kept.name(kind, owner, part)));
      expect(new Set(made).size).toBe(asked.length);
      // Again, in another order: kept ones and made-again ones alike.
      for (const at of [0, 1, 2, 1799, 1798, 1850, 1899, 5, 900]) {
        const [kind, owner, part] = asked[at]!;
        expect(await kept.name(kind, owner, part)).toBe(made[at]);
        expect(await want(kind, owner, part)).toBe(made[at]);
      }
    });
  }
});
