// docs/tools.md's Valibot example as a Worker inside workerd: listed with Valibot's JSON Schema, its arguments checked
// and shaped by Valibot (a default filled in), a bad call refused naming the field.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';
import { startWorker, type RunningWorker } from '../helpers/workerd';

let worker: RunningWorker;
beforeAll(async () => {
  const { code, nodeImports } = await bundleWorker('examples/valibot/worker.ts');
  expect(nodeImports).toEqual([]);
  worker = startWorker(code);
});
afterAll(() => worker?.dispose());

const rpc = async (method: string, params: Record<string, unknown> = {}) => {
  const response = await worker.send(mcpRequest(method, params));
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Record<string, any> }).result;
};

it('lists the tool with the JSON Schema Valibot converts, and runs it with what Valibot parsed', async () => {
  const { tools } = await rpc('tools/list');
  expect(tools[0].inputSchema).toEqual({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 3, description: 'What is wrong, in a few words' },
      priority: { type: 'string', enum: ['low', 'normal', 'urgent'], default: 'normal' },
    },
    required: ['title'],
  });
  const opened = await rpc('tools/call', { name: 'open_ticket', arguments: { title: 'Printer on fire' } });
  expect(opened.structuredContent).toEqual({ id: 'T-15', title: 'Printer on fire', priority: 'normal' });
});

it('refuses arguments Valibot refuses, as a tool error naming the field', async () => {
  const refused = await rpc('tools/call', { name: 'open_ticket', arguments: { title: 'ok', priority: 'now' } });
  expect(refused).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
  expect(refused.content[0].text).toMatch(/^Invalid arguments for tool "open_ticket": title: .*; priority: /);
});
