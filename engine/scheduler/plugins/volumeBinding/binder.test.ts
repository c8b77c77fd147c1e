// Ported from volumebinding/binder_test.go (v1.32): TestFindPodVolumesWithoutProvisioning,
// TestFindPodVolumesWithProvisioning, TestAssumePodVolumes and TestCheckBindings
// (the assume cache becomes the informer listers plus the pod's assumed objects).
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../framework/api';
import { fakeHandle, makePod, nodeInfoOf } from '../../testing/fixtures';
import {
  assumePodVolumes,
  bindAPIUpdate,
  checkBindings,
  ERR_REASON_BIND_CONFLICT,
  ERR_REASON_NODE_CONFLICT,
  ERR_REASON_NOT_ENOUGH_SPACE,
  ERR_REASON_PV_NOT_EXIST,
  findMatchingVolume,
  findPodVolumes,
  getBindVolumeToClaim,
  getPodVolumeClaims,
  type BindingInfo,
  type ConflictReason,
  type PodVolumes,
} from './binder';
import { makePV, makePVC, makeStorageClass, podWithVolumes, type PVCOpts } from './testObjects';
import type { CSIDriver, PersistentVolume, PersistentVolumeClaim } from './types';

const PROVISIONER = 'test-provisioner';
const NODE_LABEL_KEY = 'nodeKey';
const waitClass = 'waitClass';
const immediateClass = 'immediateClass';
const waitClassWithProvisioner = 'waitClassWithProvisioner';
const topoMismatchClass = 'topoMismatchClass';

const classes = [
  makeStorageClass(waitClassWithProvisioner, {
    mode: 'WaitForFirstConsumer',
    provisioner: PROVISIONER,
    allowedTopologies: [{ matchLabelExpressions: [{ key: NODE_LABEL_KEY, values: ['node1', 'reference-value'] }] }],
  }),
  makeStorageClass(immediateClass, { mode: 'Immediate' }),
  makeStorageClass(waitClass, { mode: 'WaitForFirstConsumer', provisioner: 'kubernetes.io/no-provisioner' }),
  makeStorageClass(topoMismatchClass, {
    mode: 'WaitForFirstConsumer',
    provisioner: PROVISIONER,
    allowedTopologies: [{ matchLabelExpressions: [{ key: NODE_LABEL_KEY, values: ['reference-value'] }] }],
  }),
];

type State = 'unbound' | 'prebound' | 'bound' | 'selectedNode';

/** makeTestPVC */
function testPVC(name: string, size: string, node: string, state: State, pvName: string, rv: string, cls: string): PersistentVolumeClaim {
  const o: PVCOpts = { namespace: 'testns', request: size, storageClassName: cls, resourceVersion: rv, volumeMode: 'Filesystem' };
  if (state === 'selectedNode') o.annotations = { 'volume.kubernetes.io/selected-node': node };
  if (state === 'bound') o.boundTo = pvName;
  if (state === 'prebound') o.volumeName = pvName;
  return makePVC(name, o);
}

/** makeTestPV */
function testPV(name: string, node: string, capacity: string, version: string, boundTo: PersistentVolumeClaim | null, cls: string): PersistentVolume {
  return makePV(name, {
    capacity,
    resourceVersion: version,
    storageClassName: cls,
    volumeMode: 'Filesystem',
    ...(node ? { nodeAffinity: { [NODE_LABEL_KEY]: [node] } } : {}),
    ...(boundTo ? { claim: boundTo } : {}),
  });
}

