// Deterministic identifiers (machine and boot ids, container ids) from the seeded PRNG's draws.

/** 32 hex digits from a seed and a label. */
export function hex(seed: number, label: string): string {
  let out = '';
  for (let round = 0; round < 4; round++) {
    let h = (0x811c9dc5 ^ seed ^ (round * 0x9e3779b9)) >>> 0;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}
