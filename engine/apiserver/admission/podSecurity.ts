// PodSecurity (plugin/pkg/admission/security/podsecurity and
// pod-security-admission/admission/admission.go). Namespaces carry the policy
// in pod-security.kubernetes.io/{enforce,audit,warn}[-version] labels. Pods
// are refused when they violate the enforce level; the warn level adds
// `would violate PodSecurity ...` warnings and the audit level an audit
// annotation. Workload objects (Deployments, Jobs, ...) are checked against
// warn and audit only, never enforce. Changing a namespace's enforce label
// warns about existing pods that would violate it. No exemptions are configured.
import { errorString } from '../../apimachinery/fieldErrors';
import { status } from '../../apimachinery/status';
import type { KObject } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { allow, deny, extractResourceName, groupResourceOf, isResource } from './errors';
import { path, rec, recs, str, stringMap, type Rec } from './json';
import {
  AUDIT_VIOLATIONS_ANNOTATION,
  compareLevels,
  ENFORCED_POLICY_ANNOTATION,
  levelVersionString,
  policyToEvaluate,
  sameLevelVersion,
  versionString,
  type LevelVersion,
  type Policy,
} from './podsecurity/api';
import { evaluatePod, forbiddenDetail, forbiddenReason, type AggregateResult } from './podsecurity/evaluator';

/** Pod subresources that cannot change the pod spec (ignoredPodSubresources). */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** The resources whose objects embed a pod template (DefaultPodSpecExtractor). */
const POD_CONTROLLERS = new Set(['/podtemplates', '/replicationcontrollers', 'apps/replicasets', 'apps/deployments', 'apps/statefulsets', 'apps/daemonsets', 'batch/jobs', 'batch/cronjobs']);

/** namespaceMaxPodsToCheck. */
const MAX_PODS_TO_CHECK = 3000;

function podTemplateOf(a: AdmissionAttributes, obj: KObject): { meta: Rec; spec: Rec } | undefined {
  const key = `${a.resource.group}/${a.resource.resource}`;
  const tpl = key === '/podtemplates' ? rec(obj['template']) : key === 'batch/cronjobs' ? rec(path(obj, 'spec', 'jobTemplate', 'spec', 'template')) : rec(path(obj, 'spec', 'template'));
  if (!tpl) return undefined;
  return { meta: rec(tpl['metadata']) ?? {}, spec: rec(tpl['spec']) ?? {} };
}

function namespacePolicy(a: AdmissionAttributes, cluster: ClusterReader): { policy: Policy; errors: string[] } | undefined {
  const ns = cluster.get('', 'namespaces', undefined, a.namespace);
  if (!ns) return undefined;
  const { policy, errors } = policyToEvaluate(stringMap(ns.metadata.labels));
  return { policy, errors: errors.map(errorString) };
}

function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.warn.level === 'privileged' && p.audit.level === 'privileged';
}