const unboundPVC = testPVC('unbound-pvc', '1G', '', 'unbound', '', '1', waitClass);
const unboundPVC2 = testPVC('unbound-pvc2', '5G', '', 'unbound', '', '1', waitClass);
const preboundPVC = testPVC('prebound-pvc', '1G', '', 'prebound', 'pv-node1a', '1', waitClass);
const preboundPVCNode1a = testPVC('unbound-pvc', '1G', '', 'prebound', 'pv-node1a', '1', waitClass);
const boundPVC = testPVC('bound-pvc', '1G', '', 'bound', 'pv-bound', '1', waitClass);
const boundPVCNode1a = testPVC('unbound-pvc', '1G', '', 'bound', 'pv-node1a', '1', waitClass);
const immediateUnboundPVC = testPVC('immediate-unbound-pvc', '1G', '', 'unbound', '', '1', immediateClass);
const immediateBoundPVC = testPVC('immediate-bound-pvc', '1G', '', 'bound', 'pv-bound-immediate', '1', immediateClass);
const provisionedPVC = testPVC('provisioned-pvc', '1Gi', '', 'unbound', '', '1', waitClassWithProvisioner);
const provisionedPVC2 = testPVC('provisioned-pvc2', '1Gi', '', 'unbound', '', '1', waitClassWithProvisioner);
const provisionedPVCBound = testPVC('provisioned-pvc', '1Gi', '', 'bound', 'pv-bound', '1', waitClassWithProvisioner);
const noProvisionerPVC = testPVC('no-provisioner-pvc', '1Gi', '', 'unbound', '', '1', waitClass);
const topoMismatchPVC = testPVC('topo-mismatch-pvc', '1Gi', '', 'unbound', '', '1', topoMismatchClass);
const selectedNodePVC = testPVC('provisioned-pvc', '1Gi', 'node1', 'selectedNode', '', '1', waitClassWithProvisioner);

const pvNode1a = testPV('pv-node1a', 'node1', '5G', '1', null, waitClass);
const pvNode1b = testPV('pv-node1b', 'node1', '10G', '1', null, waitClass);
const pvNode2 = testPV('pv-node2', 'node2', '1G', '1', null, waitClass);
const pvBound = testPV('pv-bound', 'node1', '1G', '1', boundPVC, waitClass);
const pvNode1aBound = testPV('pv-node1a', 'node1', '5G', '1', unboundPVC, waitClass);
const pvNode1bBound = testPV('pv-node1b', 'node1', '10G', '1', unboundPVC2, waitClass);
const pvBoundImmediate = testPV('pv-bound-immediate', 'node1', '1G', '1', immediateBoundPVC, immediateClass);
const pvBoundImmediateNode2 = testPV('pv-bound-immediate', 'node2', '1G', '1', immediateBoundPVC, immediateClass);

const testNode: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1', labels: { [NODE_LABEL_KEY]: 'node1' } } };

/** The pod of the binder tests: testns/test-pod on node1 with the claims as volumes. */
function testPod(pvcs: PersistentVolumeClaim[]): Pod {
  return podWithVolumes(
    'test-pod',
    pvcs.map((c) => c.metadata.name!),
    { namespace: 'testns', nodeName: 'node1', uid: 'test-pod-uid' },
  );
}

function genericEphemeralPod(volumeName: string): Pod {
  return makePod('test-pod', { namespace: 'testns', nodeName: 'node1', uid: 'test-pod-uid', spec: { volumes: [{ name: volumeName, ephemeral: {} }] } });
}

function handleWith(pvs: PersistentVolume[], pvcs: PersistentVolumeClaim[], csiDriver?: CSIDriver, nodes: Node[] = [testNode]) {
  return fakeHandle(
    nodes.map((n) => nodeInfoOf(n)),
    { persistentvolumes: pvs, persistentvolumeclaims: pvcs, storageclasses: classes, csidrivers: csiDriver ? [csiDriver] : [] },
  );
}

/** The test's findPodVolumes: claims, then an error on unbound immediate claims, then FindPodVolumes. */
function find(pod: Pod, pvs: PersistentVolume[], pvcs: PersistentVolumeClaim[], csiDriver?: CSIDriver) {
  const h = handleWith(pvs, pvcs, csiDriver);
  const claims = getPodVolumeClaims(h, pod);
  if (!claims.ok) return { error: claims.error };
  if (claims.value.unboundClaimsImmediate.length > 0) return { error: 'pod has unbound immediate PersistentVolumeClaims' };
  const r = findPodVolumes(h, pod, claims.value, testNode, new Map());
  if (!r.ok) return { error: r.error };
  return r.value;
}

const names = (b: BindingInfo[] | null) => (b === null ? null : b.map((x) => `${x.pvc.metadata.name}->${x.pv.metadata.name}`));

