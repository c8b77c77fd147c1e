// Ported from volumerestrictions/volume_restrictions_test.go (v1.32): the
// disk-conflict tables, TestAccessModeConflicts, and the queueing-hint tables.
import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import type { Pod, Volume } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { PodInfo } from '../framework/podInfo';
import { SKIP, type MaybeStatus } from '../framework/status';
import { fakeHandle, makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { makePVC, podWithVolumes } from './volumeBinding/testObjects';
import { ERR_REASON_DISK_CONFLICT, ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT, VolumeRestrictions, VolumeRestrictionsState } from './volumeRestrictions';

const diskConflict = { code: 'Unschedulable', reasons: [ERR_REASON_DISK_CONFLICT] };

function podWith(...volumes: Volume[]): Pod {
  return makePod(`p-${Math.abs(JSON.stringify(volumes).length)}`, { spec: { volumes } });
}

function run(pod: Pod, existing: Pod[], objects: Parameters<typeof fakeHandle>[1] = {}, nodeName = 'node-1') {
  const ni = nodeInfoOf(makeNode(nodeName), existing);
  const handle = fakeHandle([ni], objects);
  const pl = new VolumeRestrictions(handle);
  const state = new CycleState();
  const pre = pl.preFilter(state, pod).status;
  const filter: MaybeStatus | 'not run' = pre === null ? pl.filter(state, pod, ni) : 'not run';
  return { pre, filter, pl, state, ni };
}

describe('VolumeRestrictions disk conflicts', () => {
  const tables: { kind: string; a: Volume; b: Volume }[] = [
    { kind: 'GCE', a: { name: 'v', gcePersistentDisk: { pdName: 'foo' } }, b: { name: 'v', gcePersistentDisk: { pdName: 'bar' } } },
    { kind: 'AWS', a: { name: 'v', awsElasticBlockStore: { volumeID: 'foo' } }, b: { name: 'v', awsElasticBlockStore: { volumeID: 'bar' } } },
    {
      kind: 'RBD',
      a: { name: 'v', rbd: { monitors: ['a', 'b'], pool: 'foo', image: 'bar' } },
      b: { name: 'v', rbd: { monitors: ['c', 'd'], pool: 'foo', image: 'bar' } },
    },
    {
      kind: 'ISCSI',
      a: { name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2016-12.server:storage.target01', lun: 0 } },
      b: { name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2017-12.server:storage.target01', lun: 0 } },
    },
  ];
  for (const t of tables) {
    describe(t.kind, () => {
      it('nothing: PreFilter skips', () => {
        expect(run(makePod('p'), []).pre).toBe(SKIP);
      });
      it('one state: a pod without such volumes skips', () => {
        expect(run(makePod('p'), [podWith(t.a)]).pre).toBe(SKIP);
      });
      it('same state: conflict', () => {
        const r = run(podWith(t.a), [podWith(t.a)]);
        expect(r.pre).toBeNull();
        expect(r.filter).toMatchObject(diskConflict);
      });
      it('different state: fits', () => {
        const r = run(podWith(t.b), [podWith(t.a)]);
        expect(r.pre).toBeNull();
        expect(r.filter).toBeNull();
      });
    });
  }

  it('a volume with no restrictions skips', () => {
    expect(run(podWith({ name: 'volume with no restriction' }), []).pre).toBe(SKIP);
  });

  it('read-only everywhere shares GCE PD, RBD and ISCSI but never AWS EBS', () => {
    const ro = (v: Volume): Volume => JSON.parse(JSON.stringify(v).replace(/}}$/, ',"readOnly":true}}')) as Volume;
    const gce = ro(tables[0]!.a);
    const rbd = ro(tables[2]!.a);
    const iscsi = ro(tables[3]!.a);
    expect(run(podWith(gce), [podWith(gce)]).filter).toBeNull();
    expect(run(podWith(rbd), [podWith(rbd)]).filter).toBeNull();
    expect(run(podWith(iscsi), [podWith(iscsi)]).filter).toBeNull();
    // One writer is enough to conflict.
    expect(run(podWith(gce), [podWith(tables[0]!.a)]).filter).toMatchObject(diskConflict);
    const aws = ro(tables[1]!.a);
    expect(run(podWith(aws), [podWith(aws)]).filter).toMatchObject(diskConflict);
  });
});

describe('VolumeRestrictions ReadWriteOncePod (TestAccessModeConflicts)', () => {
  const podWithOnePVC = podWithVolumes('pod-with-one-pvc', ['claim-with-rwop-1'], { nodeName: 'node-1' });
  const podWithTwoPVCs = podWithVolumes('pod-with-two-pvcs', ['claim-with-rwop-1', 'claim-with-rwop-2'], { nodeName: 'node-1' });
  const podWithOneConflict = podWithVolumes('pod-with-one-conflict', ['claim-with-rwop-1'], { nodeName: 'node-1' });
  const podWithTwoConflicts = podWithVolumes('pod-with-two-conflicts', ['claim-with-rwop-1', 'claim-with-rwop-2'], { nodeName: 'node-1' });
  const podWithRWX = podWithVolumes('pod-with-rwx', ['claim-with-rwx'], { nodeName: 'node-1' });
  const rwop1 = makePVC('claim-with-rwop-1', { accessModes: ['ReadWriteOncePod'] });
  const rwop2 = makePVC('claim-with-rwop-2', { accessModes: ['ReadWriteOncePod'] });
  const rwx = makePVC('claim-with-rwx', { accessModes: ['ReadWriteMany'] });

  it('nothing', () => {
    expect(run(makePod('p'), []).pre).toBe(SKIP);
  });
  it('failed to get PVC: unresolvable with the lister NotFound text', () => {
    expect(run(podWithOnePVC, []).pre).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['persistentvolumeclaim "claim-with-rwop-1" not found'] });
  });
  it('no access mode conflict: skips', () => {
    expect(run(podWithOnePVC, [podWithRWX], { persistentvolumeclaims: [rwop1, rwx] }).pre).toBe(SKIP);
  });
  it('access mode conflict, unschedulable', () => {
    const r = run(podWithOneConflict, [podWithOnePVC, podWithRWX], { persistentvolumeclaims: [rwop1, rwx] });
    expect(r.pre).toBeNull();
    expect(r.filter).toEqual({ code: 'Unschedulable', reasons: [ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT] });
  });
  it('two conflicts, unschedulable', () => {
    const r = run(podWithTwoConflicts, [podWithTwoPVCs, podWithRWX], { persistentvolumeclaims: [rwop1, rwop2, rwx] });
    expect(r.pre).toBeNull();
    expect(r.filter).toEqual({ code: 'Unschedulable', reasons: [ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT] });
    expect(r.state.read({ name: 'PreFilterVolumeRestrictions' }) as VolumeRestrictionsState).toMatchObject({ conflictingPVCRefCount: 2 });
  });

  it('AddPod/RemovePod follow preemption what-ifs, and clones are independent', () => {
    const r = run(podWithOneConflict, [podWithOnePVC], { persistentvolumeclaims: [rwop1] });
    expect(r.filter).not.toBeNull();
    const what = r.state.clone();
    expect(r.pl.removePod(what, podWithOneConflict, new PodInfo(podWithOnePVC))).toBeNull();
    expect(r.pl.filter(what, podWithOneConflict, r.ni)).toBeNull();
    // The original cycle state still sees the conflict.
    expect(r.pl.filter(r.state, podWithOneConflict, r.ni)).not.toBeNull();
    expect(r.pl.addPod(what, podWithOneConflict, new PodInfo(podWithOnePVC))).toBeNull();
    expect(r.pl.filter(what, podWithOneConflict, r.ni)).not.toBeNull();
  });

  it('AddPod without PreFilter state is an error', () => {
    const pl = new VolumeRestrictions(fakeHandle([]));
    expect(pl.addPod(new CycleState(), makePod('a'), new PodInfo(makePod('b')))).toMatchObject({
      code: 'Error',
      reasons: ['cannot read "PreFilterVolumeRestrictions" from cycleState'],
    });
  });

  it('the PreFilter state survives a snapshot and keeps counting', () => {
    const s = new VolumeRestrictionsState(new Set(['c']), 1);
    const c = cloneState(s);
    expect(c).toBeInstanceOf(VolumeRestrictionsState);
    c.updateWithPod(new PodInfo(podWithVolumes('x', ['c'])), -1);
    expect(c.conflictingPVCRefCount).toBe(0);
    expect(s.conflictingPVCRefCount).toBe(1);
  });
});

