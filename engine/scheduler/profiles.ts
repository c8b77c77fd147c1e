// From a KubeSchedulerConfiguration to running frameworks: one Framework per
// profile (plugins instantiated with their args and the shared Handle), the
// queue's sort and PreEnqueue plugins, and the EnqueueExtensions of every
// plugin (which cluster events may make a rejected pod schedulable).
import { Rng } from '../sim/rng';
import type { Handle, Plugin, PluginDefinition } from './framework/interface';
import {
  isBind,
  isEnqueueExtensions,
  isFilter,
  isPermit,
  isPostBind,
  isPostFilter,
  isPreBind,
  isPreEnqueue,
  isPreFilter,
  isPreScore,
  isQueueSort,
  isReserve,
  isScore,
  type EnqueueExtensions,
  type PreEnqueuePlugin,
  type QueueSortPlugin,
} from './framework/interface';
import { Framework, type ExtensionPoint } from './framework/runtime';
import { IN_TREE_REGISTRY } from './plugins/registry';
import { completeConfig, durationMs, loadConfig, writeConfig, type DefaultedConfig, type ResolvedProfile } from './config';

export interface SchedulerSetup {
  config: ResolvedConfig;
  /** The configuration as YAML (defaults filled in), for GET. */
  text: string;
  frameworks: Map<string, Framework>;
  queueSort: QueueSortPlugin;
  preEnqueue: Map<string, PreEnqueuePlugin[]>;
  enqueueExtensions: Map<string, Plugin & EnqueueExtensions>;
}

/** The global settings the scheduler actor reads, in milliseconds where times. */
export interface ResolvedConfig {
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  leaderElection: { leaderElect: boolean; resourceName: string; resourceNamespace: string; leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
  raw: DefaultedConfig;
}

const GUARDS: Record<ExtensionPoint, (p: Plugin) => boolean> = {
  preEnqueue: isPreEnqueue,
  queueSort: isQueueSort,
  preFilter: isPreFilter,
  filter: isFilter,
  postFilter: isPostFilter,
  preScore: isPreScore,
  score: isScore,
  reserve: isReserve,
  permit: isPermit,
  preBind: isPreBind,
  bind: isBind,
  postBind: isPostBind,
};

/** A Handle with nothing in it: enough to build a plugin and ask which points it implements. */
const PROBE_HANDLE: Handle = {
  nodes: { list: () => [], get: () => undefined, havePodsWithAffinityList: () => [], havePodsWithRequiredAntiAffinityList: () => [], isPVCUsedByPods: () => false },
  lister: () => ({ get: () => undefined, list: () => [] }),
  now: () => 0,
  rng: () => new Rng(0),
  nominatedPodsForNode: () => [],
  runFilterPluginsWithNominatedPods: () => null,
  runPreFilterExtensionAddPod: () => null,
  runPreFilterExtensionRemovePod: () => null,
  filterPluginNames: () => [],
};

/** Does the in-tree plugin `name` implement extension point `point`? */
export function implementsPoint(name: string, point: ExtensionPoint, registry: ReadonlyMap<string, PluginDefinition> = IN_TREE_REGISTRY): boolean {
  const def = registry.get(name);
  if (!def) return false;
  const plugin = def.factory(def.defaultArgs ? def.defaultArgs(undefined) : undefined, PROBE_HANDLE);
  return GUARDS[point](plugin);
}

export type BuildResult = { ok: true; setup: SchedulerSetup } | { ok: false; error: string };

/** Loads (or defaults) the configuration and builds every profile's framework. */
export function buildProfiles(text: string | undefined, handle: Handle & { nominatedPodsForNode(n: string): readonly import('./framework/podInfo').PodInfo[] }): BuildResult {
  const impl = (name: string, point: ExtensionPoint) => implementsPoint(name, point);
  const loaded = text === undefined || text.trim() === '' ? completeConfig({}, IN_TREE_REGISTRY, impl) : loadConfig(text, IN_TREE_REGISTRY, impl);
  if (!loaded.ok) return { ok: false, error: loaded.error };
  const frameworks = new Map<string, Framework>();
  const enqueueExtensions = new Map<string, Plugin & EnqueueExtensions>();
  const preEnqueue = new Map<string, PreEnqueuePlugin[]>();
  let queueSort: QueueSortPlugin | null = null;
  for (const prof of loaded.profiles) {
    const fwk = buildFramework(prof, handle);
    if (typeof fwk === 'string') return { ok: false, error: fwk };
    frameworks.set(prof.schedulerName, fwk);
    preEnqueue.set(prof.schedulerName, fwk.preEnqueue);
    queueSort ??= fwk.queueSort;
    for (const p of fwk.plugins.values()) if (isEnqueueExtensions(p) && !enqueueExtensions.has(p.name)) enqueueExtensions.set(p.name, p);
  }
  if (!queueSort) return { ok: false, error: 'no queue sort plugin is enabled' };
  const c = loaded.config;
  const le = c.leaderElection;
  const seconds = (d: string | undefined, dflt: number) => (d ? durationMs(d) ?? dflt : dflt);
  return {
    ok: true,
    setup: {
      config: {
        percentageOfNodesToScore: c.percentageOfNodesToScore ?? 0,
        podInitialBackoffSeconds: c.podInitialBackoffSeconds ?? 1,
        podMaxBackoffSeconds: c.podMaxBackoffSeconds ?? 10,
        leaderElection: {
          leaderElect: le.leaderElect ?? true,
          resourceName: le.resourceName ?? 'kube-scheduler',
          resourceNamespace: le.resourceNamespace ?? 'kube-system',
          leaseDurationMs: seconds(le.leaseDuration, 15_000),
          renewDeadlineMs: seconds(le.renewDeadline, 10_000),
          retryPeriodMs: seconds(le.retryPeriod, 2_000),
        },
        raw: c,
      },
      text: writeConfig(loaded, IN_TREE_REGISTRY),
      frameworks,
      queueSort,
      preEnqueue,
      enqueueExtensions,
    },
  };
}

function buildFramework(prof: ResolvedProfile, handle: Handle & { nominatedPodsForNode(n: string): readonly import('./framework/podInfo').PodInfo[] }): Framework | string {
  const plugins = new Map<string, Plugin>();
  for (const point of Object.keys(prof.points) as ExtensionPoint[]) {
    for (const { name } of prof.points[point]) {
      if (plugins.has(name)) continue;
      const def = IN_TREE_REGISTRY.get(name);
      if (!def) return `${name} does not exist`;
      const args = prof.args.get(name) ?? (def.defaultArgs ? def.defaultArgs(undefined) : undefined);
      plugins.set(name, def.factory(args as never, handle));
    }
  }
  return new Framework(prof.schedulerName, prof.percentageOfNodesToScore, prof.points, plugins, handle);
}
