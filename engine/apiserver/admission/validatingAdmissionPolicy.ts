// ValidatingAdmissionPolicy (admission/plugin/policy/validating: dispatcher.go,
// validator.go; generic policy matching). For each policy whose
// matchConstraints match, each binding naming it whose matchResources match
// is evaluated once per param object: matchConditions, then every validation
// (variables composed lazily). A failed validation is acted on per the
// binding's validationActions: Deny refuses the request (the first denial is
// reported), Warn adds a warning, Audit an audit annotation.
import { status } from '../../apimachinery/status';
import type { KObject, Status } from '../../apimachinery/types';
import { apiVersionOf, parseApiVersion } from '../../apimachinery/types';
import { resourceForKind } from '../registry/resources';
import type { AdmissionAttributes, AdmissionPlugin, ClusterReader } from '../types';
import { baseActivation, compositedVariables, evaluate, toCel, type Activation } from './cel';
import { allow, deny, extractResourceName, groupResourceOf } from './errors';
import { isRec, path, rec, recs, str, strs, stringMap, type Rec } from './json';
import { matchLabelSelector } from './labelSelector';
import { evalMatchConditions, isExemptAdmissionConfigurationResource, matchResources } from './matching';

const GROUP = 'admissionregistration.k8s.io';
export const VALIDATION_FAILURE_AUDIT_KEY = 'validation.policy.admission.k8s.io/validation_failure';
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

type Action = 'admit' | 'deny';

interface PolicyDecision {
  action: Action;
  evaluationError: boolean;
  message: string;
  reason: string;
  expressionIndex: number;
}

interface Denied {
  policy: KObject;
  binding: KObject | undefined;
  message: string;
  reason: string;
}

function byName(x: KObject, y: KObject): number {
  const a = x.metadata.name ?? '';
  const b = y.metadata.name ?? '';
  return a < b ? -1 : a > b ? 1 : 0;
}

function actionForError(failurePolicy: string): Action {
  return failurePolicy === 'Ignore' ? 'admit' : 'deny';
}

/** reasonToCode: the HTTP code a denial's reason carries. */
export function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

type Params = { ok: true; params: (KObject | null)[] } | { ok: false; error: string };

