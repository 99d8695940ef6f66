// The server a hostile client attacks in test/security: the help desk's close_ticket (a tool that asks), a prompt,
// resources with a completing template, a tool whose header-mirrored properties carry prototype names, and tools
// that ask with a hand-written form or a question key the caller names, and a tool that runs as a task and waits in
// it for one answer (a task a hostile client's tasks/* can aim at).
import {
  App,
  Prompt,
  PromptContext,
  Resource,
  ResourceContext,
  ResourceTemplate,
  Tool,
  ToolContext,
  z,
  type FrontMcpConfigInput,
} from 'parley-mcp';
import { CloseTicket } from '../../examples/help-desk/tools/close-ticket.tool';

/** Names every plain object answers to through Object.prototype (and `prototype`, which functions have). */
export const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__defineGetter__',
  '__lookupGetter__',
] as const;

/** What an answer must never show: the internal server object, its config or its tables. */
export const INTERNAL = ['"config"', '"stateKey"', '"toolList"', '"logger"', '"elicitationStore"', '"production"', '"changes"'];

@Prompt({
  name: 'greet',
  description: 'Greets someone',
  arguments: [{ name: 'who', required: false, complete: (typed) => ['Ada', 'Alan'].filter((n) => n.startsWith(typed)) }],
})
class Greet extends PromptContext {
  execute(args: Record<string, string>) {
    return `Hello ${args.who ?? 'you'}`;
  }
}

// Every prototype name but __proto__ (which no JSON body can carry) as a required argument.
@Prompt({
  name: 'needs',
  description: 'Needs every argument',
  arguments: PROTOTYPE_NAMES.filter((n) => n !== '__proto__').map((name) => ({ name, required: true })),
})
class Needs extends PromptContext {
  execute(args: Record<string, string>) {
    return `got ${Object.keys(args).sort().join(',')}`;
  }
}

@Resource({ uri: 'desk://status', name: 'Desk status', mimeType: 'text/plain' })
class Status extends ResourceContext {
  execute() {
    return 'open';
  }
}

@ResourceTemplate({
  uriTemplate: 'notes://{owner}',
  name: 'Notes',
  complete: { owner: (typed: string) => ['ada', 'alan'].filter((n) => n.startsWith(typed)) },
})
class Notes extends ResourceContext<{ owner: string }> {
  execute(_uri: string, { owner }: { owner: string }) {
    return `notes of ${owner}`;
  }
}

// One optional string property per prototype name, each mirrored into Mcp-Param-P<i> (Object.fromEntries makes
// `__proto__` an own key, as JSON.parse would).
const mirrored = Object.fromEntries(PROTOTYPE_NAMES.map((name, i) => [name, { type: 'string', 'x-mcp-header': `P${i}` }]));

@Tool({ name: 'mirrored', description: 'Echoes its arguments', inputSchema: { type: 'object', properties: mirrored } })
class Mirrored extends ToolContext {
  execute(args: Record<string, unknown>) {
    return { keys: Object.keys(args), proto: Object.getPrototypeOf(args) === Object.prototype };
  }
}

@Tool({
  name: 'ask_field',
  description: 'Asks for one required field, named by the caller, with a hand-written form',
  inputSchema: { field: z.string() },
})
class AskField extends ToolContext {
  async execute({ field }: { field: string }) {
    const form = { type: 'object' as const, properties: Object.fromEntries([[field, { type: 'string' }]]), required: [field] };
    const answer = await this.elicit(`Give ${field}`, form);
    const content = (answer.content ?? {}) as Record<string, unknown>;
    return {
      status: answer.status,
      own: Object.hasOwn(content, field),
      value: Object.hasOwn(content, field) ? String(content[field]) : null,
    };
  }
}

@Tool({ name: 'ask_keyed', description: 'Asks a yes/no question under the key the caller names', inputSchema: { key: z.string() } })
class AskKeyed extends ToolContext {
  async execute({ key }: { key: string }) {
    const answer = await this.elicit('Sure?', z.object({ confirm: z.boolean() }), { key });
    return { status: answer.status, confirm: answer.content?.confirm === true };
  }
}

@Tool({
  name: 'parked_task',
  description: 'Becomes a task, then waits for an answer under the key `go`',
  inputSchema: {},
  execution: { taskSupport: 'optional' },
})
class ParkedTask extends ToolContext {
  async execute() {
    await this.startTask();
    const answer = await this.elicit('Go on?', z.object({ confirm: z.boolean() }), { key: 'go' });
    return answer.content?.confirm ? 'went on' : 'stopped';
  }
}

@App({
  id: 'hostile',
  tools: [CloseTicket, Mirrored, AskField, AskKeyed, ParkedTask],
  prompts: [Greet, Needs],
  resources: [Status, Notes],
})
class Hostile {}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export const config: FrontMcpConfigInput = {
  info: { name: 'hostile-fixture', version: '1.0.0' },
  apps: [Hostile],
  elicitation: { enabled: true },
  logger: quiet,
};