interface FindScenario {
  pvs?: PersistentVolume[];
  podPVCs?: PersistentVolumeClaim[];
  cachePVCs?: PersistentVolumeClaim[];
  pod?: Pod;
  expectedBindings?: string[];
  expectedProvisions?: string[];
  reasons?: ConflictReason[];
  shouldFail?: boolean;
  needsCapacity?: boolean;
}

const csiDrivers: [string, CSIDriver | undefined][] = [
  ['no CSIDriver', undefined],
  ['CSIDriver with capacity tracking', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: PROVISIONER }, spec: { storageCapacity: true } }],
  ['CSIDriver without capacity tracking', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: PROVISIONER }, spec: { storageCapacity: false } }],
];

function runFind(scenarios: Record<string, FindScenario>) {
  for (const [desc, driver] of csiDrivers) {
    describe(desc, () => {
      for (const [name, s] of Object.entries(scenarios)) {
        it(name, () => {
          const pod = s.pod ?? testPod(s.podPVCs ?? []);
          const r = find(pod, s.pvs ?? [], s.cachePVCs ?? s.podPVCs ?? [], driver);
          if (s.shouldFail) {
            expect(r).toHaveProperty('error');
            return;
          }
          expect(r).not.toHaveProperty('error');
          const v = r as { podVolumes: PodVolumes; reasons: ConflictReason[] };
          let reasons = s.reasons ?? [];
          let provisions = s.expectedProvisions ?? null;
          if (s.needsCapacity && driver?.spec?.storageCapacity) {
            // Without CSIStorageCapacity objects, provisioning is blocked.
            reasons = [...reasons, ERR_REASON_NOT_ENOUGH_SPACE];
            provisions = null;
          }
          expect([...v.reasons].sort()).toEqual([...reasons].sort());
          expect(names(v.podVolumes.staticBindings)).toEqual(s.expectedBindings ?? null);
          expect(v.podVolumes.dynamicProvisions?.map((c) => c.metadata.name) ?? null).toEqual(provisions);
        });
      }
    });
  }
}

describe('TestFindPodVolumesWithoutProvisioning', () => {
  const correctGenericPVC = makePVC('test-pod-test-volume', { namespace: 'testns', request: '1G', storageClassName: immediateClass, boundTo: 'pv-bound', ownerPod: genericEphemeralPod('test-volume') });
  const conflictingGenericPVC = makePVC('test-pod-test-volume', { namespace: 'testns', request: '1G', storageClassName: immediateClass, boundTo: 'pv-bound' });
  const pvBoundGeneric = testPV('pv-bound', 'node1', '1G', '1', correctGenericPVC, waitClass);
  runFind({
    'no-volumes': { pod: makePod('test-pod', { namespace: 'testns', nodeName: 'node1' }) },
    'no-pvcs': { pod: makePod('test-pod', { namespace: 'testns', nodeName: 'node1', spec: { volumes: [{ name: 'e', emptyDir: {} }] } }) },
    'pvc-not-found': { cachePVCs: [], podPVCs: [boundPVC], shouldFail: true },
    'bound-pvc': { podPVCs: [boundPVC], pvs: [pvBound] },
    'bound-pvc,pv-not-exists': { podPVCs: [boundPVC], reasons: [ERR_REASON_PV_NOT_EXIST] },
    'prebound-pvc': { podPVCs: [preboundPVC], pvs: [pvNode1aBound], shouldFail: true },
    'unbound-pvc,pv-same-node': { podPVCs: [unboundPVC], pvs: [pvNode2, pvNode1a, pvNode1b], expectedBindings: ['unbound-pvc->pv-node1a'] },
    'unbound-pvc,pv-different-node': { podPVCs: [unboundPVC], pvs: [pvNode2], reasons: [ERR_REASON_BIND_CONFLICT] },
    'two-unbound-pvcs': { podPVCs: [unboundPVC, unboundPVC2], pvs: [pvNode1a, pvNode1b], expectedBindings: ['unbound-pvc->pv-node1a', 'unbound-pvc2->pv-node1b'] },
    'two-unbound-pvcs,order-by-size': { podPVCs: [unboundPVC2, unboundPVC], pvs: [pvNode1a, pvNode1b], expectedBindings: ['unbound-pvc->pv-node1a', 'unbound-pvc2->pv-node1b'] },
    'two-unbound-pvcs,partial-match': { podPVCs: [unboundPVC, unboundPVC2], pvs: [pvNode1a], expectedBindings: ['unbound-pvc->pv-node1a'], reasons: [ERR_REASON_BIND_CONFLICT] },
    'one-bound,one-unbound': { podPVCs: [unboundPVC, boundPVC], pvs: [pvBound, pvNode1a], expectedBindings: ['unbound-pvc->pv-node1a'] },
    'one-bound,one-unbound,no-match': { podPVCs: [unboundPVC, boundPVC], pvs: [pvBound, pvNode2], reasons: [ERR_REASON_BIND_CONFLICT] },
    'one-prebound,one-unbound': { podPVCs: [unboundPVC, preboundPVC], pvs: [pvNode1a, pvNode1b], shouldFail: true },
    'immediate-bound-pvc': { podPVCs: [immediateBoundPVC], pvs: [pvBoundImmediate] },
    'immediate-bound-pvc-wrong-node': { podPVCs: [immediateBoundPVC], pvs: [pvBoundImmediateNode2], reasons: [ERR_REASON_NODE_CONFLICT] },
    'immediate-unbound-pvc': { podPVCs: [immediateUnboundPVC], shouldFail: true },
    'immediate-unbound-pvc,delayed-mode-bound': { podPVCs: [immediateUnboundPVC, boundPVC], pvs: [pvBound], shouldFail: true },
    'immediate-unbound-pvc,delayed-mode-unbound': { podPVCs: [immediateUnboundPVC, unboundPVC], shouldFail: true },
    'generic-ephemeral,no-pvc': { pod: genericEphemeralPod('no-such-pvc'), shouldFail: true },
    'generic-ephemeral,with-pvc': { pod: genericEphemeralPod('test-volume'), cachePVCs: [correctGenericPVC], pvs: [pvBoundGeneric] },
    'generic-ephemeral,wrong-pvc': { pod: genericEphemeralPod('test-volume'), cachePVCs: [conflictingGenericPVC], pvs: [pvBoundGeneric], shouldFail: true },
  });
});

