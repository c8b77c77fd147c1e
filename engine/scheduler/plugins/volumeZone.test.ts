// Ported from volumezone/volume_zone_test.go (v1.32): TestSingleZone,
// TestMultiZone, TestWithBinding and the queueing-hint tables.
import { describe, expect, it } from 'vitest';
import type { Node } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { SKIP, type MaybeStatus } from '../framework/status';
import { fakeHandle, makePod, nodeInfoOf } from '../testing/fixtures';
import { makePV, makePVC, makeStorageClass, podWithVolumes } from './volumeBinding/testObjects';
import { LABEL_FAILURE_DOMAIN_BETA_REGION as BETA_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE as BETA_ZONE, LABEL_TOPOLOGY_REGION as REGION, LABEL_TOPOLOGY_ZONE as ZONE } from './volumeBinding/types';
import { ERR_REASON_CONFLICT, labelZonesToSet, VolumeZone } from './volumeZone';

const conflict = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_CONFLICT] };
const unresolvable = (msg: string) => ({ code: 'UnschedulableAndUnresolvable', reasons: [msg] });

function node(labels: Record<string, string> | undefined): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'host1', ...(labels ? { labels } : {}) } };
}

const podWith = (pvc: string) => podWithVolumes('pod_1', [pvc]);

interface Row {
  name: string;
  pod: ReturnType<typeof podWith>;
  labels?: Record<string, string>;
  pre?: MaybeStatus | object;
  filter?: MaybeStatus | object;
}

function runTable(rows: Row[], objects: Parameters<typeof fakeHandle>[1]) {
  for (const r of rows) {
    it(r.name, () => {
      const pl = new VolumeZone(fakeHandle([], objects));
      const state = new CycleState();
      const pre = pl.preFilter(state, r.pod).status;
      if (r.pre === undefined) expect(pre).toBeNull();
      else expect(pre).toEqual(r.pre);
      // Upstream's test runs Filter whatever PreFilter said.
      const f = pl.filter(state, r.pod, nodeInfoOf(node(r.labels)));
      if (r.filter === undefined) expect(f).toBeNull();
      else expect(f).toEqual(r.filter);
    });
  }
}

