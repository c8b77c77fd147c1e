// What the registries' strategies do to an object before it is validated and
// stored (pkg/registry/*/*/strategy.go PrepareForCreate / PrepareForUpdate, v1.32):
// status reset on create, generation 1 on create and +1 on spec changes, status
// kept on main-resource updates and spec kept on /status updates, and the
// kind-specific touches (Pod phase and QoS class, Namespace finalizer, Job
// selector, Service clusterIPs, DaemonSet template generation).
import type { KObject } from '../../apimachinery/types';
import { parseQuantity } from './quantity';
import { TEMPLATE_GENERATION_ANNOTATION } from './apps';
import { a, clone, deepEqual, has, isObj, n, o, s, type Loose } from './util';
import { groupKindKey } from '../registry/resources';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const key = (g: Gvk) => groupKindKey(g.group, g.kind);

/** The status an object starts with (Go's zero status struct, serialised as upstream does). */
const FRESH_STATUS: Record<string, () => Loose> = {
  'apps/Deployment': () => ({}),
  'apps/ReplicaSet': () => ({ replicas: 0 }),
  'apps/StatefulSet': () => ({ availableReplicas: 0, replicas: 0 }),
  'apps/DaemonSet': () => ({ currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 }),
  '/ReplicationController': () => ({ replicas: 0 }),
  'batch/Job': () => ({}),
  'batch/CronJob': () => ({}),
  'autoscaling/HorizontalPodAutoscaler': () => ({ currentMetrics: null, desiredReplicas: 0 }),
  'policy/PodDisruptionBudget': () => ({ currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 }),
  'networking.k8s.io/Ingress': () => ({ loadBalancer: {} }),
  '/Service': () => ({ loadBalancer: {} }),
  '/PersistentVolume': () => ({ phase: 'Pending' }),
  '/PersistentVolumeClaim': () => ({ phase: 'Pending' }),
  '/ResourceQuota': () => ({}),
  '/Namespace': () => ({ phase: 'Active' }),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': () => ({}),
};

/** Kinds whose strategy keeps metadata.generation, and what counts as a change. */
const GENERATION: Record<string, (obj: Loose, old: Loose) => boolean> = {
  'apps/Deployment': (x, y) => !deepEqual(x.spec, y.spec) || !deepEqual(o(x.metadata).annotations, o(y.metadata).annotations),
  'apps/ReplicaSet': (x, y) => !deepEqual(x.spec, y.spec),
  'apps/StatefulSet': (x, y) => !deepEqual(x.spec, y.spec),
  'apps/DaemonSet': (x, y) => !deepEqual(x.spec, y.spec),
  '/ReplicationController': (x, y) => !deepEqual(x.spec, y.spec),
  'batch/Job': (x, y) => !deepEqual(x.spec, y.spec),
  'batch/CronJob': (x, y) => !deepEqual(x.spec, y.spec),
  'policy/PodDisruptionBudget': (x, y) => !deepEqual(x.spec, y.spec),
  'networking.k8s.io/NetworkPolicy': (x, y) => !deepEqual(x.spec, y.spec),
  'networking.k8s.io/Ingress': (x, y) => !deepEqual(x.spec, y.spec),
  'networking.k8s.io/IngressClass': (x, y) => !deepEqual(x.spec, y.spec),
  'discovery.k8s.io/EndpointSlice': (x, y) => !deepEqual(x.endpoints, y.endpoints) || !deepEqual(x.ports, y.ports) || s(x.addressType) !== s(y.addressType),
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': (x, y) => !deepEqual(x.webhooks, y.webhooks),
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': (x, y) => !deepEqual(x.webhooks, y.webhooks),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': (x, y) => !deepEqual(x.spec, y.spec),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': (x, y) => !deepEqual(x.spec, y.spec),
};

/** Kinds served with a status subresource: their main update keeps the stored status. */
const HAS_STATUS = new Set([
  '/Pod',
  '/Service',
  '/Node',
  '/Namespace',
  '/PersistentVolume',
  '/PersistentVolumeClaim',
  '/ReplicationController',
  '/ResourceQuota',
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'policy/PodDisruptionBudget',
  'networking.k8s.io/Ingress',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
]);

/** Apps status strategies also keep the stored labels. */
const STATUS_KEEPS_LABELS = new Set(['apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', 'apps/DaemonSet']);

export function tracksGeneration(gvk: Gvk): boolean {
  return Object.hasOwn(GENERATION, key(gvk));
}