describe('TestFindPodVolumesWithProvisioning', () => {
  runFind({
    'one-provisioned': { podPVCs: [provisionedPVC], expectedProvisions: ['provisioned-pvc'], needsCapacity: true },
    'two-unbound-pvcs,one-matched,one-provisioned': {
      podPVCs: [unboundPVC, provisionedPVC],
      pvs: [pvNode1a],
      expectedBindings: ['unbound-pvc->pv-node1a'],
      expectedProvisions: ['provisioned-pvc'],
      needsCapacity: true,
    },
    'one-bound,one-provisioned': { podPVCs: [boundPVC, provisionedPVC], pvs: [pvBound], expectedProvisions: ['provisioned-pvc'], needsCapacity: true },
    'one-binding,one-selected-node': { podPVCs: [boundPVC, selectedNodePVC], pvs: [pvBound], expectedProvisions: ['provisioned-pvc'], needsCapacity: true },
    'immediate-unbound-pvc': { podPVCs: [immediateUnboundPVC], shouldFail: true },
    'one-immediate-bound,one-provisioned': { podPVCs: [immediateBoundPVC, provisionedPVC], pvs: [pvBoundImmediate], expectedProvisions: ['provisioned-pvc'], needsCapacity: true },
    'invalid-provisioner': { podPVCs: [noProvisionerPVC], reasons: [ERR_REASON_BIND_CONFLICT] },
    'volume-topology-unsatisfied': { podPVCs: [topoMismatchPVC], reasons: [ERR_REASON_BIND_CONFLICT] },
    // Not upstream's table: a claim already provisioning for another node fails fast.
    'selected-node-elsewhere': { podPVCs: [testPVC('provisioned-pvc', '1Gi', 'node2', 'selectedNode', '', '1', waitClassWithProvisioner)], reasons: [ERR_REASON_BIND_CONFLICT] },
  });
});