describe('VolumeRestrictions queueing hints', () => {
  const pl = new VolumeRestrictions(fakeHandle([]));
  const gce = (pd: string): Volume => ({ name: 'v', gcePersistentDisk: { pdName: pd } });
  const aws = (id: string): Volume => ({ name: 'v', awsElasticBlockStore: { volumeID: id } });
  const rbd = (mons: string[]): Volume => ({ name: 'v', rbd: { monitors: mons, pool: 'foo', image: 'bar' } });
  const iscsi = (iqn: string): Volume => ({ name: 'v', iscsi: { targetPortal: '127.0.0.1:3260', iqn, lun: 0 } });
  const del = { resource: 'Pod' as const, actions: ['Delete' as const] };
  const cases: [string, Pod, Pod, 'Queue' | 'QueueSkip'][] = [
    ['queue-new-object-gcedisk-conflict', podWith(gce('foo')), podWith(gce('foo')), 'Queue'],
    ['skip-new-object-gcedisk-no-conflict', podWith(gce('foo')), podWith(gce('bar')), 'QueueSkip'],
    ['queue-new-object-awsdisk-conflict', podWith(aws('foo')), podWith(aws('foo')), 'Queue'],
    ['skip-new-object-awsdisk-no-conflict', podWith(aws('foo')), podWith(aws('bar')), 'QueueSkip'],
    ['queue-new-object-rbddisk-conflict', podWith(rbd(['a', 'b'])), podWith(rbd(['a', 'b'])), 'Queue'],
    ['skip-new-object-rbddisk-no-conflict', podWith(rbd(['a', 'b'])), podWith(rbd(['c', 'd'])), 'QueueSkip'],
    ['queue-new-object-iscsidisk-conflict', podWith(iscsi('iqn.2016-12.server:storage.target01')), podWith(iscsi('iqn.2016-12.server:storage.target01')), 'Queue'],
    ['skip-new-object-iscsidisk-no-conflict', podWith(iscsi('iqn.2016-12.server:storage.target01')), podWith(iscsi('iqn.2017-12.server:storage.target01')), 'QueueSkip'],
    ['queue-has-same-claim', podWithVolumes('pod1', ['claim-rwop']), podWithVolumes('pod2', ['claim-rwop']), 'Queue'],
    ['skip-no-same-claim', podWithVolumes('pod1', ['claim-1-rwop']), podWithVolumes('pod2', ['claim-2-rwop']), 'QueueSkip'],
  ];
  for (const [name, pod, deleted, want] of cases) {
    it(`pod deleted: ${name}`, () => expect(pl.isSchedulableAfter(del, pod, deleted, undefined)).toBe(want));
  }
  it('pod deleted in another namespace: skip', () => {
    expect(pl.isSchedulableAfter(del, podWith(gce('foo')), makePod('x', { namespace: 'other', spec: { volumes: [gce('foo')] } }), undefined)).toBe('QueueSkip');
  });

  const pvcAdd = { resource: 'PersistentVolumeClaim' as const, actions: ['Add' as const] };
  const withOne = podWithVolumes('pod-with-one-pvc', ['claim-with-rwx-1'], { nodeName: 'node-1' });
  const withTwo = podWithVolumes('pod-with-two-pvcs', ['claim-with-rwx-1', 'claim-with-rwx-2'], { nodeName: 'node-1' });
  const otherNs = podWithVolumes('pod-with-one-pvc', ['claim-with-rwx-1'], { namespace: 'kube-system' });
  const pvc1 = makePVC('claim-with-rwx-1', { accessModes: ['ReadWriteMany'] });
  const pvc2 = makePVC('claim-with-rwx-2', { accessModes: ['ReadWriteMany'] });
  it('queue-new-object-pvc-belong-pod', () => expect(pl.isSchedulableAfter(pvcAdd, withTwo, undefined, pvc1)).toBe('Queue'));
  it('skip-new-object-unused', () => expect(pl.isSchedulableAfter(pvcAdd, withOne, undefined, pvc2)).toBe('QueueSkip'));
  it('skip-new-object-namespace-not-equal-pod', () => expect(pl.isSchedulableAfter(pvcAdd, otherNs, undefined, pvc1)).toBe('QueueSkip'));

  it('registers Pod/Delete, Node/Add and PVC/Add', () => {
    expect(pl.eventsToRegister()).toEqual([
      { resource: 'Pod', actions: ['Delete'] },
      { resource: 'Node', actions: ['Add'] },
      { resource: 'PersistentVolumeClaim', actions: ['Add'] },
    ]);
  });
});
