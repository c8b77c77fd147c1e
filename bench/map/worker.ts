// The map benchmark's worker: a synthetic cluster behind the real feed, as
// the engine's worker serves the map (Comlink, transferred buffers). Churn
// runs on a wall-clock timer, as a running simulation changes pods.
import * as Comlink from 'comlink';
import { ClusterFeed } from '../../engine/facade/map/feed';
import { deltaBuffers, type MapDelta } from '../../engine/facade/map/protocol';
import { SyntheticCluster } from './synthetic';

let cluster: SyntheticCluster | null = null;
let feed: ClusterFeed | null = null;
let churnTimer: ReturnType<typeof setInterval> | null = null;
const feedMs: number[] = [];

const api = {
  init(nodes: number, pods: number): number {
    cluster = new SyntheticCluster(nodes, pods);
    feed = new ClusterFeed(cluster);
    feedMs.length = 0;
    return cluster.podStore.size;
  },
  /** Starts (or stops, for 0) changing `perTick` pods every `everyMs` wall ms. */
  churn(perTick: number, everyMs = 100): void {
    if (churnTimer) clearInterval(churnTimer);
    churnTimer = perTick > 0 ? setInterval(() => cluster?.churn(perTick), everyMs) : null;
  },
  clusterMap(epoch: number, seq: number): MapDelta {
    const t0 = performance.now();
    const d = feed!.next(epoch, seq);
    feedMs.push(performance.now() - t0);
    return Comlink.transfer(d, deltaBuffers(d));
  },
  /** Wall ms each feed.next took since the last call. */
  takeFeedTimes(): number[] {
    return feedMs.splice(0);
  },
};

export type MapBenchWorker = typeof api;
Comlink.expose(api);
