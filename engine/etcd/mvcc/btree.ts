// An ordered map from binary-string keys to values: a B+tree whose leaves are
// chained, so get/insert are O(log n) and a range visit is O(log n + k). It
// plays the role of google/btree in server/mvcc/index.go. Entries are never
// removed one by one: compaction rebuilds the tree from the surviving sorted
// entries in O(n) (it walks every key anyway).
import { registerClass } from '../../sim/serial';

const MaxLeaf = 64;
const MaxInner = 64;

interface LeafNode<V> {
  leaf: true;
  keys: string[];
  vals: V[];
  next: LeafNode<V> | null;
}

interface InnerNode<V> {
  leaf: false;
  /** keys[i] is the smallest key under children[i + 1]. */
  keys: string[];
  children: Array<TreeNode<V>>;
}

type TreeNode<V> = LeafNode<V> | InnerNode<V>;

/** First index whose key is >= k. */
function lowerBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > k. */
function upperBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function newLeaf<V>(): LeafNode<V> {
  return { leaf: true, keys: [], vals: [], next: null };
}

export class SortedStringMap<V> {
  private root: TreeNode<V> = newLeaf<V>();
  private count = 0;
  /**
   * The same entries in a hash map, for exact lookups: every MVCC write looks
   * its key up, and a hash probe on a string (its hash is cached in the
   * string) beats a dozen string comparisons down the tree. Ranges use the tree.
   */
  private exact = new Map<string, V>();

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.exact.get(key);
  }

  /** Inserts or replaces; returns true when the key is new. */
  set(key: string, val: V): boolean {
    const path: Array<{ node: InnerNode<V>; idx: number }> = [];
    let node = this.root;
    while (!node.leaf) {
      const idx = upperBound(node.keys, key);
      path.push({ node, idx });
      node = node.children[idx] as TreeNode<V>;
    }
    const i = lowerBound(node.keys, key);
    this.exact.set(key, val);
    if (node.keys[i] === key) {
      node.vals[i] = val;
      return false;
    }
    node.keys.splice(i, 0, key);
    node.vals.splice(i, 0, val);
    this.count++;
    if (node.keys.length <= MaxLeaf) return true;

    // Split the leaf, then push separators up while inner nodes overflow.
    const half = node.keys.length >>> 1;
    const right: LeafNode<V> = { leaf: true, keys: node.keys.splice(half), vals: node.vals.splice(half), next: node.next };
    node.next = right;
    let sep = right.keys[0] as string;
    let newChild: TreeNode<V> = right;
    for (let level = path.length - 1; level >= 0; level--) {
      const { node: parent, idx } = path[level]!;
      parent.keys.splice(idx, 0, sep);
      parent.children.splice(idx + 1, 0, newChild);
      if (parent.children.length <= MaxInner) return true;
      const mid = parent.keys.length >>> 1;
      const upSep = parent.keys[mid] as string;
      const rightInner: InnerNode<V> = {
        leaf: false,
        keys: parent.keys.splice(mid + 1),
        children: parent.children.splice(mid + 1),
      };
      parent.keys.length = mid; // drop upSep, it moves up
      sep = upSep;
      newChild = rightInner;
    }
    this.root = { leaf: false, keys: [sep], children: [this.root, newChild] };
    return true;
  }

  /**
   * Visits keys >= from in order while (end === '' || key < end) and fn
   * returns something other than false. end '' means no upper bound.
   */
  ascend(from: string, end: string, fn: (key: string, val: V) => boolean | void): void {
    let leaf: LeafNode<V> | null = this.findLeaf(from);
    let i = lowerBound(leaf.keys, from);
    while (leaf) {
      for (; i < leaf.keys.length; i++) {
        const k = leaf.keys[i] as string;
        if (end !== '' && k >= end) return;
        if (fn(k, leaf.vals[i] as V) === false) return;
      }
      leaf = leaf.next;
      i = 0;
    }
  }

  forEach(fn: (key: string, val: V) => void): void {
    this.ascend('', '', fn);
  }

  /** Builds a tree from entries already sorted by key, without duplicates. */
  static fromSorted<V>(keys: readonly string[], vals: readonly V[]): SortedStringMap<V> {
    const t = new SortedStringMap<V>();
    if (keys.length === 0) return t;
    const fill = Math.floor((MaxLeaf * 3) / 4);
    let level: Array<TreeNode<V>> = [];
    let mins: string[] = [];
    let prev: LeafNode<V> | null = null;
    for (let i = 0; i < keys.length; i += fill) {
      const leaf: LeafNode<V> = { leaf: true, keys: keys.slice(i, i + fill), vals: vals.slice(i, i + fill), next: null };
      if (prev) prev.next = leaf;
      prev = leaf;
      level.push(leaf);
      mins.push(leaf.keys[0] as string);
    }
    while (level.length > 1) {
      const up: Array<TreeNode<V>> = [];
      const upMins: string[] = [];
      const per = Math.floor((MaxInner * 3) / 4);
      for (let i = 0; i < level.length; i += per) {
        const children = level.slice(i, i + per);
        const childMins = mins.slice(i, i + per);
        up.push({ leaf: false, keys: childMins.slice(1), children });
        upMins.push(childMins[0] as string);
      }
      level = up;
      mins = upMins;
    }
    t.root = level[0] as TreeNode<V>;
    t.count = keys.length;
    for (let i = 0; i < keys.length; i++) t.exact.set(keys[i]!, vals[i]!);
    return t;
  }

  private findLeaf(key: string): LeafNode<V> {
    let node = this.root;
    while (!node.leaf) node = node.children[upperBound(node.keys, key)] as TreeNode<V>;
    return node;
  }
}

registerClass('etcd.SortedStringMap', SortedStringMap);
