// A bounded trace of what the kernel did, plus a running hash over ALL records
// ever written (not just those still in the ring): two runs are identical iff
// their hashes and counts are. Stored as parallel typed arrays with interned
// strings, so recording allocates nothing on the hot path.
import { registerClass } from './serial';
import type { ActorId } from './actor';

export type TraceKind =
  | 'send'
  | 'deliver'
  | 'drop'
  /** A stream (TCP) message that did not get through now: its sender keeps it for a retransmission. */
  | 'held'
  | 'duplicate'
  | 'timer'
  | 'persist'
  | 'crash'
  | 'restart'
  | 'fault'
  | 'command';

/** Why a message did not arrive. */
export type DropReason = 'partitioned' | 'loss' | 'target-down' | 'sender-down' | 'unknown-target' | 'connection-closed';

export interface TraceRecord {
  /** Position in the whole run (0-based). */
  n: number;
  /** Virtual time in ms. */
  t: number;
  kind: TraceKind;
  from?: ActorId;
  to?: ActorId;
  /** The message's or timer's type (`MsgApp`, `tick`...). */
  type?: string;
  msgId?: number;
  reason?: DropReason | string;
  detail?: string;
}

const KINDS: readonly TraceKind[] = ['send', 'deliver', 'drop', 'duplicate', 'timer', 'persist', 'crash', 'restart', 'fault', 'command', 'held'];
const KIND_CODE = new Map<TraceKind, number>(KINDS.map((k, i) => [k, i + 1]));

/** Kind codes for recordIds (position in KINDS + 1), so the kernel's hot path needs no lookup. */
export const TraceCode = {
  send: 1,
  deliver: 2,
  drop: 3,
  duplicate: 4,
  timer: 5,
  persist: 6,
} as const;

const NONE = 0;

export class TraceBuffer {
  private head = 0;
  count = 0;
  hash = 0x811c9dc5;
  private readonly t: Float64Array;
  private readonly kind: Uint8Array;
  /** from, to, type, reason of record i at ids[4i .. 4i+3]: one array, adjacent stores. */
  private readonly ids: Int32Array;
  private readonly msgId: Float64Array;
  private readonly detail: (string | null)[];
  /** Interned strings; id 0 means "absent". */
  private readonly strings: string[] = [''];
  private readonly stringIds = new Map<string, number>();
  private readonly stringHashes: number[] = [0];

  constructor(readonly capacity: number) {
    const n = Math.max(1, capacity);
    this.t = new Float64Array(n);
    this.kind = new Uint8Array(n);
    this.ids = new Int32Array(4 * n);
    this.msgId = new Float64Array(n);
    this.detail = new Array<string | null>(n).fill(null);
  }

