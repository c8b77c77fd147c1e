// The HorizontalPodAutoscaler controller, "horizontal-pod-autoscaler"
// (pkg/controller/podautoscaler/horizontal.go, v1.32): every 15 s each HPA
// reads its target's scale subresource, asks the Metrics API
// (metrics.k8s.io, through the aggregation layer) for its pods' usage,
// computes a size per metric (replicaCalculator.ts) and takes the largest,
// normalises it (normalize.ts: stabilisation windows, rate limits, min and
// max), writes the scale and records SuccessfulRescale, and keeps
// status.currentMetrics and the AbleToScale / ScalingActive / ScalingLimited
// conditions with upstream's reasons and messages. Resource and
// ContainerResource metrics are computed; Pods, Object and External metrics
// need a custom or external metrics API, which this cluster does not serve.
import type { KObject } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import * as labels from '../../apimachinery/selectors/labels';
import { parseGoDuration } from '../../apimachinery/duration';
import type { ReflectorEvent } from '../../client/reflector';
import { RateLimitingQueue } from '../../client/workqueue';
import { resourceForKind } from '../../apiserver/registry/resources';
import { rfc3339 } from '../../apiserver/http/time';
import { formatQuantity } from '../../apiserver/validation/quantity';
import { jsonRoundTrip } from '../../sim/jsonClone';
import { registerClass } from '../../sim/serial';
import type { Controller, ControllerContext, SyncResult } from '../framework/types';
import { keyOfObject, pushRecent, type Loose } from '../endpoint/podutil';
import { DEFAULT_CALCULATOR, milliValue, resourceReplicas, type CalculatorOptions } from './replicaCalculator';
import { normalizeDesiredReplicas, normalizeWithBehaviors, storeScaleEvent, type HPAHistory, type ScalingRules } from './normalize';

/** --horizontal-pod-autoscaler-sync-period and --horizontal-pod-autoscaler-downscale-stabilization. */
export const HPA_SYNC_PERIOD_MS = 15_000;
export const DOWNSCALE_STABILIZATION_MS = 5 * 60_000;

type Status = 'True' | 'False' | 'Unknown';
interface Condition {
  type: string;
  status: Status;
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

type Tag =
  | { type: 'scale'; key: string }
  | { type: 'metrics'; key: string }
  | { type: 'rescale'; key: string; desired: number }
  | { type: 'status'; key: string };

/** One reconcileAutoscaler in progress (upstream's is one call; ours waits on each API answer). */
interface Op {
  hpa: Loose;
  originalStatus: string;
  scale?: Loose;
  scalePath?: string;
  reference: string;
  currentReplicas?: number;
  minReplicas?: number;
  metricStatuses?: Loose[] | null;
  rescaleReason?: string;
}

const HPA_PATH = (ns: string, name: string) => `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${name}`;

/** A client-go error for an answer with no Status body: `<reason text> (<verb> <resource>)`. */
function apiError(status: number, body: string, what: string): string {
  if (status === 0) return `Get "${what}": dial tcp: connect: connection refused`;
  try {
    const v = JSON.parse(body) as { kind?: string; message?: string };
    if (v.kind === 'Status' && v.message) return v.message;
  } catch {
    // plain text
  }
  const generic: Record<number, string> = {
    404: 'the server could not find the requested resource',
    403: 'the server does not allow access to the requested resource',
    503: 'the server is currently unable to handle the request',
  };
  return `${generic[status] ?? `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding`} (${what})`;
}

export class HorizontalPodAutoscalerController implements Controller {
  readonly name = 'horizontal-pod-autoscaler';
  readonly informers = ['horizontalpodautoscalers', 'pods'] as const;
  readonly queue = new RateLimitingQueue<string>('horizontalpodautoscaler');
  readonly recent: { t: number; key: string; what: string }[] = [];
  readonly ops = new Map<string, Op>();
  /** Latest unstabilised recommendations and scale events, per HPA. */
  readonly history = new Map<string, HPAHistory>();
  /** The selectors HPAs last used (hpaSelectors), to find pods two HPAs both control. */
  readonly selectors = new Map<string, string>();