describe('FindMatchingVolume', () => {
  const labels = { [NODE_LABEL_KEY]: 'node1' };
  const claim = (o: PVCOpts = {}) => makePVC('c', { namespace: 'testns', request: '1G', storageClassName: waitClass, ...o });
  const pv = (name: string, o: Parameters<typeof makePV>[1] = {}) => makePV(name, { capacity: '5G', storageClassName: waitClass, ...o });
  const match = (c: PersistentVolumeClaim, pvs: PersistentVolume[], excluded: string[] = []) => {
    const r = findMatchingVolume(c, pvs, labels, new Set(excluded), null);
    return r.ok ? (r.value?.metadata.name ?? null) : `error: ${r.error}`;
  };
  it('picks the smallest PV with enough capacity', () => {
    expect(match(claim({ request: '3G' }), [pv('big', { capacity: '10G' }), pv('small', { capacity: '2G' }), pv('fit', { capacity: '4G' })])).toBe('fit');
  });
  it('requires access modes, class, volume mode, Available phase, selector and node affinity', () => {
    expect(match(claim({ accessModes: ['ReadWriteMany'] }), [pv('a', { accessModes: ['ReadWriteOnce'] })])).toBeNull();
    expect(match(claim({ accessModes: ['ReadWriteOnce'] }), [pv('a', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] })])).toBe('a');
    expect(match(claim(), [pv('a', { storageClassName: 'other' })])).toBeNull();
    expect(match(claim({ volumeMode: 'Block' }), [pv('a')])).toBeNull();
    expect(match(claim(), [pv('a', { phase: 'Released' })])).toBeNull();
    expect(match(claim({ selector: { matchLabels: { tier: 'gold' } } }), [pv('a'), pv('b', { labels: { tier: 'gold' } })])).toBe('b');
    expect(match(claim(), [pv('a', { nodeAffinity: { [NODE_LABEL_KEY]: ['node2'] } })])).toBeNull();
    expect(match(claim(), [pv('a')], ['a'])).toBeNull();
  });
  it('a PV pre-bound to the claim wins over a smaller one, unless its affinity excludes the node', () => {
    const c = claim({ uid: 'u1' });
    expect(match(c, [pv('small', { capacity: '1G' }), pv('pre', { capacity: '9G', claim: c, phase: 'Bound' })])).toBe('pre');
    expect(match(c, [pv('small', { capacity: '1G' }), pv('pre', { capacity: '9G', claim: c, nodeAffinity: { [NODE_LABEL_KEY]: ['node2'] } })])).toBeNull();
  });
  it('VolumeAttributesClass is off in v1.32', () => {
    const c = claim();
    c.spec!.volumeAttributesClassName = 'gold';
    expect(match(c, [pv('a')])).toBe('error: unsupported volumeAttributesClassName is set on claim testns/c when the feature-gate VolumeAttributesClass is disabled');
    const p = pv('a');
    p.spec!.volumeAttributesClassName = 'gold';
    expect(match(claim(), [p])).toBeNull();
  });
});

describe('TestAssumePodVolumes', () => {
  it('all-bound', () => {
    const h = handleWith([pvBound], [boundPVC]);
    const pv: PodVolumes = { staticBindings: null, dynamicProvisions: null };
    expect(assumePodVolumes(h, testPod([boundPVC]), 'node1', pv)).toBe(true);
  });
  it('one-binding: the PV gets the claimRef and bound-by-controller', () => {
    const h = handleWith([pvNode1a], [unboundPVC]);
    const pv: PodVolumes = { staticBindings: [{ pvc: unboundPVC, pv: pvNode1a }], dynamicProvisions: null };
    expect(assumePodVolumes(h, testPod([unboundPVC]), 'node1', pv)).toBe(false);
    expect(pv.staticBindings![0]!.pv).toEqual(pvNode1aBound);
    expect(pv.dynamicProvisions).toEqual([]);
    // The lister's object is untouched.
    expect(pvNode1a.spec!.claimRef).toBeUndefined();
  });
  it('two-bindings', () => {
    const h = handleWith([pvNode1a, pvNode1b], [unboundPVC, unboundPVC2]);
    const pv: PodVolumes = { staticBindings: [{ pvc: unboundPVC, pv: pvNode1a }, { pvc: unboundPVC2, pv: pvNode1b }], dynamicProvisions: null };
    assumePodVolumes(h, testPod([unboundPVC, unboundPVC2]), 'node1', pv);
    expect(pv.staticBindings!.map((b) => b.pv)).toEqual([pvNode1aBound, pvNode1bBound]);
  });
  it('pv-already-bound: nothing changes (not dirty)', () => {
    expect(getBindVolumeToClaim(pvNode1aBound, unboundPVC)).toEqual({ pv: pvNode1aBound, dirty: false });
    expect(getBindVolumeToClaim(pvNode1a, unboundPVC).dirty).toBe(true);
  });
  it('one-binding, one-pvc-provisioned: the claim gets the selected node', () => {
    const h = handleWith([pvNode1a], [unboundPVC, provisionedPVC]);
    const pv: PodVolumes = { staticBindings: [{ pvc: unboundPVC, pv: pvNode1a }], dynamicProvisions: [provisionedPVC] };
    assumePodVolumes(h, testPod([unboundPVC, provisionedPVC]), 'node1', pv);
    expect(pv.staticBindings![0]!.pv).toEqual(pvNode1aBound);
    expect(pv.dynamicProvisions).toEqual([selectedNodePVC]);
    expect(provisionedPVC.metadata.annotations).toBeUndefined();
  });
});

