// A Worker that answers what Parley's z.compile does inside workerd, where code generation is forbidden, and what
// z.fromJSONSchema, left out of an edge bundle's z, does there.
import { z } from 'parley-mcp';

const Ticket = z.object({ id: z.string(), count: z.number().int() });

export default {
  fetch(): Response {
    const compiled = z.compile(Ticket);
    let strict: string;
    try {
      z.compile(Ticket, { strict: true });
      strict = 'compiled';
    } catch (error) {
      strict = error instanceof z.ZodCompileUnsupportedError ? 'unsupported' : String(error);
    }
    let fn: string;
    try {
      z.core.compileFn(Ticket);
      fn = 'compiled';
    } catch (error) {
      fn = error instanceof z.ZodCompileUnsupportedError ? 'unsupported' : String(error);
    }
    let fromJsonSchema: string;
    try {
      z.fromJSONSchema({ type: 'string' });
      fromJsonSchema = 'read';
    } catch (error) {
      fromJsonSchema = (error as Error).message;
    }
    return Response.json({
      same: compiled === Ticket,
      good: compiled.safeParse({ id: 'T-1', count: 2 }).success,
      bad: compiled.safeParse({ id: 7, count: 2.5 }).error?.issues.map((i) => i.path.join('.')),
      strict,
      fn,
      fromJsonSchema,
    });
  },
};