  constructor(
    readonly calculator: CalculatorOptions = DEFAULT_CALCULATOR,
    readonly downscaleWindowMs = DOWNSCALE_STABILIZATION_MS,
  ) {}

  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void {
    if (resource !== 'horizontalpodautoscalers') return;
    const key = keyOfObject(ev.object);
    if (ev.type === 'DELETED') {
      this.history.delete(key);
      this.selectors.delete(key);
      return;
    }
    // enqueueHPA: always AddRateLimited with the fixed resync interval, so each HPA runs every 15 s.
    this.queue.addAfter(key, HPA_SYNC_PERIOD_MS, ctx.now);
  }

  sync(key: string, ctx: ControllerContext): SyncResult {
    if (this.ops.has(key)) return { type: 'done' };
    const hpa = ctx.store('horizontalpodautoscalers').get(key) as Loose | undefined;
    if (!hpa) {
      this.history.delete(key);
      this.selectors.delete(key);
      return { type: 'done' };
    }
    const copy = jsonRoundTrip(hpa);
    copy.status ??= {};
    const op: Op = { hpa: copy, originalStatus: JSON.stringify(hpa.status ?? {}), reference: `${copy.spec?.scaleTargetRef?.kind}/${copy.metadata.namespace}/${copy.spec?.scaleTargetRef?.name}` };
    this.ops.set(key, op);
    this.getScale(ctx, key, op);
    // processNextWorkItem: the next pass in one sync period.
    return { type: 'after', delayMs: HPA_SYNC_PERIOD_MS };
  }

  // ---- reconcileAutoscaler ----------------------------------------------------------------

  private getScale(ctx: ControllerContext, key: string, op: Op): void {
    const ref = op.hpa.spec?.scaleTargetRef ?? {};
    const gv = parseApiVersion(String(ref.apiVersion ?? ''));
    const r = resourceForKind(gv.group, String(ref.kind ?? ''));
    if (!r || !r.subresources.some((s) => s.name === 'scale')) {
      const err = `no matches for kind ${JSON.stringify(ref.kind ?? '')} in group ${JSON.stringify(gv.group)}`;
      return this.failScale(ctx, key, op, err);
    }
    const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
    op.scalePath = `${base}/namespaces/${op.hpa.metadata.namespace}/${r.resource}/${ref.name}/scale`;
    ctx.request({ method: 'GET', path: op.scalePath }, { type: 'scale', key } satisfies Tag);
  }

