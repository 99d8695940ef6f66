// The one part of workerd's built-in module bench/servers/durable-ops-worker.ts uses (Parley takes no Workers types).
declare module 'cloudflare:workers' {
  /** The base class whose subclasses' public methods a stub calls over RPC. */
  export class DurableObject {
    constructor(ctx: unknown, env: unknown);
  }
}
