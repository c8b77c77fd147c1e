import { describe, expect, it } from 'vitest';
import type { Container, Pod, ResourceList } from './api';
import { NodeInfo } from './nodeInfo';
import {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  isExtendedResourceName,
  isScalarResourceName,
  podRequestList,
  podRequests,
  quantityNumber,
  resourceOf,
} from './resources';

function pod(containers: Container[], initContainers: Container[] = [], overhead?: ResourceList): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'uid-p' },
    spec: { containers, initContainers, ...(overhead ? { overhead } : {}) },
  };
}

const c = (requests?: ResourceList, name = 'c'): Container => ({ name, ...(requests ? { resources: { requests } } : {}) });
const sidecar = (requests: ResourceList, name = 's'): Container => ({ name, restartPolicy: 'Always', resources: { requests } });

describe('podRequests: component-helpers TestPodResourceRequests (v1.32) cases', () => {
  const cases: { name: string; p: Pod; milliCPU: number; memory?: number }[] = [
    { name: 'nil options, larger init container', p: pod([c({ cpu: '1' })], [c({ cpu: '4' })]), milliCPU: 4000 },
    { name: 'nil options, larger containers', p: pod([c({ cpu: '2' }), c({ cpu: '3' })], [c({ cpu: '2' })]), milliCPU: 5000 },
    {
      name: 'pod overhead included',
      p: pod([c({ cpu: '2' }), c({ cpu: '3' })], [c({ cpu: '2' })], { cpu: '1', memory: '1Gi' }),
      milliCPU: 6000,
      memory: 1024 ** 3,
    },
    { name: 'restartable init container', p: pod([c({ cpu: '1' })], [sidecar({ cpu: '1' })]), milliCPU: 2000 },
    {
      // max(5, restartable init containers (1+2+3) + regular (1)) = 7
      name: 'multiple restartable init containers',
      p: pod([c({ cpu: '1' })], [c({ cpu: '5' }, 'init-1'), sidecar({ cpu: '1' }, 's1'), sidecar({ cpu: '2' }, 's2'), sidecar({ cpu: '3' }, 's3')]),
      milliCPU: 7000,
    },
    {
      // init-2 needs 5 + the sidecars started before it (1+2) = 8; the sidecar after it does not count
      name: 'multiple restartable and regular init containers',
      p: pod([c({ cpu: '1' })], [c({ cpu: '5' }, 'i1'), sidecar({ cpu: '1' }, 's1'), sidecar({ cpu: '2' }, 's2'), c({ cpu: '5' }, 'i2'), sidecar({ cpu: '3' }, 's3')]),
      milliCPU: 8000,
    },
    { name: 'restartable-init, init and regular', p: pod([c({ cpu: '100' })], [sidecar({ cpu: '10' }), c({ cpu: '200' }, 'i1')]), milliCPU: 210_000 },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const r = podRequests(tc.p);
      expect(r.milliCPU).toBe(tc.milliCPU);
      expect(r.memory).toBe(tc.memory ?? 0);
    });
  }
});

describe('podRequests: the scheduler computePodResourceRequest example (fit.go)', () => {
  it('init containers are a running max, containers a sum', () => {
    // IC1 2/1G, IC2 2/3G; C1 2/1G, C2 1/1G → cpu 3, memory 3G
    const p = pod([c({ cpu: '2', memory: '1G' }), c({ cpu: '1', memory: '1G' })], [c({ cpu: '2', memory: '1G' }), c({ cpu: '2', memory: '3G' })]);
    const r = podRequests(p);
    expect(r.milliCPU).toBe(3000);
    expect(r.memory).toBe(3e9);
  });
});

