// ValidateKubeSchedulerConfiguration (pkg/scheduler/apis/config/validation/
// validation.go, v1.32), run on the defaulted config, with upstream's field
// paths and texts. Unknown plugins, plugins at points they do not implement and
// score weights are the framework's business (resolve.ts), as upstream.
import { aggregateMessage, errorString, fieldErr, FieldPath, type FieldError } from '../../apimachinery/fieldErrors';
import { isQualifiedName } from '../../apimachinery/validation/names';
import type { Registry } from './defaults';
import { formatGoDuration, goFieldPath, GoLiteral, goPluginSet, goQuote, goUnknown, parseGoDuration } from './goText';
import { EXTENSION_POINTS, GROUP_VERSION, type DefaultedConfig, type DefaultedProfile, type Extender, type PluginSet } from './types';

/** Plugins whose args ValidateKubeSchedulerConfiguration checks (validatePluginConfig's map; NodeResourcesFit's key is "NodeResourcesFitArgs" upstream, so its args are only checked when the plugin is built). */
export const CONFIG_VALIDATED_ARGS: ReadonlySet<string> = new Set([
  'DefaultPreemption',
  'InterPodAffinity',
  'NodeAffinity',
  'NodeResourcesBalancedAllocation',
  'PodTopologySpread',
  'VolumeBinding',
  'DynamicResources',
]);

/** invalidPluginsByVersion for v1: removed in-tree volume limit plugins. */
const INVALID_PLUGINS_V1: ReadonlySet<string> = new Set(['AzureDiskLimits', 'CinderLimits', 'EBSLimits', 'GCEPDLimits']);
const invalidMessage = `was invalid in version ${goQuote(GROUP_VERSION)} (KubeSchedulerConfiguration is version ${goQuote(GROUP_VERSION)})`;

/** field.Error.Error(), with Go-literal bad values (structs, Stringers) printed verbatim. */
export function renderFieldError(e: FieldError): string {
  if (e.badValue instanceof GoLiteral) {
    const type = e.type === 'FieldValueDuplicate' ? 'Duplicate value' : 'Invalid value';
    return `${e.field}: ${type}: ${e.badValue.text}${e.detail ? `: ${e.detail}` : ''}`;
  }
  return errorString(e);
}

/** utilerrors.NewAggregate(errs).Error(), or undefined when there are none. */
export function aggregate(errs: readonly FieldError[]): string | undefined {
  return errs.length === 0 ? undefined : aggregateMessage(errs.map(renderFieldError));
}

function durationNs(d: string): bigint {
  const r = parseGoDuration(d);
  return r.ok ? r.ns : 0n;
}

/** A metav1.Duration prints through its String() method. */
const durationValue = (d: string) => new GoLiteral(formatGoDuration(durationNs(d)));

function validateLeaderElection(cfg: DefaultedConfig): FieldError[] {
  const le = cfg.leaderElection;
  const path = FieldPath.root('leaderElection');
  const errs: FieldError[] = [];
  if (!le.leaderElect) return errs;
  for (const k of ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const) {
    if (durationNs(le[k]) <= 0n) errs.push(fieldErr.invalid(path.child(k), durationValue(le[k]), 'must be greater than zero'));
  }
  if (durationNs(le.leaseDuration) <= durationNs(le.renewDeadline)) {
    errs.push(fieldErr.invalid(path.child('leaseDuration'), durationValue(le.renewDeadline), 'LeaseDuration must be greater than RenewDeadline'));
  }
  if (!le.resourceLock) errs.push(fieldErr.invalid(path.child('resourceLock'), le.resourceLock, 'resourceLock is required'));
  if (!le.resourceNamespace) errs.push(fieldErr.invalid(path.child('resourceNamespace'), le.resourceNamespace, 'resourceNamespace is required'));
  if (!le.resourceName) errs.push(fieldErr.invalid(path.child('resourceName'), le.resourceName, 'resourceName is required'));
  return errs;
}

function validatePercentage(path: FieldPath, v: number | undefined): FieldError[] {
  return v !== undefined && (v < 0 || v > 100) ? [fieldErr.invalid(path, v, 'not in valid range [0-100]')] : [];
}

function validatePluginConfig(path: FieldPath, profile: DefaultedProfile, registry: Registry): FieldError[] {
  const errs: FieldError[] = [];
  const pluginsPath = path.child('plugins');
  // Upstream walks a map of the points (MultiPoint is not in it).
  for (const point of EXTENSION_POINTS) {
    (profile.plugins[point]?.enabled ?? []).forEach((p, i) => {
      if (INVALID_PLUGINS_V1.has(p.name)) errs.push(fieldErr.invalid(pluginsPath.child(point, 'enabled').index(i), p.name, invalidMessage));
    });
  }
  const seen = new Set<string>();
  profile.pluginConfig.forEach((pc, i) => {
    const pcPath = path.child('pluginConfig').index(i);
    if (seen.has(pc.name)) errs.push(fieldErr.duplicate(pcPath, pc.name));
    else seen.add(pc.name);
    if (INVALID_PLUGINS_V1.has(pc.name)) {
      errs.push(fieldErr.invalid(pcPath, pc.name, invalidMessage));
    } else if (CONFIG_VALIDATED_ARGS.has(pc.name)) {
      const def = registry.get(pc.name);
      if (def?.validateArgs) errs.push(...def.validateArgs(pc.args as never, pcPath.child('args')));
    }
  });
  return errs;
}

/** Semantic.DeepEqual on internal PluginSets: nil and empty lists are equal, nil weights are 0. */
function samePluginSet(a: PluginSet | undefined, b: PluginSet | undefined): boolean {
  const norm = (ps: PluginSet | undefined) =>
    JSON.stringify([(ps?.enabled ?? []).map((p) => [p.name, p.weight ?? 0]), (ps?.disabled ?? []).map((p) => [p.name, p.weight ?? 0])]);
  return norm(a) === norm(b);
}