  private failScale(ctx: ControllerContext, key: string, op: Op, err: string): void {
    this.event(ctx, op.hpa, 'Warning', 'FailedGetScale', err);
    setCondition(op.hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${err}`, ctx.now);
    this.finish(ctx, key, op);
  }

  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void {
    const t = tag as Tag;
    const op = this.ops.get(t.key);
    if (!op) return;
    switch (t.type) {
      case 'scale':
        if (status !== 200) {
          const r = resourceForKind(parseApiVersion(String(op.hpa.spec?.scaleTargetRef?.apiVersion ?? '')).group, String(op.hpa.spec?.scaleTargetRef?.kind ?? ''));
          return this.failScale(ctx, t.key, op, apiError(status, body, `get ${r?.group ? `${r.resource}.${r.group}` : r?.resource}`));
        }
        op.scale = JSON.parse(body);
        return this.afterScale(ctx, t.key, op);
      case 'metrics':
        return this.afterMetrics(ctx, t.key, op, status, body);
      case 'rescale':
        return this.afterRescale(ctx, t.key, op, status, body, t.desired);
      case 'status':
        this.ops.delete(t.key);
        if (status !== 200) this.event(ctx, op.hpa, 'Warning', 'FailedUpdateStatus', apiError(status, body, 'update horizontalpodautoscalers.autoscaling'));
        return;
    }
  }

  private afterScale(ctx: ControllerContext, key: string, op: Op): void {
    const hpa = op.hpa;
    setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", ctx.now);
    const current = Number(op.scale?.spec?.replicas ?? 0);
    op.currentReplicas = current;
    const h = this.historyOf(key);
    // recordInitialRecommendation
    if (h.recommendations.length === 0) h.recommendations.push({ recommendation: current, timestamp: ctx.now });
    const minReplicas = typeof hpa.spec?.minReplicas === 'number' ? hpa.spec.minReplicas : 1;
    op.minReplicas = minReplicas;
    const maxReplicas = Number(hpa.spec?.maxReplicas ?? 0);
    if (current === 0 && minReplicas !== 0) {
      setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', ctx.now);
      return this.decide(ctx, key, op, 0, false);
    }
    if (current > maxReplicas) {
      op.rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      return this.decide(ctx, key, op, maxReplicas, true);
    }
    if (current < minReplicas) {
      op.rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      return this.decide(ctx, key, op, minReplicas, true);
    }
    // computeReplicasForMetrics: the selector first.
    const selector = String(op.scale?.status?.selector ?? '');
    if (selector === '') {
      this.event(ctx, hpa, 'Warning', 'SelectorRequired', 'selector is required');
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", ctx.now);
      return this.failMetrics(ctx, key, op, 'selector is required', null);
    }
    const parsed = labels.parse(selector);
    if (!parsed.ok) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${parsed.error}`;
      this.event(ctx, hpa, 'Warning', 'InvalidSelector', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', msg, ctx.now);
      return this.failMetrics(ctx, key, op, msg, null);
    }
    this.selectors.set(key, selector);
    const ambiguous = this.otherHPAsSelecting(key, hpa.metadata.namespace, parsed.selector, ctx);
    if (ambiguous.length > 0) {
      const msg = `pods by selector ${selector} are controlled by multiple HPAs: [${[key, ...ambiguous].sort().join(' ')}]`;
      this.event(ctx, hpa, 'Warning', 'AmbiguousSelector', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'AmbiguousSelector', msg, ctx.now);
      return this.failMetrics(ctx, key, op, msg, null);
    }
    const needsResourceMetrics = (hpa.spec?.metrics ?? []).some((m: Loose) => m.type === 'Resource' || m.type === 'ContainerResource');
    if (!needsResourceMetrics) return this.computeMetrics(ctx, key, op, []);
    ctx.request({ method: 'GET', path: `/apis/metrics.k8s.io/v1beta1/namespaces/${hpa.metadata.namespace}/pods`, query: { labelSelector: selector } }, { type: 'metrics', key } satisfies Tag);
  }

  /** Pods this HPA's selector picks that another HPA's selector picks too. */
  private otherHPAsSelecting(key: string, ns: string, sel: labels.Selector, ctx: ControllerContext): string[] {
    const pods = [...ctx.store('pods').values()].filter((p) => p.metadata.namespace === ns && labels.matches(sel, p.metadata.labels ?? {}));
    const out: string[] = [];
    for (const [other, text] of this.selectors) {
      if (other === key || !other.startsWith(`${ns}/`) || !ctx.store('horizontalpodautoscalers').has(other)) continue;
      const s = labels.parse(text);
      if (s.ok && pods.some((p) => labels.matches(s.selector, p.metadata.labels ?? {}))) out.push(other);
    }
    return out;
  }

  private afterMetrics(ctx: ControllerContext, key: string, op: Op, status: number, body: string): void {
    if (status !== 200) return this.computeMetrics(ctx, key, op, null, `unable to fetch metrics from resource metrics API: ${apiError(status, body, 'get pods.metrics.k8s.io')}`);
    const items = ((JSON.parse(body) as { items?: Loose[] }).items ?? []) as Loose[];
    this.computeMetrics(ctx, key, op, items);
  }

  /** computeReplicasForMetrics over every metric spec; `items` null with `fetchError` when the Metrics API failed. */
  private computeMetrics(ctx: ControllerContext, key: string, op: Op, items: Loose[] | null, fetchError?: string): void {
    const hpa = op.hpa;
    const specs: Loose[] = hpa.spec?.metrics ?? [];
    const statuses: Loose[] = specs.map(() => ({ type: '' }));
    const selector = labels.parse(String(op.scale?.status?.selector ?? ''));
    const pods = selector.ok ? [...ctx.store('pods').values()].filter((p) => p.metadata.namespace === hpa.metadata.namespace && labels.matches(selector.selector, p.metadata.labels ?? {})) : [];
    let replicas = 0;
    let metricName = '';
    let invalid = 0;
    let firstError = '';
    let firstCondition: Condition | null = null;
    specs.forEach((spec, i) => {
      const r = this.computeForMetric(ctx, op, spec, items, fetchError, pods);
      if ('error' in r) {
        if (invalid === 0) {
          firstError = r.error;
          firstCondition = r.condition;
        }
        invalid++;
        return;
      }
      statuses[i] = r.status;
      if (replicas === 0 || r.replicas > replicas) {
        replicas = r.replicas;
        metricName = r.metricName;
      }
    });
    const specReplicas = op.currentReplicas ?? 0;
    const invalidError = invalid > 0 ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError}` : '';
    if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
      const c = firstCondition as Condition | null;
      if (c) setCondition(hpa, c.type, c.status, c.reason, c.message, ctx.now);
      op.metricStatuses = statuses;
      return this.failMetrics(ctx, key, op, invalidError, statuses);
    }
    setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metricName}`, ctx.now);
    op.metricStatuses = statuses;
    const current = op.currentReplicas ?? 0;
    let desired = 0;
    let rescaleMetric = '';
    if (replicas > desired) {
      desired = replicas;
      rescaleMetric = metricName;
    }
    if (desired > current) op.rescaleReason = `${rescaleMetric} above target`;
    if (desired < current) op.rescaleReason = 'All metrics below target';
    const h = this.historyOf(key);
    const max = Number(hpa.spec?.maxReplicas ?? 0);
    const behavior = this.behaviorOf(hpa);
    const n = behavior ? normalizeWithBehaviors(h, current, desired, op.minReplicas ?? 1, max, behavior, this.downscaleWindowMs, ctx.now) : normalizeDesiredReplicas(h, current, desired, op.minReplicas ?? 1, max, this.downscaleWindowMs, ctx.now);
    setCondition(hpa, 'AbleToScale', 'True', n.stabilized.reason, n.stabilized.message, ctx.now);
    setCondition(hpa, 'ScalingLimited', n.limited.status, n.limited.reason, n.limited.message, ctx.now);
    this.decide(ctx, key, op, n.replicas, n.replicas !== current);
  }