/** EvaluatePod: enforce (pods only), audit, then warn unless already refused. Results are reused per level:version. */
function evaluate(a: AdmissionAttributes, policy: Policy, policyErrors: string[], meta: Rec, spec: Rec, enforce: boolean) {
  const audit: Record<string, string> = {};
  if (policyErrors.length) audit['error'] = `Failed to parse policy: ${policyErrors.length === 1 ? policyErrors[0] : `[${policyErrors.join(', ')}]`}`;
  const cache = new Map<string, AggregateResult>();
  const run = (lv: LevelVersion) => {
    const key = levelVersionString(lv);
    let r = cache.get(key);
    if (!r) cache.set(key, (r = evaluatePod(lv, meta, spec)));
    return r;
  };
  let refused: ReturnType<typeof deny> | undefined;
  if (enforce) {
    audit[ENFORCED_POLICY_ANNOTATION] = levelVersionString(policy.enforce);
    const r = run(policy.enforce);
    if (!r.allowed) {
      refused = deny(status.forbidden(groupResourceOf(a), a.name || extractResourceName(a), `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(r)}`));
    }
  }
  const ar = run(policy.audit);
  if (!ar.allowed) audit[AUDIT_VIOLATIONS_ANNOTATION] = `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(ar)}`;
  if (refused) return refused;
  const warnings: string[] = [];
  const wr = run(policy.warn);
  if (!wr.allowed) warnings.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(wr)}`);
  return allow(warnings, audit);
}

/** isSignificantPodUpdate: only image changes and seccomp annotations can change the verdict of an update. */
function isSignificantPodUpdate(pod: KObject, old: KObject): boolean {
  const ann = stringMap(pod.metadata.annotations);
  const oldAnn = stringMap(old.metadata.annotations);
  const key = 'seccomp.security.alpha.kubernetes.io/pod';
  if (ann[key] !== oldAnn[key]) return true;
  for (const field of ['containers', 'initContainers']) {
    const cs = recs(path(pod, 'spec', field));
    const olds = recs(path(old, 'spec', field));
    if (cs.length !== olds.length) return true;
    for (let i = 0; i < cs.length; i++) {
      if (cs[i]!['image'] !== olds[i]!['image']) return true;
      const ck = `container.seccomp.security.alpha.kubernetes.io/${str(cs[i]!['name']) ?? ''}`;
      if (ann[ck] !== oldAnn[ck]) return true;
    }
  }
  return false;
}

function validatePod(a: AdmissionAttributes, cluster: ClusterReader) {
  if (IGNORED_POD_SUBRESOURCES.has(a.subresource)) return allow();
  const ns = namespacePolicy(a, cluster);
  if (!ns) return deny(status.internal(`failed to lookup namespace "${a.namespace}"`));
  if (ns.errors.length === 0 && fullyPrivileged(ns.policy)) return allow();
  const pod = a.object!;
  if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(pod, a.oldObject)) return allow();
  return evaluate(a, ns.policy, ns.errors, (pod.metadata as unknown as Rec) ?? {}, rec(pod['spec']) ?? {}, true);
}

function validatePodController(a: AdmissionAttributes, cluster: ClusterReader) {
  if (a.subresource !== '') return allow();
  const ns = namespacePolicy(a, cluster);
  if (!ns) return allow(undefined, { error: `failed to lookup namespace "${a.namespace}"` });
  if (ns.errors.length === 0 && ns.policy.warn.level === 'privileged' && ns.policy.audit.level === 'privileged') return allow();
  const tpl = podTemplateOf(a, a.object!);
  if (!tpl) return allow();
  return evaluate(a, ns.policy, ns.errors, tpl.meta, tpl.spec, false);
}

/** EvaluatePodsInNamespace: warnings about existing pods under a new enforce level. */
export function evaluatePodsInNamespace(cluster: ClusterReader, namespace: string, enforce: LevelVersion): string[] {
  const pods = cluster.list('', 'pods', namespace);
  const checked = pods.slice(0, MAX_PODS_TO_CHECK);
  const warnings: string[] = [];
  const order: string[] = [];
  const counts = new Map<string, { podName: string; count: number }>();
  for (const pod of checked) {
    const r = evaluatePod(enforce, (pod.metadata as unknown as Rec) ?? {}, rec(pod['spec']) ?? {});
    if (r.allowed) continue;
    const w = forbiddenReason(r);
    const name = pod.metadata.name ?? '';
    const c = counts.get(w);
    if (!c) {
      counts.set(w, { podName: name, count: 1 });
      order.push(w);
    } else {
      c.count++;
      if (name < c.podName) c.podName = name;
    }
  }
  if (checked.length < pods.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${pods.length} existing pods`);
  if (order.length) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`);
  const decorated = order.map((w) => {
    const c = counts.get(w)!;
    if (c.count === 1) return `${c.podName}: ${w}`;
    if (c.count === 2) return `${c.podName} (and 1 other pod): ${w}`;
    return `${c.podName} (and ${c.count - 1} other pods): ${w}`;
  });
  decorated.sort();
  return [...warnings, ...decorated];
}

function validateNamespace(a: AdmissionAttributes, cluster: ClusterReader) {
  if (a.subresource !== '') return allow();
  const ns = a.object!;
  const name = ns.metadata.name ?? a.name;
  const next = policyToEvaluate(stringMap(ns.metadata.labels));
  const invalid = () => deny(status.invalid({ group: '', kind: 'Namespace' }, name, next.errors));
  if (a.operation === 'CREATE') return next.errors.length ? invalid() : allow();
  if (a.operation !== 'UPDATE' || !a.oldObject) return allow();
  const prev = policyToEvaluate(stringMap(a.oldObject.metadata.labels));
  if (next.errors.length && (prev.errors.length === 0 || JSON.stringify(next.errors) !== JSON.stringify(prev.errors))) return invalid();
  const n = next.policy.enforce;
  const o = prev.policy.enforce;
  if (sameLevelVersion(n, o)) return allow();
  if (n.level === 'privileged') return allow();
  if (versionString(n.version) === versionString(o.version) && compareLevels(n.level, o.level) < 1) return allow();
  return allow(evaluatePodsInNamespace(cluster, name, n));
}

export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  validate(a, cluster) {
    if (!a.object) return allow();
    if (isResource(a, '', 'namespaces')) return validateNamespace(a, cluster);
    if (isResource(a, '', 'pods')) return validatePod(a, cluster);
    if (POD_CONTROLLERS.has(`${a.resource.group}/${a.resource.resource}`)) return validatePodController(a, cluster);
    return allow();
  },
};
