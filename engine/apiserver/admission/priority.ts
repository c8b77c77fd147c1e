// Priority (plugin/pkg/admission/priority/admission.go): resolves a new pod's
// priorityClassName into spec.priority and spec.preemptionPolicy (the global
// default class when none is named), keeps them on update, and on
// PriorityClass writes allows only one globalDefault. The two system classes
// are created by the API server at start-up; if this cluster has not stored
// them, their built-in values are used.
import type { KObject } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { admissionForbidden, allow, deny, isResource } from './errors';
import { bool, ensureRec, num, rec, str } from './json';

export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-cluster-critical': SYSTEM_CRITICAL_PRIORITY,
  'system-node-critical': SYSTEM_CRITICAL_PRIORITY + 1000,
};
/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;

interface Resolved {
  name: string;
  value: number;
  preemptionPolicy: string | undefined;
}

function fromClass(pc: KObject): Resolved {
  return { name: pc.metadata.name ?? '', value: num(pc['value']) ?? 0, preemptionPolicy: str(pc['preemptionPolicy']) ?? 'PreemptLowerPriority' };
}

/** With several global defaults (a race upstream tolerates), the lowest value wins. */
export function getDefaultPriorityClass(cluster: ClusterReader): KObject | undefined {
  let best: KObject | undefined;
  for (const pc of cluster.list('scheduling.k8s.io', 'priorityclasses')) {
    if (bool(pc['globalDefault']) !== true) continue;
    if (!best || (num(best['value']) ?? 0) > (num(pc['value']) ?? 0)) best = pc;
  }
  return best;
}

function resolve(cluster: ClusterReader, className: string): Resolved | undefined {
  const pc = cluster.get('scheduling.k8s.io', 'priorityclasses', undefined, className);
  if (pc) return fromClass(pc);
  const sys = SYSTEM_PRIORITY_CLASSES[className];
  return sys === undefined ? undefined : { name: className, value: sys, preemptionPolicy: 'PreemptLowerPriority' };
}

function admitPod(a: AdmissionAttributes, cluster: ClusterReader) {
  const pod = a.object!;
  const s = ensureRec(pod, 'spec');
  if (a.operation === 'UPDATE') {
    // Validation forbids changing these; an update that omits them keeps the stored ones.
    const old = rec(a.oldObject?.['spec']);
    if (s['priority'] === undefined && old?.['priority'] !== undefined) s['priority'] = old['priority'];
    if (s['preemptionPolicy'] === undefined && old?.['preemptionPolicy'] !== undefined) s['preemptionPolicy'] = old['preemptionPolicy'];
    return allow();
  }
  let resolved: Resolved;
  const className = str(s['priorityClassName']) ?? '';
  if (className === '') {
    const def = getDefaultPriorityClass(cluster);
    resolved = def ? fromClass(def) : { name: '', value: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, preemptionPolicy: 'PreemptLowerPriority' }; // getDefaultPriority: PreemptLowerPriority when no default class exists
    if (resolved.name) s['priorityClassName'] = resolved.name;
  } else {
    const r = resolve(cluster, className);
    if (!r) return deny(admissionForbidden(a, `no PriorityClass with name ${className} was found`));
    resolved = r;
  }
  const given = num(s['priority']);
  if (given !== undefined && given !== resolved.value) {
    return deny(
      admissionForbidden(a, `the integer value of priority (${given}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`),
    );
  }
  s['priority'] = resolved.value;
  if (resolved.preemptionPolicy !== undefined) {
    const givenPolicy = str(s['preemptionPolicy']);
    if (givenPolicy !== undefined && givenPolicy !== resolved.preemptionPolicy) {
      return deny(
        admissionForbidden(
          a,
          `the string value of PreemptionPolicy (${givenPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`,
        ),
      );
    }
    s['preemptionPolicy'] = resolved.preemptionPolicy;
  }
  return allow();
}

function validatePriorityClass(a: AdmissionAttributes, cluster: ClusterReader) {
  const pc = a.object!;
  if (bool(pc['globalDefault']) !== true) return allow();
  const dpc = getDefaultPriorityClass(cluster);
  if (dpc && (a.operation === 'CREATE' || dpc.metadata.name !== pc.metadata.name)) {
    return deny(admissionForbidden(a, `PriorityClass ${dpc.metadata.name ?? ''} is already marked as default. Only one default can exist`));
  }
  return allow();
}

export const priority: AdmissionPlugin = {
  name: 'Priority',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE',
  mayMutate: (a) => a.subresource === '' && isResource(a, '', 'pods'),
  admit(a, cluster) {
    if (a.subresource !== '' || !a.object) return allow();
    if (isResource(a, '', 'pods') && (a.operation === 'CREATE' || a.operation === 'UPDATE')) return admitPod(a, cluster);
    return allow();
  },
  validate(a, cluster) {
    if (a.subresource !== '' || !a.object) return allow();
    if (isResource(a, 'scheduling.k8s.io', 'priorityclasses') && (a.operation === 'CREATE' || a.operation === 'UPDATE')) return validatePriorityClass(a, cluster);
    return allow();
  },
};
