// The suite's input_required tools: elicitation, sampling and roots, alone, together, and over several rounds.
import { Tool, ToolContext } from 'parley-mcp';

const none = { type: 'object', properties: {} } as const;
const nameForm = { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] };
const capital = {
  messages: [{ role: 'user' as const, content: { type: 'text', text: 'What is the capital of France?' } }],
  maxTokens: 100,
};

/** The text of a sampling reply's (first) content block. */
export const textOf = (content: unknown): string => {
  const block = Array.isArray(content) ? content[0] : content;
  return typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : JSON.stringify(content);
};

@Tool({ name: 'test_input_required_result_elicitation', description: 'Asks for a name', inputSchema: none })
export class AskName extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', nameForm, { key: 'user_name' });
    return answer.status === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `No name given (${answer.status}).`;
  }
}

@Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model a question", inputSchema: none })
export class AskModel extends ToolContext {
  async execute() {
    const reply = await this.sample(capital, { key: 'capital_question' });
    return `The model said: ${textOf(reply.content)}`;
  }
}

@Tool({ name: 'test_input_required_result_list_roots', description: "Asks for the client's roots", inputSchema: none })
export class AskRoots extends ToolContext {
  async execute() {
    const roots = await this.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((r) => r.uri).join(', ')}`;
  }
}

@Tool({
  name: 'test_input_required_result_request_state',
  description: 'Asks, and finishes once the signed state checks out',
  inputSchema: none,
})
export class AskWithState extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', nameForm);
    // Parley verified the requestState's signature and binding before this run could read the answer.
    return `state-ok: ${answer.status === 'accept' ? String(answer.content?.name) : answer.status}`;
  }
}

@Tool({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Asks for a name, a sample and the roots in one round',
  inputSchema: none,
})
export class AskThree extends ToolContext {
  async execute() {
    const [name, reply, roots] = await Promise.all([this.elicit('What is your name?', nameForm), this.sample(capital), this.listRoots()]);
    return `name: ${String(name.content?.name)}; model: ${textOf(reply.content)}; roots: ${roots.length}`;
  }
}

@Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each', inputSchema: none })
export class AskTwice extends ToolContext {
  async execute() {
    const first = await this.elicit('What is your name?', nameForm);
    const name = String(first.content?.name ?? 'stranger');
    const second = await this.elicit(`Hello ${name}, what is your favourite colour?`, {
      type: 'object' as const,
      properties: { color: { type: 'string' } },
    });
    return `${name} likes ${String(second.content?.color ?? 'no colour in particular')}.`;
  }
}

@Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks; a tampered requestState is refused', inputSchema: none })
export class AskTamperProof extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', nameForm);
    return `Hello, ${String(answer.content?.name)}!`;
  }
}

@Tool({
  name: 'test_input_required_result_capabilities',
  description: 'Asks only what the client declared it can answer',
  inputSchema: none,
})
export class AskWhatIsDeclared extends ToolContext {
  async execute() {
    const caps = this.clientCapabilities;
    const [name, reply] = await Promise.all([
      caps.elicitation ? this.elicit('What is your name?', nameForm) : undefined,
      caps.sampling ? this.sample(capital) : undefined,
    ]);
    return `name: ${name ? String(name.content?.name) : '(not asked)'}; model: ${reply ? textOf(reply.content) : '(not asked)'}`;
  }
}

@Tool({ name: 'test_missing_capability', description: 'Needs sampling: without it the client gets -32021', inputSchema: none })
export class NeedsSampling extends ToolContext {
  async execute() {
    const reply = await this.sample('Say hello.', { maxTokens: 20 });
    return textOf(reply.content);
  }
}

@Tool({
  name: 'test_streaming_elicitation',
  description: 'Asks for a name; the question travels in the result, never as a request',
  inputSchema: none,
})
export class StreamingElicitation extends ToolContext {
  async execute() {
    const answer = await this.elicit('What is your name?', nameForm);
    return `Hello, ${String(answer.content?.name)}!`;
  }
}
