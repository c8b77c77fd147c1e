// autoscaling/v1 HorizontalPodAutoscaler ⇄ autoscaling/v2, the stored version
// (pkg/apis/autoscaling/v1/conversion.go, v1.32). v1 knows one target, CPU
// utilization; what it cannot express rides in annotations so that a v1
// client's update keeps it: the other metrics (autoscaling.alpha.kubernetes.io/metrics,
// in v1's v2beta1-like metric shape), the current metrics (…/current-metrics),
// the conditions (…/conditions) and the behavior (…/behavior, upstream
// marshals its internal type there, so its keys are Go field names).
import type { KObject } from '../../apimachinery/types';

type Obj = Record<string, any>;

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION, BEHAVIOR_ANNOTATION];

/** autoscaling.DefaultCPUUtilization: v1's implicit target. */
export const DEFAULT_CPU_UTILIZATION = 80;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Drops undefined members, keeping the order given (Go's struct order). */
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const isCpuUtilization = (m: Obj) => m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu' && typeof m.resource.target?.averageUtilization === 'number';

// ---- metrics: v2 (MetricTarget, MetricIdentifier) ⇄ v1 (target*/current* fields) ----

function metricSpecToV1(m: Obj): Obj {
  const t = (x: Obj | undefined) => x?.target ?? {};
  switch (m.type) {
    case 'Object': {
      const o = m.object ?? {};
      return { type: 'Object', object: compact({ target: o.describedObject ?? {}, metricName: o.metric?.name ?? '', targetValue: t(o).value ?? '0', selector: o.metric?.selector, averageValue: t(o).averageValue }) };
    }
    case 'Pods': {
      const p = m.pods ?? {};
      return { type: 'Pods', pods: compact({ metricName: p.metric?.name ?? '', targetAverageValue: t(p).averageValue ?? '0', selector: p.metric?.selector }) };
    }
    case 'Resource': {
      const r = m.resource ?? {};
      return { type: 'Resource', resource: compact({ name: r.name ?? '', targetAverageUtilization: t(r).averageUtilization, targetAverageValue: t(r).averageValue }) };
    }
    case 'ContainerResource': {
      const r = m.containerResource ?? {};
      return { type: 'ContainerResource', containerResource: compact({ name: r.name ?? '', targetAverageUtilization: t(r).averageUtilization, targetAverageValue: t(r).averageValue, container: r.container ?? '' }) };
    }
    case 'External': {
      const e = m.external ?? {};
      return { type: 'External', external: compact({ metricName: e.metric?.name ?? '', metricSelector: e.metric?.selector, targetValue: t(e).value, targetAverageValue: t(e).averageValue }) };
    }
    default:
      return { type: m.type ?? '' };
  }
}

function metricSpecFromV1(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const o = m.object ?? {};
      const target = compact({ type: o.averageValue === undefined ? 'Value' : 'AverageValue', value: o.targetValue ?? '0', averageValue: o.averageValue });
      return { type: 'Object', object: { describedObject: o.target ?? {}, target, metric: compact({ name: o.metricName ?? '', selector: o.selector }) } };
    }
    case 'Pods': {
      const p = m.pods ?? {};
      return { type: 'Pods', pods: { metric: compact({ name: p.metricName ?? '', selector: p.selector }), target: { type: 'AverageValue', averageValue: p.targetAverageValue ?? '0' } } };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = m[key] ?? {};
      const target = compact({ type: r.targetAverageUtilization === undefined ? 'AverageValue' : 'Utilization', averageUtilization: r.targetAverageUtilization, averageValue: r.targetAverageValue });
      return { type: m.type, [key]: compact({ name: r.name ?? '', target, container: m.type === 'ContainerResource' ? (r.container ?? '') : undefined }) };
    }
    case 'External': {
      const e = m.external ?? {};
      const target = compact({ type: e.targetAverageValue === undefined ? 'Value' : 'AverageValue', value: e.targetValue, averageValue: e.targetAverageValue });
      return { type: 'External', external: { metric: compact({ name: e.metricName ?? '', selector: e.metricSelector }), target } };
    }
    default:
      return { type: m.type ?? '' };
  }
}

