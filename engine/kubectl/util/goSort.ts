// Go's sort.Sort (pattern-defeating quicksort, Go 1.19 and later), step for
// step: kubectl sorts `--sort-by` rows and describe's Events with it, and it
// is not stable, so rows that compare equal (or a Less that is not a strict
// order, as sorter.go's is for missing fields) land where Go's swaps put them,
// not where a stable sort would. Deterministic: its "random" pivot shuffle is
// a xorshift seeded with the length.

/** sort.Interface over indexes 0..len-1. */
export interface GoSortable {
  len: number;
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const bitsLen = (n: number) => (n <= 0 ? 0 : 32 - Math.clz32(n));

/** sort.Sort(data). */
export function goSort(data: GoSortable): void {
  const n = data.len;
  if (n <= 1) return;
  pdqsort(data, 0, n, bitsLen(n));
}

/** Sorts `items` in place as sort.Sort would with this Less, and returns it. */
export function goSortArray<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  goSort({
    len: items.length,
    less: (i, j) => less(items[i]!, items[j]!),
    swap: (i, j) => {
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    },
  });
  return items;
}

function insertionSort(d: GoSortable, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) for (let j = i; j > a && d.less(j, j - 1); j--) d.swap(j, j - 1);
}

function siftDown(d: GoSortable, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && d.less(first + child, first + child + 1)) child++;
    if (!d.less(first + root, first + child)) return;
    d.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(d: GoSortable, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(d, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    d.swap(first, first + i);
    siftDown(d, 0, i, first);
  }
}

const INCREASING = 1;
const DECREASING = 2;

function pdqsort(d: GoSortable, a: number, b: number, limit: number): void {
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= 12) {
      insertionSort(d, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(d, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(d, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(d, a, b);
    if (hint === DECREASING) {
      reverseRange(d, a, b);
      pivot = b - 1 - (pivot - a);
      hint = INCREASING;
    }
    if (wasBalanced && wasPartitioned && hint === INCREASING && partialInsertionSort(d, a, b)) return;
    // Many elements equal to the one before this range: put them first and go on past them.
    if (a > 0 && !d.less(a - 1, pivot)) {
      a = partitionEqual(d, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(d, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(d, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(d, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(d: GoSortable, a: number, b: number, pivot: number): [number, boolean] {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && d.less(i, a)) i++;
  while (i <= j && !d.less(j, a)) j--;
  if (i > j) {
    d.swap(j, a);
    return [j, true];
  }
  d.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && d.less(i, a)) i++;
    while (i <= j && !d.less(j, a)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  d.swap(j, a);
  return [j, false];
}

function partitionEqual(d: GoSortable, a: number, b: number, pivot: number): number {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !d.less(a, i)) i++;
    while (i <= j && d.less(a, j)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(d: GoSortable, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !d.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    d.swap(i, i - 1);
    // The smaller one goes left (down to index 1, as Go's loop bound has it), the greater right.
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
    }
  }
  return false;
}

function breakPatterns(d: GoSortable, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // xorshift64 over BigInt: Go's uint64 state, seeded with the length.
  const mask64 = (1n << 64n) - 1n;
  let r = BigInt(length);
  const next = () => {
    r ^= (r << 13n) & mask64;
    r ^= r >> 17n;
    r ^= (r << 5n) & mask64;
    return r;
  };
  const modulus = 1n << BigInt(bitsLen(length));
  const idx = a + Math.trunc(length / 4) * 2 - 1;
  for (let i = 0; i < 3; i++) {
    let other = Number(next() & (modulus - 1n));
    if (other >= length) other -= length;
    d.swap(idx + i, a + other);
  }
}

function choosePivot(d: GoSortable, a: number, b: number): [number, number] {
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.trunc(l / 4) * 1;
  let j = a + Math.trunc(l / 4) * 2;
  let k = a + Math.trunc(l / 4) * 3;
  if (l >= 8) {
    if (l >= 50) {
      // Tukey's ninther.
      i = median(d, i - 1, i, i + 1, swaps);
      j = median(d, j - 1, j, j + 1, swaps);
      k = median(d, k - 1, k, k + 1, swaps);
    }
    j = median(d, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, INCREASING];
  if (swaps.n === 12) return [j, DECREASING];
  return [j, 0];
}

function order2(d: GoSortable, a: number, b: number, swaps: { n: number }): [number, number] {
  if (d.less(b, a)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function median(d: GoSortable, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(d, a, b, swaps);
  [b, c] = order2(d, b, c, swaps);
  [a, b] = order2(d, a, b, swaps);
  return b;
}

function reverseRange(d: GoSortable, a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) d.swap(i, j);
}
