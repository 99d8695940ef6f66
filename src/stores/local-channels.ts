// Publish/subscribe inside one process: the channels of one store instance, for backends that reach no other process.
import type { MessageHandler } from './types';

export class LocalChannels {
  private readonly channels = new Map<string, Set<MessageHandler>>();

  /** Returns how many handlers the message goes to. */
  publish(channel: string, message: string): number {
    const handlers = this.channels.get(channel);
    for (const handler of handlers ?? []) queueMicrotask(() => handler(message));
    return handlers?.size ?? 0;
  }

  subscribe(channel: string, onMessage: MessageHandler): () => Promise<void> {
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    // Wrap, so subscribing the same function twice gives two subscriptions.
    const handler: MessageHandler = (m) => onMessage(m);
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
    };
  }

  clear(): void {
    this.channels.clear();
  }
}
