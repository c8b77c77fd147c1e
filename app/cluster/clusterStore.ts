// The Cluster view's state: the last cluster map and controllers read from the
// engine. Reads go through a ClusterSource (the worker in the page, a fake in
// tests); one read at a time, and a read asked for meanwhile runs once after it.
import { create } from 'zustand';
import type { ClusterView, ControllersView } from '../../engine/host/protocol';

export interface ClusterSource {
  cluster(): Promise<ClusterView | null>;
  controllers(): Promise<ControllersView | null>;
}

export interface ClusterState {
  cluster: ClusterView | null;
  controllers: ControllersView | null;
  /** How many reads completed (tests wait on it). */
  reads: number;
  readError: string | null;
  /** The controller whose recent reconciles are listed (null: the most recently active). */
  selectedController: string | null;
}

export const useCluster = create<ClusterState>()(() => ({ cluster: null, controllers: null, reads: 0, readError: null, selectedController: null }));

export function selectController(name: string | null): void {
  useCluster.setState({ selectedController: name });
}

export class ClusterPoller {
  private running = false;
  private again = false;

  constructor(
    private readonly source: ClusterSource,
    private readonly store = useCluster,
  ) {}

  async refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        try {
          const [cluster, controllers] = await Promise.all([this.source.cluster(), this.source.controllers()]);
          this.store.setState((s) => ({ cluster, controllers, readError: null, reads: s.reads + 1 }));
        } catch (e) {
          this.store.setState({ readError: e instanceof Error ? e.message : String(e) });
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
  }
}
