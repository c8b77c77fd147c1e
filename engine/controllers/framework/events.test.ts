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
});
