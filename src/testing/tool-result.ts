// A tools/call result as tests read it: .json(), .text(), .isError, and the raw result.
import type { CallToolResult } from '../client';

export class ToolResult {
  constructor(readonly raw: CallToolResult) {}

  get isError(): boolean {
    return this.raw.isError === true;
  }
  get content(): CallToolResult['content'] {
    return this.raw.content ?? [];
  }
  get structuredContent(): any {
    return this.raw.structuredContent;
  }
  get _meta(): Record<string, any> | undefined {
    return this.raw._meta;
  }

  /** Every text item of the content, joined with newlines. */
  text(): string {
    return this.content
      .filter((c) => c.type === 'text' && typeof c.text === 'string')
      .map((c) => c.text)
      .join('\n');
  }

  /** structuredContent when the tool returned some, else the text parsed as JSON. */
  json(): any {
    if (this.raw.structuredContent !== undefined) return this.raw.structuredContent;
    const text = this.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`The tool result has no structuredContent and its text is not JSON: ${text.slice(0, 200)}`);
    }
  }
}
