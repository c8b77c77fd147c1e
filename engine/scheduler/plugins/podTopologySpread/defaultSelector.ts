// helper.DefaultSelector (pkg/scheduler/framework/plugins/helper/spread.go,
// v1.32): the selector a pod without spread constraints is spread by — the
// union of the selectors of the Services that select it, plus its controlling
// ReplicationController's, ReplicaSet's or StatefulSet's selector. Only the
// default constraints use it (SelectorSpread is gone), so it lives here.
import type { LabelSelector, Labels, Selector } from '../../../apimachinery/selectors/labels';
import { addRequirements, labelSelectorAsSelector, matches, selectorFromSet } from '../../../apimachinery/selectors/labels';
import type { KObject, OwnerReference } from '../../../apimachinery/types';
import type { Pod } from '../../framework/api';
import type { Handle } from '../../framework/interface';

/** metav1.GetControllerOfNoCopy: the owner reference with controller: true. */
function controllerOf(o: KObject): OwnerReference | undefined {
  for (const ref of o.metadata.ownerReferences ?? []) if (ref.controller === true) return ref;
  return undefined;
}

/** schema.ParseGroupVersion: "v1" → core, "apps/v1" → apps; more than one slash is an error. */
function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** GetPodServices: Services of the pod's namespace whose (non-nil) selector matches the pod. */
export function getPodServices(handle: Handle, pod: Pod): KObject[] {
  const ns = pod.metadata.namespace ?? '';
  const podLabels = pod.metadata.labels ?? {};
  const out: KObject[] = [];
  for (const svc of handle.lister('services').list()) {
    if ((svc.metadata.namespace ?? '') !== ns) continue;
    const sel = (svc.spec as { selector?: Record<string, string> | null } | undefined)?.selector;
    // Services with nil selectors match nothing, not everything.
    if (sel === undefined || sel === null) continue;
    if (matches(selectorFromSet(sel), podLabels)) out.push(svc);
  }
  return out;
}

/** DefaultSelector */
export function defaultSelector(pod: Pod, handle: Handle): Selector {
  // Services, RCs, RSs and SSs that match the pod cannot conflict, so merging is safe.
  const labelSet: Record<string, string> = {};
  for (const svc of getPodServices(handle, pod)) Object.assign(labelSet, (svc.spec as { selector: Labels }).selector);
  let selector = selectorFromSet(labelSet);

  const owner = controllerOf(pod);
  if (!owner) return selector;
  const gv = parseGroupVersion(owner.apiVersion);
  if (!gv) return selector;
  const ns = pod.metadata.namespace ?? '';
  const key = `${ns}/${owner.name}`;
  if (gv.group === '' && gv.version === 'v1' && owner.kind === 'ReplicationController') {
    const rc = handle.lister('replicationcontrollers').get(key);
    if (rc) {
      Object.assign(labelSet, (rc.spec as { selector?: Labels } | undefined)?.selector ?? {});
      selector = selectorFromSet(labelSet);
    }
  } else if (gv.group === 'apps' && gv.version === 'v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const obj = handle.lister(owner.kind === 'ReplicaSet' ? 'replicasets' : 'statefulsets').get(key);
    if (obj) {
      const other = labelSelectorAsSelector((obj.spec as { selector?: LabelSelector | null } | undefined)?.selector);
      if (other.ok && other.selector.type === 'Requirements') selector = addRequirements(selector, ...other.selector.requirements);
    }
  }
  return selector;
}