export function prepareForCreate(gvk: Gvk, obj: KObject): void {
  const k = key(gvk);
  const ob = obj as Loose;
  delete obj.metadata.deletionTimestamp;
  delete obj.metadata.deletionGracePeriodSeconds;
  const fresh = FRESH_STATUS[k];
  if (fresh) ob.status = fresh();
  if (tracksGeneration(gvk)) obj.metadata.generation = 1;
  switch (k) {
    case '/Pod':
      preparePodForCreate(ob);
      break;
    case '/Namespace': {
      const spec = (ob.spec = o(ob.spec));
      const fins = a(spec.finalizers);
      if (!fins.includes('kubernetes')) spec.finalizers = [...fins, 'kubernetes'];
      break;
    }
    case '/Service':
      normalizeClusterIPs(ob, null);
      break;
    case 'batch/Job':
      generateJobSelector(ob);
      break;
    case 'apps/DaemonSet': {
      const ann = (obj.metadata.annotations ??= {});
      const cur = Number.parseInt(ann[TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
      if (!(cur >= 1)) ann[TEMPLATE_GENERATION_ANNOTATION] = '1';
      break;
    }
    default:
      break;
  }
}

export function prepareForUpdate(gvk: Gvk, obj: KObject, old: KObject): void {
  const k = key(gvk);
  const ob = obj as Loose;
  const ol = old as Loose;
  if (HAS_STATUS.has(k)) {
    if (has(ol.status)) ob.status = clone(ol.status);
    else delete ob.status;
  }
  switch (k) {
    case '/Namespace':
      ob.spec = { ...o(ob.spec) };
      if (has(o(ol.spec).finalizers)) ob.spec.finalizers = clone(o(ol.spec).finalizers);
      else delete ob.spec.finalizers;
      break;
    case '/Service':
      patchAllocatedValues(ob, ol);
      normalizeClusterIPs(ob, ol);
      break;
    case 'apps/DaemonSet':
      if (!deepEqual(o(ob.spec).template, o(ol.spec).template)) {
        const oldGen = Number.parseInt((old.metadata.annotations ?? {})[TEMPLATE_GENERATION_ANNOTATION] ?? '0', 10) || 0;
        (obj.metadata.annotations ??= {})[TEMPLATE_GENERATION_ANNOTATION] = String(oldGen + 1);
      } else if (old.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] !== undefined) {
        (obj.metadata.annotations ??= {})[TEMPLATE_GENERATION_ANNOTATION] = old.metadata.annotations[TEMPLATE_GENERATION_ANNOTATION];
      }
      break;
    default:
      break;
  }
  const changed = GENERATION[k];
  if (changed) {
    const base = old.metadata.generation ?? 0;
    obj.metadata.generation = changed(ob, ol) ? base + 1 : base;
  }
}

/** A /status update: everything but status (and metadata) comes from the stored object. */
export function prepareForStatusUpdate(gvk: Gvk, obj: KObject, old: KObject): void {
  const k = key(gvk);
  const ob = obj as Loose;
  const ol = old as Loose;
  for (const f of Object.keys(ob)) if (!['apiVersion', 'kind', 'metadata', 'status'].includes(f)) delete ob[f];
  for (const f of Object.keys(ol)) if (!['apiVersion', 'kind', 'metadata', 'status'].includes(f)) ob[f] = clone(ol[f]);
  if (STATUS_KEEPS_LABELS.has(k)) {
    if (old.metadata.labels) obj.metadata.labels = clone(old.metadata.labels);
    else delete obj.metadata.labels;
  }
  if (k === '/Pod') {
    if (old.metadata.ownerReferences) obj.metadata.ownerReferences = clone(old.metadata.ownerReferences);
    else delete obj.metadata.ownerReferences;
  }
  if (k === '/Namespace' || k === '/Node') {
    // Nothing more: their status strategies only keep spec.
  }
}

/**
 * pods/ephemeralcontainers (podEphemeralContainersStrategy): every change but
 * spec.ephemeralContainers is dropped — the spec and status stay the old
 * pod's, and metadata is reset as for a status write (ResetObjectMetaForStatus).
 */
export function prepareForEphemeralContainersUpdate(obj: KObject, old: KObject): void {
  const ob = obj as Loose;
  const ol = old as Loose;
  const ephemeral = o(ob.spec).ephemeralContainers;
  ob.spec = clone(ol.spec);
  if (ephemeral === undefined) delete ob.spec.ephemeralContainers;
  else ob.spec.ephemeralContainers = ephemeral;
  if (has(ol.status)) ob.status = clone(ol.status);
  else delete ob.status;
  for (const f of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    if (old.metadata[f] !== undefined) (obj.metadata as Loose)[f] = clone(old.metadata[f]);
    else delete (obj.metadata as Loose)[f];
  }
}

// ---------------------------------------------------------------- Pod

function preparePodForCreate(pod: Loose): void {
  const spec = o(pod.spec);
  pod.status = { phase: 'Pending', qosClass: podQOSClass(spec) };
  if (a(spec.schedulingGates).length > 0) {
    pod.status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates', lastProbeTime: null, lastTransitionTime: null }];
  }
}

/** qos.ComputePodQOS (pkg/apis/core/helper/qos/qos.go). */
export function podQOSClass(spec: Loose): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const all = [...a(spec.containers), ...a(spec.initContainers)];
  for (const c of all) {
    const res = o(o(c).resources);
    for (const [name, v] of Object.entries(o(res.requests))) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = parseQuantity(v as string);
      if (q.ok && q.quantity.nanos > 0n) requests.set(name, (requests.get(name) ?? 0n) + q.quantity.nanos);
    }
    const found = new Set<string>();
    for (const [name, v] of Object.entries(o(res.limits))) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = parseQuantity(v as string);
      if (q.ok && q.quantity.nanos > 0n) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + q.quantity.nanos);
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