describe('podRequests with non-missing defaults (NonZeroRequested, scoring)', () => {
  it('a container without requests gets 100m and 200Mi', () => {
    const r = podRequests(pod([c()]), true);
    expect(r.milliCPU).toBe(DEFAULT_MILLI_CPU_REQUEST);
    expect(r.memory).toBe(DEFAULT_MEMORY_REQUEST);
  });

  it('only the missing request is defaulted; an explicit 0 is kept', () => {
    const r = podRequests(pod([c({ cpu: '0' }), c({ memory: '1Gi' })]), true);
    expect(r.milliCPU).toBe(0 + DEFAULT_MILLI_CPU_REQUEST);
    expect(r.memory).toBe(DEFAULT_MEMORY_REQUEST + 1024 ** 3);
  });

  it('without defaults the same pod requests what it lists', () => {
    const r = podRequests(pod([c({ cpu: '0' }), c({ memory: '1Gi' })]), false);
    expect(r.milliCPU).toBe(0);
    expect(r.memory).toBe(1024 ** 3);
  });

  it('init containers and sidecars are defaulted too, overhead is not', () => {
    // containers: 100m; sidecar (no requests) adds 100m; init: 100m + sidecar 100m = 200m peak
    const p = pod([c()], [sidecar({}), c(undefined, 'i1')], { cpu: '50m' });
    const r = podRequests(p, true);
    expect(r.milliCPU).toBe(200 + 50);
    expect(r.memory).toBe(2 * DEFAULT_MEMORY_REQUEST);
    expect(podRequests(p, false).milliCPU).toBe(50);
  });

  it('a pod without containers has no non-zero requests', () => {
    const r = podRequests(pod([]), true);
    expect(r.milliCPU).toBe(0);
    expect(r.memory).toBe(0);
  });

  it('NodeInfo accounts requested and non-zero requested from them', () => {
    const ni = new NodeInfo('n');
    ni.addPod(pod([c(), c({ cpu: '250m', memory: '0' })]));
    expect(ni.requested.milliCPU).toBe(250);
    expect(ni.requested.memory).toBe(0);
    expect(ni.nonZeroRequested.milliCPU).toBe(350);
    expect(ni.nonZeroRequested.memory).toBe(DEFAULT_MEMORY_REQUEST);
  });
});

describe('exact sums, converted once (Quantity arithmetic)', () => {
  it('fractional memory is summed before rounding up', () => {
    // Two containers of 0.5 bytes: upstream sums Quantities (1) then Value() → 1, not 1 + 1.
    expect(podRequests(pod([c({ memory: '0.5' }), c({ memory: '0.5' })])).memory).toBe(1);
    expect(podRequests(pod([c({ memory: '0.4' }), c({ memory: '0.4' })])).memory).toBe(1);
  });

  it('sub-milli cpu is summed before MilliValue rounds up', () => {
    expect(podRequests(pod([c({ cpu: '100u' }), c({ cpu: '100u' })])).milliCPU).toBe(1);
    expect(podRequests(pod([c({ cpu: '600u' }), c({ cpu: '600u' })])).milliCPU).toBe(2);
  });

  it('quantities of every form', () => {
    expect(quantityNumber('1.5', true)).toBe(1500);
    expect(quantityNumber('2Gi', false)).toBe(2 * 1024 ** 3);
    expect(quantityNumber(3, false)).toBe(3);
    expect(quantityNumber('1e3', false)).toBe(1000);
    expect(quantityNumber('0.1', false)).toBe(1);
  });
});

describe('scalar resources', () => {
  it('IsScalarResourceName / IsExtendedResourceName as v1helper', () => {
    expect(isExtendedResourceName('example.com/aaa')).toBe(true);
    expect(isScalarResourceName('example.com/aaa')).toBe(true);
    // *kubernetes.io/ names are native, but the scheduler tracks them as scalar.
    expect(isExtendedResourceName('kubernetes.io/something')).toBe(false);
    expect(isScalarResourceName('kubernetes.io/something')).toBe(true);
    expect(isScalarResourceName('subdomain.kubernetes.io/something')).toBe(true);
    expect(isScalarResourceName('hugepages-2Mi')).toBe(true);
    expect(isScalarResourceName('attachable-volumes-aws-ebs')).toBe(true);
    expect(isScalarResourceName('cpu')).toBe(false);
    expect(isScalarResourceName('pods')).toBe(false);
    expect(isScalarResourceName('storage')).toBe(false);
    expect(isExtendedResourceName('requests.example.com/foo')).toBe(false);
    // Not a qualified name once prefixed with "requests.": not extended.
    expect(isExtendedResourceName('Example.com/foo')).toBe(false);
    expect(isExtendedResourceName('a/b/c')).toBe(false);
  });

  it('pod requests carry scalar resources, pods, and drop unknown native names', () => {
    const r = podRequests(pod([c({ 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi', storage: '1Gi' }), c({ 'example.com/gpu': '1' })]));
    expect(r.scalar).toEqual({ 'example.com/gpu': 3, 'hugepages-2Mi': 4 * 1024 ** 2 });
  });

  it('exact list keeps every name (as resourcehelper.PodRequests)', () => {
    const l = podRequestList(pod([c({ cpu: '1', storage: '1' })], [c({ 'example.com/x': '0' })]));
    expect([...l.keys()].sort()).toEqual(['cpu', 'example.com/x', 'storage']);
  });

  it('node allocatable: pods, cpu, memory, ephemeral-storage and scalars', () => {
    const r = resourceOf({ cpu: '4', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi', 'example.com/gpu': 8 });
    expect(r).toEqual({ milliCPU: 4000, memory: 32 * 1024 ** 3, allowedPodNumber: 110, ephemeralStorage: 100 * 1024 ** 3, scalar: { 'example.com/gpu': 8 } });
  });
});
