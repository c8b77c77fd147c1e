// The events stream's state: the filter, and the newest matching events read
// from the engine (at most `limit` rows: the UI's memory stays bounded however
// many events the cluster stores). One read at a time; a filter change reads
// again at once.
import { create } from 'zustand';
import type { EventsQuery, EventsView } from '../../engine/host/protocol';

export interface EventsSource {
  events(q: EventsQuery): Promise<EventsView | null>;
}

export const EVENTS_LIMIT = 300;

export interface EventsState {
  filter: EventsQuery;
  view: EventsView | null;
  reads: number;
  error: string | null;
}

export const useEvents = create<EventsState>()(() => ({ filter: {}, view: null, reads: 0, error: null }));

export class EventsPoller {
  private running = false;
  private again = false;

  constructor(
    private readonly source: EventsSource,
    private readonly store = useEvents,
  ) {}

  setFilter(patch: Partial<EventsQuery>): void {
    const filter = { ...this.store.getState().filter, ...patch };
    for (const k of Object.keys(filter) as (keyof EventsQuery)[]) if (filter[k] === '' || filter[k] === undefined) delete filter[k];
    this.store.setState({ filter });
    void this.refresh();
  }

  async refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const filter = this.store.getState().filter;
        try {
          const view = await this.source.events({ ...filter, limit: EVENTS_LIMIT });
          // A newer filter asked meanwhile reads again (this answer is for the old one).
          if (this.store.getState().filter !== filter) {
            this.again = true;
            continue;
          }
          this.store.setState((s) => ({ view, reads: s.reads + 1, error: null }));
        } catch (e) {
          this.store.setState({ error: e instanceof Error ? e.message : String(e) });
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
  }
}
