// The types a schema gives execute() and answer.content: each library's own output type. tsc checks this file (npm run
// typecheck); at run time the assertions do nothing.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import * as zm from 'zod/mini';
import { type Infer, Tool, ToolContext, z } from 'parley-mcp';

type Ticket = { id: string; count: number };

const TICKETS = {
  zod: z.object({ id: z.string(), count: z.coerce.number() }),
  mini: zm.object({ id: zm.string(), count: zm.number() }),
  valibot: toStandardJsonSchema(v.object({ id: v.string(), count: v.pipe(v.string(), v.transform(Number)) })),
  arktype: type({ id: 'string', count: 'string.numeric.parse' }),
};

describe('Infer', () => {
  it('is the output type of each library (after its transforms), and an object for plain JSON Schema', () => {
    expectTypeOf<Infer<typeof TICKETS.zod>>().toEqualTypeOf<Ticket>();
    expectTypeOf<Infer<typeof TICKETS.mini>>().toEqualTypeOf<Ticket>();
    expectTypeOf<Infer<typeof TICKETS.valibot>>().toEqualTypeOf<Ticket>();
    expectTypeOf<Infer<typeof TICKETS.arktype>>().toEqualTypeOf<Ticket>();
    expectTypeOf<Infer<{ id: z.ZodString }>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<Infer<{ type: 'object' }>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('types execute() through ToolContext, and answer.content through elicit()', () => {
    @Tool({ name: 'file', inputSchema: TICKETS.valibot })
    class File extends ToolContext<Infer<typeof TICKETS.valibot>> {
      async execute(input: Infer<typeof TICKETS.valibot>) {
        expectTypeOf(input.count).toEqualTypeOf<number>();
        const answer = await this.elicit('Sure?', TICKETS.arktype);
        expectTypeOf(answer.content).toEqualTypeOf<Ticket | undefined>();
        const mini = await this.elicit('Sure?', zm.object({ sure: zm.boolean() }));
        expectTypeOf(mini.content).toEqualTypeOf<{ sure: boolean } | undefined>();
        return input.id;
      }
    }
    expectTypeOf<Parameters<File['execute']>[0]>().toEqualTypeOf<Ticket>();
  });
});
