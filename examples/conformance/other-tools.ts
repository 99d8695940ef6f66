// The suite's remaining tools: list-change triggers, a JSON Schema 2020-12 input, and an input mirrored into a header.
import { Tool, ToolContext } from 'parley-mcp';

const none = { type: 'object' as const, properties: {} };

@Tool({ name: 'test_trigger_tool_change', description: 'Announces a tools/list change to open listen streams', inputSchema: none })
export class TriggerToolChange extends ToolContext {
  execute() {
    this.changes.toolsListChanged();
    return 'Announced a tool list change.';
  }
}

@Tool({ name: 'test_trigger_prompt_change', description: 'Announces a prompts/list change to open listen streams', inputSchema: none })
export class TriggerPromptChange extends ToolContext {
  execute() {
    this.changes.promptsListChanged();
    return 'Announced a prompt list change.';
  }
}

/** Written as plain JSON Schema 2020-12: Parley passes it through to tools/list exactly as written. */
const contactSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object' as const,
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

@Tool({ name: 'json_schema_2020_12_tool', description: 'Tool with JSON Schema 2020-12 features', inputSchema: contactSchema })
export class JsonSchema202012 extends ToolContext {
  execute(input: Record<string, unknown>) {
    return `Contact saved for ${String(input.name ?? 'someone')}.`;
  }
}

@Tool({
  name: 'test_header_param',
  description: 'Reads the region from the Mcp-Param-Region header as well as the arguments',
  inputSchema: { type: 'object' as const, properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
})
export class HeaderParam extends ToolContext {
  execute(input: { region: string }) {
    return `Region: ${input.region}`;
  }
}
