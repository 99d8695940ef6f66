// Announcing changes to open subscriptions/listen streams: list changes and resource updates, in this process.
type ChangeKind = 'tools' | 'prompts' | 'resources';

export type Change = { kind: ChangeKind } | { kind: 'resource'; uri: string };

/** What a server announces; every open listen stream that opted in hears it. */
export interface ListChanges {
  toolsListChanged(): void;
  promptsListChanged(): void;
  resourcesListChanged(): void;
  resourceUpdated(uri: string): void;
}

export interface ChangeHub extends ListChanges {
  /** Calls listener for each change until the returned function is called. */
  subscribe(listener: (change: Change) => void): () => void;
}

export function createChangeHub(): ChangeHub {
  const listeners = new Set<(change: Change) => void>();
  const publish = (change: Change) => {
    for (const listener of [...listeners]) listener(change);
  };
  return {
    toolsListChanged: () => publish({ kind: 'tools' }),
    promptsListChanged: () => publish({ kind: 'prompts' }),
    resourcesListChanged: () => publish({ kind: 'resources' }),
    resourceUpdated: (uri) => publish({ kind: 'resource', uri }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
