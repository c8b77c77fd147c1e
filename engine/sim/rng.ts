// Seeded PRNG: xoshiro128** (Blackman & Vigna), seeded through splitmix32.
// Every random choice in the engine comes from an Rng; `fork(label)` gives a
// subsystem its own stream so a new draw in one subsystem does not reshuffle
// the others (TigerBeetle's VOPR does the same with sub-seeds).
import { registerClass } from './serial';

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a over a string, for turning labels and textual seeds into numbers. */
export function hashString(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  /** The seed this stream was made from (after label mixing), kept for fork(). */
  private seed: number;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    this.seed = typeof seed === 'string' ? hashString(seed) : seed >>> 0;
    const next = splitmix32(this.seed);
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A float in [0, 1) with 32 bits of randomness. */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** An integer uniformly in [lo, hi). */
  int(lo: number, hi: number): number {
    if (!(hi > lo)) throw new RangeError(`Rng.int: empty range [${lo}, ${hi})`);
    return lo + Math.floor(this.float() * (hi - lo));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick: no items');
    return items[this.int(0, items.length)] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /**
   * An independent stream derived from this stream's seed and a label. Forking
   * does not advance this stream, so adding a subsystem never changes the draws
   * of the existing ones.
   */
  fork(label: string): Rng {
    return new Rng(hashString(label, this.seed ^ 0x9e3779b9));
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

registerClass('Rng', Rng);
