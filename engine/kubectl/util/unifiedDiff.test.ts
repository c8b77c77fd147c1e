// The unified diff's format, by hand-checked cases (server/kube/unifiedDiff.gnu.test.ts
// compares it with GNU diff itself on edited objects).
import { describe, expect, it } from 'vitest';
import { unifiedHunks } from './unifiedDiff';

const text = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');

describe('unifiedHunks', () => {
  it('is empty for the same text', () => {
    expect(unifiedHunks(text('a', 'b'), text('a', 'b'))).toBe('');
  });
  it('an added file: "-0,0"; one line: no count', () => {
    expect(unifiedHunks('', text('a', 'b'))).toBe('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedHunks('', text('a'))).toBe('@@ -0,0 +1 @@\n+a\n');
    expect(unifiedHunks(text('a'), '')).toBe('@@ -1 +0,0 @@\n-a\n');
  });
  it('three lines of context; deletions before insertions', () => {
    const a = text('1', '2', '3', '4', '5', '6', '7', '8', '9');
    const b = text('1', '2', '3', '4', 'five', '6', '7', '8', '9');
    expect(unifiedHunks(a, b)).toBe('@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n');
  });
  it('changes closer than twice the context share a hunk; farther ones do not', () => {
    const a = text(...Array.from({ length: 20 }, (_, i) => String(i + 1)));
    const near = a.replace('3\n', 'x\n').replace('9\n', 'y\n');
    expect(unifiedHunks(a, near).match(/^@@/gm)).toHaveLength(1);
    const far = a.replace('3\n', 'x\n').replace('11\n', 'y\n');
    expect(unifiedHunks(a, far)).toBe('@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+x\n 4\n 5\n 6\n@@ -8,7 +8,7 @@\n 8\n 9\n 10\n-11\n+y\n 12\n 13\n 14\n');
  });
});
