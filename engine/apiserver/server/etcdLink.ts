// The API server's etcd client: clientv3 as our EtcdClient actor logic,
// embedded in the apiserver process. Finished calls and watch pushes are
// queued for the server to drain after every event it forwards.
import type { ActorContext } from '../../sim/kernel';
import type { ActorId, Payload } from '../../sim/actor';
import { EtcdClient, type CallRecord } from '../../etcd/client/client';
import { registerClass } from '../../sim/serial';
import type { WatchResponse } from '../../etcd/api/rpc';

export const ETCD_CLIENT_TIMER_TAGS: ReadonlySet<string> = new Set(['attemptTimeout', 'retry']);

export class ApiEtcdClient extends EtcdClient {
  /** Calls finished since the server last drained. */
  done: CallRecord[] = [];
  /** Watch responses received since the server last drained. */
  pushes: { from: ActorId; body: WatchResponse }[] = [];

  override receive(ctx: ActorContext, from: ActorId, p: Payload): void {
    if (p.type === 'WatchResponse') {
      this.pushes.push({ from, body: (p as unknown as { body: WatchResponse }).body });
      return;
    }
    super.receive(ctx, from, p);
  }

  protected override completed(_ctx: ActorContext, call: CallRecord): void {
    this.done.push(call);
    this.calls.delete(call.id);
  }

  drain(): { done: CallRecord[]; pushes: { from: ActorId; body: WatchResponse }[] } {
    const out = { done: this.done, pushes: this.pushes };
    this.done = [];
    this.pushes = [];
    return out;
  }
}

registerClass('ApiEtcdClient', ApiEtcdClient);