  /** behavior with the controller's default scale-down window filled in (maybeInitScaleDownStabilizationWindow). */
  private behaviorOf(hpa: Loose): { scaleUp: ScalingRules; scaleDown: ScalingRules } | null {
    const b = hpa.spec?.behavior;
    if (!b) return null;
    return { scaleUp: b.scaleUp ?? {}, scaleDown: b.scaleDown ?? {} };
  }

  /** computeReplicasForMetric for one spec: the proposal and its status, or the error and condition. */
  private computeForMetric(ctx: ControllerContext, op: Op, spec: Loose, items: Loose[] | null, fetchError: string | undefined, pods: Loose[]): { replicas: number; metricName: string; status: Loose } | { error: string; condition: Condition } {
    const hpa = op.hpa;
    const unable = (reason: string, err: string): Condition => {
      this.event(ctx, hpa, 'Warning', reason, err);
      return { type: 'ScalingActive', status: 'False', reason, message: `the HPA was unable to compute the replica count: ${err}` };
    };
    const resourceLike = spec.type === 'Resource' ? spec.resource : spec.type === 'ContainerResource' ? spec.containerResource : null;
    if (!resourceLike) return this.customMetric(spec, op, unable);
    const resource = String(resourceLike.name ?? '');
    const container = spec.type === 'ContainerResource' ? String(resourceLike.container ?? '') : '';
    const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
    const outer = (err: string) => (spec.type === 'Resource' ? `failed to get ${resource} resource metric value: ${err}` : `failed to get ${container} container metric value: ${err}`);
    const target = resourceLike.target ?? {};
    let goal: { utilization: number } | { averageValue: number };
    let what: string;
    if (target.averageValue !== undefined && target.averageValue !== null) {
      goal = { averageValue: milliValue(target.averageValue) };
      what = 'usage';
    } else if (typeof target.averageUtilization === 'number') {
      goal = { utilization: target.averageUtilization };
      what = 'utilization';
    } else {
      const err = 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set';
      return { error: outer(err), condition: unable(reason, err) };
    }
    const r = items === null ? { ok: false as const, error: `unable to get metrics for resource ${resource}: ${fetchError}` } : resourceReplicas(op.currentReplicas ?? 0, goal, resource, container, items, pods, ctx.now, this.calculator, parseGoDuration);
    if (!r.ok) {
      const err = `failed to get ${resource} ${what}: ${r.error}`;
      return { error: outer(err), condition: unable(reason, err) };
    }
    const current: Loose = {};
    if ('utilization' in goal) current.averageUtilization = r.value.utilization;
    current.averageValue = formatQuantity({ nanos: BigInt(r.value.raw) * 1_000_000n, format: 'DecimalSI' });
    const name = 'utilization' in goal ? (spec.type === 'ContainerResource' ? `${resource} container resource utilization (percentage of request)` : `${resource} resource utilization (percentage of request)`) : `${resource} resource`;
    const status: Loose =
      spec.type === 'Resource' ? { type: 'Resource', resource: { name: resource, current } } : { type: 'ContainerResource', containerResource: { name: resource, container, current } };
    return { replicas: r.value.replicas, metricName: name, status };
  }