/** JSON with sorted keys: comparing and printing args as Go holds them. */
export function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function argsValue(args: unknown): unknown {
  // A queue sort plugin's args are raw JSON (runtime.Unknown) unless it has an args kind.
  return args === undefined ? null : goUnknown(sortedJson(args));
}

function validateCommonQueueSort(path: FieldPath, profiles: readonly DefaultedProfile[]): FieldError[] {
  const errs: FieldError[] = [];
  const first = profiles[0]!;
  const canon = first.plugins.queueSort;
  const queueSortName = canon?.enabled?.[0]?.name ?? '';
  const length = canon?.enabled?.length ?? 0;
  if (length > 1) errs.push(fieldErr.invalid(path.index(0).child('plugins', 'queueSort', 'Enabled'), length, 'only one queue sort plugin can be enabled'));
  let queueSortArgs: unknown;
  for (const pc of first.pluginConfig) if (queueSortName !== '' && pc.name === queueSortName) queueSortArgs = pc.args;
  for (let i = 1; i < profiles.length; i++) {
    const p = profiles[i]!;
    const curr = p.plugins.queueSort;
    if (!samePluginSet(canon, curr)) errs.push(fieldErr.invalid(path.index(i).child('plugins', 'queueSort'), goPluginSet(curr), 'must be the same for all profiles'));
    for (const pc of p.pluginConfig) {
      if (pc.name === queueSortName && sortedJson(queueSortArgs ?? null) !== sortedJson(pc.args ?? null)) {
        errs.push(fieldErr.invalid(path.index(i).child('pluginConfig', 'args'), argsValue(pc.args), 'queueSort must be the same for all profiles'));
      }
    }
  }
  return errs;
}

/** v1helper.IsExtendedResourceName */
function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

function validateExtenders(path: FieldPath, extenders: readonly Extender[]): FieldError[] {
  const errs: FieldError[] = [];
  let binders = 0;
  const managed = new Set<string>();
  extenders.forEach((ext, i) => {
    const p = path.index(i);
    if (ext.prioritizeVerb && (ext.weight ?? 0) <= 0) errs.push(fieldErr.invalid(p.child('weight'), ext.weight ?? 0, 'must have a positive weight applied to it'));
    if (ext.bindVerb) binders++;
    (ext.managedResources ?? []).forEach((r, j) => {
      const np = p.child('managedResources').index(j).child('name');
      // v1.ResourceName is a Stringer: printed bare.
      const msgs = isQualifiedName(r.name);
      for (const m of msgs) errs.push(fieldErr.invalid(np, new GoLiteral(r.name), m));
      if (msgs.length === 0 && !isExtendedResourceName(r.name)) errs.push(fieldErr.invalid(np, r.name, 'is an invalid extended resource name'));
      if (managed.has(r.name)) errs.push(fieldErr.invalid(np, r.name, 'duplicate extender managed resource name'));
      managed.add(r.name);
    });
  });
  if (binders > 1) errs.push(fieldErr.invalid(path, `found ${binders} extenders implementing bind`, 'only one extender can implement bind'));
  return errs;
}

/** The errors ValidateKubeSchedulerConfiguration aggregates, in its order. */
export function validateKubeSchedulerConfiguration(cfg: DefaultedConfig, registry: Registry): FieldError[] {
  const errs: FieldError[] = [];
  const burst = cfg.clientConnection.burst;
  if (burst < 0) errs.push(fieldErr.invalid('clientConnection.burst', burst, 'must be non-negative'));
  errs.push(...validateLeaderElection(cfg));
  // Only the Lease lock remains.
  if (cfg.leaderElection.leaderElect && cfg.leaderElection.resourceLock !== 'leases') {
    errs.push(fieldErr.invalid('leaderElection.resourceLock', cfg.leaderElection.resourceLock, 'resourceLock value must be "leases"'));
  }
  const profilesPath = FieldPath.root('profiles');
  if (cfg.parallelism <= 0) errs.push(fieldErr.invalid('parallelism', cfg.parallelism, 'should be an integer value greater than zero'));
  if (cfg.profiles.length === 0) {
    errs.push(fieldErr.required(profilesPath));
  } else {
    const existing = new Map<string, number>();
    cfg.profiles.forEach((profile, i) => {
      const path = profilesPath.index(i);
      const name = profile.schedulerName ?? '';
      if (name === '') errs.push(fieldErr.required(path.child('schedulerName')));
      errs.push(...validatePercentage(path.child('percentageOfNodesToScore'), profile.percentageOfNodesToScore));
      errs.push(...validatePluginConfig(path, profile, registry));
      const idx = existing.get(name);
      if (idx !== undefined) errs.push(fieldErr.duplicate(path.child('schedulerName'), goFieldPath('schedulerName')));
      existing.set(name, i);
    });
    errs.push(...validateCommonQueueSort(profilesPath, cfg.profiles));
  }
  errs.push(...validatePercentage(FieldPath.root('percentageOfNodesToScore'), cfg.percentageOfNodesToScore));
  if (cfg.podInitialBackoffSeconds <= 0) errs.push(fieldErr.invalid('podInitialBackoffSeconds', cfg.podInitialBackoffSeconds, 'must be greater than 0'));
  if (cfg.podMaxBackoffSeconds < cfg.podInitialBackoffSeconds) {
    errs.push(fieldErr.invalid('podMaxBackoffSeconds', cfg.podMaxBackoffSeconds, 'must be greater than or equal to PodInitialBackoffSeconds'));
  }
  errs.push(...validateExtenders(FieldPath.root('extenders'), cfg.extenders ?? []));
  return errs;
}
