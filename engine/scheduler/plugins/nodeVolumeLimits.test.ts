// Ported from nodevolumelimits/csi_test.go (v1.32): TestCSILimits (the rows
// that predate VolumeAttachment counting, which came after v1.32),
// TestCSILimitsQHint and TestCSILimitsAddedPVCQHint.
import { describe, expect, it } from 'vitest';
import type { Pod, Volume } from '../framework/api';
import { CycleState } from '../framework/cycleState';
import { SKIP, type MaybeStatus } from '../framework/status';
import { fakeHandle, makeNode, makePod, nodeInfoOf } from '../testing/fixtures';
import { CSILimits, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, getVolumeLimits, nodeVolumeLimitsDefinition } from './nodeVolumeLimits';
import { toHex, utf8 } from '../../apiserver/auth/sha256';
import { csiAttachLimitKey, sha1 } from './volumeBinding/csi';
import { makeCSINode, makePV, makePVC, makeStorageClass, podWithVolumes } from './volumeBinding/testObjects';
import type { CSINode, PersistentVolume, PersistentVolumeClaim } from './volumeBinding/types';

const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';
const AWS_IN_TREE = 'kubernetes.io/aws-ebs';
const HOSTPATH_IN_TREE = 'kubernetes.io/hostpath';
const SC_NAME = 'csi-sc';
const NODE = 'node-for-max-pd-test-1';

const exceeded = { code: 'Unschedulable', reasons: [ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED] };

/** getFakeCSIPVLister: four PVs per driver, in-tree ones as AWS EBS or hostPath sources. */
function fakePVs(volumeName: string, drivers: string[]): PersistentVolume[] {
  const out: PersistentVolume[] = [];
  for (const driver of drivers) {
    for (let j = 0; j < 4; j++) {
      const handle = `${volumeName}-${driver}-${j}`;
      let source: Record<string, unknown>;
      if (driver === AWS_IN_TREE) source = { awsElasticBlockStore: { volumeID: handle } };
      else if (driver === HOSTPATH_IN_TREE) source = { hostPath: { path: '/tmp' } };
      else source = { csi: { driver, volumeHandle: handle } };
      out.push(makePV(handle, { source }));
    }
  }
  return out;
}

/** getFakeCSIPVCLister: bound claims per driver, plus -4 (class only), -5 (nothing), -6 (missing PV, class). */
function fakePVCs(volumeName: string, drivers: string[]): PersistentVolumeClaim[] {
  const out: PersistentVolumeClaim[] = [];
  for (const driver of drivers) for (let j = 0; j < 4; j++) out.push(makePVC(`${volumeName}-${driver}-${j}`, { volumeName: `${volumeName}-${driver}-${j}` }));
  out.push(makePVC(`${volumeName}-4`, { storageClassName: SC_NAME }));
  out.push(makePVC(`${volumeName}-5`));
  out.push(makePVC(`${volumeName}-6`, { storageClassName: SC_NAME, volumeName: 'missing-in-action' }));
  return out;
}

const runningPod = podWithVolumes('running', ['csi-ebs.csi.aws.com-3']);
const pendingVolumePod = podWithVolumes('pending', ['csi-4']);
const unboundPVCPod2 = podWithVolumes('unbound2', ['csi-4']);
const missingPVPod = podWithVolumes('missing-pv', ['csi-6']);
const noSCPVCPod = podWithVolumes('no-sc', ['csi-5']);
const gceTwoVolPod = podWithVolumes('gce-two', ['csi-pd.csi.storage.gke.io-1', 'csi-pd.csi.storage.gke.io-2']);
const inTreeOneVolPod = podWithVolumes('intree-one', ['csi-kubernetes.io/aws-ebs-0']);
const inTreeTwoVolPod = podWithVolumes('intree-two', ['csi-kubernetes.io/aws-ebs-1', 'csi-kubernetes.io/aws-ebs-2']);
const csiEBSOneVolPod = podWithVolumes('ebs-one', ['csi-ebs.csi.aws.com-0']);
const csiEBSTwoVolPod = podWithVolumes('ebs-two', ['csi-ebs.csi.aws.com-1', 'csi-ebs.csi.aws.com-2']);
const inTreeNonMigratableOneVolPod = podWithVolumes('hostpath-one', ['csi-kubernetes.io/hostpath-0']);

