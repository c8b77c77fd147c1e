// A profile as the framework runtime builds it (pkg/scheduler/framework/runtime/
// framework.go NewFramework, v1.32): the plugins a profile needs, their args,
// each extension point's list (updatePluginList), MultiPoint expansion with its
// override and disable rules (expandMultiPointPlugins), the one-queue-sort and
// some-bind checks, and score weights (getScoreWeights: first setting wins,
// Score's before MultiPoint's; 0 means 1; the total must fit an int64).
import { FieldPath } from '../../apimachinery/fieldErrors';
import { MAX_NODE_SCORE } from '../framework/interface';
import type { Registry } from './defaults';
import { goQuote } from './goText';
import { aggregate, CONFIG_VALIDATED_ARGS } from './validation';
import { POINT_INTERFACE, type DefaultedProfile, type ExtensionPoint, type ImplementsPoint, type Plugin, type ResolvedProfile } from './types';

/** getExtensionPoints' order: the order lists are built and errors found. */
const FRAMEWORK_ORDER: readonly ExtensionPoint[] = ['preFilter', 'filter', 'postFilter', 'reserve', 'preScore', 'score', 'preBind', 'bind', 'postBind', 'permit', 'preEnqueue', 'queueSort'];

const MAX_TOTAL_SCORE = (1n << 63n) - 1n;

export type ResolveResult = { ok: true; profile: ResolvedProfile } | { ok: false; error: string };

const failure = (error: string): { ok: false; error: string } => ({ ok: false, error });

/** pluginsNeeded: every plugin enabled at a point or in MultiPoint. */
function pluginsNeeded(profile: DefaultedProfile): Set<string> {
  const out = new Set<string>();
  for (const p of FRAMEWORK_ORDER) for (const e of profile.plugins[p]?.enabled ?? []) out.add(e.name);
  for (const e of profile.plugins.multiPoint?.enabled ?? []) out.add(e.name);
  return out;
}

/**
 * NewFramework for one defaulted, validated profile. Errors are the
 * framework's own texts (the caller adds "creating profile for scheduler
 * name ..."). `implementsPoint` is asked about registry plugins only.
 */
export function resolveProfile(profile: DefaultedProfile, registry: Registry, implementsPoint: ImplementsPoint): ResolveResult {
  const schedulerName = profile.schedulerName ?? '';
  const needed = pluginsNeeded(profile);
  const pluginConfig = new Map<string, unknown>();
  for (const pc of profile.pluginConfig) {
    if (pluginConfig.has(pc.name)) return failure(`repeated config for plugin ${pc.name}`);
    pluginConfig.set(pc.name, pc.args);
  }

  // The factories run for needed plugins only. NodeResourcesFit (whose args
  // validation skipped, see CONFIG_VALIDATED_ARGS) validates its args here, with no path prefix.
  const instantiated = new Set<string>();
  const args = new Map<string, unknown>();
  for (const [name, def] of registry) {
    if (!needed.has(name)) continue;
    const a = pluginConfig.get(name);
    if (pluginConfig.has(name)) args.set(name, a);
    if (def.validateArgs && !CONFIG_VALIDATED_ARGS.has(name) && a !== undefined) {
      const msg = aggregate(def.validateArgs(a as never, FieldPath.root('')));
      if (msg !== undefined) return failure(`initializing plugin ${goQuote(name)}: ${msg}`);
    }
    instantiated.add(name);
  }

  const lists = new Map<ExtensionPoint, string[]>();
  for (const point of FRAMEWORK_ORDER) {
    const iface = POINT_INTERFACE[point];
    const list: string[] = [];
    for (const e of profile.plugins[point]?.enabled ?? []) {
      if (!instantiated.has(e.name)) return failure(`${iface} ${goQuote(e.name)} does not exist`);
      if (!implementsPoint(e.name, point)) return failure(`plugin ${goQuote(e.name)} does not extend ${iface} plugin`);
      if (list.includes(e.name)) return failure(`plugin ${goQuote(e.name)} already registered as ${goQuote(iface)}`);
      list.push(e.name);
    }
    lists.set(point, list);
  }

  const multiPoint = profile.plugins.multiPoint?.enabled ?? [];
  if (multiPoint.length > 0) {
    const bad = expandMultiPoint(profile, multiPoint, instantiated, implementsPoint, lists);
    if (bad !== undefined) return failure(bad);
  }

  const queueSort = lists.get('queueSort')!;
  if (queueSort.length !== 1) return failure(`only one queue sort plugin required for profile with scheduler name ${goQuote(schedulerName)}, but got ${queueSort.length}`);
  if (lists.get('bind')!.length === 0) return failure(`at least one bind plugin is needed for profile with scheduler name ${goQuote(schedulerName)}`);

  const weights = scoreWeights([...(profile.plugins.score?.enabled ?? []), ...multiPoint], implementsPoint);
  if (typeof weights === 'string') return failure(weights);
  for (const name of lists.get('score')!) {
    if ((weights.get(name) ?? 0) === 0) return failure(`score plugin ${goQuote(name)} is not configured with weight`);
  }

  const points = {} as ResolvedProfile['points'];
  for (const point of FRAMEWORK_ORDER) {
    points[point] = lists.get(point)!.map((name) => ({ name, weight: point === 'score' ? weights.get(name)! : 0 }));
  }
  return {
    ok: true,
    profile: {
      schedulerName,
      ...(profile.percentageOfNodesToScore !== undefined ? { percentageOfNodesToScore: profile.percentageOfNodesToScore } : {}),
      points,
      args,
    },
  };
}

