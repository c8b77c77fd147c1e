// kubectl diff prints what GNU `diff -u -N` prints: our unified diff
// (engine/kubectl/util/unifiedDiff) against the real diff on a Deployment's
// YAML after random edits (changed, dropped and duplicated lines).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedHunks } from '../../engine/kubectl/util/unifiedDiff';

const have = spawnSync('diff', ['--version'], { encoding: 'utf8' }).status === 0;
if (!have) {
  if (process.env.CI) throw new Error('GNU diff (diffutils) not found: CI must have it');
  console.warn('SKIPPED: the unified diff comparison needs GNU diff');
}

const BASE = `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "3"
  creationTimestamp: "2026-12-06T21:37:41Z"
  generation: 3
  name: web
  namespace: default
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - env:
        - name: A
          value: "1"
        - name: POD
          valueFrom:
            fieldRef:
              apiVersion: v1
              fieldPath: metadata.name
        image: nginx:1.27
        name: web
        resources:
          requests:
            cpu: 100m
      - command:
        - sleep
        - "3600"
        env:
        - name: A
          value: "1"
        image: busybox:1.36
        name: side
        resources: {}
      restartPolicy: Always
status:
  replicas: 1
`.split('\n').filter(Boolean);

describe.skipIf(!have)('unified diff', () => {
  it('matches GNU diff -u on edited objects', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kg-udiff-'));
    const edit = fc.record({ at: fc.nat(), op: fc.constantFrom('change', 'drop', 'copy'), from: fc.nat() });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        const b = [...BASE];
        for (const e of edits) {
          const i = e.at % b.length;
          if (e.op === 'change') b[i] = `${b[i]}x`;
          else if (e.op === 'drop' && b.length > 1) b.splice(i, 1);
          else b.splice(i, 0, BASE[e.from % BASE.length]!);
        }
        const before = `${BASE.join('\n')}\n`;
        const after = `${b.join('\n')}\n`;
        writeFileSync(join(dir, 'a'), before);
        writeFileSync(join(dir, 'b'), after);
        const gnu = spawnSync('diff', ['-u', '-N', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' }).stdout;
        expect(unifiedHunks(before, after)).toBe(gnu.split('\n').slice(2).join('\n'));
      }),
      { numRuns: 300 },
    );
  });

  it('matches GNU diff -u where many lines repeat (its choice among minimal diffs)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kg-udiff-'));
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 }).map((xs) => xs.map((x) => `${x}\n`).join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        writeFileSync(join(dir, 'a'), before);
        writeFileSync(join(dir, 'b'), after);
        const gnu = spawnSync('diff', ['-u', '-N', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' }).stdout;
        expect(unifiedHunks(before, after)).toBe(gnu.split('\n').slice(2).join('\n'));
      }),
      { numRuns: 500 },
    );
  });
});