describe('VolumeZone TestSingleZone', () => {
  const pvs = [
    makePV('Vol_1', { labels: { [BETA_ZONE]: 'us-west1-a' } }),
    makePV('Vol_2', { labels: { [BETA_REGION]: 'us-west1', uselessLabel: 'none' } }),
    makePV('Vol_3', { labels: { [BETA_REGION]: 'us-west1' } }),
    makePV('Vol_Stable_1', { labels: { [ZONE]: 'us-west1-a' } }),
    makePV('Vol_Stable_2', { labels: { [REGION]: 'us-west1', uselessLabel: 'none' } }),
    makePV('Vol_Stable_3', { labels: { [ZONE]: 'us-west1-a', [REGION]: 'us-west1-a' } }),
  ];
  const pvcs = [
    makePVC('PVC_1', { volumeName: 'Vol_1' }),
    makePVC('PVC_2', { volumeName: 'Vol_2' }),
    makePVC('PVC_3', { volumeName: 'Vol_3' }),
    makePVC('PVC_4', { volumeName: 'Vol_not_exist' }),
    makePVC('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    makePVC('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
    makePVC('PVC_Stable_3', { volumeName: 'Vol_Stable_3' }),
  ];
  runTable(
    [
      { name: 'pod without volume', pod: makePod('pod_1'), labels: { [BETA_ZONE]: 'us-west1-a' }, pre: SKIP },
      { name: 'node without labels', pod: podWith('PVC_1') },
      { name: 'beta zone label matched', pod: podWith('PVC_1'), labels: { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' } },
      { name: 'beta region label matched', pod: podWith('PVC_2'), labels: { [BETA_REGION]: 'us-west1', uselessLabel: 'none' } },
      { name: "beta region label doesn't match", pod: podWith('PVC_2'), labels: { [BETA_REGION]: 'no_us-west1', uselessLabel: 'none' }, filter: conflict },
      { name: "beta zone label doesn't match", pod: podWith('PVC_1'), labels: { [BETA_ZONE]: 'no_us-west1-a', uselessLabel: 'none' }, filter: conflict },
      { name: 'zone label matched', pod: podWith('PVC_Stable_1'), labels: { [ZONE]: 'us-west1-a', uselessLabel: 'none' } },
      { name: 'region label matched', pod: podWith('PVC_Stable_2'), labels: { [REGION]: 'us-west1', uselessLabel: 'none' } },
      { name: "region label doesn't match", pod: podWith('PVC_Stable_2'), labels: { [REGION]: 'no_us-west1', uselessLabel: 'none' }, filter: conflict },
      { name: "zone label doesn't match", pod: podWith('PVC_Stable_1'), labels: { [ZONE]: 'no_us-west1-a', uselessLabel: 'none' }, filter: conflict },
      { name: 'pv with zone and region, node with only zone', pod: podWith('PVC_Stable_3'), labels: { [ZONE]: 'us-west1-a' }, filter: conflict },
      { name: 'pv with zone,node with beta zone', pod: podWith('PVC_Stable_1'), labels: { [BETA_ZONE]: 'us-west1-a' }, filter: conflict },
      { name: 'pv with beta label,node with ga label, matched', pod: podWith('PVC_1'), labels: { [ZONE]: 'us-west1-a' } },
      { name: "pv with beta label,node with ga label, don't match", pod: podWith('PVC_1'), labels: { [ZONE]: 'us-west1-b' }, filter: conflict },
      {
        name: 'claim bound to a missing PV (lister NotFound)',
        pod: podWith('PVC_4'),
        labels: { [ZONE]: 'us-west1-a' },
        pre: unresolvable('persistentvolume "Vol_not_exist" not found'),
        filter: unresolvable('persistentvolume "Vol_not_exist" not found'),
      },
    ],
    { persistentvolumes: pvs, persistentvolumeclaims: pvcs },
  );
});

describe('VolumeZone TestMultiZone', () => {
  const pvs = [
    makePV('Vol_1', { labels: { [BETA_ZONE]: 'us-west1-a' } }),
    makePV('Vol_2', { labels: { [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' } }),
    makePV('Vol_3', { labels: { [BETA_ZONE]: 'us-west1-c__us-west1-a' } }),
    makePV('Vol_Stable_1', { labels: { [ZONE]: 'us-west1-a' } }),
    makePV('Vol_Stable_2', { labels: { [ZONE]: 'us-west1-c__us-west1-a' } }),
  ];
  const pvcs = [
    makePVC('PVC_1', { volumeName: 'Vol_1' }),
    makePVC('PVC_2', { volumeName: 'Vol_2' }),
    makePVC('PVC_3', { volumeName: 'Vol_3' }),
    makePVC('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    makePVC('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
  ];
  runTable(
    [
      { name: 'node without labels', pod: podWith('PVC_3') },
      { name: 'beta zone label matched', pod: podWith('PVC_3'), labels: { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' } },
      { name: "beta zone label doesn't match", pod: podWith('PVC_1'), labels: { [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' }, filter: conflict },
      { name: 'zone label matched', pod: podWith('PVC_Stable_2'), labels: { [ZONE]: 'us-west1-a', uselessLabel: 'none' } },
      { name: "zone label doesn't match", pod: podWith('PVC_Stable_1'), labels: { [ZONE]: 'us-west1-b', uselessLabel: 'none' }, filter: conflict },
    ],
    { persistentvolumes: pvs, persistentvolumeclaims: pvcs },
  );
});

describe('VolumeZone TestWithBinding', () => {
  const objects = {
    storageclasses: [makeStorageClass('Class_Immediate', { mode: null }), makeStorageClass('Class_Wait', { mode: 'WaitForFirstConsumer' })],
    persistentvolumes: [makePV('Vol_1', { labels: { [BETA_ZONE]: 'us-west1-a' } })],
    persistentvolumeclaims: [
      makePVC('PVC_1', { volumeName: 'Vol_1' }),
      makePVC('PVC_NoSC', { storageClassName: 'Class_0' }),
      makePVC('PVC_EmptySC'),
      makePVC('PVC_WaitSC', { storageClassName: 'Class_Wait' }),
      makePVC('PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }),
    ],
  };
  const labels = { [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' };
  const noName = unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
  // Upstream's fake lister says `storageclasses.storage.k8s.io`; the informer lister the
  // scheduler runs with says `storageclass.storage.k8s.io`, which is what we print.
  const noClass = unresolvable('storageclass.storage.k8s.io "Class_0" not found');
  const noMode = unresolvable('VolumeBindingMode not set for StorageClass "Class_Immediate"');
  runTable(
    [
      { name: 'label zone failure domain matched', pod: podWith('PVC_1'), labels },
      { name: 'unbound volume empty storage class', pod: podWith('PVC_EmptySC'), labels, pre: noName, filter: noName },
      { name: 'unbound volume no storage class', pod: podWith('PVC_NoSC'), labels, pre: noClass, filter: noClass },
      { name: 'unbound volume immediate binding mode', pod: podWith('PVC_ImmediateSC'), labels, pre: noMode, filter: noMode },
      { name: 'unbound volume wait binding mode', pod: podWith('PVC_WaitSC'), labels, pre: SKIP },
      { name: 'missing claim', pod: podWith('PVC_missing'), labels, pre: unresolvable('persistentvolumeclaim "PVC_missing" not found'), filter: unresolvable('persistentvolumeclaim "PVC_missing" not found') },
      { name: 'claim without a name', pod: podWith(''), labels, pre: unresolvable('PersistentVolumeClaim had no name'), filter: unresolvable('PersistentVolumeClaim had no name') },
    ],
    objects,
  );

  it('an Immediate class with an unbound claim: PersistentVolume had no name', () => {
    const pl = new VolumeZone(fakeHandle([], { ...objects, storageclasses: [makeStorageClass('Class_Immediate', { mode: 'Immediate' })] }));
    expect(pl.preFilter(new CycleState(), podWith('PVC_ImmediateSC')).status).toEqual(unresolvable('PersistentVolume had no name'));
  });
});

describe('VolumeZone labels', () => {
  it('LabelZonesToSet splits on "__" and rejects empty zones', () => {
    expect(labelZonesToSet('a__b')).toEqual(new Set(['a', 'b']));
    expect(labelZonesToSet(' a ')).toEqual(new Set(['a']));
    expect(labelZonesToSet('a____b')).toBeNull();
  });
  it('an unparsable PV label is ignored', () => {
    const pl = new VolumeZone(fakeHandle([], { persistentvolumes: [makePV('v', { labels: { [ZONE]: 'a____b' } })], persistentvolumeclaims: [makePVC('c', { volumeName: 'v' })] }));
    expect(pl.preFilter(new CycleState(), podWith('c')).status).toBe(SKIP);
  });
});

describe('VolumeZone queueing hints', () => {
  const pl = new VolumeZone(fakeHandle([]));
  const pvcEv = { resource: 'PersistentVolumeClaim' as const, actions: ['Add' as const, 'Update' as const] };
  const pvc = (ns: string, volumeName: string) => makePVC('PVC_1', { namespace: ns, volumeName });
  it('pvc-was-added-but-pod-refers-no-pvc', () => expect(pl.isSchedulableAfter(pvcEv, makePod('pod_1'), undefined, pvc('default', 'Vol_1'))).toBe('QueueSkip'));
  it('pvc-was-added-and-pod-was-bound-to-different-pvc', () => expect(pl.isSchedulableAfter(pvcEv, podWith('PVC_2'), undefined, pvc('default', 'Vol_1'))).toBe('QueueSkip'));
  it('pvc-was-added-and-pod-was-bound-to-pvc-but-different-ns', () => expect(pl.isSchedulableAfter(pvcEv, podWith('PVC_1'), undefined, pvc('ns1', 'Vol_1'))).toBe('QueueSkip'));
  it('pvc-was-added-and-pod-was-bound-to-the-pvc', () => expect(pl.isSchedulableAfter(pvcEv, podWith('PVC_1'), undefined, pvc('default', 'Vol_1'))).toBe('Queue'));
  it('pvc-was-updated-and-pod-was-bound-to-the-pvc', () => expect(pl.isSchedulableAfter(pvcEv, podWith('PVC_1'), pvc('default', ''), pvc('default', 'Vol_1'))).toBe('Queue'));
  it('pvc-was-updated-but-pod-refers-no-pvc', () => expect(pl.isSchedulableAfter(pvcEv, makePod('pod_1'), pvc('default', ''), pvc('default', 'Vol_1'))).toBe('QueueSkip'));

  const scEv = { resource: 'StorageClass' as const, actions: ['Add' as const] };
  it("sc-doesn't-have-volume-binding-mode", () => expect(pl.isSchedulableAfter(scEv, podWith('PVC_1'), undefined, makeStorageClass('SC_1', { mode: null }))).toBe('QueueSkip'));
  it('new-sc-is-wait-for-first-consumer-mode', () => expect(pl.isSchedulableAfter(scEv, podWith('PVC_1'), undefined, makeStorageClass('SC_1', { mode: 'WaitForFirstConsumer' }))).toBe('Queue'));

  const pvEv = { resource: 'PersistentVolume' as const, actions: ['Add' as const, 'Update' as const] };
  const pv = (labels: Record<string, string>) => makePV('Vol_1', { labels });
  it('new-pv-was-added', () => expect(pl.isSchedulableAfter(pvEv, podWith('PVC_1'), undefined, pv({ [BETA_ZONE]: 'us-west1-b' }))).toBe('Queue'));
  it('pv-was-updated-and-changed-topology', () => expect(pl.isSchedulableAfter(pvEv, podWith('PVC_1'), pv({ [BETA_ZONE]: 'us-west1-a' }), pv({ [BETA_ZONE]: 'us-west1-b' }))).toBe('Queue'));
  it('pv-was-updated-and-added-topology-label', () =>
    expect(pl.isSchedulableAfter(pvEv, podWith('PVC_1'), pv({ [BETA_ZONE]: 'us-west1-a' }), pv({ [BETA_ZONE]: 'us-west1-a', [ZONE]: 'zone' }))).toBe('Queue'));
  it('pv-was-updated-but-no-topology-is-changed', () =>
    expect(pl.isSchedulableAfter(pvEv, podWith('PVC_1'), pv({ [BETA_ZONE]: 'us-west1-a', [ZONE]: 'zone' }), pv({ [BETA_ZONE]: 'us-west1-a', [ZONE]: 'zone' }))).toBe('QueueSkip'));

  it('registers StorageClass/Add, Node/Add|UpdateNodeLabel, PVC and PV Add|Update', () => {
    expect(pl.eventsToRegister().map((e) => `${e.resource}:${e.actions.join('|')}`)).toEqual([
      'StorageClass:Add',
      'Node:Add|UpdateNodeLabel',
      'PersistentVolumeClaim:Add|Update',
      'PersistentVolume:Add|Update',
    ]);
  });
});
