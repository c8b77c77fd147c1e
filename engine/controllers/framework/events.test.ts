import { describe, expect, it } from 'vitest';
import { CoreEventRecorder } from './events';

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };

describe('CoreEventRecorder', () => {
  it('names two new events of one object at the same instant apart, as a real clock would', () => {
    const r = new CoreEventRecorder('kube-controller-manager');
    const a = r.record({ regarding: rs, type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-a' }, 'replicaset-controller', 1000);
    const b = r.record({ regarding: rs, type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-b' }, 'replicaset-controller', 1000);
    const c = r.record({ regarding: rs, type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-c' }, 'replicaset-controller', 1001);
    const names = [a, b, c].map((x) => (x!.body as { metadata: { name: string } }).metadata.name);
    expect(new Set(names).size).toBe(3);
    expect(names.every((n) => /^web\.[0-9a-f]+$/.test(n))).toBe(true);
    // A repeat is a PATCH of the first one's count.
    const again = r.record({ regarding: rs, type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: web-a' }, 'replicaset-controller', 2000);
    expect(again!.method).toBe('PATCH');
    expect(again!.path).toBe(`/api/v1/namespaces/default/events/${names[0]}`);
  });

  it('the tenth pod created within 10 minutes is told as combined, as kubectl describe shows a big ReplicaSet', () => {
    const r = new CoreEventRecorder('kube-controller-manager');
    const rec = (i: number, at: number) => r.record({ regarding: rs, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: web-${i}` }, 'replicaset-controller', at)!;
    for (let i = 1; i <= 9; i++) expect(rec(i, i).method).toBe('POST');
    const tenth = rec(10, 10);
    expect(tenth.method).toBe('POST');
    expect(tenth.body).toMatchObject({ message: '(combined from similar events): Created pod: web-10', count: 1, reportingComponent: '', source: { component: 'replicaset-controller' } });
    const eleventh = rec(11, 11);
    expect(eleventh.method).toBe('PATCH');
    expect(eleventh.path).toBe(`/api/v1/namespaces/default/events/${(tenth.body as { metadata: { name: string } }).metadata.name}`);
    expect(eleventh.body).toEqual({ count: 2, lastTimestamp: expect.any(String), message: '(combined from similar events): Created pod: web-11' });
    // If that Event is gone, the bump creates it whole (recordEvent's fallback).
    expect(eleventh.create).toMatchObject({ path: '/api/v1/namespaces/default/events', body: { count: 2, message: '(combined from similar events): Created pod: web-11' } });
  });

  it('each controller has its own correlator: one controller\'s flood does not silence another', () => {
    const r = new CoreEventRecorder('kube-controller-manager');
    for (let i = 0; i < 30; i++) r.record({ regarding: rs, type: 'Warning', reason: 'FailedCreate', message: 'quota' }, 'replicaset-controller', i);
    expect(r.record({ regarding: rs, type: 'Warning', reason: 'FailedCreate', message: 'quota' }, 'replicaset-controller', 31)).toBeNull();
    expect(r.record({ regarding: rs, type: 'Normal', reason: 'ScalingReplicaSet', message: 'x' }, 'deployment-controller', 31)).not.toBeNull();
  });
});
