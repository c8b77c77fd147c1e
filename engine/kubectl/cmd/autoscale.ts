// kubectl autoscale (staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go,
// v1.32): an autoscaling/v1 HorizontalPodAutoscaler per resource named, each
// needing a scale subresource in discovery; --min and --cpu-percent only when
// given (the server defaults minReplicas to 1 and the target to 80 % CPU).
import type { Ctx } from '../cli/context';
import type { FlagDef } from '../cli/flags';
import { getBool, getInt, getString, getStrings } from '../cli/flags';
import { errs, fail, type KubectlErr } from '../client/errors';
import type { Mapping } from '../client/discovery';
import { goJsonCompact } from '../printers/goJson';
import { aggregate, resourcePath } from '../resource/builder';
import { LAST_APPLIED, modifiedConfiguration } from './apply';
import { DRY_RUN_FLAG, dryRunQuery, dryRunStrategy, FILENAME_FLAGS, OUTPUT_FLAGS, ResultPrinter } from './common';
import { NO_RESOURCES, targets } from './mutate';

type Obj = Record<string, any>;

export const AUTOSCALE_FLAGS: FlagDef[] = [
  ...OUTPUT_FLAGS,
  ...FILENAME_FLAGS,
  DRY_RUN_FLAG,
  { name: 'min', kind: 'int', default: -1 },
  { name: 'max', kind: 'int', default: -1, required: true },
  { name: 'cpu-percent', kind: 'int', default: -1 },
  { name: 'name', kind: 'string' },
  { name: 'save-config', kind: 'bool' },
  { name: 'field-manager', kind: 'string', default: 'kubectl-autoscale' },
  { name: 'record', kind: 'bool', hidden: true },
];

const HPA_V1: Mapping = { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, singular: 'horizontalpodautoscaler' };

/** GroupVersionResource.String(): `apps/v1, Resource=deployments`. */
const gvrString = (m: Mapping) => `${m.group}/${m.version}, Resource=${m.resource}`;

/** createHorizontalPodAutoscaler: the object as kubectl's typed client sends it. */
function hpaFor(name: string, refName: string, m: Mapping, min: number, max: number, cpu: number): Obj {
  const spec: Obj = { scaleTargetRef: { kind: m.kind, name: refName, apiVersion: m.group ? `${m.group}/${m.version}` : m.version } };
  if (min > 0) spec.minReplicas = min;
  spec.maxReplicas = max;
  if (cpu >= 0) spec.targetCPUUtilizationPercentage = cpu;
  return { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1', metadata: { name, creationTimestamp: null }, spec, status: { currentReplicas: 0, desiredReplicas: 0 } };
}

export async function runAutoscale(ctx: Ctx, args: string[]): Promise<void> {
  const f = ctx.flags;
  const min = getInt(f, 'min');
  const max = getInt(f, 'max');
  const cpu = getInt(f, 'cpu-percent');
  if (max < 1) fail(errs.plain(`--max=MAXPODS is required and must be at least 1, max: ${max}`));
  if (max < min) fail(errs.plain(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`));
  const files = getStrings(f, 'filename');
  if (args.length === 0 && files.length === 0) fail(errs.plain(NO_RESOURCES));
  if (files.length === 0 && args.length === 1 && !args[0]!.includes('/')) fail(errs.plain('resource(s) were provided, but no name was specified'));
  const dryRun = dryRunStrategy(ctx);
  const printer = new ResultPrinter(ctx, dryRun);
  await ctx.discovery.load();
  const r = await targets(ctx, args, { fetch: true });
  const errors: KubectlErr[] = [...r.errors];
  let count = 0;
  for (const t of r.targets) {
    const m = t.mapping;
    // ScaleForResource: the resource's group-version must list `<resource>/scale`.
    if (!ctx.discovery.resources.some((x) => x.group === m.group && x.version === m.version && x.name === `${m.resource}/scale`)) {
      errors.push(errs.plain(`cannot autoscale a ${m.kind}: could not find scale subresource for ${gvrString(m)} in discovery information`));
      continue;
    }
    const hpa = hpaFor(getString(f, 'name') || t.name, t.name, m, min, max, cpu);
    if (dryRun === 'client') {
      count++;
      printer.print(hpa, 'created');
      continue;
    }
    if (getBool(f, 'save-config')) hpa.metadata.annotations = { [LAST_APPLIED]: modifiedConfiguration(hpa, false) };
    const query = { fieldManager: getString(f, 'field-manager'), ...dryRunQuery(dryRun) };
    const res = await ctx.client.tryJson<Obj>('POST', resourcePath(HPA_V1, ctx.namespace), { body: `${goJsonCompact(hpa)}\n`, query });
    if (!res.ok) {
      errors.push(errs.status(res.status));
      continue;
    }
    count++;
    printer.print(res.value, 'autoscaled');
  }
  const e = aggregate(errors);
  if (e) fail(e);
  if (count === 0) fail(errs.plain('no objects passed to autoscale'));
}
