import { describe, expect, it } from 'vitest';
import { canonicaliseQuantities, ERR_FORMAT_WRONG, ERR_SUFFIX, parseQuantity } from './quantity';
import type { KObject } from '../../apimachinery/types';

const canon = (s: string | number) => {
  const r = parseQuantity(s);
  if (!r.ok) throw new Error(r.error);
  return r.canonical;
};

describe('parseQuantity canonical forms (resource.Quantity.String)', () => {
  it.each([
    ['0.5', '500m'],
    ['1000m', '1'],
    ['1', '1'],
    ['100m', '100m'],
    ['1.5', '1500m'],
    ['0', '0'],
    ['0Gi', '0'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1e3', '1e3'],
    ['1E3', '1e3'],
    ['1.5e3', '1500'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['128974848', '128974848'],
    ['129e6', '129e6'],
    ['129M', '129M'],
    ['123Mi', '123Mi'],
    ['1n', '1n'],
    ['0.1m', '100u'],
    ['-1', '-1'],
    ['+2', '2'],
    ['2Ti', '2Ti'],
    ['1000000k', '1G'],
    ['.5', '500m'],
    ['5.', '5'],
  ])('%s → %s', (input, out) => {
    expect(canon(input)).toBe(out);
  });

  it('rounds below nano precision up (away from zero)', () => {
    expect(canon('0.0000000001')).toBe('1n');
    expect(canon('1.0000000001')).toBe('1000000001n');
  });

  it('an empty number is a numeric error, as upstream', () => {
    const r = parseQuantity('Gi');
    expect(!r.ok && r.error).toBe('unable to parse numeric part of quantity');
  });

  it('accepts JSON numbers as Go decodes them', () => {
    expect(canon(0.5)).toBe('500m');
    expect(canon(2)).toBe('2');
  });

  it('gives milli values rounded up', () => {
    const r = parseQuantity('1n');
    expect(r.ok && r.value).toBe(1n);
    const r2 = parseQuantity('2Gi');
    expect(r2.ok && r2.value).toBe(2n * 1024n ** 3n * 1000n);
  });

  it('rejects malformed quantities with upstream texts', () => {
    expect(ERR_FORMAT_WRONG).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    for (const bad of ['', 'abc', '1.2.3', '1 Gi', 'x1', '1Gb', '1KiB']) {
      const r = parseQuantity(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error).toBe(ERR_FORMAT_WRONG);
    }
    for (const bad of ['5mi', '1ki', '--1', '1Ki2', '1MM']) {
      const r = parseQuantity(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error).toBe(ERR_SUFFIX);
    }
  });
});

describe('canonicaliseQuantities', () => {
  it('rewrites container resources and rounds them up to milli precision', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: 1, memory: '1Gi', 'ephemeral-storage': '1n' } } }],
        volumes: [{ name: 'v', emptyDir: { sizeLimit: '1000Mi' } }],
      },
    } as unknown as KObject;
    expect(canonicaliseQuantities({ group: '', version: 'v1', kind: 'Pod' }, pod)).toBeNull();
    const c = (pod.spec as { containers: { resources: unknown }[] }).containers[0]!;
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1m' } });
    expect((pod.spec as { volumes: { emptyDir: unknown }[] }).volumes[0]!.emptyDir).toEqual({ sizeLimit: '1000Mi' });
  });

  it('reports the first bad quantity and leaves it in place', () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { template: { spec: { containers: [{ resources: { limits: { cpu: 'lots' } } }] } } },
    } as unknown as KObject;
    expect(canonicaliseQuantities({ group: 'apps', version: 'v1', kind: 'Deployment' }, d)).toBe(ERR_FORMAT_WRONG);
  });

  it('covers nodes, PVCs, quotas and HPA targets', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '4000m', memory: '8388608Ki', pods: '110' } } } as unknown as KObject;
    canonicaliseQuantities({ group: '', version: 'v1', kind: 'Node' }, node);
    expect((node.status as { capacity: unknown }).capacity).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { metrics: [{ type: 'Pods', pods: { target: { type: 'AverageValue', averageValue: '0.5' } } }] },
    } as unknown as KObject;
    canonicaliseQuantities({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, hpa);
    expect(JSON.stringify(hpa.spec)).toContain('"averageValue":"500m"');
  });
});

describe('binary quantities that are no whole number of Ki', () => {
  it('print without a suffix and read back as decimal, as upstream', () => {
    expect(canon('62.50Ki')).toBe('64000');
    expect(canon('64000')).toBe('64k');
  });
});
