// A bounded trace of what the kernel did, plus a running hash over ALL records
// ever written (not just those still in the ring): two runs are identical iff
// their hashes and counts are.
import { registerClass } from './serial';
import type { ActorId } from './actor';

export type TraceKind =
  | 'send'
  | 'deliver'
  | 'drop'
  | 'duplicate'
  | 'timer'
  | 'persist'
  | 'crash'
  | 'restart'
  | 'fault'
  | 'command';

/** Why a message did not arrive. */
export type DropReason = 'partitioned' | 'loss' | 'target-down' | 'sender-down' | 'unknown-target';

export interface TraceRecord {
  /** Position in the whole run (0-based). */
  n: number;
  /** Virtual time in ms. */
  t: number;
  kind: TraceKind;
  from?: ActorId;
  to?: ActorId;
  /** The message's or timer's type (`MsgApp`, `electionTick`...). */
  type?: string;
  msgId?: number;
  reason?: DropReason | string;
  detail?: string;
}

const KIND_CODE: Record<TraceKind, number> = {
  send: 1,
  deliver: 2,
  drop: 3,
  duplicate: 4,
  timer: 5,
  persist: 6,
  crash: 7,
  restart: 8,
  fault: 9,
  command: 10,
};

export class TraceBuffer {
  private ring: (TraceRecord | undefined)[];
  private head = 0;
  count = 0;
  hash = 0x811c9dc5;

  constructor(readonly capacity: number) {
    this.ring = new Array(capacity);
  }

  record(r: Omit<TraceRecord, 'n'>): void {
    const rec = r as TraceRecord;
    rec.n = this.count++;
    if (this.capacity > 0) {
      this.ring[this.head] = rec;
      this.head = (this.head + 1) % this.capacity;
    }
    let h = this.hash;
    h = mix(h, KIND_CODE[rec.kind]);
    h = mix(h, Math.round(rec.t * 1000));
    if (rec.from !== undefined) h = mixStr(h, rec.from);
    if (rec.to !== undefined) h = mixStr(h, rec.to);
    if (rec.type !== undefined) h = mixStr(h, rec.type);
    if (rec.msgId !== undefined) h = mix(h, rec.msgId);
    if (rec.reason !== undefined) h = mixStr(h, rec.reason);
    if (rec.detail !== undefined) h = mixStr(h, rec.detail);
    this.hash = h;
  }

  /** Records still held, oldest first; optionally only those after record number `since`. */
  records(since = -1): TraceRecord[] {
    const out: TraceRecord[] = [];
    const n = Math.min(this.count, this.capacity);
    for (let i = 0; i < n; i++) {
      const idx = (this.head - n + i + this.capacity) % this.capacity;
      const rec = this.ring[idx]!;
      if (rec.n > since) out.push(rec);
    }
    return out;
  }

  /** A printable digest of the whole run so far. */
  digest(): string {
    return `${this.count}:${(this.hash >>> 0).toString(16).padStart(8, '0')}`;
  }
}

function mix(h: number, v: number): number {
  h ^= v & 0xffff;
  h = Math.imul(h, 0x01000193);
  h ^= (v / 65536) & 0xffff;
  return Math.imul(h, 0x01000193) >>> 0;
}

function mixStr(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return Math.imul(h ^ 0xff, 0x01000193) >>> 0;
}

registerClass('TraceBuffer', TraceBuffer);
