// The in-memory index from key to its revision history (server/mvcc/index.go
// treeIndex), over an ordered B+tree so ranges cost O(log n + k).
//
// `end` follows mvcc conventions: null = the single key `key`; '' = every key
// >= key; otherwise [key, end).
import { registerClass } from '../../sim/serial';
import { SortedStringMap } from './btree';
import {
  kiCompact,
  kiGet,
  kiIsEmpty,
  kiKeep,
  kiPut,
  kiTombstone,
  newKeyIndex,
  type KeyAt,
  type KeyIndex,
} from './keyIndex';
import type { Rev } from './revision';

export class TreeIndex {
  private tree = new SortedStringMap<KeyIndex>();

  get size(): number {
    return this.tree.size;
  }

  get(key: string, atRev: number): KeyAt | null {
    const ki = this.tree.get(key);
    return ki ? kiGet(ki, atRev) : null;
  }

  keyIndex(key: string): KeyIndex | undefined {
    return this.tree.get(key);
  }

  insert(ki: KeyIndex): void {
    this.tree.set(ki.key, ki);
  }

  /** Records a put of key at rev; returns the key's index. */
  put(key: string, rev: Rev): KeyIndex {
    let ki = this.tree.get(key);
    if (!ki) {
      ki = newKeyIndex(key);
      this.tree.set(key, ki);
    }
    kiPut(ki, rev);
    return ki;
  }

  /** False when the key is absent or already deleted (ErrRevisionNotFound). */
  tombstone(key: string, rev: Rev): boolean {
    const ki = this.tree.get(key);
    return ki ? kiTombstone(ki, rev) : false;
  }

  private visit(key: string, end: string, fn: (ki: KeyIndex) => boolean | void): void {
    this.tree.ascend(key, end, (_k, ki) => fn(ki));
  }

  /**
   * Modification revisions of the live keys at atRev, in key order, at most
   * `limit` of them (no cap when limit <= 0); `total` counts them all.
   */
  revisions(key: string, end: string | null, atRev: number, limit: number): { revs: Rev[]; total: number } {
    if (end === null) {
      const at = this.get(key, atRev);
      return at ? { revs: [at.modified], total: 1 } : { revs: [], total: 0 };
    }
    const revs: Rev[] = [];
    let total = 0;
    this.visit(key, end, (ki) => {
      const at = kiGet(ki, atRev);
      if (!at) return;
      if (limit <= 0 || revs.length < limit) revs.push(at.modified);
      total++;
    });
    return { revs, total };
  }

  countRevisions(key: string, end: string | null, atRev: number): number {
    if (end === null) return this.get(key, atRev) ? 1 : 0;
    let total = 0;
    this.visit(key, end, (ki) => {
      if (kiGet(ki, atRev)) total++;
    });
    return total;
  }

  /** Keys live at atRev with their modification revisions. */
  range(key: string, end: string | null, atRev: number): { keys: string[]; revs: Rev[] } {
    if (end === null) {
      const at = this.get(key, atRev);
      return at ? { keys: [key], revs: [at.modified] } : { keys: [], revs: [] };
    }
    const keys: string[] = [];
    const revs: Rev[] = [];
    this.visit(key, end, (ki) => {
      const at = kiGet(ki, atRev);
      if (!at) return;
      keys.push(ki.key);
      revs.push(at.modified);
    });
    return { keys, revs };
  }

  /** Compacts every key at rev; returns the revisions to keep in the backend. */
  compact(rev: number): Set<Rev> {
    const available = new Set<Rev>();
    const keys: string[] = [];
    const vals: KeyIndex[] = [];
    this.tree.forEach((k, ki) => {
      kiCompact(ki, rev, available);
      if (!kiIsEmpty(ki)) {
        keys.push(k);
        vals.push(ki);
      }
    });
    if (keys.length !== this.tree.size) this.tree = SortedStringMap.fromSorted(keys, vals);
    return available;
  }

  /** The revisions a compaction at rev would keep. */
  keep(rev: number): Set<Rev> {
    const available = new Set<Rev>();
    this.tree.forEach((_k, ki) => kiKeep(ki, rev, available));
    return available;
  }

  forEach(fn: (ki: KeyIndex) => void): void {
    this.tree.forEach((_k, ki) => fn(ki));
  }
}

registerClass('etcd.TreeIndex', TreeIndex);
