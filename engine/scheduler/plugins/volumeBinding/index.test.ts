// Ported from volumebinding/volume_binding_test.go (v1.32) TestVolumeBinding
// (with VolumeCapacityPriority off, its v1.32 default: no scores), plus the
// Reserve → PreBind → preBindDone flow, args, and the queueing hints.
import { describe, expect, it } from 'vitest';
import { FieldPath, errorString } from '../../../apimachinery/fieldErrors';
import type { KObject } from '../../../apimachinery/types';
import { cloneState } from '../../../sim/serial';
import type { Node, Pod } from '../../framework/api';
import { CycleState } from '../../framework/cycleState';
import type { Handle, ListedResource } from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import { SKIP } from '../../framework/status';
import { fakeHandle, makeNode, makePod, nodeInfoOf } from '../../testing/fixtures';
import { ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT, ERR_REASON_PV_NOT_EXIST } from './binder';
import { defaultVolumeBindingArgs, validateVolumeBindingArgs, VolumeBinding, volumeBindingDefinition, type VolumeBindingState } from './index';
import { makePV, makePVC, makeStorageClass, podWithVolumes } from './testObjects';
import type { PersistentVolume, PersistentVolumeClaim } from './types';

const immediateSC = makeStorageClass('immediate-sc', { mode: 'Immediate' });
const waitSC = makeStorageClass('wait-sc', { mode: 'WaitForFirstConsumer' });
const waitHDDSC = makeStorageClass('wait-hdd-sc', { mode: 'WaitForFirstConsumer' });
const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';

const unresolvable = (...reasons: string[]) => ({ code: 'UnschedulableAndUnresolvable', reasons });
const readState = (s: CycleState) => s.read<VolumeBindingState>({ name: 'VolumeBinding' });

/** test_utils.go makePVC(name, class) with withBoundPV / withRequestStorage / withPhase. */
const pvc = (name: string, cls: string, o: { boundPV?: string; request?: string; phase?: string } = {}) =>
  makePVC(name, { storageClassName: cls, ...(o.boundPV ? { boundTo: o.boundPV } : {}), ...(o.request ? { request: o.request } : {}), ...(o.phase ? { phase: o.phase } : {}) });
/** test_utils.go makePV(name, class) with withPhase / withCapacity / withNodeAffinity. */
const pv = (name: string, cls: string, o: { phase?: string; capacity?: string; affinity?: Record<string, string[]> } = {}) =>
  makePV(name, { storageClassName: cls, phase: o.phase ?? 'Available', ...(o.capacity ? { capacity: o.capacity } : {}), ...(o.affinity ? { nodeAffinity: o.affinity } : {}) });

interface Row {
  name: string;
  pod: Pod;
  nodes: Node[];
  pvcs?: PersistentVolumeClaim[];
  pvs?: PersistentVolume[];
  wantPreFilterStatus?: object;
  wantClaims?: { bound: string[]; delay: string[]; classes?: Record<string, string[]> };
  wantFilterStatus?: (object | null)[];
}

const zonalNodes = ['a', 'b', 'c'].flatMap((z) => ['a', 'b'].map((n) => makeNode(`zone-${z}-node-${n}`, { labels: { [REGION]: `region-${z}`, [ZONE]: `zone-${z}` } })));
const zonalPVs = [
  pv('pv-a-0', 'wait-sc', { capacity: '200Gi', affinity: { [REGION]: ['region-a'], [ZONE]: ['zone-a'] } }),
  pv('pv-a-1', 'wait-sc', { capacity: '200Gi', affinity: { [REGION]: ['region-a'], [ZONE]: ['zone-a'] } }),
  pv('pv-b-0', 'wait-sc', { capacity: '100Gi', affinity: { [REGION]: ['region-b'], [ZONE]: ['zone-b'] } }),
  pv('pv-b-1', 'wait-sc', { capacity: '100Gi', affinity: { [REGION]: ['region-b'], [ZONE]: ['zone-b'] } }),
];

