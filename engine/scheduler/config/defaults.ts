// SetDefaults_KubeSchedulerConfiguration for v1 as kube-scheduler v1.32 runs it
// (pkg/scheduler/apis/config/v1/defaults.go, default_plugins.go, and
// component-base's RecommendedDefaultLeaderElectionConfiguration).
// Plugin args are defaulted by each registry entry's defaultArgs, and every
// enabled plugin with an args kind gets a pluginConfig entry, as upstream
// appends them (that is what `--write-config-to` shows).
import type { PluginDefinition } from '../framework/interface';
import { parseGoDuration } from './goText';
import { ARGS_SCHEMAS, encode } from './schema';
import {
  CONFIG_KIND,
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  GROUP_VERSION,
  type DefaultedConfig,
  type DefaultedProfile,
  type KubeSchedulerConfiguration,
  type KubeSchedulerProfile,
  type Plugin,
  type PluginConfig,
  type Plugins,
  type PluginSet,
} from './types';

/** v1.32's getDefaultPlugins(): one MultiPoint list (DynamicResources is feature-gated off in v1.32). */
export function getDefaultPlugins(): Plugins {
  return {
    multiPoint: {
      enabled: [
        { name: 'SchedulingGates' },
        { name: 'PrioritySort' },
        { name: 'NodeUnschedulable' },
        { name: 'NodeName' },
        { name: 'TaintToleration', weight: 3 },
        { name: 'NodeAffinity', weight: 2 },
        { name: 'NodePorts' },
        { name: 'NodeResourcesFit', weight: 1 },
        { name: 'VolumeRestrictions' },
        { name: 'NodeVolumeLimits' },
        { name: 'VolumeBinding' },
        { name: 'VolumeZone' },
        { name: 'PodTopologySpread', weight: 2 },
        { name: 'InterPodAffinity', weight: 2 },
        { name: 'DefaultPreemption' },
        { name: 'NodeResourcesBalancedAllocation', weight: 1 },
        { name: 'ImageLocality', weight: 1 },
        { name: 'DefaultBinder' },
      ],
    },
  };
}

const SET_NAMES = ['multiPoint', ...EXTENSION_POINTS] as const;

/** mergePluginSet: user's disabled list first, default plugins in place (replaced when re-enabled), then the user's others. */
export function mergePluginSet(defaults: PluginSet | undefined, custom: PluginSet | undefined): PluginSet {
  const disabled: Plugin[] = [];
  const disabledNames = new Set<string>();
  for (const p of custom?.disabled ?? []) {
    disabled.push({ name: p.name });
    disabledNames.add(p.name);
  }
  // A plugin the defaults disable at a point stays disabled (MultiPoint expansion reads this).
  for (const p of defaults?.disabled ?? []) {
    disabled.push({ name: p.name });
    disabledNames.add(p.name);
  }
  // By name, the last index wins, as Go's map assignment does.
  const customByName = new Map<string, { index: number; plugin: Plugin }>();
  (custom?.enabled ?? []).forEach((plugin, index) => customByName.set(plugin.name, { index, plugin }));
  const replaced = new Set<number>();
  const enabled: Plugin[] = [];
  if (!disabledNames.has('*')) {
    for (const def of defaults?.enabled ?? []) {
      if (disabledNames.has(def.name)) continue;
      const c = customByName.get(def.name);
      if (c !== undefined) {
        replaced.add(c.index);
        enabled.push({ ...c.plugin });
      } else enabled.push({ ...def });
    }
  }
  // Repeated custom plugins are appended too; the framework rejects them later.
  (custom?.enabled ?? []).forEach((p, i) => {
    if (!replaced.has(i)) enabled.push({ ...p });
  });
  return { ...(enabled.length ? { enabled } : {}), ...(disabled.length ? { disabled } : {}) };
}

/** mergePlugins: every extension point's set merged with the defaults' (nil custom: the defaults). */
export function mergePlugins(defaults: Plugins, custom: Plugins | undefined): Plugins {
  if (custom === undefined) return defaults;
  const out: Plugins = {};
  for (const n of SET_NAMES) {
    const merged = mergePluginSet(defaults[n], custom[n]);
    if (merged.enabled || merged.disabled) out[n] = merged;
  }
  return out;
}

/** pluginsNames: every plugin enabled anywhere in the profile, sorted. */
export function pluginsNames(plugins: Plugins): string[] {
  const names = new Set<string>();
  for (const n of SET_NAMES) for (const p of plugins[n]?.enabled ?? []) names.add(p.name);
  return [...names].sort();
}

