// The suite's tools for clients before 2026-07-28: they ask on the call's stream (elicitation/create, sampling/createMessage).
import { Tool, ToolContext } from 'parley-mcp';
import { textOf } from './input-tools';

const none = { type: 'object' as const, properties: {} };
const oneString = (name: string) => ({ type: 'object' as const, properties: { [name]: { type: 'string' } }, required: [name] });

@Tool({ name: 'test_sampling', description: "Asks the client's model the given prompt", inputSchema: oneString('prompt') })
export class Sampling extends ToolContext {
  async execute({ prompt }: { prompt: string }) {
    const reply = await this.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return `LLM response: ${textOf(reply.content)}`;
  }
}

const contactForm = {
  type: 'object' as const,
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

@Tool({ name: 'test_elicitation', description: 'Asks the user the given message', inputSchema: oneString('message') })
export class Elicitation extends ToolContext {
  async execute({ message }: { message: string }) {
    const answer = await this.elicit(message, contactForm);
    return `User response: action=${answer.status}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}

/** SEP-1034: every primitive field carries a default. */
const defaultsForm = {
  type: 'object' as const,
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
};

@Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks with a default for every primitive type', inputSchema: none })
export class ElicitationDefaults extends ToolContext {
  async execute() {
    const answer = await this.elicit('Check these details', defaultsForm);
    return `Elicitation completed: action=${answer.status}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}

const titled = (...pairs: [string, string][]) => pairs.map(([value, title]) => ({ const: value, title }));

/** SEP-1330: the five enum shapes, single and multiple choice, with and without titles. */
const enumsForm = {
  type: 'object' as const,
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', oneOf: titled(['value1', 'First Option'], ['value2', 'Second Option'], ['value3', 'Third Option']) },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: { anyOf: titled(['value1', 'First Choice'], ['value2', 'Second Choice'], ['value3', 'Third Choice']) },
    },
  },
};

@Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks with every enum shape', inputSchema: none })
export class ElicitationEnums extends ToolContext {
  async execute() {
    const answer = await this.elicit('Choose your options', enumsForm);
    return `Elicitation completed: action=${answer.status}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}