describe('bindAPIUpdate', () => {
  it('PUTs the pre-bound PVs, then the claims to provision', () => {
    const pod = testPod([unboundPVC, provisionedPVC]);
    const r = bindAPIUpdate(pod, { staticBindings: [{ pvc: unboundPVC, pv: pvNode1aBound }], dynamicProvisions: [selectedNodePVC] });
    expect(r).toEqual({
      ok: true,
      value: [
        { method: 'PUT', path: '/api/v1/persistentvolumes/pv-node1a', body: pvNode1aBound, description: 'bind PersistentVolume pv-node1a to claim testns/unbound-pvc' },
        { method: 'PUT', path: '/api/v1/namespaces/testns/persistentvolumeclaims/provisioned-pvc', body: selectedNodePVC, description: 'provision PersistentVolumeClaim testns/provisioned-pvc on node node1' },
      ],
    });
  });
  it('nothing-to-bind-nil fails', () => {
    expect(bindAPIUpdate(testPod([]), { staticBindings: null, dynamicProvisions: [] })).toEqual({ ok: false, error: 'failed to get cached bindings for pod "testns/test-pod"' });
    expect(bindAPIUpdate(testPod([]), { staticBindings: [], dynamicProvisions: null })).toEqual({ ok: false, error: 'failed to get cached claims to provision for pod "testns/test-pod"' });
  });
});