function metricStatusToV1(m: Obj): Obj {
  const c = (x: Obj | undefined) => x?.current ?? {};
  switch (m.type) {
    case 'Object': {
      const o = m.object ?? {};
      return { type: 'Object', object: compact({ target: o.describedObject ?? {}, metricName: o.metric?.name ?? '', currentValue: c(o).value ?? '0', selector: o.metric?.selector, averageValue: c(o).averageValue }) };
    }
    case 'Pods': {
      const p = m.pods ?? {};
      return { type: 'Pods', pods: compact({ metricName: p.metric?.name ?? '', currentAverageValue: c(p).averageValue ?? '0', selector: p.metric?.selector }) };
    }
    case 'Resource': {
      const r = m.resource ?? {};
      return { type: 'Resource', resource: compact({ name: r.name ?? '', currentAverageUtilization: c(r).averageUtilization, currentAverageValue: c(r).averageValue ?? '0' }) };
    }
    case 'ContainerResource': {
      const r = m.containerResource ?? {};
      return { type: 'ContainerResource', containerResource: compact({ name: r.name ?? '', currentAverageUtilization: c(r).averageUtilization, currentAverageValue: c(r).averageValue ?? '0', container: r.container ?? '' }) };
    }
    case 'External': {
      const e = m.external ?? {};
      return { type: 'External', external: compact({ metricName: e.metric?.name ?? '', metricSelector: e.metric?.selector, currentValue: c(e).value ?? '0', currentAverageValue: c(e).averageValue }) };
    }
    default:
      return { type: m.type ?? '' };
  }
}

function metricStatusFromV1(m: Obj): Obj {
  switch (m.type) {
    case 'Object': {
      const o = m.object ?? {};
      return { type: 'Object', object: { metric: compact({ name: o.metricName ?? '', selector: o.selector }), current: compact({ value: o.currentValue ?? '0', averageValue: o.averageValue }), describedObject: o.target ?? {} } };
    }
    case 'Pods': {
      const p = m.pods ?? {};
      return { type: 'Pods', pods: { metric: compact({ name: p.metricName ?? '', selector: p.selector }), current: { averageValue: p.currentAverageValue ?? '0' } } };
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const r = m[key] ?? {};
      const current = compact({ averageUtilization: r.currentAverageUtilization, averageValue: r.currentAverageValue ?? '0' });
      return { type: m.type, [key]: compact({ name: r.name ?? '', current, container: m.type === 'ContainerResource' ? (r.container ?? '') : undefined }) };
    }
    case 'External': {
      const e = m.external ?? {};
      return { type: 'External', external: { metric: compact({ name: e.metricName ?? '', selector: e.metricSelector }), current: compact({ value: e.currentValue ?? '0', averageValue: e.currentAverageValue }) } };
    }
    default:
      return { type: m.type ?? '' };
  }
}

// ---- behavior: v2 JSON ⇄ the internal type's Go field names ----

function rulesToInternal(r: Obj | undefined): Obj | null {
  if (!isObj(r)) return null;
  return {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: Array.isArray(r.policies) ? r.policies.map((p: Obj) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null,
  };
}

function rulesFromInternal(r: unknown): Obj | undefined {
  if (!isObj(r)) return undefined;
  return compact({
    stabilizationWindowSeconds: r.StabilizationWindowSeconds ?? undefined,
    selectPolicy: r.SelectPolicy ?? undefined,
    policies: Array.isArray(r.Policies) ? r.Policies.map((p: Obj) => ({ type: p.Type, value: p.Value, periodSeconds: p.PeriodSeconds })) : undefined,
  });
}

// ---- the objects ----

const sortedKeys = (o: Record<string, string>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));

function withoutRoundTrip(annotations: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(annotations)) for (const [k, v] of Object.entries(annotations)) if (!ROUND_TRIP.includes(k)) out[k] = String(v);
  return out;
}