  /** The id of an interned string (0 for undefined); ids are stable for the buffer's life. */
  intern(s: string | undefined): number {
    if (s === undefined) return NONE;
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
      let h = 0x811c9dc5;
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
      this.stringHashes.push(h);
    }
    return id;
  }

  /** The hot path: a message or timer event, no allocation. */
  recordEvent(kind: TraceKind, t: number, from: ActorId | undefined, to: ActorId | undefined, type: string | undefined, msgId: number, reason?: string): void {
    this.write(KIND_CODE.get(kind)!, t, this.intern(from), this.intern(to), this.intern(type), msgId, this.intern(reason), null);
  }

  /**
   * The kernel's hot path: strings already interned (the kernel keeps each
   * actor's id), kind as a TraceCode. Same record and hash as recordEvent.
   */
  recordIds(kind: number, t: number, from: number, to: number, type: number, msgId: number, reason: number): void {
    // write() inlined for the kernel's path (two records per message): same record, same hash.
    this.count++;
    const cap = this.capacity;
    if (cap > 0) {
      const i = this.head;
      this.t[i] = t;
      this.kind[i] = kind;
      const ids = this.ids;
      const j = 4 * i;
      ids[j] = from;
      ids[j + 1] = to;
      ids[j + 2] = type;
      ids[j + 3] = reason;
      this.msgId[i] = msgId;
      // Always stored: a constant null needs no write barrier, and a store
      // behind \`detail[i] !== null\` first ran when the ring wrapped onto a
      // record with a detail, deoptimizing the kernel's dispatch (which
      // inlines this) seconds into a run.
      this.detail[i] = null;
      this.head = i + 1 === cap ? 0 : i + 1;
    }
    const sh = this.stringHashes;
    let h = this.hash;
    h = Math.imul(h ^ kind, 0x01000193);
    const micros = Math.round(t * 1000);
    h = Math.imul(h ^ (micros | 0), 0x01000193);
    h = Math.imul(h ^ ((micros / 4294967296) | 0), 0x01000193);
    h = Math.imul(h ^ sh[from]!, 0x01000193);
    h = Math.imul(h ^ sh[to]!, 0x01000193);
    h = Math.imul(h ^ sh[type]!, 0x01000193);
    h = Math.imul(h ^ (msgId | 0), 0x01000193);
    h = Math.imul(h ^ sh[reason]!, 0x01000193);
    this.hash = h >>> 0;
  }

  record(r: Omit<TraceRecord, 'n'>): void {
    this.write(KIND_CODE.get(r.kind)!, r.t, this.intern(r.from), this.intern(r.to), this.intern(r.type), r.msgId ?? -1, this.intern(r.reason), r.detail ?? null);
  }

  private write(kind: number, t: number, from: number, to: number, type: number, msgId: number, reason: number, detail: string | null): void {
    this.count++;
    if (this.capacity > 0) {
      const i = this.head;
      this.t[i] = t;
      this.kind[i] = kind;
      const ids = this.ids;
      const j = 4 * i;
      ids[j] = from;
      ids[j + 1] = to;
      ids[j + 2] = type;
      ids[j + 3] = reason;
      this.msgId[i] = msgId;
      // Mostly null over null: skip the store (and its write barrier) then.
      if (this.detail[i] !== detail) this.detail[i] = detail;
      this.head = i + 1 === this.capacity ? 0 : i + 1;
    }
    const sh = this.stringHashes;
    let h = this.hash;
    h = Math.imul(h ^ kind, 0x01000193);
    const micros = Math.round(t * 1000);
    h = Math.imul(h ^ (micros | 0), 0x01000193);
    h = Math.imul(h ^ ((micros / 4294967296) | 0), 0x01000193);
    h = Math.imul(h ^ sh[from]!, 0x01000193);
    h = Math.imul(h ^ sh[to]!, 0x01000193);
    h = Math.imul(h ^ sh[type]!, 0x01000193);
    h = Math.imul(h ^ (msgId | 0), 0x01000193);
    h = Math.imul(h ^ sh[reason]!, 0x01000193);
    if (detail !== null) {
      for (let i = 0; i < detail.length; i++) h = Math.imul(h ^ detail.charCodeAt(i), 0x01000193);
    }
    this.hash = h >>> 0;
  }

  /** Records still held, oldest first; optionally only those after record number `since`. */
  records(since = -1): TraceRecord[] {
    const out: TraceRecord[] = [];
    const held = Math.min(this.count, this.capacity);
    const firstN = this.count - held;
    const skip = Math.max(0, since + 1 - firstN);
    for (let k = skip; k < held; k++) {
      const i = (this.head - held + k + this.capacity) % this.capacity;
      const rec: TraceRecord = { n: firstN + k, t: this.t[i]!, kind: KINDS[this.kind[i]! - 1]! };
      const s = this.strings;
      const ids = this.ids;
      const j = 4 * i;
      if (ids[j]) rec.from = s[ids[j]!];
      if (ids[j + 1]) rec.to = s[ids[j + 1]!];
      if (ids[j + 2]) rec.type = s[ids[j + 2]!];
      if (this.msgId[i]! >= 0) rec.msgId = this.msgId[i];
      if (ids[j + 3]) rec.reason = s[ids[j + 3]!];
      const d = this.detail[i];
      if (d !== null && d !== undefined) rec.detail = d;
      out.push(rec);
    }
    return out;
  }

  /** A printable digest of the whole run so far. */
  digest(): string {
    return `${this.count}:${(this.hash >>> 0).toString(16).padStart(8, '0')}`;
  }
}

registerClass('TraceBuffer', TraceBuffer);
