// Reading SSE responses in tests: every `data:` line of a finished stream, or events one at a time from a live one.
export const parseEvents = (text: string): any[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)));

/** Reads events from a live stream as they arrive. */
export function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ready: any[] = [];
  return {
    async next(): Promise<any> {
      while (ready.length === 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error('The stream ended');
        buffer += decoder.decode(value, { stream: true });
        const parts = buffer.split('\n\n');
        buffer = parts.pop()!;
        for (const part of parts) ready.push(...parseEvents(part));
      }
      return ready.shift();
    },
    cancel: () => reader.cancel(),
  };
}