export type Registry = ReadonlyMap<string, PluginDefinition>;

/** Whether `name`'s pluginConfig holds typed args (kind name+"Args" known to the decoder). */
export const hasArgsKind = (name: string, argsKinds: ReadonlySet<string>) => argsKinds.has(`${name}Args`);

function defaultArgs(name: string, args: unknown, registry: Registry): unknown {
  const def = registry.get(name);
  const out = def?.defaultArgs === undefined ? (args ?? {}) : def.defaultArgs(args as never);
  // Hand out what a Go plugin holds: its args struct, zero values included.
  const schema = ARGS_SCHEMAS.get(`${name}Args`);
  if (schema === undefined) return out;
  const canonical = encode(out, schema) as Record<string, unknown>;
  delete canonical.apiVersion;
  delete canonical.kind;
  return canonical;
}

function setDefaultsProfile(prof: KubeSchedulerProfile, registry: Registry, argsKinds: ReadonlySet<string>): DefaultedProfile {
  const plugins = mergePlugins(getDefaultPlugins(), prof.plugins);
  const existing = new Set<string>();
  const pluginConfig: PluginConfig[] = [];
  for (const pc of prof.pluginConfig ?? []) {
    existing.add(pc.name);
    // Raw (out-of-tree) args are left alone; typed ones get their kind's defaults.
    pluginConfig.push(hasArgsKind(pc.name, argsKinds) ? { name: pc.name, args: defaultArgs(pc.name, pc.args, registry) } : { ...pc });
  }
  for (const name of pluginsNames(plugins)) {
    if (existing.has(name) || !hasArgsKind(name, argsKinds)) continue;
    pluginConfig.push({ name, args: defaultArgs(name, undefined, registry) });
  }
  return { ...prof, plugins, pluginConfig };
}

const isZeroDuration = (d: string | undefined) => {
  if (d === undefined || d === '') return true;
  const r = parseGoDuration(d);
  return r.ok && r.ns === 0n;
};

/** SetDefaults_KubeSchedulerConfiguration on a copy of `input`. */
export function setDefaults(input: KubeSchedulerConfiguration, registry: Registry, argsKinds: ReadonlySet<string>): DefaultedConfig {
  const cfg = structuredClone(input);
  const profiles = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}];
  // Only a single profile gets the default name; validation insists on names otherwise.
  if (profiles.length === 1 && profiles[0]!.schedulerName === undefined) profiles[0]!.schedulerName = DEFAULT_SCHEDULER_NAME;

  const le = { ...cfg.leaderElection };
  if (!le.resourceLock) le.resourceLock = 'leases';
  if (!le.resourceNamespace) le.resourceNamespace = 'kube-system';
  if (!le.resourceName) le.resourceName = 'kube-scheduler';
  // RecommendedDefaultLeaderElectionConfiguration: a zero duration is unset.
  if (isZeroDuration(le.leaseDuration)) le.leaseDuration = '15s';
  if (isZeroDuration(le.renewDeadline)) le.renewDeadline = '10s';
  if (isZeroDuration(le.retryPeriod)) le.retryPeriod = '2s';
  le.leaderElect ??= true;

  const cc = cfg.clientConnection ?? {};
  const enableProfiling = cfg.enableProfiling ?? true;
  return {
    ...cfg,
    apiVersion: cfg.apiVersion ?? GROUP_VERSION,
    kind: cfg.kind ?? CONFIG_KIND,
    parallelism: cfg.parallelism ?? 16,
    profiles: profiles.map((p) => setDefaultsProfile(p, registry, argsKinds)),
    percentageOfNodesToScore: cfg.percentageOfNodesToScore ?? 0,
    leaderElection: le as Required<typeof le>,
    clientConnection: {
      kubeconfig: cc.kubeconfig ?? '',
      acceptContentTypes: cc.acceptContentTypes ?? '',
      contentType: cc.contentType || 'application/vnd.kubernetes.protobuf',
      // the scheduler's own QPS/Burst opinion
      qps: cc.qps || 50,
      burst: cc.burst || 100,
    },
    podInitialBackoffSeconds: cfg.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: cfg.podMaxBackoffSeconds ?? 10,
    enableProfiling,
    ...(enableProfiling && cfg.enableContentionProfiling === undefined ? { enableContentionProfiling: true } : {}),
  };
}
