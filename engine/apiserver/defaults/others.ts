// Defaulting for the remaining groups: autoscaling/v2, networking.k8s.io/v1, rbac/v1,
// scheduling/v1, storage/v1, discovery/v1, admissionregistration/v1
// (pkg/apis/<group>/<version>/defaults.go, v1.32).
import { arr, child, def, defStr, each, isObj, type Loose } from './util';

type Obj = Record<string, Loose>;

const scaleUpDefaults = (): Obj => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
const scaleDownDefaults = (): Obj => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** copyHPAScalingRules: the user's fields over the defaults. */
function scalingRules(given: unknown, defaults: Obj): Obj {
  if (!isObj(given)) return defaults;
  const out = { ...defaults };
  for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies']) if (given[k] !== undefined && given[k] !== null) out[k] = given[k];
  return out;
}

export function defaultHPA(hpa: Obj): void {
  const spec = child(hpa, 'spec');
  def(spec, 'minReplicas', 1);
  if (arr(spec.metrics).length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, scaleUpDefaults());
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, scaleDownDefaults());
  }
}

export function defaultNetworkPolicy(np: Obj): void {
  const spec = child(np, 'spec');
  child(spec, 'podSelector');
  for (const dir of ['ingress', 'egress']) each(spec, dir, (rule) => each(rule, 'ports', (p) => def(p, 'protocol', 'TCP')));
  if (arr(spec.policyTypes).length === 0) {
    spec.policyTypes = ['Ingress'];
    if (arr(spec.egress).length !== 0) spec.policyTypes.push('Egress');
  }
}

export function defaultIngressClass(ic: Obj): void {
  const spec = child(ic, 'spec');
  if (isObj(spec.parameters)) def(spec.parameters, 'scope', 'Cluster');
}

export function defaultRoleBinding(rb: Obj): void {
  defStr(child(rb, 'roleRef'), 'apiGroup', 'rbac.authorization.k8s.io');
  each(rb, 'subjects', (s) => {
    if (s.apiGroup === undefined || s.apiGroup === null || s.apiGroup === '') {
      if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = 'rbac.authorization.k8s.io';
      else if (s.kind === 'ServiceAccount') s.apiGroup = '';
    }
  });
}

export function defaultPriorityClass(pc: Obj): void {
  def(pc, 'preemptionPolicy', 'PreemptLowerPriority');
}

export function defaultStorageClass(sc: Obj): void {
  def(sc, 'reclaimPolicy', 'Delete');
  def(sc, 'volumeBindingMode', 'Immediate');
}

/** apiregistration v1 SetDefaults_ServiceReference: port 443. */
export function defaultAPIService(a: Obj): void {
  const spec = a.spec;
  if (spec && typeof spec === 'object' && spec.service && typeof spec.service === 'object') def(spec.service, 'port', 443);
}

export function defaultEndpointSlice(es: Obj): void {
  each(es, 'ports', (p) => {
    def(p, 'name', '');
    def(p, 'protocol', 'TCP');
  });
}

function defaultRule(r: Obj): void {
  def(r, 'scope', '*');
}

function defaultWebhook(h: Obj, mutating: boolean): void {
  def(h, 'failurePolicy', 'Fail');
  def(h, 'matchPolicy', 'Equivalent');
  def(h, 'namespaceSelector', {});
  def(h, 'objectSelector', {});
  def(h, 'timeoutSeconds', 10);
  if (mutating) def(h, 'reinvocationPolicy', 'Never');
  each(h, 'rules', defaultRule);
  if (isObj(h.clientConfig) && isObj(h.clientConfig.service)) def(h.clientConfig.service, 'port', 443);
}

export function defaultWebhookConfiguration(cfg: Obj, mutating: boolean): void {
  each(cfg, 'webhooks', (h) => defaultWebhook(h, mutating));
}

function defaultMatchResources(m: Obj): void {
  def(m, 'matchPolicy', 'Equivalent');
  def(m, 'namespaceSelector', {});
  def(m, 'objectSelector', {});
  each(m, 'resourceRules', defaultRule);
  each(m, 'excludeResourceRules', defaultRule);
}

export function defaultValidatingAdmissionPolicy(vap: Obj): void {
  const spec = child(vap, 'spec');
  def(spec, 'failurePolicy', 'Fail');
  if (isObj(spec.matchConstraints)) defaultMatchResources(spec.matchConstraints);
}

export function defaultValidatingAdmissionPolicyBinding(b: Obj): void {
  const spec = child(b, 'spec');
  if (isObj(spec.matchResources)) defaultMatchResources(spec.matchResources);
}
