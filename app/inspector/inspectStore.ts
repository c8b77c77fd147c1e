// The inspected object's read-out (YAML, links, events), re-read from the
// engine while it is selected and virtual time moves. Reads go through an
// InspectSource (the worker in the page, a fake in tests); an answer for an
// object no longer selected is dropped.
import { create } from 'zustand';
import type { InspectView, ObjectRef } from '../../engine/host/protocol';

export interface InspectSource {
  inspect(ref: ObjectRef): Promise<InspectView | { error: string }>;
}

export interface InspectState {
  key: string;
  view: InspectView | null;
  error: string | null;
  reads: number;
}

export const refKey = (r: ObjectRef): string => `${r.group}/${r.resource}/${r.namespace ?? ''}/${r.name}`;

export const useInspect = create<InspectState>()(() => ({ key: '', view: null, error: null, reads: 0 }));

export class InspectPoller {
  private current: ObjectRef | null = null;
  private running = false;
  private again = false;

  constructor(
    private readonly source: InspectSource,
    private readonly store = useInspect,
  ) {}

  /** Starts following `ref` (its first read follows at once). */
  follow(ref: ObjectRef | null): void {
    this.current = ref;
    const key = ref ? refKey(ref) : '';
    if (this.store.getState().key !== key) this.store.setState({ key, view: null, error: null });
    if (ref) void this.refresh();
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
        const ref = this.current;
        if (!ref) return;
        const key = refKey(ref);
        try {
          const v = await this.source.inspect(ref);
          if (this.current === null || refKey(this.current) !== key) continue;
          if ('error' in v) this.store.setState((s) => ({ key, view: null, error: v.error, reads: s.reads + 1 }));
          else this.store.setState((s) => ({ key, view: v, error: null, reads: s.reads + 1 }));
        } catch (e) {
          this.store.setState({ error: e instanceof Error ? e.message : String(e) });
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
  }
}