describe('TestCheckBindings', () => {
  const addProvisionAnn = (c: PersistentVolumeClaim): PersistentVolumeClaim => ({ ...c, metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, 'volume.kubernetes.io/selected-node': 'node1' } } });
  /** An API update: the same object with the next resourceVersion. */
  const updated = <T extends PersistentVolume | PersistentVolumeClaim>(o: T, f: (c: T) => void = () => {}): T => {
    const c = JSON.parse(JSON.stringify(o)) as T;
    c.metadata.resourceVersion = String(Number(o.metadata.resourceVersion ?? '1') + 1);
    f(c);
    return c;
  };
  interface S {
    pvs?: PersistentVolume[];
    pvcs?: PersistentVolumeClaim[];
    bindings: BindingInfo[] | null;
    provisioned: PersistentVolumeClaim[] | null;
    shouldFail?: boolean;
    expectedBound?: boolean;
  }
  const b = (pvc: PersistentVolumeClaim, pv: PersistentVolume): BindingInfo => ({ pvc, pv });
  const scenarios: Record<string, S> = {
    'nothing-to-bind-nil': { bindings: null, provisioned: null, shouldFail: true },
    'nothing-to-bind-bindings-nil': { bindings: null, provisioned: [], shouldFail: true },
    'nothing-to-bind-provisionings-nil': { bindings: [], provisioned: null, shouldFail: true },
    'nothing-to-bind': { bindings: [], provisioned: [], expectedBound: true },
    'binding-bound': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [pvNode1aBound], pvcs: [boundPVCNode1a], expectedBound: true },
    'binding-prebound': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [pvNode1aBound], pvcs: [preboundPVCNode1a] },
    'binding-unbound': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [pvNode1aBound], pvcs: [unboundPVC] },
    'binding-pvc-not-exists': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [pvNode1aBound], shouldFail: true },
    'binding-pv-not-exists': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvcs: [boundPVCNode1a], shouldFail: true },
    'binding-claimref-nil': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [updated(pvNode1a)], pvcs: [updated(boundPVCNode1a)], shouldFail: true },
    'binding-claimref-uid-empty': {
      bindings: [b(unboundPVC, pvNode1aBound)],
      provisioned: [],
      pvs: [updated(pvNode1aBound, (p) => delete p.spec!.claimRef!.uid)],
      pvcs: [updated(boundPVCNode1a)],
      shouldFail: true,
    },
    'binding-one-bound,one-unbound': { bindings: [b(unboundPVC, pvNode1aBound), b(unboundPVC2, pvNode1bBound)], provisioned: [], pvs: [pvNode1aBound, pvNode1bBound], pvcs: [boundPVCNode1a, unboundPVC2] },
    'provisioning-pvc-bound': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvs: [pvBound], pvcs: [updated(addProvisionAnn(provisionedPVCBound))], expectedBound: true },
    'provisioning-pvc-unbound': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvcs: [addProvisionAnn(provisionedPVC)] },
    'provisioning-pvc-not-exists': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], shouldFail: true },
    'provisioning-pvc-annotations-nil': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvcs: [updated(provisionedPVC)], shouldFail: true },
    'provisioning-pvc-selected-node-dropped': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvcs: [updated(provisionedPVC, (c) => (c.metadata.annotations = {}))], shouldFail: true },
    'provisioning-pvc-selected-node-wrong-node': {
      bindings: [],
      provisioned: [addProvisionAnn(provisionedPVC)],
      pvcs: [updated(provisionedPVC, (c) => (c.metadata.annotations = { 'volume.kubernetes.io/selected-node': 'wrong-node' }))],
      shouldFail: true,
    },
    'binding-bound-provisioning-unbound': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [addProvisionAnn(provisionedPVC)], pvs: [pvNode1aBound], pvcs: [boundPVCNode1a, addProvisionAnn(provisionedPVC)] },
    'tolerate-provisioning-pvc-bound-pv-not-found': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvcs: [updated(addProvisionAnn(provisionedPVCBound))] },
    // Ours: the informer still has the version we sent, without our change: wait.
    'binding-update-not-seen-yet': { bindings: [b(unboundPVC, pvNode1aBound)], provisioned: [], pvs: [pvNode1a], pvcs: [boundPVCNode1a] },
    'provisioning-update-not-seen-yet': { bindings: [], provisioned: [addProvisionAnn(provisionedPVC)], pvcs: [provisionedPVC] },
  };
  for (const [name, s] of Object.entries(scenarios)) {
    it(name, () => {
      const h = handleWith(s.pvs ?? [], s.pvcs ?? []);
      const r = checkBindings(h, testPod([]), 'node1', { staticBindings: s.bindings, dynamicProvisions: s.provisioned });
      if (s.shouldFail) expect(typeof r).toBe('string');
      else expect(r).toBe(s.expectedBound ?? false);
    });
  }
  it('error texts', () => {
    const h = handleWith([updated(pvNode1a)], [updated(boundPVCNode1a)]);
    expect(checkBindings(h, testPod([]), 'node1', { staticBindings: [b(unboundPVC, pvNode1aBound)], dynamicProvisions: [] })).toBe('ClaimRef got reset for pv "pv-node1a"');
    const h2 = handleWith([], [updated(provisionedPVC, (c) => (c.metadata.annotations = {}))]);
    expect(checkBindings(h2, testPod([]), 'node1', { staticBindings: [], dynamicProvisions: [addProvisionAnn(provisionedPVC)] })).toBe('provisioning failed for PVC "provisioned-pvc"');
    expect(checkBindings(handleWith([], []), testPod([]), 'node9', { staticBindings: [], dynamicProvisions: [] })).toBe('failed to get node "node9": node "node9" not found');
  });
});
