// npx tsx bench/validators.ts: what checking one tool call's arguments costs, by the path Parley takes for each kind of
// schema (model/schema.ts's toValidator): the bench's simple tool as a Zod shape and as plain JSON Schema (through
// @cfworker/json-schema), and a ticket with a few more fields and keywords both ways. z.fromJSONSchema is timed beside
// them because docs/tools.md says why it is not the JSON Schema validator.
import * as z from 'zod';
import { toValidator } from '../src/model';
import { microseconds } from './micro-time';

const TICKET = {
  type: 'object' as const,
  properties: {
    id: { type: 'string', pattern: '^T-[0-9]+$' },
    priority: { type: 'integer', minimum: 0, maximum: 3 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
  },
  required: ['id', 'priority'],
  additionalProperties: false,
};
const ZOD_TICKET = z.strictObject({
  id: z.string().regex(/^T-[0-9]+$/),
  priority: z.int().min(0).max(3),
  tags: z.array(z.string()).max(5).optional(),
  owner: z.object({ email: z.email() }).optional(),
});

const CASES: [string, (value: unknown) => unknown, unknown][] = [
  ['simple call, Zod shape', toValidator({ name: z.string() }), { name: 'Ada' }],
  [
    'simple call, JSON Schema',
    toValidator({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
    { name: 'Ada' },
  ],
  ['ticket, Zod', toValidator(ZOD_TICKET), { id: 'T-12', priority: 2, tags: ['a', 'b'], owner: { email: 'a@example.com' } }],
  ['ticket, JSON Schema', toValidator(TICKET), { id: 'T-12', priority: 2, tags: ['a', 'b'], owner: { email: 'a@example.com' } }],
  ['ticket, JSON Schema, 2 wrong fields', toValidator(TICKET), { id: 7, priority: 9 }],
  [
    'ticket, z.fromJSONSchema (not used)',
    (
      (s) => (v: unknown) =>
        s.safeParse(v)
    )(z.fromJSONSchema(TICKET as z.core.JSONSchema.JSONSchema)),
    { id: 'T-12', priority: 2 },
  ],
];

console.log(`Node ${process.version}, µs per check (median of 7 batches of 50,000)`);
for (const [name, check, value] of CASES)
  console.log(
    `${name.padEnd(40)} ${microseconds(() => check(value), 50_000)
      .toFixed(2)
      .padStart(7)}`,
  );