/** collectParams: the objects a binding's paramRef selects (one nil when the policy takes none). */
function collectParams(policy: KObject, binding: KObject, a: AdmissionAttributes, cluster: ClusterReader): Params {
  const paramKind = rec(path(policy, 'spec', 'paramKind'));
  const paramRef = rec(path(binding, 'spec', 'paramRef'));
  if (!paramKind || !paramRef) return { ok: true, params: [null] };
  const apiVersion = str(paramKind['apiVersion']) ?? '';
  const kind = str(paramKind['kind']) ?? '';
  const gv = parseApiVersion(apiVersion);
  const info = resourceForKind(gv.group, kind);
  if (!info) return { ok: false, error: `paramKind kind \`&{${apiVersion} ${kind}}\` not known` };
  const refNs = str(paramRef['namespace']) ?? '';
  let namespace: string | undefined;
  if (info.namespaced) {
    namespace = refNs || a.namespace;
    if (!namespace) return { ok: false, error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  } else if (refNs) {
    return { ok: false, error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };
  }
  let params: KObject[];
  const name = str(paramRef['name']) ?? '';
  if (name) {
    if (paramRef['selector'] !== undefined) return { ok: false, error: 'paramRef.name and paramRef.selector are mutually exclusive' };
    const p = cluster.get(info.group, info.resource, namespace, name);
    params = p ? [p] : [];
  } else if (paramRef['selector'] !== undefined) {
    params = [];
    for (const p of cluster.list(info.group, info.resource, namespace)) {
      const m = matchLabelSelector(paramRef['selector'], stringMap(p.metadata.labels));
      if (!m.ok) return { ok: false, error: m.error };
      if (m.matches) params.push(p);
    }
  } else {
    return { ok: false, error: 'one of name or selector must be provided' };
  }
  if (params.length === 0 && str(paramRef['parameterNotFoundAction']) === 'Deny') {
    return { ok: false, error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  }
  // Stored objects carry apiVersion/kind already; make sure CEL sees them.
  return { ok: true, params: params.map((p) => ({ ...p, apiVersion: p.apiVersion || apiVersionOf(gv.group, gv.version), kind: p.kind || kind })) };
}

function namespaceObject(a: AdmissionAttributes, cluster: ClusterReader): unknown {
  // The namespace of a Namespace request is itself; upstream unsets it.
  if (a.kind.group === '' && a.kind.kind === 'Namespace') return null;
  if (!a.namespace) return null;
  const ns = cluster.get('', 'namespaces', undefined, a.namespace);
  return ns ? toCel(ns) : null;
}

function variableDefs(policy: KObject): { name: string; expression: string }[] {
  return recs(path(policy, 'spec', 'variables')).map((v) => ({ name: str(v['name']) ?? '', expression: str(v['expression']) ?? '' }));
}

/** Validator.Validate for one (policy, binding, param). */
function validate(policy: KObject, a: AdmissionAttributes, activation: Activation, failurePolicy: string): { decisions: PolicyDecision[]; audit: Record<string, string> } {
  const mc = evalMatchConditions(path(policy, 'spec', 'matchConditions'), activation, failurePolicy);
  if (mc.error !== undefined) {
    return { decisions: [{ action: actionForError(failurePolicy), evaluationError: true, message: mc.error, reason: '', expressionIndex: 0 }], audit: {} };
  }
  if (!mc.matches) return { decisions: [], audit: {} };
  const decisions: PolicyDecision[] = [];
  recs(path(policy, 'spec', 'validations')).forEach((v, i) => {
    const expression = str(v['expression']) ?? '';
    const r = evaluate(expression, activation);
    if (!r.ok) {
      const message = r.kind === 'compile' ? `compilation error: ${r.message}` : `expression '${expression}' resulted in error: ${r.message}`;
      decisions.push({ action: actionForError(failurePolicy), evaluationError: true, message, reason: '', expressionIndex: i });
      return;
    }
    if (r.value === true) {
      decisions.push({ action: 'admit', evaluationError: false, message: '', reason: '', expressionIndex: i });
      return;
    }
    let message = '';
    const messageExpression = str(v['messageExpression']);
    if (messageExpression) {
      const m = evaluate(messageExpression, activation);
      if (m.ok && typeof m.value === 'string') {
        const t = m.value.trim();
        if (t.length <= MAX_MESSAGE_BYTES && !t.includes('\n')) message = t;
      }
    }
    if (!message) message = (str(v['message']) ?? '').trim();
    if (!message) message = `failed expression: ${expression.trim()}`;
    decisions.push({ action: 'deny', evaluationError: false, message, reason: str(v['reason']) ?? 'Invalid', expressionIndex: i });
  });
  const audit: Record<string, string> = {};
  for (const aa of recs(path(policy, 'spec', 'auditAnnotations'))) {
    const key = str(aa['key']) ?? '';
    const r = evaluate(str(aa['valueExpression']) ?? '', activation);
    if (r.ok && typeof r.value === 'string' && r.value !== '') audit[key] = r.value;
    else if (!r.ok && failurePolicy !== 'Ignore') {
      decisions.push({ action: 'deny', evaluationError: true, message: `valueExpression '${str(aa['valueExpression']) ?? ''}' resulted in error: ${r.message}`, reason: '', expressionIndex: 0 });
    }
  }
  return { decisions, audit };
}

export function denialStatus(a: AdmissionAttributes, d: Denied): Status {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${d.policy.metadata.name ?? ''}' with binding '${d.binding.metadata.name ?? ''}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy.metadata.name ?? ''}' denied request: ${d.message}`;
  const st = status.forbidden(groupResourceOf(a), extractResourceName(a), message);
  const reason = d.reason || 'Invalid';
  st.reason = reason;
  st.code = reasonToCode(reason);
  st.details = { ...(st.details ?? {}), causes: [...(st.details?.causes ?? []), { message }] };
  return st;
}

export const validatingAdmissionPolicy: AdmissionPlugin = {
  name: 'ValidatingAdmissionPolicy',
  handles: () => true,
  validate(a, cluster) {
    if (isExemptAdmissionConfigurationResource(a)) return allow();
    const policies = [...cluster.list(GROUP, 'validatingadmissionpolicies')].sort(byName);
    if (policies.length === 0) return allow();
    const bindings = [...cluster.list(GROUP, 'validatingadmissionpolicybindings')].sort(byName);
    const denied: Denied[] = [];
    const warnings: string[] = [];
    const audit: Record<string, string> = {};
    const failures: Rec[] = [];
    let base: Activation | undefined;
    let nsObject: unknown;

    for (const policy of policies) {
      const failurePolicy = str(path(policy, 'spec', 'failurePolicy')) ?? 'Fail';
      const configError = (error: string, binding: KObject | undefined) => {
        if (failurePolicy === 'Ignore') return;
        const message = failurePolicy === 'Fail' ? `failed to configure ${binding ? 'binding' : 'policy'}: ${error}` : `unrecognized failure policy: '${failurePolicy}'`;
        denied.push({ policy, binding, message, reason: '' });
      };
      const pm = matchResources(path(policy, 'spec', 'matchConstraints'), a, cluster);
      if (!pm.ok) {
        configError(pm.error, undefined);
        continue;
      }
      if (!pm.matches) continue;
      const policyAudit: Record<string, string[]> = {};
      for (const binding of bindings) {
        if (str(path(binding, 'spec', 'policyName')) !== policy.metadata.name) continue;
        const bindingCriteria = path(binding, 'spec', 'matchResources');
        if (isRec(bindingCriteria)) {
          const bm = matchResources(bindingCriteria, a, cluster);
          if (!bm.ok) {
            configError(bm.error, binding);
            continue;
          }
          if (!bm.matches) continue;
        }
        const params = collectParams(policy, binding, a, cluster);
        if (!params.ok) {
          configError(params.error, binding);
          continue;
        }
        if (!base) {
          base = baseActivation(a);
          nsObject = namespaceObject(a, cluster);
        }
        const actions = strs(path(binding, 'spec', 'validationActions'));
        for (const param of params.params) {
          const activation: Activation = { ...base, params: param ? toCel(param) : null, namespaceObject: nsObject };
          activation.variables = compositedVariables(variableDefs(policy), activation);
          const result = validate(policy, a, activation, failurePolicy);
          for (const d of result.decisions) {
            if (d.action !== 'deny') continue;
            for (const action of actions) {
              if (action === 'Deny') denied.push({ policy, binding, message: d.message, reason: d.reason });
              else if (action === 'Warn') {
                warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name ?? ''}' with binding '${binding.metadata.name ?? ''}': ${d.message}`);
              } else if (action === 'Audit') {
                failures.push({ message: d.message, policy: policy.metadata.name ?? '', binding: binding.metadata.name ?? '', expressionIndex: d.expressionIndex, validationActions: actions });
              }
            }
          }
          for (const [k, v] of Object.entries(result.audit)) {
            const list = (policyAudit[k] ??= []);
            if (!list.includes(v)) list.push(v);
          }
        }
      }
      for (const [k, vs] of Object.entries(policyAudit)) audit[`${policy.metadata.name ?? ''}/${k}`] = vs.join(', ');
    }
    if (failures.length) audit[VALIDATION_FAILURE_AUDIT_KEY] = JSON.stringify(failures);
    if (denied.length) return deny(denialStatus(a, denied[0]!), warnings);
    return allow(warnings, audit);
  },
};
