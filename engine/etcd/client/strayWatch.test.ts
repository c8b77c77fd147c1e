// A watch create given up on (no answer within the attempt timeout) that the
// member carries out after all, once the cut heals and TCP resends it: the
// client cancels the watch nobody reads (clientv3 cancels a watch id it has no
// substream for), so the member stops streaming to it.
import { describe, expect, it } from 'vitest';
import { Engine, PLAYGROUND_CLIENT } from '../../facade/engine';
import type { EtcdMember } from '../server/member';
import type { EtcdClient } from './client';

describe('a watch create answered after its attempt timed out', () => {
  it('is cancelled on the member as soon as the late created answer arrives', () => {
    const e = Engine.create({ seed: 3, etcdMembers: 3 });
    e.advance(3000);
    const client = e.sim.actor<EtcdClient>(PLAYGROUND_CLIENT)!;
    const member = e.sim.actor<EtcdMember>('etcd-1')!;
    const watchers = () => member.sm.inner.kv.syncedCount() + member.sm.inner.kv.unsyncedCount();
    const before = watchers();

    expect(e.exec({ type: 'fault', fault: { action: 'cut', from: PLAYGROUND_CLIENT, to: 'etcd-1' } }).ok).toBe(true);
    const id = client.call(e.sim.context(PLAYGROUND_CLIENT), 'WatchCreateRequest', { key: 'w/', rangeEnd: 'w0' }, { endpoint: 'etcd-1' });
    e.advance(9000);
    expect(client.calls.get(id)!.outcome?.status).toBe('unknown');
    expect(watchers()).toBe(before);

    expect(e.exec({ type: 'fault', fault: { action: 'heal-all' } }).ok).toBe(true);
    const sawCreated = () => e.sim.trace.records(-1).some((r) => r.kind === 'deliver' && r.type === 'WatchCreateRequest' && r.to === 'etcd-1');
    for (let i = 0; i < 200 && !sawCreated(); i++) e.advance(100);
    expect(sawCreated()).toBe(true);
    e.advance(1000);
    // The member made the watch, answered, and the cancel that answer drew removed it.
    expect(e.sim.trace.records(-1).some((r) => r.kind === 'deliver' && r.type === 'WatchCancelRequest' && r.to === 'etcd-1')).toBe(true);
    expect(watchers()).toBe(before);

    // A write in its range reaches no one.
    const seq = client.watchResponses.at(-1)?.seq ?? 0;
    const put = e.exec({ type: 'etcd', request: { type: 'PutRequest', body: { key: 'w/a', value: '1' } } });
    expect(put.ok).toBe(true);
    e.advance(2000);
    expect(client.watchResponses.filter((r) => r.seq > seq && r.body.events.length > 0)).toEqual([]);
  });
});
