// The suite's content, progress, logging and error tools, written as Parley tools.
import { PublicMcpError, Tool, ToolContext } from 'parley-mcp';
import { RED_PIXEL_PNG, SILENT_WAV, sleep } from './media';

const none = { type: 'object', properties: {} } as const;

@Tool({ name: 'test_simple_text', description: 'Returns simple text', inputSchema: none })
export class SimpleText extends ToolContext {
  execute() {
    return 'This is a simple text response for testing.';
  }
}

@Tool({ name: 'test_image_content', description: 'Returns an image', inputSchema: none })
export class ImageContent extends ToolContext {
  execute() {
    return { content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
  }
}

@Tool({ name: 'test_audio_content', description: 'Returns audio', inputSchema: none })
export class AudioContent extends ToolContext {
  execute() {
    return { content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] };
  }
}

const embedded = (uri: string, mimeType: string, text: string) => ({ type: 'resource', resource: { uri, mimeType, text } });

@Tool({ name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: none })
export class EmbeddedResource extends ToolContext {
  execute() {
    return { content: [embedded('test://embedded-resource', 'text/plain', 'This is an embedded resource content.')] };
  }
}

@Tool({ name: 'test_multiple_content_types', description: 'Returns text, an image and a resource', inputSchema: none })
export class MultipleContentTypes extends ToolContext {
  execute() {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        embedded('test://mixed-content-resource', 'application/json', JSON.stringify({ test: 'data', value: 123 })),
      ],
    };
  }
}

@Tool({ name: 'test_error_handling', description: 'Always fails', inputSchema: none })
export class ErrorHandling extends ToolContext {
  execute(): never {
    throw new PublicMcpError('This tool intentionally returns an error for testing');
  }
}

@Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100 of 100', inputSchema: none })
export class ToolWithProgress extends ToolContext {
  async execute() {
    this.progress(0, 100);
    await sleep(50);
    this.progress(50, 100);
    await sleep(50);
    this.progress(100, 100);
    return 'Progress reported: 0, 50, 100 of 100.';
  }
}

/** Logs three lines at info, 50 ms apart: sent only when the request's _meta names a log level. */
abstract class ThreeLogLines extends ToolContext {
  async execute() {
    this.log('info', 'Tool execution started');
    await sleep(50);
    this.log('info', 'Tool processing data');
    await sleep(50);
    this.log('info', 'Tool execution completed');
    return 'Logged three lines, if the request asked for them.';
  }
}

@Tool({ name: 'test_tool_with_logging', description: 'Logs three lines at info', inputSchema: none })
export class ToolWithLogging extends ThreeLogLines {}

@Tool({ name: 'test_logging_tool', description: 'Logs, but only when the request names a log level', inputSchema: none })
export class LoggingTool extends ThreeLogLines {}
