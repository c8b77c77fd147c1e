// Names and ids the API server makes up, from the seeded PRNG.
import type { Rng } from '../../sim/rng';

/** k8s.io/apimachinery/pkg/util/rand: consonants and digits that spell no words. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** names.SimpleNameGenerator: prefix + 5 random characters. */
export function generateName(prefix: string, rng: Rng): string {
  // Upstream trims the prefix so the result fits in 63 characters.
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  let s = '';
  for (let i = 0; i < 5; i++) s += ALPHANUMS[rng.int(0, ALPHANUMS.length)];
  return base + s;
}

/** A random (version 4) UUID, as uuid.NewRandom prints it. */
export function newUid(rng: Rng): string {
  const hex: string[] = [];
  for (let i = 0; i < 16; i++) {
    let b = rng.int(0, 256);
    if (i === 6) b = (b & 0x0f) | 0x40;
    if (i === 8) b = (b & 0x3f) | 0x80;
    hex.push(b.toString(16).padStart(2, '0'));
  }
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
