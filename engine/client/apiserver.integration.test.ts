// The client machinery against the real kube-apiserver over etcd: paged lists
// with real continue tokens, and leader election on a real Lease (validation,
// optimistic concurrency).
import { describe, it, expect } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { Reflector, type ReflectorEvent, type ReflectorRequest } from './reflector';
import { LeaderElector, LEADER_ELECTION_DEFAULTS, type LeaderElectionPlan } from './leaderElection';

describe('client machinery against kube-apiserver', () => {
  const e = controlPlane(11);

  it('a Reflector lists at "0" from the watch cache in one answer (its limit ignored), then, once its version is refused as expired, pages through etcd and replaces its store once', () => {
    for (let i = 0; i < 23; i++) expect(call(e, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } }).status).toBe(201);
    const r = new Reflector('/api/v1/namespaces/default/configmaps');
    r.pageSize = 5;
    const get = (q: ReflectorRequest) => call(e, 'GET', q.path, undefined, { query: q.query });
    const first = r.listRequest();
    expect(first.query).toEqual({ resourceVersion: '0', limit: '5' });
    const whole = get(first);
    expect(JSON.parse(whole.text).metadata.continue).toBeUndefined();
    expect(r.onList(whole.status, whole.text)).not.toBe('retry');
    expect(r.nextRequest()).toBeNull();
    expect(r.store.size).toBeGreaterThanOrEqual(23);
    // A relist at the synced version that comes back 410 Expired: the next one reads etcd ("").
    expect(r.listRequest().query).toEqual({ resourceVersion: r.rv });
    expect(r.onList(410, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 }))).toBe('retry');
    let req: ReflectorRequest | null = r.listRequest();
    expect(req.query).toEqual({ resourceVersion: '', limit: '5' });
    const before = r.store.size;
    let out: ReflectorEvent[] | 'retry' = [];
    let pages = 0;
    while (req) {
      const res = get(req);
      pages++;
      out = r.onList(res.status, res.text);
      expect(out).not.toBe('retry');
      req = r.nextRequest();
      if (req) expect(r.store.size).toBe(before); // nothing replaced before the list is whole
    }
    const total = call(e, 'GET', '/api/v1/namespaces/default/configmaps').body.items.length as number;
    expect(total).toBeGreaterThanOrEqual(23);
    expect(pages).toBe(Math.ceil(total / 5));
    expect(r.store.size).toBe(total);
    expect((out as ReflectorEvent[]).length).toBe(total);
    expect(r.store.has('default/cm-22')).toBe(true);
    expect(Number(r.rv)).toBeGreaterThan(0);
  });

  it('a LeaderElector acquires a real Lease, renews it, and a rival is refused', () => {
    const cfg = { name: 'kglass-test', namespace: 'kube-system', ...LEADER_ELECTION_DEFAULTS };
    const a = new LeaderElector({ ...cfg, identity: 'a_1' });
    const b = new LeaderElector({ ...cfg, identity: 'b_2' });
    const now = () => e.state().virtualTime;
    const drive = (el: LeaderElector, p: LeaderElectionPlan): LeaderElectionPlan[] => {
      const plans = [p];
      while (p.request) {
        const res = call(e, p.request.method, p.request.path, p.request.body);
        p = el.onResponse(now(), p.request.seq, res.status, res.text);
        plans.push(p);
      }
      return plans;
    };
    const aPlans = drive(a, a.run(now()));
    expect(a.phase).toBe('leading');
    expect(aPlans.flatMap((p) => p.events).find((x) => x.type === 'RecordEvent')).toMatchObject({ message: 'a_1 became leader' });
    const lease = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kglass-test').body;
    expect(lease.spec).toMatchObject({ holderIdentity: 'a_1', leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(lease.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    drive(b, b.run(now()));
    expect(b.phase).toBe('acquiring');
    expect(b.leader).toBe('a_1');

    // A renewal later: the fast-path PUT with the last written resourceVersion succeeds.
    e.advance(2_000);
    const renew = drive(a, a.tick(Math.max(now(), a.nextWakeAt()!)));
    expect(renew).toHaveLength(2);
    const after = call(e, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kglass-test').body;
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(lease.metadata.resourceVersion));
    expect(after.spec.acquireTime).toBe(lease.spec.acquireTime);
  });
});
