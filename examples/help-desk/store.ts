// The help desk's tickets, in memory: enough to see a delete happen, or not.
export interface Ticket {
  id: string;
  title: string;
}

const SEED: Ticket[] = [
  { id: 't1', title: 'Printer on floor 2 is jammed' },
  { id: 't2', title: 'Cannot sign in to the VPN' },
  { id: 't3', title: 'BUY CHEAP WATCHES NOW' },
];

export class TicketStore {
  private tickets = new Map<string, Ticket>();
  constructor(seed: Ticket[] = SEED) {
    this.reset(seed);
  }
  reset(seed: Ticket[] = SEED): void {
    this.tickets = new Map(seed.map((t) => [t.id, { ...t }]));
  }
  list(): Ticket[] {
    return [...this.tickets.values()];
  }
  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }
  delete(id: string): boolean {
    return this.tickets.delete(id);
  }
  ids(): string[] {
    return [...this.tickets.keys()];
  }
}

/** The store the example's tools share. */
export const tickets = new TicketStore();