  /**
   * Pods, Object and External metrics: their APIs (custom.metrics.k8s.io,
   * external.metrics.k8s.io) are served by adapters this cluster does not run,
   * so they fail as they do upstream without one.
   */
  private customMetric(spec: Loose, op: Op, unable: (reason: string, err: string) => Condition): { error: string; condition: Condition } {
    const ns = op.hpa.metadata.namespace;
    const noCustom = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';
    switch (spec.type) {
      case 'Pods': {
        const err = `unable to get metric ${spec.pods?.metric?.name ?? ''}: ${noCustom}`;
        return { error: `failed to get pods metric value: ${err}`, condition: unable('FailedGetPodsMetric', err) };
      }
      case 'Object': {
        // GetObjectMetricReplicas formats its arguments in this (shifted) order upstream.
        const o = spec.object ?? {};
        const err = `unable to get metric ${o.metric?.name ?? ''}: ${o.describedObject?.kind ?? ''} on ${ns} ${o.describedObject?.name ?? ''}/${noCustom}`;
        return { error: `failed to get object metric value: ${err}`, condition: unable('FailedGetObjectMetric', err) };
      }
      case 'External': {
        const e = spec.external ?? {};
        const name = e.metric?.name ?? '';
        const err = `unable to get external metric ${ns}/${name}/${e.metric?.selector ? JSON.stringify(e.metric.selector) : 'nil'}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${name}.external.metrics.k8s.io)`;
        const inner = e.target?.averageValue !== undefined ? `failed to get ${name} external metric: ${err}` : `failed to get external metric ${name}: ${err}`;
        return { error: `failed to get ${name} external metric value: ${inner}`, condition: unable('FailedGetExternalMetric', err) };
      }
      default: {
        const err = `unknown metric source type ${JSON.stringify(spec.type ?? '')}`;
        return { error: err, condition: unable('InvalidMetricSourceType', err) };
      }
    }
  }

  /** The metrics failed: status with what we have, the FailedComputeMetricsReplicas event, no scaling. */
  private failMetrics(ctx: ControllerContext, key: string, op: Op, err: string, statuses: Loose[] | null): void {
    setStatus(op.hpa, op.currentReplicas ?? 0, op.hpa.status?.desiredReplicas ?? 0, statuses, false, ctx.now);
    this.event(ctx, op.hpa, 'Warning', 'FailedComputeMetricsReplicas', err);
    this.finish(ctx, key, op);
  }

