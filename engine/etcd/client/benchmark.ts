// A load generator inside the simulation, after etcd's `benchmark put`
// (tools/benchmark/cmd/put.go): puts at a fixed rate over a key space, through
// an ordinary client, counting outcomes and latency instead of keeping records.
import type { ActorId } from '../../sim/actor';
import type { ActorContext } from '../../sim/kernel';
import { registerActorKind } from '../../sim/kernel';
import { registerClass } from '../../sim/serial';
import { EtcdClient, type CallRecord, type ClientConfig } from './client';

export interface BenchmarkConfig extends ClientConfig {
  /** Puts per second (0 = idle). */
  rate: number;
  /** Number of distinct keys (`--key-space-size`); keys are written in turn. */
  keySpace: number;
  /** Bytes per value (`--val-size`). */
  valueSize: number;
}

export interface BenchmarkStats {
  rate: number;
  issued: number;
  succeeded: number;
  failed: number;
  /** Sum and maximum of request latencies (virtual ms), for the mean. */
  latencySumMs: number;
  latencyMaxMs: number;
}

export class EtcdBenchmark extends EtcdClient {
  readonly stats: BenchmarkStats;
  private loadTimer = -1;
  private readonly value: string;
  private readonly keys: string[] = [];

  constructor(id: ActorId, readonly load: BenchmarkConfig) {
    super(id, load);
    this.stats = { rate: load.rate, issued: 0, succeeded: 0, failed: 0, latencySumMs: 0, latencyMaxMs: 0 };
    this.value = 'x'.repeat(Math.max(0, load.valueSize));
  }

  override start(ctx: ActorContext): void {
    super.start();
    this.schedule(ctx);
  }

  /** Changes the rate (0 stops); the next put follows the new interval. */
  setRate(ctx: ActorContext, rate: number): void {
    this.stats.rate = rate;
    if (this.loadTimer >= 0) ctx.cancelTimer(this.loadTimer);
    this.loadTimer = -1;
    this.schedule(ctx);
  }

  private schedule(ctx: ActorContext): void {
    if (this.stats.rate > 0) this.loadTimer = ctx.setTimer(1000 / this.stats.rate, 'load');
  }

  override timer(ctx: ActorContext, tag: string, data: unknown): void {
    if (tag !== 'load') return super.timer(ctx, tag, data);
    const n = this.stats.issued++;
    const i = n % this.load.keySpace;
    // Each key's string is built once: the store then holds one copy per key, not one per put.
    let key = this.keys[i];
    if (key === undefined) this.keys[i] = key = `/benchmark/${String(i).padStart(8, '0')}`;
    this.call(ctx, 'PutRequest', { key, value: this.value });
    this.schedule(ctx);
  }

  protected override completed(_ctx: ActorContext, call: CallRecord): void {
    if (call.outcome?.status === 'ok') this.stats.succeeded++;
    else this.stats.failed++;
    const latency = (call.doneAt ?? call.issuedAt) - call.issuedAt;
    this.stats.latencySumMs += latency;
    if (latency > this.stats.latencyMaxMs) this.stats.latencyMaxMs = latency;
    this.forget([call.id]);
  }
}

registerClass('EtcdBenchmark', EtcdBenchmark);
registerActorKind<BenchmarkConfig, null>({
  kind: 'etcd-benchmark',
  initDurable: () => null,
  create: (id, config) => new EtcdBenchmark(id, config),
});
