// Simulated admission webhooks (admission/plugin/webhook/{generic,mutating,validating}).
// There is no HTTP server to call, so a webhook whose clientConfig.url starts
// with `playground://` answers from annotations on its configuration object:
//
//   playground.kubeglass.dev/patch-<webhook name>: '[{"op":"add","path":"/metadata/labels/x","value":"y"}]'
//       a JSON patch the (mutating) webhook returns;
//   playground.kubeglass.dev/deny-<webhook name>: 'message'
//       the webhook refuses the request with that message (code 403, reason
//       Forbidden, as controller-runtime's admission.Denied answers);
//   playground.kubeglass.dev/warn-<webhook name>: 'text'
//       a warning the webhook returns.
//
// `playground://timeout` simulates a webhook that never answers. Any other
// clientConfig (a Service or a real URL) cannot be reached; that call error is
// then handled by the webhook's failurePolicy, as upstream does.
import { status } from '../../apimachinery/status';
import type { KObject, Status } from '../../apimachinery/types';
import type { AdmissionAttributes, ClusterReader } from '../types';
import { baseActivation } from './cel';
import { isRec, num, path, recs, str, stringMap, type Rec } from './json';
import { evalMatchConditions, isExemptAdmissionConfigurationResource, matchNamespaceSelector, matchObjectSelector, ruleMatches } from './matching';

export const PLAYGROUND_ANNOTATION_PREFIX = 'playground.kubeglass.dev/';
export const PLAYGROUND_URL_PREFIX = 'playground://';

export interface WebhookRef {
  configuration: KObject;
  webhook: Rec;
  name: string;
  /** Position among all webhooks of this kind, as the audit annotations count them. */
  index: number;
}

export type WebhookCall =
  | { type: 'allowed'; patch?: unknown; warnings: string[] }
  | { type: 'denied'; status: Status; warnings: string[] }
  /** ErrCallingWebhook: the reason after `failed calling webhook "name": `. */
  | { type: 'callError'; reason: string };