const ephemeralVolumePod = makePod('abc', { namespace: 'test', uid: '12345', spec: { volumes: [{ name: 'xyz', ephemeral: {} }] } });
const ephemeralClaim = makePVC('abc-xyz', { namespace: 'test', storageClassName: SC_NAME, ownerPod: ephemeralVolumePod });
const conflictingClaim = makePVC('abc-xyz', { namespace: 'test', storageClassName: SC_NAME });
const ephemeralTwoVolumePod = makePod('abc', {
  namespace: 'test',
  uid: '12345II',
  spec: {
    volumes: [
      { name: 'x', ephemeral: {} },
      { name: 'y', ephemeral: {} },
    ],
  },
});
const ephemeralClaimX = makePVC('abc-x', { namespace: 'test', storageClassName: SC_NAME, ownerPod: ephemeralTwoVolumePod });
const ephemeralClaimY = makePVC('abc-y', { namespace: 'test', storageClassName: SC_NAME, ownerPod: ephemeralTwoVolumePod });

const inlineEBS = (id: string): Volume => ({ name: 'inline', awsElasticBlockStore: { volumeID: id } });
const inTreeInlineVolPod = makePod('inline', { spec: { volumes: [inlineEBS('aws-inline1')] } });
const inTreeInlineVolPodWithSameCSIVolumeID = makePod('inline-same', { spec: { volumes: [inlineEBS('csi-ebs.csi.aws.com-1')] } });
const configMapAndSecret: Volume[] = [
  { name: 'cm', configMap: {} },
  { name: 's', secret: {} },
];
const onlyConfigmapAndSecretVolPod = makePod('cm-secret', { spec: { volumes: configMapAndSecret } });
const pvcPodWithConfigmapAndSecret = makePod('pvc-cm-secret', { spec: { volumes: [...configMapAndSecret, { name: 'p', persistentVolumeClaim: { claimName: 'csi-ebs.csi.aws.com-0' } }] } });
const ephemeralPodWithConfigmapAndSecret = makePod('abc', { namespace: 'test', spec: { volumes: [...configMapAndSecret, { name: 'xyz', ephemeral: {} }] } });
const inlineMigratablePodWithConfigmapAndSecret = makePod('inline-cm', { spec: { volumes: [...configMapAndSecret, inlineEBS('aws-inline1')] } });

interface Row {
  test: string;
  newPod: Pod;
  existingPods?: Pod[];
  maxVols?: number;
  driverNames: string[];
  extraClaims?: PersistentVolumeClaim[];
  /** "csinode", "csinode-with-no-limit", or absent (no CSINode). */
  limitSource?: 'csinode' | 'csinode-with-no-limit';
  migrationEnabled?: boolean;
  wantStatus?: MaybeStatus | object;
  wantPreFilterStatus?: MaybeStatus;
}

