// Pending ReadIndex requests of a leader (upstream read_only.go, v3.5). With
// ReadOnlySafe each request is confirmed by a quorum of heartbeat acks that
// carry its context.
import { registerClass } from '../../sim/serial';
import type { Message, RaftId, ReadOnlyOption } from './types';
import { panic } from './util';

export interface ReadIndexStatus {
  req: Message;
  index: number;
  acks: Map<RaftId, boolean>;
}

export class ReadOnly {
  option: ReadOnlyOption;
  pendingReadIndex: Map<string, ReadIndexStatus> = new Map();
  readIndexQueue: string[] = [];

  constructor(option: ReadOnlyOption) {
    this.option = option;
  }

  /** Adds a read-only request; index is the leader's commit index when it arrived. */
  addRequest(index: number, m: Message): void {
    const s = m.entries[0]!.data;
    if (this.pendingReadIndex.has(s)) return;
    this.pendingReadIndex.set(s, { index, req: m, acks: new Map() });
    this.readIndexQueue.push(s);
  }

  /** Records a heartbeat ack for the request with this context; returns its acks so far. */
  recvAck(id: RaftId, context: string): Map<RaftId, boolean> | undefined {
    const rs = this.pendingReadIndex.get(context);
    if (rs === undefined) return undefined;
    rs.acks.set(id, true);
    return rs.acks;
  }

  /**
   * Dequeues the request whose context the heartbeat response carries, and all
   * requests queued before it (a quorum ack confirms all earlier ones too).
   */
  advance(m: Message): ReadIndexStatus[] {
    const ctx = m.context;
    let i = 0;
    let found = false;
    const rss: ReadIndexStatus[] = [];
    for (const okctx of this.readIndexQueue) {
      i++;
      const rs = this.pendingReadIndex.get(okctx);
      if (rs === undefined) panic('cannot find corresponding read state from pending map');
      rss.push(rs);
      if (okctx === ctx) {
        found = true;
        break;
      }
    }
    if (!found) return [];
    this.readIndexQueue = this.readIndexQueue.slice(i);
    for (const rs of rss) this.pendingReadIndex.delete(rs.req.entries[0]!.data);
    return rss;
  }

  /** Context of the last pending request, or '' (sent with each heartbeat). */
  lastPendingRequestCtx(): string {
    const n = this.readIndexQueue.length;
    return n === 0 ? '' : this.readIndexQueue[n - 1]!;
  }
}

registerClass('RaftReadOnly', ReadOnly);