/** Webhooks of every configuration of a resource, configurations sorted by name, webhooks in order. */
export function listWebhooks(cluster: ClusterReader, resource: 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations'): WebhookRef[] {
  const configs = [...cluster.list('admissionregistration.k8s.io', resource)].sort((x, y) =>
    (x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : (x.metadata.name ?? '') > (y.metadata.name ?? '') ? 1 : 0,
  );
  const out: WebhookRef[] = [];
  for (const configuration of configs) {
    for (const webhook of recs(configuration['webhooks'])) out.push({ configuration, webhook, name: str(webhook['name']) ?? '', index: out.length });
  }
  return out;
}

export function failurePolicyOf(webhook: Rec): string {
  return str(webhook['failurePolicy']) ?? 'Fail';
}

/** Decides whether to call a webhook: rules, selectors, then matchConditions. */
export function shouldCallHook(
  ref: WebhookRef,
  a: AdmissionAttributes,
  cluster: ClusterReader,
): { call: boolean; error?: Status; reason: string } {
  if (isExemptAdmissionConfigurationResource(a)) return { call: false, reason: 'admission configuration resources are exempt' };
  const wh = ref.webhook;
  if (!recs(wh['rules']).some((r) => ruleMatches(r, a))) return { call: false, reason: 'no rule matches' };
  const ns = matchNamespaceSelector(wh['namespaceSelector'], a, cluster);
  if (!ns.ok) return { call: false, error: status.internal(ns.error), reason: 'namespaceSelector error' };
  if (!ns.matches) return { call: false, reason: 'namespaceSelector does not match' };
  const obj = matchObjectSelector(wh['objectSelector'], a);
  if (!obj.ok) return { call: false, error: status.internal(obj.error), reason: 'objectSelector error' };
  if (!obj.matches) return { call: false, reason: 'objectSelector does not match' };
  const mc = evalMatchConditions(wh['matchConditions'], baseActivation(a), failurePolicyOf(wh));
  if (mc.error !== undefined) {
    return { call: false, error: status.internal(`failed calling webhook "${ref.name}": failed to evaluate match conditions: ${mc.error}`), reason: 'matchConditions error' };
  }
  if (!mc.matches) return { call: false, reason: mc.failedCondition ? `matchCondition "${mc.failedCondition}" is false` : 'matchConditions ignored' };
  return { call: true, reason: 'matched' };
}

function targetUrl(wh: Rec): string {
  const url = str(path(wh, 'clientConfig', 'url'));
  if (url) return url;
  const svc = path(wh, 'clientConfig', 'service');
  if (isRec(svc)) {
    const port = num(svc['port']) ?? 443;
    return `https://${str(svc['name']) ?? ''}.${str(svc['namespace']) ?? ''}.svc:${port}${str(svc['path']) ?? ''}`;
  }
  return '';
}

/** Calls (simulates) one webhook. */
export function callWebhook(ref: WebhookRef, cluster: ClusterReader): WebhookCall {
  const wh = ref.webhook;
  const timeout = num(wh['timeoutSeconds']) ?? 10;
  const url = targetUrl(wh);
  const post = `Post "${url}?timeout=${timeout}s"`;
  if (!url.startsWith(PLAYGROUND_URL_PREFIX)) {
    const svc = path(wh, 'clientConfig', 'service');
    if (isRec(svc)) {
      const name = str(svc['name']) ?? '';
      const exists = !!cluster.get('', 'services', str(svc['namespace']) ?? '', name);
      return { type: 'callError', reason: `failed to call webhook: ${post}: ${exists ? `no endpoints available for service "${name}"` : `service "${name}" not found`}` };
    }
    let host = url;
    const m = /^[a-z]+:\/\/([^/:?]+)/.exec(url);
    if (m) host = m[1]!;
    return { type: 'callError', reason: `failed to call webhook: ${post}: dial tcp: lookup ${host}: no such host` };
  }
  if (url.startsWith(`${PLAYGROUND_URL_PREFIX}timeout`)) {
    return { type: 'callError', reason: `failed to call webhook: ${post}: context deadline exceeded` };
  }
  const ann = stringMap(ref.configuration.metadata.annotations);
  const warnings: string[] = [];
  const warn = ann[`${PLAYGROUND_ANNOTATION_PREFIX}warn-${ref.name}`];
  if (warn) warnings.push(warn);
  const denyMessage = ann[`${PLAYGROUND_ANNOTATION_PREFIX}deny-${ref.name}`];
  if (denyMessage !== undefined) {
    const st: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: denyMessage };
    return { type: 'denied', status: toStatusErr(ref.name, st), warnings };
  }
  const patchText = ann[`${PLAYGROUND_ANNOTATION_PREFIX}patch-${ref.name}`];
  if (patchText === undefined) return { type: 'allowed', warnings };
  try {
    return { type: 'allowed', patch: JSON.parse(patchText) as unknown, warnings };
  } catch (e) {
    // The webhook answered with a body that is not a patch: upstream fails decoding it.
    return { type: 'callError', reason: `received invalid webhook response: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** webhookerrors.ToStatusErr: the webhook's own Status, its message prefixed. */
export function toStatusErr(webhookName: string, result: Status | undefined): Status {
  const st: Status = result ? { ...result } : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 400 };
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  if (st.code < 400) st.code = 400;
  st.status = 'Failure';
  if (st.message) st.message = `${deniedBy}: ${st.message}`;
  else if (st.reason) st.message = `${deniedBy}: ${st.reason}`;
  else st.message = `${deniedBy} without explanation`;
  return st;
}

/** Failing closed on a call error: `Internal error occurred: failed calling webhook "x": ...`. */
export function callErrorStatus(webhookName: string, reason: string): Status {
  return status.internal(`failed calling webhook "${webhookName}": ${reason}`);
}

/** A webhook with side effects cannot see dry-run requests (NewDryRunUnsupportedErr). */
export function dryRunUnsupported(ref: WebhookRef, a: AdmissionAttributes): Status | undefined {
  if (!a.dryRun) return undefined;
  const se = str(ref.webhook['sideEffects']) ?? 'Unknown';
  if (se === 'None' || se === 'NoneOnDryRun') return undefined;
  return status.badRequest(`admission webhook "${ref.name}" does not support dry run`);
}
