// The suite's prompts: plain, with arguments (and completion), with an embedded resource or an image, and one that asks.
import { Prompt, PromptContext } from 'parley-mcp';
import { RED_PIXEL_PNG } from './media';

const user = (content: Record<string, unknown>) => ({ role: 'user' as const, content });

@Prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
export class SimplePrompt extends PromptContext {
  execute() {
    return 'This is a simple prompt for testing.';
  }
}

const WORDS = ['paris', 'park', 'party', 'test', 'testing', 'tested'];

@Prompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt with two required arguments',
  arguments: [
    { name: 'arg1', description: 'First test argument', required: true, complete: (value) => WORDS.filter((w) => w.startsWith(value)) },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
})
export class PromptWithArguments extends PromptContext<{ arg1: string; arg2: string }> {
  execute({ arg1, arg2 }: { arg1: string; arg2: string }) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }
}

@Prompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt that embeds a resource',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
})
export class PromptWithEmbeddedResource extends PromptContext<{ resourceUri: string }> {
  execute({ resourceUri }: { resourceUri: string }) {
    return [
      user({ type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }),
      user({ type: 'text', text: 'Please process the embedded resource above.' }),
    ];
  }
}

@Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
export class PromptWithImage extends PromptContext {
  execute() {
    return [
      user({ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }),
      user({ type: 'text', text: 'Please analyze the image above.' }),
    ];
  }
}

@Prompt({ name: 'test_input_required_result_prompt', description: 'Asks what context to use before it builds the prompt' })
export class AskingPrompt extends PromptContext {
  async execute() {
    const form = { type: 'object' as const, properties: { context: { type: 'string' } }, required: ['context'] };
    const answer = await this.elicit('What context should the prompt use?', form, { key: 'user_context' });
    return `Use this context: ${answer.status === 'accept' ? String(answer.content?.context) : '(none given)'}`;
  }
}
