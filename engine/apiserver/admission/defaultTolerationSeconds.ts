// DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go):
// every pod that does not already tolerate them gets NoExecute tolerations
// for node.kubernetes.io/not-ready and node.kubernetes.io/unreachable, for
// 300 s (--default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds).
import { status } from '../../apimachinery/status';
import type { AdmissionPlugin } from '../types';
import { allow, deny, isResource } from './errors';
import { ensureArr, ensureRec, recs, str } from './json';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  mayMutate: (a) => isResource(a, '', 'pods') && a.subresource === '',
  admit(a) {
    if (!isResource(a, '', 'pods') || a.subresource !== '') return allow();
    const pod = a.object;
    if (!pod || pod.kind !== 'Pod') return deny(status.badRequest(`expected *api.Pod but got ${pod ? pod.kind : 'nil'}`));
    const spec = ensureRec(pod, 'spec');
    let notReady = false;
    let unreachable = false;
    for (const t of recs(spec['tolerations'])) {
      const key = str(t['key']) ?? '';
      const effect = str(t['effect']) ?? '';
      const noExecute = effect === 'NoExecute' || effect === '';
      if ((key === TAINT_NODE_NOT_READY || key === '') && noExecute) notReady = true;
      if ((key === TAINT_NODE_UNREACHABLE || key === '') && noExecute) unreachable = true;
    }
    const tolerations = notReady && unreachable ? [] : ensureArr(spec, 'tolerations');
    if (!notReady) {
      tolerations.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS });
    }
    if (!unreachable) {
      tolerations.push({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS });
    }
    return allow();
  },
};