const rows: Row[] = [
  { test: 'fits when node volume limit >= new pods CSI volume', newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 4, driverNames: [EBS], limitSource: 'csinode' },
  { test: "doesn't when node volume limit <= pods CSI volume", newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 2, driverNames: [EBS], limitSource: 'csinode', wantStatus: exceeded },
  { test: 'should when driver does not support volume limits', newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 2, driverNames: [EBS], limitSource: 'csinode-with-no-limit' },
  { test: 'count pending PVCs towards volume limit <= pods CSI volume', newPod: csiEBSOneVolPod, existingPods: [pendingVolumePod, csiEBSTwoVolPod], maxVols: 2, driverNames: [EBS], limitSource: 'csinode', wantStatus: exceeded },
  { test: 'count multiple pending pvcs towards volume limit >= pods CSI volume', newPod: csiEBSOneVolPod, existingPods: [pendingVolumePod, unboundPVCPod2, csiEBSTwoVolPod], maxVols: 4, driverNames: [EBS], limitSource: 'csinode' },
  { test: 'should count PVCs with invalid PV name but valid SC', newPod: csiEBSOneVolPod, existingPods: [missingPVPod, csiEBSTwoVolPod], maxVols: 2, driverNames: [EBS], limitSource: 'csinode', wantStatus: exceeded },
  { test: "don't count pvcs with missing SC towards volume limit", newPod: csiEBSOneVolPod, existingPods: [runningPod, noSCPVCPod], maxVols: 2, driverNames: [EBS], limitSource: 'csinode' },
  { test: 'count pvcs with the same type towards volume limit', newPod: csiEBSOneVolPod, existingPods: [gceTwoVolPod, csiEBSTwoVolPod], maxVols: 2, driverNames: [EBS, GCE], limitSource: 'csinode', wantStatus: exceeded },
  { test: "don't count pvcs with different type towards volume limit", newPod: gceTwoVolPod, existingPods: [csiEBSTwoVolPod, runningPod], maxVols: 2, driverNames: [EBS, GCE], limitSource: 'csinode' },
  { test: 'should count in-tree volumes if migration is enabled', newPod: inTreeOneVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'nil csi node', newPod: inTreeInlineVolPod, existingPods: [inTreeTwoVolPod], driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true },
  { test: 'should count unbound in-tree volumes if migration is enabled', newPod: pendingVolumePod, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'should not limit pod if volume used does not report limits', newPod: inTreeOneVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode-with-no-limit' },
  { test: 'should not count non-migratable in-tree volumes', newPod: inTreeNonMigratableOneVolPod, existingPods: [csiEBSTwoVolPod], maxVols: 2, driverNames: [HOSTPATH_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode' },
  { test: 'should count in-tree inline volumes if migration is enabled', newPod: inTreeInlineVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)', newPod: inTreeOneVolPod, existingPods: [csiEBSTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)', newPod: inTreeInlineVolPod, existingPods: [csiEBSTwoVolPod, inTreeOneVolPod], maxVols: 3, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)', newPod: inTreeInlineVolPodWithSameCSIVolumeID, existingPods: [csiEBSTwoVolPod, inTreeOneVolPod], maxVols: 3, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode' },
  { test: 'should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)', newPod: csiEBSOneVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
  // ephemeral volumes
  {
    test: 'ephemeral volume missing',
    newPod: ephemeralVolumePod,
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    // The informer lister's NotFound (upstream's fake lister prints "persistentvolumeclaims").
    wantStatus: { code: 'UnschedulableAndUnresolvable', reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'] },
  },
  {
    test: 'ephemeral volume not owned',
    newPod: ephemeralVolumePod,
    extraClaims: [conflictingClaim],
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    wantStatus: { code: 'Error', reasons: ['PVC test/abc-xyz was not created for pod test/abc (pod is not owner)'] },
  },
  { test: 'ephemeral volume unbound', newPod: ephemeralVolumePod, extraClaims: [ephemeralClaim], driverNames: [EBS], limitSource: 'csinode-with-no-limit' },
  { test: "ephemeral doesn't when node volume limit <= pods CSI volume", newPod: ephemeralVolumePod, extraClaims: [ephemeralClaim], driverNames: [EBS], existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 2, limitSource: 'csinode', wantStatus: exceeded },
  { test: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume", newPod: csiEBSOneVolPod, extraClaims: [ephemeralClaimX, ephemeralClaimY], driverNames: [EBS], existingPods: [runningPod, ephemeralTwoVolumePod], maxVols: 2, limitSource: 'csinode', wantStatus: exceeded },
  { test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume", newPod: csiEBSOneVolPod, extraClaims: [ephemeralClaim], driverNames: [EBS], existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod], maxVols: 3, limitSource: 'csinode', wantStatus: exceeded },
  { test: 'persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume', newPod: csiEBSOneVolPod, extraClaims: [ephemeralClaim], driverNames: [EBS], existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod], maxVols: 5, limitSource: 'csinode' },
  { test: 'skip Filter when the pod only uses secrets and configmaps', newPod: onlyConfigmapAndSecretVolPod, maxVols: 2, driverNames: [EBS], limitSource: 'csinode', wantPreFilterStatus: SKIP },
  { test: "don't skip Filter when the pod has pvcs", newPod: pvcPodWithConfigmapAndSecret, maxVols: 2, driverNames: [EBS], limitSource: 'csinode' },
  {
    test: "don't skip Filter when the pod has ephemeral volumes",
    newPod: ephemeralPodWithConfigmapAndSecret,
    driverNames: [EBS],
    limitSource: 'csinode-with-no-limit',
    wantStatus: { code: 'UnschedulableAndUnresolvable', reasons: ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found'] },
  },
  { test: "don't skip Filter when the pod has inline migratable volumes", newPod: inlineMigratablePodWithConfigmapAndSecret, existingPods: [inTreeTwoVolPod], maxVols: 2, driverNames: [AWS_IN_TREE, EBS], migrationEnabled: true, limitSource: 'csinode', wantStatus: exceeded },
];

function csiNodeFor(r: Row): CSINode | undefined {
  if (!r.limitSource) return undefined;
  const drivers = r.driverNames.map((name) => (r.limitSource === 'csinode' ? { name, count: r.maxVols ?? 0 } : { name }));
  // enableMigrationOnNode(csiNode, AWSEBSInTreePluginName) runs for every CSINode.
  return makeCSINode(NODE, drivers, AWS_IN_TREE);
}

describe('NodeVolumeLimits TestCSILimits', () => {
  for (const r of rows) {
    it(r.test, () => {
      const node = makeNode(NODE, { allocatable: {} });
      const ni = nodeInfoOf(node, r.existingPods ?? []);
      const csiNode = csiNodeFor(r);
      const handle = fakeHandle([ni], {
        csinodes: csiNode ? [csiNode] : [],
        persistentvolumes: fakePVs('csi', r.driverNames),
        persistentvolumeclaims: [...fakePVCs('csi', r.driverNames), ...(r.extraClaims ?? [])],
        storageclasses: [makeStorageClass(SC_NAME, { provisioner: r.driverNames[0] })],
      });
      const pl = new CSILimits(handle, 'abcdefghijklmnopqrstuvwxyz012345');
      const state = new CycleState();
      const pre = pl.preFilter(state, r.newPod).status;
      expect(pre).toEqual(r.wantPreFilterStatus ?? null);
      if (pre !== SKIP) {
        const got = pl.filter(state, r.newPod, ni);
        if (r.wantStatus === undefined) expect(got).toBeNull();
        else expect(got).toEqual(r.wantStatus);
      }
    });
  }
});

describe('NodeVolumeLimits limits and keys', () => {
  it('reads legacy attachable-volumes-* allocatable; the CSINode count wins for its driver', () => {
    const node = makeNode('n', { allocatable: { cpu: '1', 'attachable-volumes-csi-ebs.csi.aws.com': '7', 'attachable-volumes-aws-ebs': '39' } });
    const ni = nodeInfoOf(node);
    expect(getVolumeLimits(ni, undefined)).toEqual(
      new Map([
        ['attachable-volumes-csi-ebs.csi.aws.com', 7],
        ['attachable-volumes-aws-ebs', 39],
      ]),
    );
    expect(getVolumeLimits(ni, makeCSINode('n', [{ name: EBS, count: 2 }])).get('attachable-volumes-csi-ebs.csi.aws.com')).toBe(2);
  });

  it('a legacy node limit alone rejects', () => {
    const node = makeNode(NODE, { allocatable: { 'attachable-volumes-csi-ebs.csi.aws.com': '2' } });
    const ni = nodeInfoOf(node, [csiEBSTwoVolPod]);
    const pl = new CSILimits(fakeHandle([ni], { persistentvolumes: fakePVs('csi', [EBS]), persistentvolumeclaims: fakePVCs('csi', [EBS]) }), 'p');
    expect(pl.filter(new CycleState(), csiEBSOneVolPod, ni)).toEqual(exceeded);
  });

  it('GetCSIAttachLimitKey hashes names that reach 63 characters', () => {
    expect(csiAttachLimitKey(EBS)).toBe('attachable-volumes-csi-ebs.csi.aws.com');
    const long = 'a-very-long-csi-driver-name.storage.example.com';
    expect(csiAttachLimitKey(long)).toBe('attachable-volumes-csi-a-very-long-csi-driver-86bf5f46bc6f1680');
    // FIPS 180 test vectors, across one- and two-block padding.
    const vectors: [string, string][] = [
      ['', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
      ['abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
      ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '84983e441c3bd26ebaae4aa1f95129e5e54670f1'],
      ['The quick brown fox jumps over the lazy dog', '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
    ];
    for (const [text, hex] of vectors) expect(toHex(sha1(utf8(text)))).toBe(hex);
  });

  it('the factory draws its placeholder prefix from the seeded stream, reproducibly', () => {
    const a = nodeVolumeLimitsDefinition.factory(undefined, fakeHandle([], {}, 7)) as CSILimits;
    const b = nodeVolumeLimitsDefinition.factory(undefined, fakeHandle([], {}, 7)) as CSILimits;
    expect(a.randomVolumeIDPrefix).toHaveLength(32);
    expect(a.randomVolumeIDPrefix).toBe(b.randomVolumeIDPrefix);
  });
});

describe('NodeVolumeLimits queueing hints', () => {
  const pl = new CSILimits(fakeHandle([]), 'p');
  const del = { resource: 'Pod' as const, actions: ['Delete' as const] };
  const scheduled = (p: Pod) => ({ ...p, spec: { ...p.spec, nodeName: NODE } });
  const podEbs = podWithVolumes('ebs', ['csi-ebs.csi.aws.com-2']);
  it('return a Queue when a deleted pod has a PVC', () => expect(pl.isSchedulableAfter(del, podEbs, scheduled(podWithVolumes('d', ['placeholder'])), undefined)).toBe('Queue'));
  it('return a Queue when a deleted pod has a inline migratable volume', () =>
    expect(pl.isSchedulableAfter(del, podEbs, scheduled(makePod('d', { spec: { volumes: [inlineEBS('')] } })), undefined)).toBe('Queue'));
  it("return a QueueSkip when a deleted pod doesn't have any volume", () => expect(pl.isSchedulableAfter(del, podEbs, scheduled(makePod('d')), undefined)).toBe('QueueSkip'));
  it('return a QueueSkip when a deleted pod is not scheduled.', () => expect(pl.isSchedulableAfter(del, podEbs, podWithVolumes('d', ['csi-ebs.csi.aws.com-0']), undefined)).toBe('QueueSkip'));

  const add = { resource: 'PersistentVolumeClaim' as const, actions: ['Add' as const] };
  it("a pod isn't in the same namespace as an added PVC", () => expect(pl.isSchedulableAfter(add, makePod('p', { namespace: 'ns1' }), undefined, makePVC('x', { namespace: 'ns2' }))).toBe('QueueSkip'));
  it('a pod is in the same namespace as an added PVC', () =>
    expect(pl.isSchedulableAfter(add, podWithVolumes('p', ['pvc1'], { namespace: 'ns1' }), undefined, makePVC('pvc1', { namespace: 'ns1' }))).toBe('Queue'));
  it('a pod has an ephemeral volume related to an added PVC', () =>
    expect(pl.isSchedulableAfter(add, makePod('pod1', { namespace: 'ns1', spec: { volumes: [{ name: 'ephemeral', ephemeral: {} }] } }), undefined, makePVC('pod1-ephemeral', { namespace: 'ns1' }))).toBe('Queue'));
  it("a pod doesn't have the same PVC as an added PVC", () =>
    expect(pl.isSchedulableAfter(add, podWithVolumes('p', ['pvc1'], { namespace: 'ns1' }), undefined, makePVC('pvc2', { namespace: 'ns1' }))).toBe('QueueSkip'));
  it("a pod doesn't have any PVC attached", () => expect(pl.isSchedulableAfter(add, makePod('p', { namespace: 'ns1' }), undefined, makePVC('pvc2', { namespace: 'ns1' }))).toBe('QueueSkip'));

  it('registers CSINode/Add, Pod/Delete and PVC/Add', () => {
    expect(pl.eventsToRegister().map((e) => `${e.resource}:${e.actions.join('|')}`)).toEqual(['CSINode:Add', 'Pod:Delete', 'PersistentVolumeClaim:Add']);
  });
});