/** The stored (v2) object as autoscaling/v1 serves it (one already in v1 is left as it is). */
export function hpaToV1(o: KObject): KObject {
  if (o.apiVersion === 'autoscaling/v1') return o;
  const src = o as unknown as Obj;
  const spec: Obj = src.spec ?? {};
  const st: Obj = src.status ?? {};
  const metrics: Obj[] = Array.isArray(spec.metrics) ? spec.metrics : [];
  const cpu = metrics.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  const currentCpu = (Array.isArray(st.currentMetrics) ? st.currentMetrics : []).find((m: Obj) => m.type === 'Resource' && m.resource?.name === 'cpu');
  const annotations = withoutRoundTrip(src.metadata?.annotations);
  const others = metrics.filter((m) => !isCpuUtilization(m));
  if (others.length > 0) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(others.map(metricSpecToV1));
  if (Array.isArray(st.currentMetrics) && st.currentMetrics.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(st.currentMetrics.map(metricStatusToV1));
  if (isObj(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify({ ScaleUp: rulesToInternal(spec.behavior.scaleUp), ScaleDown: rulesToInternal(spec.behavior.scaleDown) });
  if (Array.isArray(st.conditions) && st.conditions.length > 0) {
    annotations[CONDITIONS_ANNOTATION] = JSON.stringify(st.conditions.map((c: Obj) => compact({ type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason || undefined, message: c.message || undefined })));
  }
  const { annotations: _a, ...meta } = src.metadata ?? {};
  const out: Obj = {
    ...src,
    apiVersion: 'autoscaling/v1',
    metadata: Object.keys(annotations).length > 0 ? { ...meta, annotations: sortedKeys(annotations) } : meta,
    spec: compact({
      scaleTargetRef: spec.scaleTargetRef ?? {},
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas ?? 0,
      // The first cpu Resource metric decides, even when it is not a utilization.
      targetCPUUtilizationPercentage: typeof cpu?.resource?.target?.averageUtilization === 'number' ? cpu.resource.target.averageUtilization : undefined,
    }),
  };
  if (src.status !== undefined) {
    out.status = compact({
      observedGeneration: st.observedGeneration,
      lastScaleTime: st.lastScaleTime,
      currentReplicas: st.currentReplicas ?? 0,
      desiredReplicas: st.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: typeof currentCpu?.resource?.current?.averageUtilization === 'number' ? currentCpu.resource.current.averageUtilization : undefined,
    });
  }
  return out as KObject;
}

function parseAnnotation(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** A v1 body in the stored (v2) shape: annotations give back what v1 cannot say (one already in v2 is left). */
export function hpaFromV1(o: KObject): KObject {
  if (o.apiVersion === 'autoscaling/v2') return o;
  const src = o as unknown as Obj;
  const spec: Obj = src.spec ?? {};
  const st: Obj | undefined = isObj(src.status) ? src.status : undefined;
  const ann: Obj = isObj(src.metadata?.annotations) ? src.metadata.annotations : {};
  let metrics: Obj[] = typeof spec.targetCPUUtilizationPercentage === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }] : [];
  const others = parseAnnotation(ann[METRIC_SPECS_ANNOTATION]);
  if (Array.isArray(others)) metrics = [...others.filter(isObj).map(metricSpecFromV1), ...metrics];
  // v1's implicit default, made explicit now that every metric is known.
  if (metrics.length === 0) metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  const behaviorAnn = parseAnnotation(ann[BEHAVIOR_ANNOTATION]);
  const behavior = isObj(behaviorAnn) ? compact({ scaleUp: rulesFromInternal(behaviorAnn.ScaleUp), scaleDown: rulesFromInternal(behaviorAnn.ScaleDown) }) : undefined;

  let currentMetrics: Obj[] | null = typeof st?.currentCPUUtilizationPercentage === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: st.currentCPUUtilizationPercentage } } }] : null;
  const statuses = parseAnnotation(ann[METRIC_STATUSES_ANNOTATION]);
  if (Array.isArray(statuses)) currentMetrics = statuses.filter(isObj).map(metricStatusFromV1);
  const conditions = parseAnnotation(ann[CONDITIONS_ANNOTATION]);

  const annotations = withoutRoundTrip(ann);
  const { annotations: _a, ...meta } = src.metadata ?? {};
  const out: Obj = {
    ...src,
    apiVersion: 'autoscaling/v2',
    metadata: Object.keys(annotations).length > 0 ? { ...meta, annotations } : meta,
    spec: compact({ scaleTargetRef: spec.scaleTargetRef ?? {}, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas ?? 0, metrics, behavior }),
  };
  if (st) {
    out.status = compact({
      observedGeneration: st.observedGeneration,
      lastScaleTime: st.lastScaleTime,
      currentReplicas: st.currentReplicas || undefined,
      desiredReplicas: st.desiredReplicas ?? 0,
      currentMetrics,
      conditions: Array.isArray(conditions) ? conditions : undefined,
    });
  }
  return out as KObject;
}
