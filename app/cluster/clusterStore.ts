// The Cluster view's state: the map's data (merged from the feed's deltas;
// the store holds only its version, so React re-renders on change without
// copying 150,000 pods) and the controllers read from the engine. Reads go
// through a ClusterSource (the worker in the page, the benchmark's worker, a
// fake in tests); one read at a time, and one asked for meanwhile runs after it.
import { create } from 'zustand';
import type { ControllersView, MapDelta } from '../../engine/host/protocol';
import { MapData } from './mapData';

export interface ClusterSource {
  /** The map's changes since the delta (epoch, seq) the data last applied. */
  map(epoch: number, seq: number): Promise<MapDelta | null>;
  controllers(): Promise<ControllersView | null>;
}

export interface ClusterState {
  /** MapData.version of the data the view shows; bumps when it changed. */
  version: number;
  controllers: ControllersView | null;
  /** How many reads completed (tests wait on it). */
  reads: number;
  readError: string | null;
  /** The controller whose recent reconciles are listed (null: the most recently active). */
  selectedController: string | null;
  /** Bytes of the last delta's columns and how long applying it took (wall ms): the transport's cost. */
  lastDelta: { bytes: number; applyMs: number; full: boolean } | null;
}

export const initialClusterState: ClusterState = { version: 0, controllers: null, reads: 0, readError: null, selectedController: null, lastDelta: null };

export const useCluster = create<ClusterState>()(() => initialClusterState);

/** The page's map data (one engine, one map). */
export const mapData = new MapData();

export function selectController(name: string | null): void {
  useCluster.setState({ selectedController: name });
}

export function deltaBytes(d: MapDelta): number {
  let n = 0;
  for (const cols of [d.nodes, d.pods, d.podNames]) if (cols) for (const v of Object.values(cols)) n += ArrayBuffer.isView(v) ? v.byteLength : typeof v === 'string' ? v.length * 2 : 0;
  n += (d.podsRemoved?.byteLength ?? 0) + (d.nodesRemoved?.byteLength ?? 0);
  for (const s of d.strings) n += s.length * 2;
  return n;
}

export class ClusterPoller {
  private running = false;
  private again = false;

  constructor(
    private readonly source: ClusterSource,
    private readonly data: MapData = mapData,
    private readonly store = useCluster,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async refresh(withControllers = true): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        try {
          const [delta, controllers] = await Promise.all([this.source.map(this.data.epoch, this.data.seq), withControllers ? this.source.controllers() : Promise.resolve(this.store.getState().controllers)]);
          const t0 = this.now();
          if (delta) this.data.apply(delta);
          // A delta in parts: read the next part now (after this await the page has drawn).
          if (delta?.more) this.again = true;
          const applyMs = this.now() - t0;
          this.store.setState((s) => ({
            version: this.data.version,
            controllers,
            readError: null,
            reads: s.reads + 1,
            lastDelta: delta ? { bytes: deltaBytes(delta), applyMs, full: delta.full } : s.lastDelta,
          }));
        } catch (e) {
          this.store.setState({ readError: e instanceof Error ? e.message : String(e) });
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
  }
}