/** Rewrites `lists` with MultiPoint's plugins placed; returns an error text if the config is wrong. */
function expandMultiPoint(
  profile: DefaultedProfile,
  multiPoint: readonly Plugin[],
  instantiated: ReadonlySet<string>,
  implementsPoint: ImplementsPoint,
  lists: Map<ExtensionPoint, string[]>,
): string | undefined {
  for (const point of FRAMEWORK_ORDER) {
    const iface = POINT_INTERFACE[point];
    const set = profile.plugins[point];
    const enabled = (set?.enabled ?? []).map((p) => p.name).filter((n, i, a) => a.indexOf(n) === i);
    const disabled = new Set((set?.disabled ?? []).map((p) => p.name));
    // "*" at a point: nothing from MultiPoint lands there.
    if (disabled.has('*')) continue;
    const fromMultiPoint: string[] = [];
    const overrides = new Set<string>();
    for (const ep of multiPoint) {
      if (!instantiated.has(ep.name)) return `${iface} ${goQuote(ep.name)} does not exist`;
      if (!implementsPoint(ep.name, point)) continue;
      if (disabled.has(ep.name)) continue;
      // Enabled at the point itself too: the user's explicit setting wins over MultiPoint's.
      if (enabled.includes(ep.name)) {
        overrides.add(ep.name);
        continue;
      }
      if (fromMultiPoint.includes(ep.name)) return `plugin ${goQuote(ep.name)} already registered as ${goQuote(iface)}`;
      fromMultiPoint.push(ep.name);
    }
    // Overridden plugins first (in the point's order), then MultiPoint's, then the point's others.
    lists.set(point, [...enabled.filter((n) => overrides.has(n)), ...fromMultiPoint, ...enabled.filter((n) => !overrides.has(n))]);
  }
  return undefined;
}

/** Score weights by plugin, or the overflow error. */
function scoreWeights(plugins: readonly Plugin[], implementsPoint: ImplementsPoint): Map<string, number> | string {
  const weights = new Map<string, number>();
  let total = 0n;
  for (const e of plugins) {
    if (!implementsPoint(e.name, 'score')) continue;
    if (weights.has(e.name)) continue;
    // A weight of 0 is not permitted; plugins are disabled explicitly instead.
    const w = e.weight === undefined || e.weight === 0 ? 1 : e.weight;
    weights.set(e.name, w);
    const contribution = BigInt(w) * BigInt(MAX_NODE_SCORE);
    if (contribution > MAX_TOTAL_SCORE - total) return 'total score of Score plugins could overflow';
    total += contribution;
  }
  return weights;
}