// ---------------------------------------------------------------- Service

/** NormalizeClusterIPs: keep clusterIP and clusterIPs[0] in step. */
function normalizeClusterIPs(svc: Loose, old: Loose | null): void {
  const spec = o(svc.spec);
  if (!isObj(svc.spec)) return;
  const ip = s(spec.clusterIP);
  const ips = a(spec.clusterIPs);
  if (old) {
    const os = o(old.spec);
    // The user cleared clusterIP but kept clusterIPs as stored: clear both (type change to ExternalName).
    if (!ip && s(os.clusterIP) && deepEqual(ips, os.clusterIPs)) {
      delete spec.clusterIPs;
      return;
    }
    if (ip && s(os.clusterIP) !== ip && deepEqual(ips, os.clusterIPs) && ips.length <= 1) {
      spec.clusterIPs = [ip];
      return;
    }
  }
  if (ip && ips.length === 0) spec.clusterIPs = [ip];
  else if (!ip && ips.length > 0) spec.clusterIP = s(ips[0]);
}

/** patchAllocatedValues (pkg/registry/core/service/storage/storage.go): a PUT that omits allocated values keeps them. */
function patchAllocatedValues(svc: Loose, old: Loose): void {
  const ns = o(svc.spec);
  const os = o(old.spec);
  if (!isObj(svc.spec)) return;
  if (ns.type !== 'ExternalName' && os.type !== 'ExternalName') {
    if (!s(ns.clusterIP) && s(os.clusterIP)) ns.clusterIP = os.clusterIP;
    if (a(ns.clusterIPs).length === 0 && a(os.clusterIPs).length > 0) ns.clusterIPs = clone(os.clusterIPs);
  }
  const needsNodePort = (sp: Loose) => sp.type === 'NodePort' || (sp.type === 'LoadBalancer' && sp.allocateLoadBalancerNodePorts !== false);
  if (needsNodePort(ns) && needsNodePort(os)) {
    const used = new Set(a(ns.ports).map((p) => n(o(p).nodePort)).filter((x) => x !== 0));
    const byName = new Map<string, number>(a(os.ports).map((p) => [s(o(p).name), n(o(p).nodePort)]));
    for (const p of a(ns.ports)) {
      if (n(p.nodePort) !== 0) continue;
      const prev = byName.get(s(p.name)) ?? 0;
      if (prev !== 0 && !used.has(prev)) p.nodePort = prev;
    }
  }
  if (ns.type === 'LoadBalancer' && os.type === 'LoadBalancer' && ns.externalTrafficPolicy === 'Local' && os.externalTrafficPolicy === 'Local') {
    if (!n(ns.healthCheckNodePort) && n(os.healthCheckNodePort)) ns.healthCheckNodePort = os.healthCheckNodePort;
  }
}

// ---------------------------------------------------------------- Job

/** generateSelector (pkg/registry/batch/job/strategy.go). */
function generateJobSelector(job: Loose): void {
  const spec = o(job.spec);
  if (!isObj(job.spec) || spec.manualSelector === true) return;
  const uid = s(o(job.metadata).uid);
  const name = s(o(job.metadata).name);
  const tpl = (spec.template = o(spec.template));
  const meta = (tpl.metadata = o(tpl.metadata));
  const labels = (meta.labels = o(meta.labels));
  for (const l of ['job-name', 'batch.kubernetes.io/job-name']) if (!Object.hasOwn(labels, l)) labels[l] = name;
  for (const l of ['controller-uid', 'batch.kubernetes.io/controller-uid']) if (!Object.hasOwn(labels, l)) labels[l] = uid;
  const sel = (spec.selector = o(spec.selector));
  const ml = (sel.matchLabels = o(sel.matchLabels));
  if (!Object.hasOwn(ml, 'batch.kubernetes.io/controller-uid')) ml['batch.kubernetes.io/controller-uid'] = uid;
}
