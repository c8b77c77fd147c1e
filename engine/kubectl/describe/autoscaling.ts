// kubectl describe hpa (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32, describeHorizontalPodAutoscalerV2 and printDirectionBehavior): the
// metrics as "current / target", the bounds, the behavior when one is set,
// the target's pods, the conditions and the events.
import { describeEvents, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, timeRfc1123z } from './writer';

type Obj = Record<string, any>;

const UNKNOWN = '<unknown>';

/** One metric's line: what it is, then `current / target`. */
function writeMetric(w: PrefixWriter, metric: Obj, status: Obj | undefined): void {
  switch (metric.type) {
    case 'External': {
      const e = metric.external ?? {};
      const cur = status?.external?.current ?? {};
      if (e.target?.averageValue !== undefined) {
        w.write(1, `${JSON.stringify(e.metric?.name ?? '')} (target average value):\t${cur.averageValue ?? UNKNOWN} / ${e.target.averageValue}\n`);
      } else {
        w.write(1, `${JSON.stringify(e.metric?.name ?? '')} (target value):\t${status?.external ? (cur.value ?? '0') : UNKNOWN} / ${e.target?.value ?? '0'}\n`);
      }
      return;
    }
    case 'Pods': {
      const p = metric.pods ?? {};
      w.write(1, `${JSON.stringify(p.metric?.name ?? '')} on pods:\t${status?.pods ? (status.pods.current?.averageValue ?? '0') : UNKNOWN} / ${p.target?.averageValue ?? '0'}\n`);
      return;
    }
    case 'Object': {
      const o = metric.object ?? {};
      w.write(1, `"${o.metric?.name ?? ''}" on ${o.describedObject?.kind ?? ''}/${o.describedObject?.name ?? ''} `);
      const cur = status?.object?.current ?? {};
      if (o.target?.type === 'AverageValue') w.write(0, `(target average value):\t${status?.object ? (cur.averageValue ?? '0') : UNKNOWN} / ${o.target?.averageValue ?? '0'}\n`);
      else w.write(0, `(target value):\t${status?.object ? (cur.value ?? '0') : UNKNOWN} / ${o.target?.value ?? '0'}\n`);
      return;
    }
    case 'Resource':
    case 'ContainerResource': {
      const container = metric.type === 'ContainerResource';
      const r = (container ? metric.containerResource : metric.resource) ?? {};
      const st = container ? status?.containerResource : status?.resource;
      w.write(1, container ? `resource ${r.name ?? ''} of container "${r.container ?? ''}" on pods` : `resource ${r.name ?? ''} on pods`);
      if (r.target?.averageValue !== undefined) {
        w.write(0, `:\t${st ? (st.current?.averageValue ?? '0') : UNKNOWN} / ${r.target.averageValue}\n`);
        return;
      }
      const current = st && typeof st.current?.averageUtilization === 'number' ? `${st.current.averageUtilization}% (${st.current.averageValue ?? '0'})` : UNKNOWN;
      const target = typeof r.target?.averageUtilization === 'number' ? `${r.target.averageUtilization}%` : '<auto>';
      w.write(1, `(as a percentage of request):\t${current} / ${target}\n`);
      return;
    }
    default:
      w.write(1, `<unknown metric type ${JSON.stringify(metric.type ?? '')}>\n`);
  }
}

function writeDirection(w: PrefixWriter, direction: string, rules: Obj | undefined): void {
  if (!rules) return;
  w.write(1, `${direction}:\n`);
  if (typeof rules.stabilizationWindowSeconds === 'number') w.write(2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
  const policies: Obj[] = rules.policies ?? [];
  if (policies.length > 0) {
    w.write(2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
    w.write(2, 'Policies:\n');
    for (const p of policies) w.write(3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
  }
}

/** An autoscaling/v2 HorizontalPodAutoscaler. */
export function describeHorizontalPodAutoscaler(hpa: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  const spec: Obj = hpa.spec ?? {};
  const st: Obj = hpa.status ?? {};
  const ref: Obj = spec.scaleTargetRef ?? {};
  w.write(0, `Name:\t${hpa.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${hpa.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', hpa.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', hpa.metadata?.annotations);
  w.write(0, `CreationTimestamp:\t${timeRfc1123z(hpa.metadata?.creationTimestamp)}\n`);
  w.write(0, `Reference:\t${ref.kind ?? ''}/${ref.name ?? ''}\n`);
  w.write(0, 'Metrics:\t( current / target )\n');
  const current: Obj[] = Array.isArray(st.currentMetrics) ? st.currentMetrics : [];
  (spec.metrics ?? []).forEach((m: Obj, i: number) => writeMetric(w, m, current[i]));
  w.write(0, `Min replicas:\t${typeof spec.minReplicas === 'number' ? spec.minReplicas : '<unset>'}\n`);
  w.write(0, `Max replicas:\t${spec.maxReplicas ?? 0}\n`);
  if (spec.behavior) {
    w.write(0, 'Behavior:\n');
    writeDirection(w, 'Scale Up', spec.behavior.scaleUp);
    writeDirection(w, 'Scale Down', spec.behavior.scaleDown);
  }
  w.write(0, `${ref.kind ?? ''} pods:\t`);
  w.write(0, `${st.currentReplicas ?? 0} current / ${st.desiredReplicas ?? 0} desired\n`);
  const conditions: Obj[] = st.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tReason\tMessage\n');
    w.write(1, '----\t------\t------\t-------\n');
    for (const c of conditions) w.write(1, `${c.type ?? ''}\t${c.status ?? ''}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  if (events) describeEvents(events, w, now);
  return w.done();
}
