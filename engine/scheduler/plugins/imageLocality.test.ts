import { describe, expect, it } from 'vitest';
import type { Node, PodSpec } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { fakeHandle, makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { calculatePriority, ImageLocality, normalizedImageName } from './imageLocality';

const mb = 1024 * 1024;
type Images = { names: string[]; sizeBytes: number }[];
const makeImageNode = (name: string, images: Images): Node => makeNode(name, { images });
const c = (image: string) => ({ name: image, image });

// Port of imagelocality/image_locality_test.go (TestImageLocalityPriority), v1.32 (per-container max threshold, init containers counted).
describe('ImageLocality score', () => {
  const test40250: Partial<PodSpec> = { containers: [c('gcr.io/40'), c('gcr.io/250')] };
  const test40300: Partial<PodSpec> = { containers: [c('gcr.io/40'), c('gcr.io/300')] };
  const testMinMax: Partial<PodSpec> = { containers: [c('gcr.io/10'), c('gcr.io/4000')] };
  const test300600900: Partial<PodSpec> = { containers: [c('gcr.io/300'), c('gcr.io/600'), c('gcr.io/900')] };
  const test3040: Partial<PodSpec> = { containers: [c('gcr.io/30'), c('gcr.io/40')] };
  const test30Init300: Partial<PodSpec> = { containers: [c('gcr.io/30')], initContainers: [c('gcr.io/300')] };

  const node403002000: Images = [
    { names: ['gcr.io/40:latest', 'gcr.io/40:v1'], sizeBytes: 40 * mb },
    { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * mb },
    { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * mb },
  ];
  const node25010: Images = [
    { names: ['gcr.io/250:latest'], sizeBytes: 250 * mb },
    { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * mb },
  ];
  const node60040900: Images = [
    { names: ['gcr.io/600:latest'], sizeBytes: 600 * mb },
    { names: ['gcr.io/40:latest'], sizeBytes: 40 * mb },
    { names: ['gcr.io/900:latest'], sizeBytes: 900 * mb },
  ];
  const node300600900: Images = [
    { names: ['gcr.io/300:latest'], sizeBytes: 300 * mb },
    { names: ['gcr.io/600:latest'], sizeBytes: 600 * mb },
    { names: ['gcr.io/900:latest'], sizeBytes: 900 * mb },
  ];
  const node400030: Images = [
    { names: ['gcr.io/4000:latest'], sizeBytes: 4000 * mb },
    { names: ['gcr.io/30:latest'], sizeBytes: 30 * mb },
  ];
  const node203040: Images = [
    { names: ['gcr.io/20:latest'], sizeBytes: 20 * mb },
    { names: ['gcr.io/30:latest'], sizeBytes: 30 * mb },
    { names: ['gcr.io/40:latest'], sizeBytes: 40 * mb },
  ];

  const cases: { name: string; spec: Partial<PodSpec>; nodes: Node[]; expected: number[] }[] = [
    { name: 'two images spread on two nodes, prefer the larger image one', spec: test40250, nodes: [makeImageNode('node1', node403002000), makeImageNode('node2', node25010)], expected: [0, 5] },
    { name: 'two images on one node, prefer this node', spec: test40300, nodes: [makeImageNode('node1', node403002000), makeImageNode('node2', node25010)], expected: [7, 0] },
    { name: 'if exceed limit, use limit', spec: testMinMax, nodes: [makeImageNode('node1', node400030), makeImageNode('node2', node25010)], expected: [100, 0] },
    {
      name: 'if exceed limit, use limit (with node which has no images present)',
      spec: testMinMax,
      nodes: [makeImageNode('node1', node400030), makeImageNode('node2', node25010), makeImageNode('node3', [])],
      expected: [66, 0, 0],
    },
    {
      name: 'pod with multiple large images, node2 is preferred',
      spec: test300600900,
      nodes: [makeImageNode('node1', node60040900), makeImageNode('node2', node300600900), makeImageNode('node3', [])],
      expected: [32, 36, 0],
    },
    { name: 'pod with multiple small images', spec: test3040, nodes: [makeImageNode('node1', node203040), makeImageNode('node2', node400030)], expected: [1, 0] },
    {
      name: 'include InitContainers: two images spread on two nodes, prefer the larger image one',
      spec: test30Init300,
      nodes: [makeImageNode('node1', node403002000), makeImageNode('node2', node203040)],
      expected: [6, 0],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const infos = tc.nodes.map((n) => nodeInfoOf(n));
      const pl = new ImageLocality(fakeHandle(infos));
      const pod = makePod('p', { spec: tc.spec });
      const state = new CycleState();
      expect(infos.map((ni) => pl.score(state, pod, ni))).toEqual(tc.expected);
    });
  }
  it('has no score extensions', () => expect(new ImageLocality(fakeHandle([])).scoreExtensions()).toBeNull());
});

// TestNormalizedImageName
describe('normalizedImageName', () => {
  const digest = 'sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2';
  const cases = [
    ['add :latest postfix 1', 'root', 'root:latest'],
    ['add :latest postfix 2', 'gcr.io:5000/root', 'gcr.io:5000/root:latest'],
    ['keep it as is 1', 'root:tag', 'root:tag'],
    ['keep it as is 2', `root@${digest}`, `root@${digest}`],
  ] as const;
  for (const [name, input, output] of cases) it(name, () => expect(normalizedImageName(input)).toBe(output));
});

describe('calculatePriority', () => {
  it('clamps to the thresholds', () => {
    expect(calculatePriority(0, 1)).toBe(0);
    expect(calculatePriority(5000 * mb, 1)).toBe(100);
    // No containers: maxThreshold 0 clamps any sum to 0, and Go's (0-min)/(0-min) is 100.
    expect(calculatePriority(5000 * mb, 0)).toBe(100);
    expect(Object.is(calculatePriority(0, 0), 0)).toBe(true);
  });
});