  /** The size decided: rescale when needed, then the status. */
  private decide(ctx: ControllerContext, key: string, op: Op, desired: number, rescale: boolean): void {
    if (!rescale) {
      setStatus(op.hpa, op.currentReplicas ?? 0, op.currentReplicas ?? 0, op.metricStatuses ?? null, false, ctx.now);
      return this.finish(ctx, key, op);
    }
    const scale = { ...op.scale, spec: { ...(op.scale?.spec ?? {}), replicas: desired } };
    ctx.request({ method: 'PUT', path: op.scalePath!, body: scale }, { type: 'rescale', key, desired } satisfies Tag);
  }

  private afterRescale(ctx: ControllerContext, key: string, op: Op, status: number, body: string, desired: number): void {
    const hpa = op.hpa;
    const current = op.currentReplicas ?? 0;
    if (status !== 200) {
      const err = apiError(status, body, 'update scale');
      this.event(ctx, hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${op.rescaleReason ?? ''}; error: ${err}`);
      setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${err}`, ctx.now);
      setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, op.metricStatuses ?? null, false, ctx.now);
      return this.finish(ctx, key, op);
    }
    setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, ctx.now);
    this.event(ctx, hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${op.rescaleReason ?? ''}`);
    storeScaleEvent(this.historyOf(key), this.behaviorOf(hpa), current, desired, ctx.now);
    pushRecent(this.recent, ctx.now, key, `scaled ${op.reference} from ${current} to ${desired}`);
    setStatus(hpa, current, desired, op.metricStatuses ?? null, true, ctx.now);
    this.finish(ctx, key, op);
  }

  /** updateStatusIfNeeded, then the op is over. */
  private finish(ctx: ControllerContext, key: string, op: Op): void {
    if (JSON.stringify(op.hpa.status ?? {}) === op.originalStatus) {
      this.ops.delete(key);
      return;
    }
    const body = { ...op.hpa, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' };
    ctx.request({ method: 'PUT', path: `${HPA_PATH(op.hpa.metadata.namespace, op.hpa.metadata.name)}/status`, body }, { type: 'status', key } satisfies Tag);
  }

  private historyOf(key: string): HPAHistory {
    let h = this.history.get(key);
    if (!h) this.history.set(key, (h = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] }));
    return h;
  }

  private event(ctx: ControllerContext, hpa: Loose, type: 'Normal' | 'Warning', reason: string, message: string): void {
    ctx.event({ regarding: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: hpa.metadata.name, namespace: hpa.metadata.namespace, uid: hpa.metadata.uid, resourceVersion: hpa.metadata.resourceVersion } } as KObject, type, reason, message });
  }
}

/** setConditionInList: an existing condition's transition time moves only when its status changes. */
export function setCondition(hpa: Loose, type: string, status: Status, reason: string, message: string, now: number): void {
  hpa.status ??= {};
  const list: Condition[] = (hpa.status.conditions ??= []);
  let c = list.find((x) => x.type === type);
  if (!c) {
    c = { type, status: 'Unknown', reason: '', message: '' };
    delete (c as { status?: Status }).status;
    list.push(c);
  }
  if (c.status !== status) c.lastTransitionTime = rfc3339(now);
  // Keep Go's field order: type, status, lastTransitionTime, reason, message.
  const t = c.lastTransitionTime;
  for (const k of Object.keys(c)) delete (c as unknown as Record<string, unknown>)[k];
  Object.assign(c, { type, status, ...(t ? { lastTransitionTime: t } : {}), reason, message });
}

/** setStatus: the whole status rebuilt, lastScaleTime moved on a rescale. */
export function setStatus(hpa: Loose, current: number, desired: number, metrics: Loose[] | null, rescale: boolean, now: number): void {
  const prev = hpa.status ?? {};
  const next: Loose = {};
  if (rescale) next.lastScaleTime = rfc3339(now);
  else if (prev.lastScaleTime) next.lastScaleTime = prev.lastScaleTime;
  next.currentReplicas = current;
  next.desiredReplicas = desired;
  next.currentMetrics = metrics;
  if (prev.conditions) next.conditions = prev.conditions;
  hpa.status = next;
}

registerClass('HorizontalPodAutoscalerController', HorizontalPodAutoscalerController);