const table: Row[] = [
  { name: 'pod has not pvcs', pod: makePod('pod-a'), nodes: [makeNode('node-a')], wantPreFilterStatus: SKIP },
  {
    name: 'all bound',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' })],
    pvs: [pv('pv-a', 'wait-sc')],
    wantClaims: { bound: ['pvc-a'], delay: [] },
    wantFilterStatus: [null],
  },
  {
    // v1.32 has no PreFilterResult here (the eligible-nodes shortcut was reverted).
    name: 'all bound with local volumes',
    pod: podWithVolumes('pod-a', ['pvc-a', 'pvc-b']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' }), pvc('pvc-b', 'wait-sc', { boundPV: 'pv-b' })],
    pvs: [pv('pv-a', 'wait-sc', { phase: 'Bound', affinity: { [HOSTNAME]: ['node-a'] } }), pv('pv-b', 'wait-sc', { phase: 'Bound', affinity: { [HOSTNAME]: ['node-a'] } })],
    wantClaims: { bound: ['pvc-a', 'pvc-b'], delay: [] },
    wantFilterStatus: [null],
  },
  { name: 'PVC does not exist', pod: podWithVolumes('pod-a', ['pvc-a']), nodes: [makeNode('node-a')], wantPreFilterStatus: unresolvable('persistentvolumeclaim "pvc-a" not found') },
  {
    name: 'Part of PVCs do not exist',
    pod: podWithVolumes('pod-a', ['pvc-a', 'pvc-b']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' })],
    wantPreFilterStatus: unresolvable('persistentvolumeclaim "pvc-b" not found'),
  },
  {
    name: 'immediate claims not bound',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'immediate-sc')],
    wantPreFilterStatus: unresolvable('pod has unbound immediate PersistentVolumeClaims'),
  },
  {
    name: 'unbound claims no matches',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc')],
    wantClaims: { bound: [], delay: ['pvc-a'], classes: { 'wait-sc': [] } },
    wantFilterStatus: [unresolvable(ERR_REASON_BIND_CONFLICT)],
  },
  {
    name: 'bound and unbound unsatisfied',
    pod: podWithVolumes('pod-a', ['pvc-a', 'pvc-b']),
    nodes: [makeNode('node-a', { labels: { foo: 'barbar' } })],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' }), pvc('pvc-b', 'wait-sc')],
    pvs: [pv('pv-a', 'wait-sc', { affinity: { foo: ['bar'] } })],
    wantClaims: { bound: ['pvc-a'], delay: ['pvc-b'], classes: { 'wait-sc': ['pv-a'] } },
    wantFilterStatus: [unresolvable(ERR_REASON_NODE_CONFLICT, ERR_REASON_BIND_CONFLICT)],
  },
  { name: 'pvc not found', pod: podWithVolumes('pod-a', ['pvc-a']), nodes: [makeNode('node-a')], wantPreFilterStatus: unresolvable('persistentvolumeclaim "pvc-a" not found') },
  {
    name: 'pv not found',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' })],
    wantClaims: { bound: ['pvc-a'], delay: [] },
    wantFilterStatus: [unresolvable(ERR_REASON_PV_NOT_EXIST)],
  },
  {
    name: 'pv not found claim lost',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a')],
    pvcs: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a', phase: 'Lost' })],
    wantPreFilterStatus: unresolvable('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"'),
  },
  {
    name: 'local volumes with close capacity are preferred (filters only: no scorer in v1.32)',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c')],
    pvcs: [pvc('pvc-a', 'wait-sc', { request: '50Gi' })],
    pvs: [
      pv('pv-a-0', 'wait-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-a-1', 'wait-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-b-0', 'wait-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
      pv('pv-b-1', 'wait-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
    ],
    wantClaims: { bound: [], delay: ['pvc-a'], classes: { 'wait-sc': ['pv-a-0', 'pv-a-1', 'pv-b-0', 'pv-b-1'] } },
    wantFilterStatus: [null, null, unresolvable(ERR_REASON_BIND_CONFLICT)],
  },
  {
    name: 'local volumes with close capacity are preferred (multiple pvcs)',
    pod: podWithVolumes('pod-a', ['pvc-0', 'pvc-1']),
    nodes: [makeNode('node-a'), makeNode('node-b'), makeNode('node-c')],
    pvcs: [pvc('pvc-0', 'wait-sc', { request: '50Gi' }), pvc('pvc-1', 'wait-hdd-sc', { request: '100Gi' })],
    pvs: [
      pv('pv-a-0', 'wait-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-a-1', 'wait-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-a-2', 'wait-hdd-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-a-3', 'wait-hdd-sc', { capacity: '200Gi', affinity: { [HOSTNAME]: ['node-a'] } }),
      pv('pv-b-0', 'wait-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
      pv('pv-b-1', 'wait-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
      pv('pv-b-2', 'wait-hdd-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
      pv('pv-b-3', 'wait-hdd-sc', { capacity: '100Gi', affinity: { [HOSTNAME]: ['node-b'] } }),
    ],
    wantClaims: { bound: [], delay: ['pvc-0', 'pvc-1'], classes: { 'wait-sc': ['pv-a-0', 'pv-a-1', 'pv-b-0', 'pv-b-1'], 'wait-hdd-sc': ['pv-a-2', 'pv-a-3', 'pv-b-2', 'pv-b-3'] } },
    wantFilterStatus: [null, null, unresolvable(ERR_REASON_BIND_CONFLICT)],
  },
  {
    name: 'zonal volumes with close capacity are preferred',
    pod: podWithVolumes('pod-a', ['pvc-a']),
    nodes: zonalNodes,
    pvcs: [pvc('pvc-a', 'wait-sc', { request: '50Gi' })],
    pvs: zonalPVs,
    wantClaims: { bound: [], delay: ['pvc-a'], classes: { 'wait-sc': ['pv-a-0', 'pv-a-1', 'pv-b-0', 'pv-b-1'] } },
    wantFilterStatus: [null, null, null, null, unresolvable(ERR_REASON_BIND_CONFLICT), unresolvable(ERR_REASON_BIND_CONFLICT)],
  },
];

const names = (l: KObject[]) => l.map((o) => o.metadata.name);

describe('VolumeBinding TestVolumeBinding', () => {
  for (const item of table) {
    it(item.name, () => {
      const nodeInfos = item.nodes.map((n) => nodeInfoOf(n));
      const handle = fakeHandle(nodeInfos, { storageclasses: [immediateSC, waitSC, waitHDDSC], persistentvolumeclaims: item.pvcs ?? [], persistentvolumes: item.pvs ?? [] });
      const p = new VolumeBinding(handle, defaultVolumeBindingArgs({ bindTimeoutSeconds: 300 }));
      const state = new CycleState();
      const pre = p.preFilter(state, item.pod);
      expect(pre.result).toBeUndefined();
      if (item.wantPreFilterStatus) {
        expect(pre.status).toEqual(item.wantPreFilterStatus);
        if (pre.status === SKIP) expect(readState(state)).toMatchObject({ podVolumesByNode: null, podVolumeClaims: null });
        return;
      }
      expect(pre.status).toBeNull();
      const s = readState(state)!;
      const claims = s.podVolumeClaims!;
      expect(names(claims.boundClaims)).toEqual(item.wantClaims!.bound);
      expect(names(claims.unboundClaimsDelayBinding)).toEqual(item.wantClaims!.delay);
      expect(Object.fromEntries([...claims.unboundVolumesDelayBinding].map(([k, v]) => [k, names(v)]))).toEqual(item.wantClaims!.classes ?? {});
      nodeInfos.forEach((ni, i) => expect(p.filter(state, item.pod, ni)).toEqual(item.wantFilterStatus![i]));
      expect(p.preScore()).toBe(SKIP);
    });
  }
});

/** A handle whose listers read live maps and whose clock is settable. */
function liveHandle(nodes: NodeInfo[], objects: Partial<Record<ListedResource, KObject[]>>) {
  const base = fakeHandle(nodes, {});
  const maps = new Map<ListedResource, Map<string, KObject>>();
  const key = (o: KObject) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!);
  for (const [r, list] of Object.entries(objects) as [ListedResource, KObject[]][]) maps.set(r, new Map(list.map((o) => [key(o), o])));
  let now = 0;
  const handle: Handle = {
    ...base,
    lister: (r) => {
      const m = maps.get(r) ?? new Map<string, KObject>();
      return { get: (k) => m.get(k), list: () => m.values() };
    },
    now: () => now,
  };
  return {
    handle,
    put(r: ListedResource, o: KObject) {
      if (!maps.has(r)) maps.set(r, new Map());
      maps.get(r)!.set(key(o), o);
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

/** The PV controller's answer: the claim bound to the PV, with bind-completed. */
function boundBy(claim: PersistentVolumeClaim, pvName: string, rv: string): PersistentVolumeClaim {
  const c = JSON.parse(JSON.stringify(claim)) as PersistentVolumeClaim;
  c.metadata.resourceVersion = rv;
  c.metadata.annotations = { ...c.metadata.annotations, 'pv.kubernetes.io/bind-completed': 'yes' };
  c.spec!.volumeName = pvName;
  c.status = { phase: 'Bound' };
  return c;
}

describe('VolumeBinding Reserve, PreBind and preBindDone', () => {
  const node = makeNode('node-a');
  const claim = pvc('pvc-a', 'wait-sc', { request: '1Gi' });
  const localPV = pv('pv-a', 'wait-sc', { capacity: '5Gi', affinity: { [HOSTNAME]: ['node-a'] } });
  const pod = podWithVolumes('pod-a', ['pvc-a'], { uid: 'pod-uid' });

  function schedule(args = defaultVolumeBindingArgs(undefined), extra: Partial<Record<ListedResource, KObject[]>> = {}) {
    const ni = nodeInfoOf(node);
    const live = liveHandle([ni], { storageclasses: [waitSC], persistentvolumeclaims: [claim], persistentvolumes: [localPV], ...extra });
    const p = new VolumeBinding(live.handle, args);
    const state = new CycleState();
    expect(p.preFilter(state, pod).status).toBeNull();
    expect(p.filter(state, pod, ni)).toBeNull();
    expect(p.reserve(state, pod, 'node-a')).toBeNull();
    return { p, state, live };
  }

  it('a static binding: PUT the PV with its claimRef, wait for the PV controller, then done', () => {
    const { p, state, live } = schedule();
    expect(readState(state)!.hasStaticBindings).toBe(true);
    const actions = p.preBind(state, pod, 'node-a');
    expect(Array.isArray(actions)).toBe(true);
    const [put] = actions as { method: string; path: string; body: PersistentVolume }[];
    expect(put).toMatchObject({ method: 'PUT', path: '/api/v1/persistentvolumes/pv-a' });
    expect(put!.body.spec!.claimRef).toEqual({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'pvc-a', uid: 'pvc-uid', apiVersion: 'v1', resourceVersion: '1' });
    expect(put!.body.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(put!.body.metadata.resourceVersion).toBe('1');
    // The informer hasn't seen the PUT yet.
    expect(p.preBindDone(state, pod, 'node-a')).toBe('wait');
    live.put('persistentvolumes', { ...put!.body, metadata: { ...put!.body.metadata, resourceVersion: '2' } });
    live.advance(1000);
    expect(p.preBindDone(state, pod, 'node-a')).toBe('wait');
    live.put('persistentvolumeclaims', boundBy(claim, 'pv-a', '3'));
    expect(p.preBindDone(state, pod, 'node-a')).toBeNull();
  });

  it('times out after bindTimeoutSeconds (default 600) of virtual time', () => {
    const { p, state, live } = schedule();
    p.preBind(state, pod, 'node-a');
    live.advance(599_999);
    expect(p.preBindDone(state, pod, 'node-a')).toBe('wait');
    live.advance(1);
    expect(p.preBindDone(state, pod, 'node-a')).toEqual({ code: 'Error', reasons: ['binding volumes: context deadline exceeded'] });
  });

  it('honours a configured bindTimeoutSeconds', () => {
    const { p, state, live } = schedule(defaultVolumeBindingArgs({ bindTimeoutSeconds: 5 }));
    p.preBind(state, pod, 'node-a');
    live.advance(5000);
    expect(p.preBindDone(state, pod, 'node-a')).toEqual({ code: 'Error', reasons: ['binding volumes: context deadline exceeded'] });
  });

  it('a claimRef dropped by the PV controller fails the binding', () => {
    const { p, state, live } = schedule();
    p.preBind(state, pod, 'node-a');
    live.put('persistentvolumes', { ...localPV, metadata: { ...localPV.metadata, resourceVersion: '5' } });
    expect(p.preBindDone(state, pod, 'node-a')).toEqual({ code: 'Error', reasons: ['binding volumes: ClaimRef got reset for pv "pv-a"'] });
  });

  it('dynamic provisioning: PUT the claim with the selected node; a provisioner that gives up fails it', () => {
    const provSC = makeStorageClass('wait-sc', { mode: 'WaitForFirstConsumer', provisioner: 'csi.example.com' });
    const { p, state, live } = schedule(defaultVolumeBindingArgs(undefined), { storageclasses: [provSC], persistentvolumes: [] });
    const actions = p.preBind(state, pod, 'node-a') as { method: string; path: string; body: PersistentVolumeClaim }[];
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ method: 'PUT', path: '/api/v1/namespaces/default/persistentvolumeclaims/pvc-a' });
    expect(actions[0]!.body.metadata.annotations).toEqual({ 'volume.kubernetes.io/selected-node': 'node-a' });
    expect(p.preBindDone(state, pod, 'node-a')).toBe('wait');
    // The provisioner removes the annotation to ask for a retry.
    live.put('persistentvolumeclaims', { ...claim, metadata: { ...claim.metadata, resourceVersion: '2', annotations: {} } });
    expect(p.preBindDone(state, pod, 'node-a')).toEqual({ code: 'Error', reasons: ['binding volumes: provisioning failed for PVC "pvc-a"'] });
  });

  it('dynamic provisioning completes once the claim is bound to a PV that fits the node', () => {
    const provSC = makeStorageClass('wait-sc', { mode: 'WaitForFirstConsumer', provisioner: 'csi.example.com' });
    const { p, state, live } = schedule(defaultVolumeBindingArgs(undefined), { storageclasses: [provSC], persistentvolumes: [] });
    const [put] = p.preBind(state, pod, 'node-a') as { body: PersistentVolumeClaim }[];
    const bound = boundBy(put!.body, 'pvc-123', '4');
    live.put('persistentvolumeclaims', bound);
    // The new PV hasn't reached the informer: keep waiting.
    expect(p.preBindDone(state, pod, 'node-a')).toBe('wait');
    live.put('persistentvolumes', pv('pvc-123', 'wait-sc', { phase: 'Bound', affinity: { [HOSTNAME]: ['node-a'] } }));
    expect(p.preBindDone(state, pod, 'node-a')).toBeNull();
  });

  it('all bound (or no claims): Reserve marks allBound and PreBind has nothing to do', () => {
    const ni = nodeInfoOf(node);
    const handle = fakeHandle([ni], { storageclasses: [waitSC], persistentvolumeclaims: [pvc('pvc-a', 'wait-sc', { boundPV: 'pv-a' })], persistentvolumes: [pv('pv-a', 'wait-sc')] });
    const p = new VolumeBinding(handle, defaultVolumeBindingArgs(undefined));
    for (const thePod of [pod, makePod('no-claims')]) {
      const state = new CycleState();
      p.preFilter(state, thePod);
      if (thePod === pod) expect(p.filter(state, thePod, ni)).toBeNull();
      expect(p.reserve(state, thePod, 'node-a')).toBeNull();
      expect(readState(state)!.allBound).toBe(true);
      expect(p.preBind(state, thePod, 'node-a')).toBeNull();
      expect(p.preBindDone(state, thePod, 'node-a')).toBeNull();
    }
  });

  it('PreBind on a node Filter never accepted is an error', () => {
    const { p, state } = schedule();
    const s = readState(state)!;
    s.allBound = false;
    expect(p.preBind(state, pod, 'node-z')).toEqual({ code: 'Error', reasons: ['no pod volumes found for node "node-z"'] });
  });

  it('the cycle state survives a snapshot mid-cycle and the copy binds the same way', () => {
    const ni = nodeInfoOf(node);
    const handle = fakeHandle([ni], { storageclasses: [waitSC], persistentvolumeclaims: [claim], persistentvolumes: [localPV] });
    const p = new VolumeBinding(handle, defaultVolumeBindingArgs(undefined));
    const state = new CycleState();
    p.preFilter(state, pod);
    p.filter(state, pod, ni);
    const copy = cloneState(state);
    expect(copy).toBeInstanceOf(CycleState);
    for (const s of [state, copy]) expect(p.reserve(s, pod, 'node-a')).toBeNull();
    expect(p.preBind(copy, pod, 'node-a')).toEqual(p.preBind(state, pod, 'node-a'));
  });
});

describe('VolumeBindingArgs', () => {
  const path = FieldPath.root('profiles[0]', 'pluginConfig[0]', 'args');
  it('defaults bindTimeoutSeconds to 600 and sets no shape (VolumeCapacityPriority is off)', () => {
    expect(defaultVolumeBindingArgs(undefined)).toEqual({ bindTimeoutSeconds: 600 });
    expect(defaultVolumeBindingArgs({ bindTimeoutSeconds: 0 })).toEqual({ bindTimeoutSeconds: 0 });
    expect(volumeBindingDefinition.argsKind).toBe('VolumeBindingArgs');
  });
  it('rejects a negative timeout and any shape', () => {
    expect(validateVolumeBindingArgs({ bindTimeoutSeconds: 10 }, path)).toEqual([]);
    expect(validateVolumeBindingArgs({ bindTimeoutSeconds: -10 }, path).map(errorString)).toEqual([
      'profiles[0].pluginConfig[0].args.bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a negative value',
    ]);
    const errs = validateVolumeBindingArgs({ bindTimeoutSeconds: 10, shape: [{ utilization: 0, score: 0 }] }, path);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ type: 'FieldValueInvalid', field: 'profiles[0].pluginConfig[0].args.shape', detail: 'unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority' });
  });
});

describe('VolumeBinding queueing hints', () => {
  const p = new VolumeBinding(fakeHandle([]), defaultVolumeBindingArgs(undefined));
  const ev = (resource: 'StorageClass' | 'PersistentVolumeClaim' | 'CSINode' | 'CSIDriver' | 'CSIStorageCapacity' | 'PersistentVolume') => ({ resource, actions: ['Add' as const] });

  it('PVC: the pod’s claim (or ephemeral claim) in its namespace', () => {
    const thePod = makePod('pod-a', { spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc1' } }, { name: 'e', ephemeral: {} }] } });
    expect(p.isSchedulableAfter(ev('PersistentVolumeClaim'), thePod, undefined, makePVC('pvc1'))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('PersistentVolumeClaim'), thePod, undefined, makePVC('pod-a-e'))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('PersistentVolumeClaim'), thePod, undefined, makePVC('pvc2'))).toBe('QueueSkip');
    expect(p.isSchedulableAfter(ev('PersistentVolumeClaim'), thePod, undefined, makePVC('pvc1', { namespace: 'other' }))).toBe('QueueSkip');
  });

  it('StorageClass: any new class, or changed allowedTopologies', () => {
    const topo = (values: string[]) => makeStorageClass('sc', { mode: 'WaitForFirstConsumer', allowedTopologies: [{ matchLabelExpressions: [{ key: 'k', values }] }] });
    const thePod = makePod('p');
    expect(p.isSchedulableAfter(ev('StorageClass'), thePod, undefined, topo(['a']))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('StorageClass'), thePod, topo(['a']), topo(['a', 'b']))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('StorageClass'), thePod, topo(['a']), topo(['a']))).toBe('QueueSkip');
    expect(p.isSchedulableAfter(ev('StorageClass'), thePod, makeStorageClass('sc'), { ...makeStorageClass('sc'), allowedTopologies: [] })).toBe('QueueSkip');
  });

  it('CSINode: creation, or a change of the migrated-plugins annotation', () => {
    const cn = (ann?: string): KObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n', ...(ann !== undefined ? { annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': ann } } : {}) } });
    expect(p.isSchedulableAfter(ev('CSINode'), makePod('p'), undefined, cn())).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSINode'), makePod('p'), cn('a'), cn('a,b'))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSINode'), makePod('p'), cn('a'), cn('a'))).toBe('QueueSkip');
  });

  it('CSIDriver: a driver of the pod’s inline CSI volumes stops tracking capacity', () => {
    const drv = (cap?: boolean): KObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'drv' }, spec: cap === undefined ? {} : { storageCapacity: cap } });
    const thePod = makePod('p', { spec: { volumes: [{ name: 'v', csi: { driver: 'drv' } }] } });
    expect(p.isSchedulableAfter(ev('CSIDriver'), thePod, drv(true), drv(false))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSIDriver'), thePod, drv(true), drv())).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSIDriver'), thePod, drv(false), drv(true))).toBe('QueueSkip');
    expect(p.isSchedulableAfter(ev('CSIDriver'), makePod('q'), drv(true), drv(false))).toBe('QueueSkip');
  });

  it('CSIStorageCapacity: creation, or a larger volume limit', () => {
    const cap = (capacity?: string, maximumVolumeSize?: string): KObject => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: 'c', namespace: 'default' },
      storageClassName: 'sc',
      ...(capacity ? { capacity } : {}),
      ...(maximumVolumeSize ? { maximumVolumeSize } : {}),
    });
    const thePod = makePod('p');
    expect(p.isSchedulableAfter(ev('CSIStorageCapacity'), thePod, undefined, cap('1Gi'))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSIStorageCapacity'), thePod, cap('1Gi'), cap('2Gi'))).toBe('Queue');
    expect(p.isSchedulableAfter(ev('CSIStorageCapacity'), thePod, cap('2Gi'), cap('1Gi'))).toBe('QueueSkip');
    expect(p.isSchedulableAfter(ev('CSIStorageCapacity'), thePod, cap(), cap('1Gi'))).toBe('Queue');
    // maximumVolumeSize wins over capacity.
    expect(p.isSchedulableAfter(ev('CSIStorageCapacity'), thePod, cap('1Gi', '5Gi'), cap('9Gi', '5Gi'))).toBe('QueueSkip');
  });

  it('PersistentVolume has no hint: always Queue', () => {
    expect(p.isSchedulableAfter(ev('PersistentVolume'), makePod('p'), undefined, makePV('x'))).toBe('Queue');
  });

  it('registers upstream’s events (queueing hints on)', () => {
    expect(p.eventsToRegister().map((e) => `${e.resource}:${e.actions.join('|')}`)).toEqual([
      'StorageClass:Add|Update',
      'PersistentVolumeClaim:Add|Update',
      'PersistentVolume:Add|Update',
      'Node:Add|UpdateNodeLabel',
      'CSINode:Add|Update',
      'CSIDriver:Update',
      'CSIStorageCapacity:Add|Update',
    ]);
  });
});
